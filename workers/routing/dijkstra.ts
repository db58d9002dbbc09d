// Plain Dijkstra on the uncontracted (compressed) graph: the reference the CH answers
// are checked against, the baseline of the speed-up figure, and the search of traffic-aware
// routes, whose weights change under it (a CH would need re-contracting; see docs/traffic.md).
import type { GraphViews } from '../../src/core/format/route.ts';
import type { PathSearch } from './search.ts';
import { MinHeap } from '../../src/core/heap.ts';

export class DijkstraQuery implements PathSearch {
  private first: Uint32Array; private to: Int32Array; private w: Int32Array; private eid: Int32Array;
  /** Per adjacency entry: 2 * edge + direction, the index into a directed-weight override. */
  private dix: Int32Array;
  private override: Int32Array | null = null;
  private dist: Float64Array; private stamp: Uint32Array; private pred: Int32Array;
  private tgt: Float64Array; private tstamp: Uint32Array;
  private heap = new MinHeap(1024);
  private cur = 0; private end = -1;
  settled = 0;

  constructor(private g: GraphViews) {
    const n = g.meta.nodes, m = g.edgeU.length;
    // forward adjacency (both allowed directions of every base edge)
    const first = new Uint32Array(n + 1);
    for (let e = 0; e < m; e++) {
      if (g.edgeFlags[e] & 1) first[g.edgeU[e] + 1]++;
      if (g.edgeFlags[e] & 2) first[g.edgeV[e] + 1]++;
    }
    for (let v = 0; v < n; v++) first[v + 1] += first[v];
    const fill = first.slice(0, n);
    const to = new Int32Array(first[n]), w = new Int32Array(first[n]), eid = new Int32Array(first[n]), dix = new Int32Array(first[n]);
    for (let e = 0; e < m; e++) {
      if (g.edgeFlags[e] & 1) { const k = fill[g.edgeU[e]]++; to[k] = g.edgeV[e]; w[k] = g.edgeW[e]; eid[k] = e + 1; dix[k] = 2 * e; }
      if (g.edgeFlags[e] & 2) { const k = fill[g.edgeV[e]]++; to[k] = g.edgeU[e]; w[k] = g.edgeW[e]; eid[k] = -(e + 1); dix[k] = 2 * e + 1; }
    }
    this.first = first; this.to = to; this.w = w; this.eid = eid; this.dix = dix;
    this.dist = new Float64Array(n); this.stamp = new Uint32Array(n); this.pred = new Int32Array(n);
    this.tgt = new Float64Array(n); this.tstamp = new Uint32Array(n);
  }

  /**
   * Directed travel times (ms, index 2 * edge + dir) that replace the stored ones where > 0, until
   * set back to null: live or historical traffic read straight from shared memory at query time.
   */
  setWeights(w: Int32Array | null) { this.override = w; }

  edgeWeight(e: number, dir: 0 | 1): number {
    const o = this.override === null ? 0 : this.override[2 * e + dir];
    return o > 0 ? o : this.g.edgeW[e];
  }

  reset() { this.cur++; this.heap.clear(); this.end = -1; this.settled = 0; }

  addSource(v: number, d: number) {
    if (this.stamp[v] === this.cur && this.dist[v] <= d) return;
    this.stamp[v] = this.cur; this.dist[v] = d; this.pred[v] = 0; this.heap.push(d, v);
  }

  addTarget(v: number, d: number) {
    if (this.tstamp[v] === this.cur && this.tgt[v] <= d) return;
    this.tstamp[v] = this.cur; this.tgt[v] = d;
  }

  run(): number {
    const { first, to, w, eid, dix, dist, stamp, pred, tgt, tstamp, heap } = this;
    const ov = this.override;
    const cur = this.cur;
    let best = Infinity, end = -1, settled = 0;
    while (heap.length) {
      const x = heap.peekId(), d = heap.peekKey();
      heap.pop();
      if (d > dist[x]) continue;
      if (d >= best) break;
      settled++;
      if (tstamp[x] === cur && d + tgt[x] < best) { best = d + tgt[x]; end = x; }
      for (let k = first[x]; k < first[x + 1]; k++) {
        const o = ov === null ? 0 : ov[dix[k]];
        const y = to[k], nd = d + (o > 0 ? o : w[k]);
        if (stamp[y] !== cur || nd < dist[y]) { stamp[y] = cur; dist[y] = nd; pred[y] = eid[k]; heap.push(nd, y); }
      }
    }
    this.end = end; this.settled = settled;
    return best;
  }

  endNode() { return this.end; }

  startNode(): number {
    let x = this.end;
    while (x >= 0 && this.pred[x] !== 0) { const e = this.pred[x]; x = e > 0 ? this.g.edgeU[e - 1] : this.g.edgeV[-e - 1]; }
    return x;
  }

  path(out: Int32Array): number {
    let n = 0;
    for (let x = this.end; x >= 0 && this.pred[x] !== 0;) {
      const e = this.pred[x];
      out[n++] = e;
      x = e > 0 ? this.g.edgeU[e - 1] : this.g.edgeV[-e - 1];
    }
    out.subarray(0, n).reverse();
    return n;
  }
}
