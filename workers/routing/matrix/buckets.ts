// The many-to-many search's building blocks (Knopp et al. 2007, as OSRM's table): upward searches
// from a point's candidates (with their phantom costs) and the bucket index that one backward
// search per destination fills and one forward search per source scans.
import type { LoadedGraph } from '../graphs.ts';
import type { Snap } from '../locate/snap.ts';
import { UpwardSearch, Settled, FORWARD, BACKWARD } from '../search/upward.ts';
import type { Space } from './prepare.ts';

const round = Math.round;

/** Growable bucket entries (node, column, ms, metres). */
export class Entries {
  n = 0;
  clear() { this.n = 0; }
  node = new Int32Array(1024); col = new Int32Array(1024); d = new Float64Array(1024); m = new Float64Array(1024);
  push(x: number, c: number, d: number, m: number) {
    if (this.n === this.node.length) {
      const k = this.n * 2;
      const a = new Int32Array(k); a.set(this.node); this.node = a;
      const b = new Int32Array(k); b.set(this.col); this.col = b;
      const e = new Float64Array(k); e.set(this.d); this.d = e;
      const f = new Float64Array(k); f.set(this.m); this.m = f;
    }
    this.node[this.n] = x; this.col[this.n] = c; this.d[this.n] = d; this.m[this.n] = m; this.n++;
  }
}

/**
 * Buckets by node: the entries sorted in place by node (American flag sort, no second copy), and
 * an open-addressing table node → [start, end) sized to the distinct nodes (the top of the
 * hierarchy is shared by most searches: at 1,000 destinations 30k nodes for 89k entries on the 4M
 * grid, 2.7k for 19k on Tanzania SW), never to the graph.
 * Its arrays are kept for the thread's next matrix.
 */
export class Buckets {
  keys = new Int32Array(16); start = new Int32Array(16); end = new Int32Array(16); mask = 15;
  private used = 0;
  build(e: Entries): this {
    this.keys.fill(0); this.end.fill(0); this.used = 0;
    const node = e.node;
    for (let i = 0; i < e.n; i++) {
      const s = this.slot(node[i]); // may grow the table: read this.end after it
      this.end[s]++;
    }
    const { keys, start, end } = this, cap = this.mask + 1;
    let off = 0;
    for (let s = 0; s < cap; s++) if (keys[s]) { start[s] = off; off += end[s]; end[s] = off; }
    // start[s] is slot s's cursor while the entries move into place; every cursor ends at its end[s]
    const col = e.col, d = e.d, m = e.m;
    for (let s = 0; s < cap; s++) {
      if (!keys[s]) continue;
      while (start[s] < end[s]) {
        const i = start[s], t = this.slot(node[i]);
        if (t === s) { start[s]++; continue; }
        const j = start[t]++;
        let x: number = node[i]; node[i] = node[j]; node[j] = x;
        x = col[i]; col[i] = col[j]; col[j] = x;
        x = d[i]; d[i] = d[j]; d[j] = x;
        x = m[i]; m[i] = m[j]; m[j] = x;
      }
    }
    // offsets were handed out in slot order: a slot's entries start where the previous one's end
    off = 0;
    for (let s = 0; s < cap; s++) if (keys[s]) { start[s] = off; off = end[s]; }
    return this;
  }
  /**
   * Slot of node x, inserted when absent. The table doubles past half full. A forward search probes
   * it for every node it settles, most of them absent, and a miss ends at an empty slot; a quarter
   * full took the same CPU (alternated in one process: 291 against 296 ms a 1,000 × 1,000 on the 4M
   * grid, 8.17 against 8.18 ms a 100 × 100 on the 1M grid) for twice the table.
   */
  private slot(x: number): number {
    const k = x + 1;
    for (;;) {
      const keys = this.keys, mask = this.mask;
      for (let i = Math.imul(x, 0x9e3779b1) >>> 0 & mask; ; i = (i + 1) & mask) {
        if (keys[i] === k) return i;
        if (keys[i] !== 0) continue;
        if (2 * (this.used + 1) <= mask + 1) { keys[i] = k; this.used++; return i; }
        break;
      }
      this.grow();
    }
  }
  private grow() {
    const oldKeys = this.keys, oldEnd = this.end, cap = 2 * (this.mask + 1);
    this.keys = new Int32Array(cap); this.end = new Int32Array(cap); this.start = new Int32Array(cap);
    this.mask = cap - 1;
    for (let s = 0; s < oldKeys.length; s++) {
      const k = oldKeys[s];
      if (!k) continue;
      for (let i = Math.imul(k - 1, 0x9e3779b1) >>> 0 & this.mask; ; i = (i + 1) & this.mask) {
        if (this.keys[i] === 0) { this.keys[i] = k; this.end[i] = oldEnd[s]; break; }
      }
    }
  }
  bytes(): number { return (this.mask + 1) * 12; }
}

/** Nodes the last search settled: a source's are scanned against the buckets after its search. */
const settled = new Settled();

let up: UpwardSearch | null = null;
let upGraph: LoadedGraph | null = null;
export function upward(graph: LoadedGraph): UpwardSearch {
  if (!up || upGraph !== graph) { up = new UpwardSearch(graph.g); upGraph = graph; }
  return up;
}

/** Source phantom: the snapped edge left towards v (along) and/or u (against), with the ms and metres to get there. */
function seedSource(q: UpwardSearch, graph: LoadedGraph, s: Snap) {
  const g = graph.g, e = s.edge, f = g.edgeFlags[e], w = g.edgeW[e];
  if (f & 1) q.seed(g.edgeV[e], round((1 - s.frac) * w), g.edgeDist[e] - s.pos);
  if (f & 2) q.seed(g.edgeU[e], round(s.frac * w), s.pos);
}

/** Target phantom: entered from u (along) and/or from v (against). */
function seedTarget(q: UpwardSearch, graph: LoadedGraph, t: Snap) {
  const g = graph.g, e = t.edge, f = g.edgeFlags[e], w = g.edgeW[e];
  if (f & 1) q.seed(g.edgeU[e], round(t.frac * w), t.pos);
  if (f & 2) q.seed(g.edgeV[e], round((1 - t.frac) * w), g.edgeDist[e] - t.pos);
}

/**
 * One point's upward search from its candidates, forward from a source or backward to a
 * destination, into `settled` (which it returns). The searches of the bucket index and of a
 * meeting matrix's sides all run here: with no callback to inline, the call site no longer decides what a
 * search allocates (docs/routing.md, *No callback, no boxed numbers*).
 */
export function searchFrom(q: UpwardSearch, graph: LoadedGraph, c: Snap[], dir: number): Settled {
  q.reset();
  for (const s of c) (dir === FORWARD ? seedSource : seedTarget)(q, graph, s);
  settled.n = 0;
  q.run(dir, settled);
  return settled;
}

/** Both points on one edge: the cost (and metres) of driving straight along it, as leg() does, or null. */
export function direct(graph: LoadedGraph, s: Snap, t: Snap): [number, number] | null {
  const g = graph.g, f = g.edgeFlags[s.edge], w = g.edgeW[s.edge];
  let best: number | null = null;
  if (f & 1 && s.pos <= t.pos) best = round((t.frac - s.frac) * w);
  if (f & 2 && s.pos >= t.pos) { const c = round((s.frac - t.frac) * w); if (best === null || c < best) best = c; }
  return best === null ? null : [best, Math.abs(t.pos - s.pos)];
}

/**
 * The destinations' side of a bucket search: one backward search per destination, its buckets,
 * and the destinations by snapped edge (for the same-edge shortcut). Built once per matrix, then
 * scanned by any number of source rows.
 */
export class BucketIndex {
  private entries = new Entries();
  private buckets = new Buckets();
  private onEdge = new Map<number, [number, Snap][]>();
  private graph: LoadedGraph | null = null;
  cols = 0;
  /** bytes of bucket and search state at the build */
  bytes = 0;

  build(graph: LoadedGraph, dst: (Snap[] | null)[], given?: (Space | null)[]): this {
    const q = upward(graph), entries = this.entries, cols = dst.length;
    this.graph = graph; this.cols = cols;
    entries.clear();
    for (let j = 0; j < cols; j++) {
      const c = dst[j];
      if (!c) continue;
      if (given) {
        const sp = given[j]!;
        for (let k = sp.at, z = sp.at + 3 * sp.n; k < z; k += 3) entries.push(sp.data[k], j, sp.data[k + 1], sp.data[k + 2]);
        continue;
      }
      const f = searchFrom(q, graph, c, BACKWARD);
      for (let k = 0; k < f.n; k++) entries.push(f.node[k], j, f.d[k], f.m[k]);
    }
    this.buckets.build(entries);
    this.bytes = this.buckets.bytes() + entries.node.length * 24 + q.bytes();
    this.onEdge.clear();
    for (let j = 0; j < cols; j++) for (const t of dst[j] ?? []) {
      const l = this.onEdge.get(t.edge);
      if (l) l.push([j, t]); else this.onEdge.set(t.edge, [[j, t]]);
    }
    return this;
  }

  /**
   * The min over each source's and each destination's candidates (and the same-edge shortcut) into
   * ms/metres, row-major (src × the built destinations), at least as low as what is there; a null
   * source is skipped.
   */
  scan(src: (Snap[] | null)[], ms: Float64Array, metres: Float64Array, given?: (Space | null)[]) {
    const graph = this.graph!, cols = this.cols, q = upward(graph);
    const { keys, start, end, mask } = this.buckets, { col: bc, d: bd, m: bm } = this.entries;
    const f = settled;
    for (let i = 0; i < src.length; i++) {
      const c = src[i];
      if (!c) continue;
      const row = i * cols;
      if (given) {
        const sp = given[i]!;
        f.n = 0;
        for (let k = sp.at, z = sp.at + 3 * sp.n; k < z; k += 3) f.add(sp.data[k], sp.data[k + 1], sp.data[k + 2]);
      } else searchFrom(q, graph, c, FORWARD);
      // over what the search settled, after it: the hot loop's arrays stay in registers
      const fx = f.node, fd = f.d, fm = f.m;
      for (let k = 0; k < f.n; k++) {
        const x = fx[k], key = x + 1;
        let s = Math.imul(x, 0x9e3779b1) >>> 0 & mask;
        while (keys[s] !== key && keys[s] !== 0) s = (s + 1) & mask;
        if (keys[s] === 0) continue;
        const d = fd[k], m = fm[k];
        for (let e = start[s], z = end[s]; e < z; e++) {
          const cost = d + bd[e], cell = row + bc[e];
          if (cost < ms[cell]) { ms[cell] = cost; metres[cell] = m + bm[e]; }
        }
      }
      for (const s of c) {
        const same = this.onEdge.get(s.edge);
        if (same) for (const [j, t] of same) {
          const dc = direct(graph, s, t);
          if (dc && dc[0] <= ms[row + j]) { ms[row + j] = dc[0]; metres[row + j] = dc[1]; }
        }
      }
    }
  }
}

