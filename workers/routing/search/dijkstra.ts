// Plain Dijkstra on the uncontracted edge-based graph: the reference the CH answers are checked
// against, the baseline of the speed-up figure, and the search of traffic-aware routes, whose
// weights change under it (a CH would need re-contracting; see docs/traffic.md).
// Its state is paged (pages.ts): 16-byte records (f64 [2r] dist, i32 [4r+2] stamp, i32 [4r+3]
// predecessor + 1) for the pages a search reaches, so a short search holds little; the few targets
// sit in a list. It reads the graph file's turns (ebOutFirst/ebOut, src/core/format/route.ts), one
// copy shared by every worker.
import type { GraphViews } from '../../../src/core/format/route.ts';
import type { PathSearch } from './path-search.ts';
import { MinHeap } from '../../../src/core/heap.ts';
import { Pages, PAGE_SHIFT, PAGE_MASK } from './pages.ts';

const STAMP = 2, PRED = 3;

export class DijkstraQuery implements PathSearch {
  private override: Int32Array | null = null;
  private pages: Pages;
  /** targets of the current query and their costs */
  private tNode: number[] = []; private tCost: number[] = [];
  private edges = new Int32Array(256);
  private heap = new MinHeap(1024);
  private cur = 0; private end = -1; private dur = 0;
  settled = 0;

  constructor(private g: GraphViews) {
    this.pages = new Pages(g.ebEdge.length, 16, [STAMP], 0x7fffffff);
  }

  /**
   * Directed travel times (ms, index 2 * edge + dir) that replace the stored ones where > 0, until
   * set back to null: live or historical traffic read straight from shared memory at query time.
   * `parts` (live traffic): the part of each edge its travel time was observed on (TrafficState).
   */
  setWeights(w: Int32Array | null, parts: { from: Float32Array; to: Float32Array } | null = null) { this.override = w; this.parts = parts; }
  private parts: { from: Float32Array; to: Float32Array } | null = null;

  edgeWeight(e: number, dir: 0 | 1): number {
    const o = this.override === null ? 0 : this.override[2 * e + dir];
    return o > 0 ? o : this.g.edgeW[e];
  }

  /**
   * Travel time (ms, unrounded) of metres x..y (from u, x ≤ y) of edge e driven in direction dir:
   * pro rata of the edge's time, except that where the edge's live time was observed on a part of
   * it, the overlap with that part goes at the observed speed and the rest at the profile's (the
   * live time of the whole edge is the part's observed time plus the rest at the profile's).
   */
  partTime(e: number, dir: 0 | 1, x: number, y: number): number {
    return this.part(e, dir, x, y, this.g.edgeW);
  }

  /** The routing cost of that part: the traffic time where the edge has one (as run() costs it), else its share of the edge's weight. */
  partWeight(e: number, dir: 0 | 1, x: number, y: number): number {
    return this.part(e, dir, x, y, this.g.edgeWeight);
  }

  private part(e: number, dir: 0 | 1, x: number, y: number, stored: Int32Array): number {
    const len = this.g.edgeDist[e];
    if (!(len > 0) || y <= x) return 0;
    const i = 2 * e + dir, o = this.override === null ? 0 : this.override[i];
    if (!(o > 0)) return ((y - x) / len) * stored[e];
    const a = this.parts ? this.parts.from[i] : 0, b = this.parts ? this.parts.to[i] : 0;
    if (!(b - a > 0) || b - a >= len) return ((y - x) / len) * o;
    const rest = this.g.edgeW[e] / len; // ms a metre at the profile's speed
    const part = Math.max(0, o - (len - (b - a)) * rest) / (b - a); // ms a metre on the observed part
    const ov = Math.max(0, Math.min(y, b) - Math.max(x, a));
    return ov * part + (y - x - ov) * rest;
  }

  reset() {
    this.cur = this.pages.next(this.cur);
    this.heap.clear(); this.end = -1; this.settled = 0;
    this.tNode.length = 0; this.tCost.length = 0;
  }

  addSource(v: number, d: number) {
    const r = this.pages.rec(v), rec = this.pages.i32, dist = this.pages.f64;
    if (rec[4 * r + STAMP] === this.cur && dist[2 * r] <= d) return;
    rec[4 * r + STAMP] = this.cur; dist[2 * r] = d; rec[4 * r + PRED] = 0; this.heap.push(d, v);
  }

  addTarget(v: number, d: number) {
    const i = this.tNode.indexOf(v);
    if (i < 0) { this.tNode.push(v); this.tCost.push(d); } else if (d < this.tCost[i]) this.tCost[i] = d;
  }

  /** Cost of driving the whole base edge of node y: traffic's time where it has one, else the routing weight. */
  private cost(y: number): number {
    const s = this.g.ebEdge[y], i = s > 0 ? 2 * (s - 1) : 2 * (-s - 1) + 1;
    const o = this.override === null ? 0 : this.override[i];
    return o > 0 ? o : this.g.edgeWeight[i >> 1];
  }

  run(): number {
    const { heap, pages, tNode, tCost } = this;
    const first = this.g.ebOutFirst, out = this.g.ebOut;
    const table = pages.table, nt = tNode.length;
    let dist = pages.f64, rec = pages.i32;
    const PS = PAGE_SHIFT, M = PAGE_MASK; // locals: an imported binding is a property load per use under a CommonJS loader (tsx)
    const cur = this.cur;
    let best = Infinity, end = -1, settled = 0;
    while (heap.length) {
      const x = heap.peekId(), d = heap.peekKey();
      heap.pop();
      if (d > dist[2 * (table[x >>> PS] + (x & M))]) continue;
      if (d >= best) break;
      settled++;
      for (let j = 0; j < nt; j++) if (tNode[j] === x && d + tCost[j] < best) { best = d + tCost[j]; end = x; }
      for (let k = first[x], kEnd = first[x + 1]; k < kEnd; k++) {
        const y = out[3 * k];
        const nd = d + out[3 * k + 1] + this.cost(y);
        let b = table[y >>> PS];
        if (b < 0) { b = pages.attach(y >>> PS); dist = pages.f64; rec = pages.i32; }
        const r = b + (y & M);
        if (rec[4 * r + STAMP] !== cur || nd < dist[2 * r]) { rec[4 * r + STAMP] = cur; dist[2 * r] = nd; rec[4 * r + PRED] = x + 1; heap.push(nd, y); }
      }
    }
    this.end = end; this.settled = settled;
    return best;
  }

  /** Node x was reached from, -1 at a source. */
  private pred(x: number): number { return this.pages.i32[4 * (this.pages.table[x >>> PAGE_SHIFT] + (x & PAGE_MASK)) + PRED] - 1; }

  /** Bytes of query state held now (pages, heap, scratch), for the memory figures (the adjacency is the shared graph's). */
  bytes(): number { return this.pages.bytes() + this.edges.byteLength + 12 * this.heap.keys.length; }

  endNode() { return this.end; }

  startNode(): number {
    let x = this.end;
    while (x >= 0 && this.pred(x) >= 0) x = this.pred(x);
    return x;
  }

  path(): Int32Array {
    let n = 0;
    this.dur = 0;
    const g = this.g;
    for (let x = this.end, p: number; x >= 0 && (p = this.pred(x)) >= 0; x = p) {
      if (n === this.edges.length) { const a = new Int32Array(2 * n); a.set(this.edges); this.edges = a; }
      const s = g.ebEdge[x];
      this.edges[n++] = s;
      this.dur += turnDuration(g, p, x) + this.edgeWeight(s > 0 ? s - 1 : -s - 1, s > 0 ? 0 : 1);
    }
    return this.edges.subarray(0, n).reverse();
  }

  pathDuration(): number { return this.dur; }
}

/** ms of the turn from edge-based node a into b. */
export function turnDuration(g: GraphViews, a: number, b: number): number {
  for (let k = g.ebOutFirst[a]; k < g.ebOutFirst[a + 1]; k++) if (g.ebOut[3 * k] === b) return g.ebOut[3 * k + 2];
  return 0;
}
