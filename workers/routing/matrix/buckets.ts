// The many-to-many search's building blocks (Knopp et al. 2007, as OSRM's table): upward searches
// from a point's candidates (seeded by locate/seeds.ts, as a route's legs are) and the bucket
// index that one backward search per destination fills and one forward search per source scans.
// A cell is the path of least routing weight; its time (ms) and metres are that path's.
import type { LoadedGraph } from '../graphs.ts';
import type { Snap } from '../locate/snap.ts';
import { UpwardSearch, Settled, FORWARD, BACKWARD } from '../search/upward.ts';
import { sourceSeeds, targetSeeds, aheadOf, upTo, weightShare, timeShare, type PartCost, type SourceSeed, type TargetSeed } from '../locate/seeds.ts';
import { SPACE_STRIDE, type Space } from './prepare.ts';
import { queryAddon, nativeGraph, ListWriter, type NativeIndex } from '../search/native-query.ts';

const round = Math.round;


/** A matrix's cells, row-major: the least routing weight, and the ms and metres of that path (Infinity where none). */
export interface Cells { weight: Float64Array; ms: Float64Array; metres: Float64Array }

/** n cells, every one open (Infinity). */
export function openCells(n: number): Cells {
  return { weight: new Float64Array(n).fill(Infinity), ms: new Float64Array(n).fill(Infinity), metres: new Float64Array(n).fill(Infinity) };
}

/** Growable bucket entries (node, column, weight, ms, metres). */
export class Entries {
  n = 0;
  clear() { this.n = 0; }
  node = new Int32Array(1024); col = new Int32Array(1024); d = new Float64Array(1024); t = new Float64Array(1024); m = new Float64Array(1024);
  push(x: number, c: number, d: number, t: number, m: number) {
    if (this.n === this.node.length) {
      const k = this.n * 2;
      const a = new Int32Array(k); a.set(this.node); this.node = a;
      const b = new Int32Array(k); b.set(this.col); this.col = b;
      const e = new Float64Array(k); e.set(this.d); this.d = e;
      const h = new Float64Array(k); h.set(this.t); this.t = h;
      const f = new Float64Array(k); f.set(this.m); this.m = f;
    }
    this.node[this.n] = x; this.col[this.n] = c; this.d[this.n] = d; this.t[this.n] = t; this.m[this.n] = m; this.n++;
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
    const col = e.col, d = e.d, tm = e.t, m = e.m;
    for (let s = 0; s < cap; s++) {
      if (!keys[s]) continue;
      while (start[s] < end[s]) {
        const i = start[s], t = this.slot(node[i]);
        if (t === s) { start[s]++; continue; }
        const j = start[t]++;
        let x: number = node[i]; node[i] = node[j]; node[j] = x;
        x = col[i]; col[i] = col[j]; col[j] = x;
        x = d[i]; d[i] = d[j]; d[j] = x;
        x = tm[i]; tm[i] = tm[j]; tm[j] = x;
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

const lists = new ListWriter();
/**
 * Every point's seeds (or given space) as the native search reads them: an empty range for a
 * point without a road, so list i is point i.
 */
function pointLists(graph: LoadedGraph, pts: (Snap[] | null)[], given: (Space | null)[] | undefined, seed: (q: SeedSink, graph: LoadedGraph, s: Snap) => void) {
  lists.clear();
  for (let i = 0; i < pts.length; i++) {
    const c = pts[i];
    if (c) {
      if (given) {
        const sp = given[i]!;
        for (let k = sp.at, z = sp.at + SPACE_STRIDE * sp.n; k < z; k += SPACE_STRIDE) lists.seed(sp.data[k], sp.data[k + 1], sp.data[k + 2], sp.data[k + 3]);
      } else for (const s of c) seed(lists, graph, s);
    }
    lists.close();
  }
  return lists.lists();
}

/** Nodes the last search settled: a source's are scanned against the buckets after its search. */
const settled = new Settled();

let up: UpwardSearch | null = null;
let upGraph: LoadedGraph | null = null;
export function upward(graph: LoadedGraph): UpwardSearch {
  if (!up || upGraph !== graph) { up = new UpwardSearch(graph.g); upGraph = graph; }
  return up;
}

const srcSeeds: SourceSeed[] = [], tgtSeeds: TargetSeed[] = [];
/** Where seeds go: a search, or the flat lists the native search reads. */
interface SeedSink { seed(v: number, d: number, t: number, m: number): void }

/** The part costs of the graph searched last (made once per graph, not per point). */
let parts: { g: LoadedGraph['g']; w: PartCost; t: PartCost } | null = null;
function partsOf(g: LoadedGraph['g']) {
  if (parts?.g !== g) parts = { g, w: weightShare(g), t: timeShare(g) };
  return parts;
}

/**
 * A source: its edge's node in each open direction, at the weight, time and metres of the rest of
 * the edge ahead. The weight is rounded as leg() rounds a seed, so a cell weighs what its leg does.
 */
function seedSource(q: SeedSink, graph: LoadedGraph, s: Snap) {
  const g = graph.g, e = s.edge, { w, t } = partsOf(g);
  for (const a of sourceSeeds(g, s, srcSeeds)) {
    const [x, y] = aheadOf(g, s, a.dir);
    q.seed(a.node, round(w(e, a.dir, x, y)), t(e, a.dir, x, y), a.dist);
  }
}

/** A target: every predecessor of its edge's node (and copies), at the turn plus the part of the edge driven. */
function seedTarget(q: SeedSink, graph: LoadedGraph, p: Snap) {
  const g = graph.g, e = p.edge, { w, t } = partsOf(g);
  for (const b of targetSeeds(g, p, tgtSeeds)) {
    const [x, y] = upTo(g, p, b.dir);
    q.seed(b.node, round(b.turnWeight + w(e, b.dir, x, y)), b.turnDur + t(e, b.dir, x, y), b.dist);
  }
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

/**
 * Both points on one edge: the weight, ms and metres of driving straight along it, as leg() does,
 * or null. The ms are rounded as a leg's cost is.
 */
export function direct(graph: LoadedGraph, s: Snap, t: Snap): [number, number, number] | null {
  const g = graph.g, e = s.edge, f = g.edgeFlags[e], { w, t: tm } = partsOf(g);
  let best: [number, number, number] | null = null;
  if (f & 1 && s.pos <= t.pos) best = [round(w(e, 0, s.pos, t.pos)), round(tm(e, 0, s.pos, t.pos)), t.pos - s.pos];
  if (f & 2 && s.pos >= t.pos) {
    const c = round(w(e, 1, t.pos, s.pos));
    if (best === null || c < best[0]) best = [c, round(tm(e, 1, t.pos, s.pos)), s.pos - t.pos];
  }
  return best;
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
  /** The addon's buckets, when it built them. */
  private native: NativeIndex | null = null;
  private built: 'native' | 'here' = 'here';
  cols = 0;
  /** bytes of bucket and search state at the build */
  bytes = 0;

  build(graph: LoadedGraph, dst: (Snap[] | null)[], given?: (Space | null)[]): this {
    this.graph = graph; this.cols = dst.length;
    const a = queryAddon();
    if (a) {
      const l = pointLists(graph, dst, given, seedTarget);
      this.bytes = a.build(nativeGraph(a, graph.g), (this.native ??= a.index()), l.off, l.node, l.d, l.t, l.m, !given);
      this.built = 'native';
    } else this.buildHere(graph, dst, given);
    this.onEdge.clear();
    for (let j = 0; j < dst.length; j++) for (const t of dst[j] ?? []) {
      const l = this.onEdge.get(t.edge);
      if (l) l.push([j, t]); else this.onEdge.set(t.edge, [[j, t]]);
    }
    return this;
  }

  /** The TypeScript search: the reference the native one answers bit for bit, and its fallback. */
  private buildHere(graph: LoadedGraph, dst: (Snap[] | null)[], given?: (Space | null)[]) {
    const q = upward(graph), entries = this.entries, cols = dst.length;
    entries.clear();
    for (let j = 0; j < cols; j++) {
      const c = dst[j];
      if (!c) continue;
      if (given) {
        const sp = given[j]!;
        for (let k = sp.at, z = sp.at + SPACE_STRIDE * sp.n; k < z; k += SPACE_STRIDE) entries.push(sp.data[k], j, sp.data[k + 1], sp.data[k + 2], sp.data[k + 3]);
        continue;
      }
      const f = searchFrom(q, graph, c, BACKWARD);
      for (let k = 0; k < f.n; k++) entries.push(f.node[k], j, f.d[k], f.t[k], f.m[k]);
    }
    this.buckets.build(entries);
    this.bytes = this.buckets.bytes() + entries.node.length * 32 + q.bytes();
    this.built = 'here';
  }

  /**
   * The least weight over each source's and each destination's candidates (and the same-edge
   * shortcut) into `cells` (weight, and that path's ms and metres), row-major (src × the built
   * destinations), where it weighs less than what is there; a null source is skipped.
   */
  scan(src: (Snap[] | null)[], cells: Cells, given?: (Space | null)[]) {
    const graph = this.graph!, cols = this.cols, a = queryAddon();
    if (this.built === 'native' && a) {
      const l = pointLists(graph, src, given, seedSource);
      a.scan(nativeGraph(a, graph.g), this.native!, l.off, l.node, l.d, l.t, l.m, !given, cells.weight, cells.ms, cells.metres, cols);
    } else this.scanHere(src, cells, given);
    this.sameEdge(src, cells);
  }

  private scanHere(src: (Snap[] | null)[], cells: Cells, given?: (Space | null)[]) {
    const graph = this.graph!, cols = this.cols, q = upward(graph), { weight: wt, ms, metres } = cells;
    const { keys, start, end, mask } = this.buckets, { col: bc, d: bd, t: bt, m: bm } = this.entries;
    const f = settled;
    for (let i = 0; i < src.length; i++) {
      const c = src[i];
      if (!c) continue;
      const row = i * cols;
      if (given) {
        const sp = given[i]!;
        f.n = 0;
        for (let k = sp.at, z = sp.at + SPACE_STRIDE * sp.n; k < z; k += SPACE_STRIDE) f.add(sp.data[k], sp.data[k + 1], sp.data[k + 2], sp.data[k + 3]);
      } else searchFrom(q, graph, c, FORWARD);
      // over what the search settled, after it: the hot loop's arrays stay in registers
      const fx = f.node, fd = f.d, ft = f.t, fm = f.m;
      for (let k = 0; k < f.n; k++) {
        const x = fx[k], key = x + 1;
        let s = Math.imul(x, 0x9e3779b1) >>> 0 & mask;
        while (keys[s] !== key && keys[s] !== 0) s = (s + 1) & mask;
        if (keys[s] === 0) continue;
        const d = fd[k], t = ft[k], m = fm[k];
        for (let e = start[s], z = end[s]; e < z; e++) {
          const cost = d + bd[e], cell = row + bc[e];
          // ms rounded once, at the end, as leg() rounds a leg's duration
          if (cost < wt[cell]) { wt[cell] = cost; ms[cell] = round(t + bt[e]); metres[cell] = m + bm[e]; }
        }
      }
    }
  }

  /** Both points on one edge: driving straight along it, where that weighs no more (as leg() does). */
  private sameEdge(src: (Snap[] | null)[], cells: Cells) {
    const graph = this.graph!, cols = this.cols, { weight: wt, ms, metres } = cells;
    for (let i = 0; i < src.length; i++) {
      const c = src[i], row = i * cols;
      if (c) for (const s of c) {
        const same = this.onEdge.get(s.edge);
        if (same) for (const [j, t] of same) {
          const dc = direct(graph, s, t);
          if (dc && dc[0] <= wt[row + j]) { wt[row + j] = dc[0]; ms[row + j] = dc[1]; metres[row + j] = dc[2]; }
        }
      }
    }
  }
}

