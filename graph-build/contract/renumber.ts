// Renumber nodes by CH rank, highest first. Every query climbs towards the top of the
// hierarchy, so packing high-ranked nodes together keeps their adjacency in few cache lines;
// on large graphs this is the difference between a cache miss per settled node and not.
import type { BaseGraph } from './compress.ts';
import type { CH } from './ch.ts';

export function renumberByRank(g: BaseGraph, ch: CH): { base: BaseGraph; ch: CH } {
  const n = g.nodes;
  const id = new Int32Array(n), inv = new Int32Array(n);
  for (let v = 0; v < n; v++) { id[v] = n - 1 - ch.rank[v]; inv[id[v]] = v; }
  const nodeLat = new Int32Array(n), nodeLon = new Int32Array(n);
  for (let v = 0; v < n; v++) { nodeLat[id[v]] = g.nodeLat[v]; nodeLon[id[v]] = g.nodeLon[v]; }
  const edgeU = g.edgeU.map((v) => id[v]), edgeV = g.edgeV.map((v) => id[v]);
  const total = ch.chNbr.length;
  const chFirst = new Uint32Array(n + 1);
  const chNbr = new Int32Array(total), chFw = new Int32Array(total), chBw = new Int32Array(total);
  const chFwMid = new Int32Array(total), chBwMid = new Int32Array(total);
  let o = 0;
  for (let k = 0; k < n; k++) {
    const v = inv[k];
    chFirst[k] = o;
    for (let j = ch.chFirst[v]; j < ch.chFirst[v + 1]; j++, o++) {
      chNbr[o] = id[ch.chNbr[j]];
      chFw[o] = ch.chFw[j]; chBw[o] = ch.chBw[j];
      // mids ≥ 0 are nodes (renumbered); < 0 are base edges, whose ids do not change
      chFwMid[o] = ch.chFwMid[j] >= 0 ? id[ch.chFwMid[j]] : ch.chFwMid[j];
      chBwMid[o] = ch.chBwMid[j] >= 0 ? id[ch.chBwMid[j]] : ch.chBwMid[j];
    }
  }
  chFirst[n] = o;
  const rank = new Uint32Array(n);
  for (let k = 0; k < n; k++) rank[k] = n - 1 - k;
  return {
    base: { ...g, nodeLat, nodeLon, edgeU, edgeV },
    ch: { ...ch, chFirst, chNbr, chFw, chBw, chFwMid, chBwMid, rank },
  };
}
