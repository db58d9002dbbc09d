// Renumber nodes so that what one CH query touches lies close together in memory. On large
// graphs nearly every first touch of a node's query record or adjacency is a cache and TLB
// miss, so the order of node ids decides a large part of the query time.
//
// Order: first the top TOP_SHARE of the hierarchy in rank order, highest first: almost every
// query climbs through it, so it stays packed together and cached. Then every other node by
// spatial cell (a Hilbert curve over cells of ~CELL_NODES nodes), highest rank first within a
// cell: the lower part of a search lies around its source or target, so it reads a few cells
// instead of one scattered page per node. Measured on the 4M-node synthetic grid, one thread:
// CH p50 7–14% lower than with pure rank order, unchanged at 100k nodes.
// The query never compares ids, so any permutation is valid; only locality changes.
import type { BaseGraph } from './compress.ts';
import type { CH } from './ch.ts';
import { ARC, ARC_HEAD, HEAD_SHIFT } from '../../src/core/format/route.ts';

const TOP_SHARE = 0.01;
const CELL_NODES = 64;

/** New id of every node (see the file comment). */
export function localityOrder(g: BaseGraph, rank: Uint32Array): Int32Array {
  const n = g.nodes;
  const id = new Int32Array(n);
  if (n === 0) return id;
  const byRank = new Int32Array(n); // highest rank first
  for (let v = 0; v < n; v++) byRank[n - 1 - rank[v]] = v;
  const top = Math.ceil(n * TOP_SHARE);
  for (let i = 0; i < top; i++) id[byRank[i]] = i;
  const bits = Math.max(0, Math.min(15, Math.round(Math.log(n / CELL_NODES) / Math.log(4))));
  let la0 = Infinity, la1 = -Infinity, lo0 = Infinity, lo1 = -Infinity;
  for (let v = 0; v < n; v++) {
    const la = g.nodeLat[v], lo = g.nodeLon[v];
    if (la < la0) la0 = la; if (la > la1) la1 = la; if (lo < lo0) lo0 = lo; if (lo > lo1) lo1 = lo;
  }
  const side = 2 ** bits;
  const sy = side / (la1 - la0 + 1), sx = side / (lo1 - lo0 + 1);
  const cell = new Int32Array(n);
  for (let v = 0; v < n; v++) cell[v] = hilbert(Math.floor((g.nodeLon[v] - lo0) * sx), Math.floor((g.nodeLat[v] - la0) * sy), bits);
  // counting sort by cell; walking nodes in rank order keeps each cell's nodes highest first
  const pos = new Int32Array(side * side + 1);
  for (let i = top; i < n; i++) pos[cell[byRank[i]] + 1]++;
  pos[0] = top;
  for (let c = 0; c < side * side; c++) pos[c + 1] += pos[c];
  for (let i = top; i < n; i++) { const v = byRank[i]; id[v] = pos[cell[v]]++; }
  return id;
}

/** Index of cell (x, y) along the Hilbert curve over a 2^bits × 2^bits grid. */
function hilbert(x: number, y: number, bits: number): number {
  let d = 0;
  for (let s = 2 ** (bits - 1); s >= 1; s /= 2) {
    const rx = x & s ? 1 : 0, ry = y & s ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) { x = s - 1 - x; y = s - 1 - y; }
      const t = x; x = y; y = t;
    }
  }
  return d;
}

/**
 * Renumber g's nodes and the hierarchy over them. `midsAreNodes`: the hierarchy is over an
 * edge-based graph whose original arcs name their head node (-(head+1)) rather than a base edge.
 */
export function renumber(g: BaseGraph, ch: CH, midsAreNodes = false): { base: BaseGraph; ch: CH; id: Int32Array } {
  const n = g.nodes;
  const id = localityOrder(g, ch.rank), inv = new Int32Array(n);
  for (let v = 0; v < n; v++) inv[id[v]] = v;
  const nodeLat = new Int32Array(n), nodeLon = new Int32Array(n), rank = new Uint32Array(n);
  for (let v = 0; v < n; v++) { nodeLat[id[v]] = g.nodeLat[v]; nodeLon[id[v]] = g.nodeLon[v]; rank[id[v]] = ch.rank[v]; }
  const edgeU = g.edgeU.map((v) => id[v]), edgeV = g.edgeV.map((v) => id[v]);
  const total = ch.chMid.length;
  const chFirst = new Uint32Array(n + 1);
  const chArc = new Int32Array(ARC * total), chMid = new Int32Array(total);
  const flags = (1 << HEAD_SHIFT) - 1;
  let o = 0;
  for (let k = 0; k < n; k++) {
    const v = inv[k];
    chFirst[k] = o;
    // a block moves whole, so its last entry keeps HEAD_LAST
    for (let j = ch.chFirst[v]; j < ch.chFirst[v + 1]; j++, o++) {
      const head = ch.chArc[ARC * j + ARC_HEAD];
      chArc[ARC * o + ARC_HEAD] = (id[head >>> HEAD_SHIFT] << HEAD_SHIFT) | (head & flags);
      for (let f = 1; f < ARC; f++) chArc[ARC * o + f] = ch.chArc[ARC * j + f];
      // mids ≥ 0 are nodes (renumbered); < 0 are base edges, whose ids do not change, or head nodes
      const m = ch.chMid[j];
      chMid[o] = m >= 0 ? id[m] : midsAreNodes ? -(id[-m - 1] + 1) : m;
    }
  }
  chFirst[n] = o;
  return {
    base: { ...g, nodeLat, nodeLon, edgeU, edgeV },
    ch: { ...ch, chFirst, chArc, chMid, rank },
    id,
  };
}
