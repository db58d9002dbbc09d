// The edge-based graph: one node per drivable direction of a base edge, one arc per allowed turn,
// as OSRM's edge-based graph. Turn restrictions and turn costs live on arcs, which a node-based
// graph cannot hold: "no left turn from a onto b" forbids a pair of edges, not a node.
//
// An arc p→x costs the turn's weight plus the whole weight of x, so a search's distance at node x
// is the cost of standing at the far end of x's base edge. A route's source seeds its edge's node
// with the part of the edge still ahead; a target is reached from the predecessors of its edge's
// node (turn plus the part driven), which needs no negative costs and finds the loop back onto the
// same edge when the target lies behind the source.
//
// A restriction over a via way needs memory of the edges driven before: the via edges get copies
// entered only from the restriction's `from` edge, on which the forbidden continuation is missing
// (OSRM's duplicated nodes for via-way restrictions). A route never starts on a copy; it may end on
// one, so targets are reached from the predecessors of every copy too (copyNext).
import type { BaseGraph } from './compress.ts';
import type { TurnTable } from '../turns/types.ts';

export interface EdgeBasedGraph {
  /** edge-based nodes, copies included */
  nodes: number;
  /** per node: its directed base edge, +(e+1) along edgeU→edgeV, -(e+1) against */
  ebEdge: Int32Array;
  /** per directed base edge (2e along, 2e+1 against): its node, -1 when that direction is closed */
  edgeEb: Int32Array;
  /** per node: the next copy of the same directed edge, -1 at the last */
  copyNext: Int32Array;
  /** arcs by tail, CSR: out[3k] head, out[3k+1] turn weight, out[3k+2] turn duration (ms) */
  outFirst: Uint32Array;
  out: Int32Array;
  /** the same arcs by head: inn[3k] tail, then turn weight and duration */
  inFirst: Uint32Array;
  inn: Int32Array;
}

/** Index of a signed directed edge in edgeEb. */
export const dirIndex = (signed: number) => (signed > 0 ? 2 * (signed - 1) : 2 * (-signed - 1) + 1);

/** The base node a directed edge leaves from / arrives at. */
export const tailOf = (g: Pick<BaseGraph, 'edgeU' | 'edgeV'>, s: number) => (s > 0 ? g.edgeU[s - 1] : g.edgeV[-s - 1]);
export const headOf = (g: Pick<BaseGraph, 'edgeU' | 'edgeV'>, s: number) => (s > 0 ? g.edgeV[s - 1] : g.edgeU[-s - 1]);

/** The base edge a directed edge rides on, taking a twin pair (same road, one direction each) as one. */
export function roadOf(g: Pick<BaseGraph, 'edgeFlags'>, s: number): number {
  const e = s > 0 ? s - 1 : -s - 1;
  return g.edgeFlags[e] & 8 /* EDGE_TWIN_BACK */ ? e - 1 : e;
}

/**
 * Every turn allowed at every node with no cost, u-turns only at dead ends: the turns of a
 * network without a profile's turn function (synthetic benchmark grids and tests).
 */
export function plainTurns(g: BaseGraph): TurnTable {
  const from: number[] = [], to: number[] = [];
  const ins: number[][] = Array.from({ length: g.nodes }, () => []), outs: number[][] = Array.from({ length: g.nodes }, () => []);
  const roads = new Int32Array(g.nodes);
  for (let e = 0; e < g.edges; e++) {
    const f = g.edgeFlags[e];
    if (!(f & 8)) { roads[g.edgeU[e]]++; if (g.edgeV[e] !== g.edgeU[e]) roads[g.edgeV[e]]++; }
    if (f & 1) { outs[g.edgeU[e]].push(e + 1); ins[g.edgeV[e]].push(e + 1); }
    if (f & 2) { outs[g.edgeV[e]].push(-(e + 1)); ins[g.edgeU[e]].push(-(e + 1)); }
  }
  for (let v = 0; v < g.nodes; v++) {
    for (const a of ins[v]) for (const b of outs[v]) {
      if (roadOf(g, a) === roadOf(g, b) && roads[v] > 1) continue;
      from.push(a); to.push(b);
    }
  }
  const n = from.length;
  return { count: n, from: Int32Array.from(from), to: Int32Array.from(to), duration: new Int32Array(n), weight: new Int32Array(n), viaWay: [] };
}

/** The edge-based graph of a base graph and its turns. */
export function edgeBased(g: BaseGraph, turns: TurnTable): EdgeBasedGraph {
  const edgeEb = new Int32Array(2 * g.edges).fill(-1);
  let n0 = 0;
  for (let e = 0; e < g.edges; e++) { if (g.edgeFlags[e] & 1) edgeEb[2 * e] = n0++; if (g.edgeFlags[e] & 2) edgeEb[2 * e + 1] = n0++; }
  const ebEdge: number[] = new Array(n0);
  for (let e = 0; e < g.edges; e++) { if (edgeEb[2 * e] >= 0) ebEdge[edgeEb[2 * e]] = e + 1; if (edgeEb[2 * e + 1] >= 0) ebEdge[edgeEb[2 * e + 1]] = -(e + 1); }
  const arcs = new Arcs();
  for (let i = 0; i < turns.count; i++) {
    const a = edgeEb[dirIndex(turns.from[i])], b = edgeEb[dirIndex(turns.to[i])];
    if (a >= 0 && b >= 0) arcs.add(a, b, turns.weight[i], turns.duration[i]);
  }
  const copyNext: number[] = new Array(n0).fill(-1);
  if (turns.viaWay.length) {
    const byTail = arcs.byTail();
    for (const r of turns.viaWay) applyViaWay(r, edgeEb, ebEdge, copyNext, arcs, byTail);
  }
  const n = ebEdge.length;
  const outFirst = new Uint32Array(n + 1), inFirst = new Uint32Array(n + 1);
  const keep = arcs.dedupe();
  for (let j = 0; j < arcs.n; j++) if (keep[j]) { outFirst[arcs.tail[j] + 1]++; inFirst[arcs.head[j] + 1]++; }
  for (let v = 0; v < n; v++) { outFirst[v + 1] += outFirst[v]; inFirst[v + 1] += inFirst[v]; }
  const m = outFirst[n], out = new Int32Array(3 * m), inn = new Int32Array(3 * m);
  const fo = outFirst.slice(0, n), fi = inFirst.slice(0, n);
  for (let j = 0; j < arcs.n; j++) {
    if (!keep[j]) continue;
    const t = arcs.tail[j], h = arcs.head[j], o = fo[t]++, i = fi[h]++;
    out[3 * o] = h; out[3 * o + 1] = arcs.w[j]; out[3 * o + 2] = arcs.d[j];
    inn[3 * i] = t; inn[3 * i + 1] = arcs.w[j]; inn[3 * i + 2] = arcs.d[j];
  }
  return { nodes: n, ebEdge: Int32Array.from(ebEdge), edgeEb, copyNext: Int32Array.from(copyNext), outFirst, out, inFirst, inn };
}

/** Arcs while the graph is assembled: growable columns, an arc removed by a via-way copy marked dead. */
class Arcs {
  n = 0;
  tail = new Int32Array(1024); head = new Int32Array(1024); w = new Int32Array(1024); d = new Int32Array(1024);
  dead = new Uint8Array(1024);
  add(a: number, b: number, w: number, d: number): number {
    if (this.n === this.tail.length) {
      const k = 2 * this.n;
      const grow = <T extends Int32Array | Uint8Array>(x: T): T => { const y = new (x.constructor as any)(k); y.set(x); return y; };
      this.tail = grow(this.tail); this.head = grow(this.head); this.w = grow(this.w); this.d = grow(this.d); this.dead = grow(this.dead);
    }
    this.tail[this.n] = a; this.head[this.n] = b; this.w[this.n] = w; this.d[this.n] = d;
    return this.n++;
  }
  /** arc indices by tail, for the few tails a via-way restriction touches */
  byTail(): Map<number, number[]> {
    const m = new Map<number, number[]>();
    for (let j = 0; j < this.n; j++) { const l = m.get(this.tail[j]); if (l) l.push(j); else m.set(this.tail[j], [j]); }
    return m;
  }
  find(byTail: Map<number, number[]>, a: number, b: number): number {
    for (const j of byTail.get(a) ?? []) if (!this.dead[j] && this.head[j] === b) return j;
    return -1;
  }
  /** Live arcs, one per (tail, head): the cheapest of duplicates (two turn rows for one pair). */
  dedupe(): Uint8Array {
    const keep = new Uint8Array(this.n);
    const order = new Int32Array(this.n);
    for (let j = 0; j < this.n; j++) order[j] = j;
    const t = this.tail, h = this.head, w = this.w;
    order.sort((x, y) => t[x] - t[y] || h[x] - h[y] || w[x] - w[y]);
    for (let i = 0; i < this.n; i++) {
      const j = order[i];
      if (this.dead[j]) continue;
      if (i > 0) { const p = order[i - 1]; if (t[p] === t[j] && h[p] === h[j] && !this.dead[p]) { continue; } }
      keep[j] = 1;
    }
    return keep;
  }
}

/**
 * A restriction over via ways: copy the via edges so that the copy chain is entered only from
 * `from`, and leave out of the last copy the forbidden turn (no_*) or every turn but the allowed
 * one (only_*). A path that does not come from `from` uses the originals, untouched. Restrictions
 * that begin alike (from ab over bc, one forbidding cd and one ce) share the copies of their common
 * beginning, as OSRM's restriction graph shares a prefix: the second finds the arcs into the
 * originals gone and follows the first one's copies instead of giving up.
 */
function applyViaWay(r: TurnTable['viaWay'][number], edgeEb: Int32Array, ebEdge: number[], copyNext: number[], arcs: Arcs, byTail: Map<number, number[]>) {
  const from = edgeEb[dirIndex(r.from)], to = edgeEb[dirIndex(r.to)];
  const via = r.via.map((s) => edgeEb[dirIndex(s)]);
  if (from < 0 || to < 0 || via.some((x) => x < 0)) return;
  // the live arc from node a into directed edge x: its original, or a copy of it
  const step = (a: number, x: number) => {
    for (const j of byTail.get(a) ?? []) if (!arcs.dead[j] && ebEdge[arcs.head[j]] === ebEdge[x]) return j;
    return -1;
  };
  let p = from;
  for (const v of via) { const j = step(p, v); if (j < 0) return; p = arcs.head[j]; }
  if (!r.only && step(p, to) < 0) return; // the forbidden turn does not exist anyway
  const add = (a: number, b: number, w: number, d: number) => {
    const j = arcs.add(a, b, w, d);
    const l = byTail.get(a); if (l) l.push(j); else byTail.set(a, [j]);
  };
  const banned = (h: number) => (r.only ? ebEdge[h] !== ebEdge[to] : ebEdge[h] === ebEdge[to]);
  let prev = from, copying = false;
  for (let i = 0; i < via.length; i++) {
    const j = step(prev, via[i]), head = arcs.head[j], last = i === via.length - 1;
    if (!copying && head !== via[i]) {
      // a copy an earlier restriction with the same beginning made: entered from this path only
      if (last) for (const k of byTail.get(head) ?? []) if (!arcs.dead[k] && banned(arcs.head[k])) arcs.dead[k] = 1;
      prev = head;
      continue;
    }
    copying = true;
    const c = ebEdge.length;
    ebEdge.push(ebEdge[head]);
    copyNext.push(copyNext[head]); copyNext[head] = c;
    // the arc into the original now enters the copy
    arcs.dead[j] = 1;
    add(prev, c, arcs.w[j], arcs.d[j]);
    // the copy continues as the original does, but for the restricted continuation at the last via
    for (const k of [...(byTail.get(head) ?? [])]) {
      if (arcs.dead[k]) continue;
      if (last && banned(arcs.head[k])) continue;
      add(c, arcs.head[k], arcs.w[k], arcs.d[k]);
    }
    prev = c;
  }
}
