// Alternative routes by the via-node method with plateaus (Abraham, Delling, Goldberg, Werneck:
// "Alternative routes in road networks"; Cambridge Vehicle Information Technology's "choice
// routing" plateaus; GraphHopper's alternative Dijkstra works the same way).
//
// 1. Two Dijkstra searches on the uncontracted graph, forward from the source and backward from
//    the target, each bounded by (1 + STRETCH)·best (best = the CH route's cost). A contraction
//    hierarchy's upward search spaces were tried first: they settle ~20 nodes on these extracts
//    and left almost no via candidates, so the full trees are what finds the real alternatives.
// 2. Every node v settled by both with dF(v) + dB(v) ≤ (1 + STRETCH)·best is a via candidate of
//    that cost; the path s → v → t follows the two shortest-path trees. Candidates are tried
//    cheapest first; a node lying on a path already tried is skipped (it would give the same
//    path: the plateau that path runs along), and at most MAX_TRIED paths are examined.
// 3. A path is accepted when it is simple, shares ≤ MAX_SHARE of its length with the best route
//    and with every alternative already accepted, and is locally optimal: the sub-path from
//    T = LOCAL·best before v to T after v (travel time, clamped to the path) is a shortest path,
//    checked with one CH query, so no short detour could be fixed by a shortcut.
import type { GraphViews } from '../../src/core/format/route.ts';
import { MinHeap } from '../../src/core/heap.ts';
import type { ChQuery } from './ch-query.ts';
import { M_PER_DEG } from '../../src/core/geometry.ts';

/** The plane's distances are scaled by this before use as a lower bound (projection error ≪ 5% over an extract). */
const LB_SLACK = 0.95;

/** Limits of issue 12 §2: at most 3 alternatives, ≤ 25% longer, ≤ 80% shared; T = 25% of the best for local optimality. */
export { MAX_ALTERNATIVES } from '../../src/core/guidance.ts';
export const STRETCH = 0.25;
export const MAX_SHARE = 0.8;
export const LOCAL = 0.25;
/** Distinct via paths examined at most per request (cheapest first): bounds the cost of a request. */
export const MAX_TRIED = 20;

export interface Seed { node: number; cost: number }
export interface AltPath { edges: number[]; start: number; end: number; cost: number }

export class ViaSearch {
  private dist: Float64Array;
  private pred: Int32Array;
  private stamp: Int32Array;
  private done: Int32Array;
  private cur = 0;
  private heap = new MinHeap(1024);
  private mark: Int32Array;
  private markCur = 0;
  /** Fastest speed on any edge (m/ms): straight-line distance / vmax bounds any remaining travel time from below. */
  private vmax = 0;
  /** Node positions in metres on a plane around the graph's centre (lower-bound distances only). */
  private px: Float32Array;
  private py: Float32Array;
  private kx = 0;

  constructor(private g: GraphViews) {
    const n = g.meta.nodes;
    this.dist = new Float64Array(2 * n);
    this.pred = new Int32Array(2 * n);
    this.stamp = new Int32Array(2 * n);
    this.done = new Int32Array(2 * n);
    this.mark = new Int32Array(n);
    for (let e = 0; e < g.edgeW.length; e++) if (g.edgeW[e] > 0) this.vmax = Math.max(this.vmax, g.edgeDist[e] / g.edgeW[e]);
    // Equirectangular at the widest latitude of the extract (|lat| largest, so cos smallest): east-west
    // distances come out no longer than on the sphere; LB_SLACK covers the rest of the projection error.
    const [, s, , nn] = g.meta.bbox;
    this.kx = Math.cos(Math.max(Math.abs(s), Math.abs(nn)) * (Math.PI / 180)) * M_PER_DEG;
    this.px = new Float32Array(n); this.py = new Float32Array(n);
    for (let v = 0; v < n; v++) { this.px[v] = (g.nodeLon[v] / 1e7) * this.kx; this.py[v] = (g.nodeLat[v] / 1e7) * M_PER_DEG; }
  }

  /**
   * Up to `want` alternatives to the best route (cost `best`, base edges `bestEdges` as unsigned
   * ids, length `bestLen` metres). `q` (the thread's CH query) runs the local-optimality checks.
   */
  find(sources: Seed[], targets: Seed[], best: number, want: number, bestEdges: Set<number>, bestLen: number, q: ChQuery, from: [number, number], to: [number, number]): AltPath[] {
    const g = this.g;
    if (++this.cur === 0x7fffffff) { this.stamp.fill(0); this.done.fill(0); this.cur = 1; }
    const limit = (1 + STRETCH) * best;
    const seenF = this.tree(sources, 0, limit, to), seenB = this.tree(targets, 1, limit, from);
    void seenF;
    const cands: { v: number; c: number }[] = [];
    for (const v of seenB) {
      if (this.done[2 * v] !== this.cur) continue;
      const c = this.dist[2 * v] + this.dist[2 * v + 1];
      if (c <= limit) cands.push({ v, c });
    }
    cands.sort((a, b) => a.c - b.c);
    if (++this.markCur === 0x7fffffff) { this.mark.fill(0); this.markCur = 1; }
    const accepted: AltPath[] = [];
    const acceptedSets: { set: Set<number> }[] = [{ set: bestEdges }];
    // nodes of the best route are on its plateau: no via there
    let tried = 0;
    for (const { v, c } of cands) {
      if (accepted.length >= want || tried >= MAX_TRIED) break;
      if (this.mark[v] === this.markCur) continue;
      const path = this.via(v);
      for (const x of path.nodes) this.mark[x] = this.markCur;
      tried++;
      if (!path.simple) continue;
      let len = 0;
      const set = new Set<number>();
      for (const e of path.edges) { const id = Math.abs(e) - 1; set.add(id); len += g.edgeDist[id]; }
      if (len <= 0) continue;
      if (acceptedSets.some((o) => sharedLen(g, set, o.set) > MAX_SHARE * len)) continue;
      if (!this.locallyOptimal(path, path.nodes.indexOf(v), best, q)) continue;
      accepted.push({ edges: path.edges, start: path.nodes[0], end: path.nodes[path.nodes.length - 1], cost: c });
      acceptedSets.push({ set });
    }
    void bestLen;
    return accepted;
  }

  /**
   * Dijkstra on base edges from seeds, forward (dir 0) or backward (1), settling keys ≤ limit.
   * A node whose distance plus a lower bound of the rest of the way (straight line to `toward` at
   * the graph's top speed) exceeds the limit is not entered: it can be no via node, nor lie on the
   * tree path to one (the bound is consistent), so pruning it loses nothing.
   */
  private tree(seeds: Seed[], dir: number, limit: number, toward: [number, number]): number[] {
    const g = this.g, dist = this.dist, pred = this.pred, stamp = this.stamp, done = this.done, cur = this.cur, h = this.heap;
    const tx = toward[1] * this.kx, ty = toward[0] * M_PER_DEG, px = this.px, py = this.py;
    const f = this.vmax > 0 ? LB_SLACK / this.vmax : 0;
    const lb = (y: number) => { const dx = px[y] - tx, dy = py[y] - ty; return Math.sqrt(dx * dx + dy * dy) * f; };
    const settled: number[] = [];
    h.clear();
    for (const s of seeds) {
      const i = 2 * s.node + dir;
      if (stamp[i] !== cur || s.cost < dist[i]) { stamp[i] = cur; dist[i] = s.cost; pred[i] = 0; h.push(s.cost, s.node); }
    }
    // forward leaves x along e when x is u and u→v is allowed (flag 1) or x is v and v→u (flag 2);
    // backward reaches x from the other end of e, so the allowed direction is the opposite one
    while (h.length) {
      const x = h.peekId(), d = h.peekKey();
      h.pop();
      const ix = 2 * x + dir;
      if (done[ix] === cur || d > dist[ix]) continue;
      if (d > limit) break;
      done[ix] = cur;
      settled.push(x);
      for (let k = g.adjFirst[x]; k < g.adjFirst[x + 1]; k++) {
        const sgn = g.adjEdge[k], e = Math.abs(sgn) - 1, atU = sgn > 0;
        const need = dir === 0 ? (atU ? 1 : 2) : (atU ? 2 : 1);
        if (!(g.edgeFlags[e] & need)) continue;
        const y = atU ? g.edgeV[e] : g.edgeU[e];
        const iy = 2 * y + dir, nd = d + g.edgeW[e];
        if ((stamp[iy] !== cur || nd < dist[iy]) && nd + lb(y) <= limit) {
          stamp[iy] = cur; dist[iy] = nd;
          // the edge as driven: forward x→y, backward y→x; signed +(e+1) along u→v
          pred[iy] = dir === 0 ? (atU ? e + 1 : -(e + 1)) : (atU ? -(e + 1) : e + 1);
          h.push(nd, y);
        }
      }
    }
    return settled;
  }

  /** source → v → target along the two trees: signed base edges and the nodes they pass. */
  private via(v: number): { edges: number[]; nodes: number[]; simple: boolean } {
    const g = this.g, pred = this.pred;
    const head: number[] = [];
    for (let x = v, e: number; (e = pred[2 * x]) !== 0;) { head.push(e); x = e > 0 ? g.edgeU[e - 1] : g.edgeV[-e - 1]; if (head.length > g.edgeU.length) break; }
    head.reverse();
    const edges = head;
    for (let x = v, e: number; (e = pred[2 * x + 1]) !== 0;) { edges.push(e); x = e > 0 ? g.edgeV[e - 1] : g.edgeU[-e - 1]; if (edges.length > 2 * g.edgeU.length) break; }
    const first = edges.length ? (edges[0] > 0 ? g.edgeU[edges[0] - 1] : g.edgeV[-edges[0] - 1]) : v;
    const nodes = [first];
    for (const e of edges) nodes.push(e > 0 ? g.edgeV[e - 1] : g.edgeU[-e - 1]);
    const seen = new Set<number>();
    let simple = true;
    for (const x of nodes) { if (seen.has(x)) { simple = false; break; } seen.add(x); }
    return { edges, nodes, simple };
  }

  /** The T-test around position iv: the sub-path from ~T before to ~T after is a shortest path. */
  private locallyOptimal(p: { edges: number[]; nodes: number[] }, iv: number, best: number, q: ChQuery): boolean {
    const g = this.g, nodes = p.nodes, cum = [0];
    for (const e of p.edges) cum.push(cum[cum.length - 1] + g.edgeW[Math.abs(e) - 1]);
    if (iv < 0) return false;
    const T = LOCAL * best;
    let a = iv, b = iv;
    while (a > 0 && cum[iv] - cum[a] < T) a--;
    while (b < nodes.length - 1 && cum[b] - cum[iv] < T) b++;
    if (a === b) return true;
    q.reset();
    q.addSource(nodes[a], 0);
    q.addTarget(nodes[b], 0);
    return q.run() >= cum[b] - cum[a];
  }
}

function sharedLen(g: GraphViews, a: Set<number>, b: Set<number>): number {
  let s = 0;
  for (const e of a) if (b.has(e)) s += g.edgeDist[e];
  return s;
}
