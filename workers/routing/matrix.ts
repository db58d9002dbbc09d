// Task `route_matrix`: travel times and distances from every source to every destination.
//
//   args: { sources: [lat, lng][], destinations: [lat, lng][], mode?: 'driving'|'walk'|'cycle',
//           radius?: metres (snap radius, as /route), rows?: [from, to) — answer only these source rows,
//           stream?: true — send the rows ahead in pieces (matrixTask) }
//   answer (JSON bytes):
//     {"durations_s":[[…],…],"distances_m":[[…],…],"sources":[snapped|null,…],"destinations":[…],
//      "mode":"driving","extract":"…"}
//   rows = sources, columns = destinations; a cell is null when no route exists or a point has no
//   road within the radius (its snapped entry is null). snapped = {lat, lng, distance_m} of the
//   point's nearest road.
//   With `rows`, one part of a matrix split over threads, for src/api/matrix.ts to join without
//   parsing (readPart): three u32 (little-endian) byte lengths, then the durations rows `[…],[…]`,
//   the distances rows, the snapped sources of those rows `{…},null`, and, in the part whose rows
//   start at 0 (the only one read for it), the rest of the object from `"destinations":` on,
//   without its braces. With `stream` (on a lane), a part whose rows
//   came ahead as pieces: its two sections of rows are empty.
//
// Every cell equals what /route answers for that pair (the same candidates, phantom costs, same-edge
// shortcut and fallback, workers/routing/candidates.ts): duration_s and distance_m rounded to 0.1.
// Method: many-to-many CH with buckets (Knopp et al. 2007, as OSRM's table): one backward upward
// search per destination leaves (destination, ms, metres) in a bucket at each node it settles; one
// forward upward search per source scans the buckets of the nodes it settles. Work grows with
// (sources + destinations) × search space, not with their product, except the bucket scans.
// Other modules may call matrixCosts() directly (the trip optimiser does).
import { TaskError, JsonText, BinaryBody, type TaskContext } from '../../src/core/task.ts';
import type { LoadedGraph } from './graphs.ts';
import { loadedGraphs } from './graphs.ts';
import { candidates, onComponentsNear, choosePair, leastMovedPair, moved, modeAndRadius, checkPoint } from './candidates.ts';
import { UpwardSearch, Settled, FORWARD, BACKWARD } from './upward.ts';
import type { Snap } from './snap.ts';
import { leg } from './route.ts';
import { searchFor, type TrafficArgs, type TrafficUse } from './traffic-search.ts';
import { TRAFFIC_MATRIX_MAX_CELLS } from '../../src/core/limits.ts';
import { collectSoon } from '../collect.ts';
import { meetLayout, meetRegion, meetPublish, meetWait, meetLength, MEET_PENDING, MEET_WRITTEN, MEET_FULL } from '../../src/core/meet.ts';

export interface MatrixArgs extends TrafficArgs {
  sources: [number, number][];
  destinations: [number, number][];
  mode?: string;
  radius?: number;
  rows?: [number, number];
  /** send the rows ahead in pieces where the thread can (matrixTask) */
  stream?: boolean;
  /**
   * A matrix on several idle threads at once (src/api/matrix.ts, src/core/meet.ts): side `side` of
   * `sides` writes the upward search spaces of points [part[0], part[1]) of sources ++ destinations
   * into its region (`room` Float64s) of the shared buffer attached to the task (writeSide), waits for the other
   * sides (readSides), and answers rows `rows` as a part from every point's space, without a
   * search of its own.
   */
  phase?: 'meet';
  part?: [number, number];
  side?: number;
  sides?: number;
  room?: number;
}

/** Costs of a matrix: ms and metres per cell (Infinity where unreachable), row-major over rows [r0, r1). */
export interface MatrixCosts {
  graph: LoadedGraph;
  r0: number; r1: number; cols: number;
  ms: Float64Array;
  metres: Float64Array;
  src: (Snap[] | null)[];
  dst: (Snap[] | null)[];
  /** bytes of bucket and search state this computation held at its peak */
  stateBytes: number;
  /** What traffic applied (traffic=live|forecast only). */
  traffic?: TrafficUse | null;
}

const round = Math.round;

/** The extract that covers every point (the smallest such), as /route picks one. */
export function pickGraph(mode: string, pts: [number, number][], radius: number): LoadedGraph {
  const graphs = loadedGraphs();
  const g = graphs.find((x) => x.profile === mode && pts.every(([la, lo]) => x.covers(la, lo, radius)));
  if (g) return g;
  const any = graphs.some((x) => x.profile === mode && pts.some(([la, lo]) => x.covers(la, lo, radius)));
  throw new TaskError(400, 'out_of_coverage', any
    ? 'The points lie in different road extracts; no single extract covers them all.'
    : `No ${mode} road extract covers these points.`);
}

/** Growable bucket entries (node, column, ms, metres). */
class Entries {
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
class Buckets {
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
function upward(graph: LoadedGraph): UpwardSearch {
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
function searchFrom(q: UpwardSearch, graph: LoadedGraph, c: Snap[], dir: number): Settled {
  q.reset();
  for (const s of c) (dir === FORWARD ? seedSource : seedTarget)(q, graph, s);
  settled.n = 0;
  q.run(dir, settled);
  return settled;
}

/** Both points on one edge: the cost (and metres) of driving straight along it, as leg() does, or null. */
function direct(graph: LoadedGraph, s: Snap, t: Snap): [number, number] | null {
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
class BucketIndex {
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

// The thread's state for the next matrix: a matrix runs start to end on one thread, and only one
// at a time. `spare` serves the fallback, which runs while `main` is still being scanned.
let main = new BucketIndex(), spare = new BucketIndex();

/**
 * The bucket search of sources × destinations into ms/metres (Infinity-filled, row-major); a null
 * entry is skipped. Returns the bytes of state it held.
 */
export function manyToMany(graph: LoadedGraph, src: (Snap[] | null)[], dst: (Snap[] | null)[], ms: Float64Array, metres: Float64Array): number {
  main.build(graph, dst).scan(src, ms, metres);
  return main.bytes;
}

/** A matrix request checked and snapped: sources of rows [r0, r1) and every destination. */
interface Prepared {
  graph: LoadedGraph;
  radius: number;
  sp: [number, number][]; dp: [number, number][];
  r0: number; r1: number; cols: number;
  src: (Snap[] | null)[]; dst: (Snap[] | null)[];
  /** a destination's candidates on every SCC within the radius, computed once, when first needed */
  dstAll: (Snap[] | undefined)[];
  tr: ReturnType<typeof searchFor> | null;
  /** the points' upward search spaces, from the sides of a meeting matrix (MatrixArgs.phase) */
  given?: { src: (Space | null)[]; dst: (Space | null)[] };
}

/** The request's points checked, its rows and the extract that covers them all. */
function checked(args: MatrixArgs) {
  const { mode, radius } = modeAndRadius(args);
  if (!Array.isArray(args.sources) || !args.sources.length) throw new TaskError(400, 'invalid_parameter', "Parameter 'sources' must list at least one point.");
  if (!Array.isArray(args.destinations) || !args.destinations.length) throw new TaskError(400, 'invalid_parameter', "Parameter 'destinations' must list at least one point.");
  const sp = args.sources.map((p, i) => checkPoint(p, 'sources', i));
  const dp = args.destinations.map((p, i) => checkPoint(p, 'destinations', i));
  const [r0, r1] = args.rows ?? [0, sp.length];
  if (!(Number.isInteger(r0) && Number.isInteger(r1) && r0 >= 0 && r0 < r1 && r1 <= sp.length)) throw new TaskError(400, 'invalid_parameter', "Parameter 'rows' is out of range.");
  const graph = pickGraph(mode, [...sp, ...dp], radius);
  return { graph, radius, sp, dp, r0, r1, cols: dp.length };
}

/** The request checked and snapped, or with `spaces` (every side's, readSides) read back from them. */
function prepare(args: MatrixArgs, spaces?: Uint8Array[], c = checked(args)): Prepared {
  const { graph, radius, sp, dp, r0, r1 } = c;
  const tr = args.traffic && args.traffic !== 'none' ? searchFor(graph, args) : null;
  if (spaces) {
    if (tr) throw new TaskError(400, 'invalid_parameter', 'A matrix with traffic is not computed from search spaces.');
    return { ...c, ...readSpaces(spaces, sp.length, dp.length, r0, r1), dstAll: [], tr: null };
  }
  const src = sp.map((p, i) => (i >= r0 && i < r1 ? candidates(graph, p[0], p[1], radius) : null));
  const dst = dp.map((p) => candidates(graph, p[0], p[1], radius));
  return { ...c, src, dst, dstAll: [], tr };
}

// ---- A matrix on several threads at once (MatrixArgs.phase 'meet', src/core/meet.ts) ----

/** One point's upward search space in a side's region: n triples (node, ms, metres) from data[at]. */
export interface Space { data: Float64Array; at: number; n: number }

/** How long a side waits for the others before it answers 503 (a thread that died, a stalled machine). */
export const MEET_TIMEOUT_MS = 5000;

/**
 * Writes side `side` of a meeting matrix into its region of the shared buffer: points
 * [part[0], part[1]) of sources ++ destinations, each as its candidate count, its candidates
 * (edge, pt, pos, frac, lat, lng, dist) and, with any, the count and the triples (node, ms, metres)
 * its upward search settled, forward for a source and backward for a destination. Publishes the
 * side as written, or as full with the length it needed when the region is too small.
 */
export function writeSide(args: MatrixArgs, buf: SharedArrayBuffer, c = checked(args)) {
  const { graph, radius, sp, dp } = c, S = sp.length, P = S + dp.length;
  const m = layoutOf(args, buf), side = args.side!;
  const [a, b] = args.part ?? [0, P];
  if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && a < b && b <= P)) throw new TaskError(400, 'invalid_parameter', "Parameter 'part' is out of range.");
  const q = upward(graph), out = meetRegion(buf, m, side), cap = m.cap;
  // past the region's end the writes stop but the count goes on: the main thread learns what it needed
  let o = 0;
  const put = (v: number) => { if (o < cap) out[o] = v; o++; };
  for (let i = a; i < b; i++) {
    const [lat, lng] = i < S ? sp[i] : dp[i - S];
    const c = candidates(graph, lat, lng, radius);
    put(c ? c.length : 0);
    if (!c) continue;
    for (const s of c) { put(s.edge); put(s.pt); put(s.pos); put(s.frac); put(s.lat); put(s.lng); put(s.dist); }
    // the nearest road's space only: the other candidates serve open cells (fillRows), searched there
    const f = searchFrom(q, graph, c.slice(0, 1), i < S ? FORWARD : BACKWARD);
    put(f.n);
    for (let k = 0; k < f.n; k++) { put(f.node[k]); put(f.d[k]); put(f.m[k]); }
  }
  meetPublish(m, side, o <= cap ? MEET_WRITTEN : MEET_FULL, o);
}

/**
 * Every side's spaces, in order, once each is written (this thread's own included); 503 when a side
 * is not written within `timeoutMs`, 409 `meet_full` when one ran out of room (the main thread then
 * runs the matrix whole, on one thread, and gives the next one more room).
 */
export function readSides(args: MatrixArgs, buf: SharedArrayBuffer, timeoutMs = MEET_TIMEOUT_MS): Uint8Array[] {
  const m = layoutOf(args, buf), until = Date.now() + timeoutMs, out: Uint8Array[] = [];
  let full = false;
  for (let k = 0; k < m.sides; k++) {
    const state = meetWait(m, k, until);
    if (state === MEET_PENDING) throw new TaskError(503, 'overloaded', 'A thread of this matrix did not answer in time. Retry with exponential back-off.');
    if (state === MEET_FULL) full = true;
    else out.push(new Uint8Array(buf, meetRegion(buf, m, k).byteOffset, 8 * meetLength(m, k)));
  }
  if (full) throw new TaskError(409, 'meet_full', 'The search spaces did not fit the shared buffer.');
  return out;
}

function layoutOf(args: MatrixArgs, buf: SharedArrayBuffer) {
  const side = args.side, m = meetLayout(buf, args.sides ?? 0, args.room ?? 0);
  if (!m || !(Number.isInteger(side) && side! >= 0 && side! < m.sides)) throw new TaskError(400, 'invalid_parameter', "Parameters 'side', 'sides' and 'room' do not fit the matrix's shared buffer.");
  return m;
}

/** The shared buffer a meeting matrix's task is given (TaskContext.attached). */
function meetingBuffer(attached?: Uint8Array[]): SharedArrayBuffer {
  const b = attached?.[0]?.buffer;
  if (!(b instanceof SharedArrayBuffer)) throw new TaskError(400, 'invalid_parameter', "Phase 'meet' needs its shared buffer.");
  return b;
}

/**
 * The sides' spaces, in order, back into the candidates and search space of every destination
 * and of the sources of rows [r0, r1) (null for the other sources, which this part never reads).
 */
function readSpaces(bufs: Uint8Array[], S: number, D: number, r0: number, r1: number) {
  const bad = () => new TaskError(400, 'invalid_parameter', 'The search spaces do not describe every point of the matrix.');
  const src: (Snap[] | null)[] = [], dst: (Snap[] | null)[] = [], gs: (Space | null)[] = [], gd: (Space | null)[] = [];
  let i = 0;
  for (const b of bufs) {
    const data = new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8);
    for (let k = 0; k < data.length; i++) {
      const nc = data[k++];
      let snaps: Snap[] | null = null, space: Space | null = null;
      if (nc && i < S && (i < r0 || i >= r1)) {
        k += 7 * nc;
        k += 1 + 3 * data[k];
      } else if (nc) {
        snaps = [];
        for (let j = 0; j < nc; j++, k += 7) snaps.push({ edge: data[k], pt: data[k + 1], pos: data[k + 2], frac: data[k + 3], lat: data[k + 4], lng: data[k + 5], dist: data[k + 6] });
        const n = data[k++];
        space = { data, at: k, n };
        k += 3 * n;
      }
      if (!(k <= data.length && i < S + D)) throw bad();
      if (i < S) { src.push(snaps); gs.push(space); } else { dst.push(snaps); gd.push(space); }
    }
  }
  if (i !== S + D) throw bad();
  return { src, dst, given: { src: gs, dst: gd } };
}

/**
 * How many leading candidates are the point's nearest spot: the nearest road, and its one-way twin
 * when the road's two directions take different times (both at the same distance).
 */
const spot = (c: Snap[]): number => { let k = 1; while (k < c.length && moved(c[k]) === moved(c[0])) k++; return k; };
/** A point's nearest road alone (with its twin), or null. */
const nearest = (c: Snap[] | null): Snap[] | null => (c ? c.slice(0, spot(c)) : null);
/** A point's big-component alternative alone (its second candidate, candidates.ts), or null. */
const bigAlt = (c: Snap[] | null): Snap[] | null => (c && c.length > spot(c) ? c.slice(spot(c)) : null);

/**
 * Cells of source rows [i0, i1) into ms/metres (row-major from row i0), `index` built over the
 * destinations' nearest roads (nearest(p.dst)). As /route picks candidates (choose(),
 * candidates.ts): first every cell between the points' nearest roads; a cell left open then takes,
 * among the pairs of nearest and big-component candidates that route, the one that moves its two
 * points least, then the cheapest (three more bucket passes, only over the open rows and columns);
 * a cell still open gets choose()'s fallback onto every SCC within the radius: a bucket pass over
 * those candidates finds which cells any of them connects, and only those are chosen pair by pair
 * as /route does (leastMovedPair). A cell depends only on its row and column, so rows computed in
 * blocks equal rows computed at once.
 */
function fillRows(p: Prepared, index: BucketIndex, i0: number, i1: number, ms: Float64Array, metres: Float64Array): number {
  const { graph, src, dst, cols } = p, rows = i1 - i0;
  index.scan(src.slice(i0, i1).map(nearest), ms, metres, p.given?.src.slice(i0, i1));
  let bytes = index.bytes;
  const open = () => {
    const rowsX: number[] = [], colsX = new Set<number>();
    for (let i = 0; i < rows; i++) {
      if (!src[i0 + i]) continue;
      let any = false;
      for (let j = 0; j < cols; j++) if (ms[i * cols + j] === Infinity && dst[j]) { any = true; colsX.add(j); }
      if (any) rowsX.push(i);
    }
    return { rowsX, cj: [...colsX] };
  };
  let { rowsX, cj } = open();
  if (!rowsX.length) return bytes;
  // Pass 2: nearest × big, big × nearest, big × big, where a point has a big-component candidate.
  const sN = rowsX.map((i) => nearest(src[i0 + i])), sB = rowsX.map((i) => bigAlt(src[i0 + i]));
  const cjB = cj.filter((j) => dst[j]!.length > 1);
  const R = rowsX.length, C = cjB.length;
  const bn = new Float64Array(R * cols).fill(Infinity), bnd = new Float64Array(R * cols).fill(Infinity);
  const nb = new Float64Array(R * C).fill(Infinity), nbd = new Float64Array(R * C).fill(Infinity);
  const bb = new Float64Array(R * C).fill(Infinity), bbd = new Float64Array(R * C).fill(Infinity);
  if (sB.some((x) => x)) index.scan(sB, bn, bnd);
  if (C) {
    spare.build(graph, cjB.map((j) => bigAlt(dst[j])));
    spare.scan(sN, nb, nbd);
    if (sB.some((x) => x)) spare.scan(sB, bb, bbd);
    bytes = Math.max(bytes, spare.bytes);
  }
  const colB = new Int32Array(cols).fill(-1);
  cjB.forEach((j, c) => { colB[j] = c; });
  for (let a = 0; a < R; a++) {
    const i = rowsX[a], s = src[i0 + i]!;
    for (const j of cj) {
      const cell = i * cols + j;
      if (ms[cell] !== Infinity) continue;
      const t = dst[j]!, c = colB[j];
      // [moved decimetres, ms, metres] of each pair that routes; the least moved, then the cheapest
      let bm = Infinity, bcost = Infinity, bd = Infinity;
      const offer = (m: number, cost: number, d: number) => {
        if (cost === Infinity) return;
        if (m < bm || (m === bm && cost < bcost)) { bm = m; bcost = cost; bd = d; }
      };
      if (s.length > 1) offer(moved(s[1]) + moved(t[0]), bn[a * cols + j], bnd[a * cols + j]);
      if (c >= 0) {
        offer(moved(s[0]) + moved(t[1]), nb[a * C + c], nbd[a * C + c]);
        if (s.length > 1) offer(moved(s[1]) + moved(t[1]), bb[a * C + c], bbd[a * C + c]);
      }
      ms[cell] = bcost; metres[cell] = bd;
    }
  }
  ({ rowsX, cj } = open());
  if (!rowsX.length) return bytes;
  // Pass 3: which open cells any candidate on an SCC within the radius connects, then those cells
  // chosen as /route chooses.
  const es = rowsX.map((i) => src[i0 + i]!.concat(onComponentsNear(graph, p.sp[i0 + i], src[i0 + i]!, p.radius)));
  const ed = cj.map((j) => (p.dstAll[j] ??= dst[j]!.concat(onComponentsNear(graph, p.dp[j], dst[j]!, p.radius))));
  const xm = new Float64Array(rowsX.length * cj.length).fill(Infinity), xd = new Float64Array(rowsX.length * cj.length).fill(Infinity);
  spare.build(graph, ed).scan(es, xm, xd);
  bytes = Math.max(bytes, spare.bytes);
  for (let a = 0; a < rowsX.length; a++) for (let c = 0; c < cj.length; c++) {
    const i = rowsX[a], j = cj[c], cell = i * cols + j;
    if (ms[cell] !== Infinity || xm[a * cj.length + c] === Infinity) continue;
    // what choose() picks for the two points once extended (es, ed are those candidates)
    const l = leastMovedPair(graph, es[a], ed[c]);
    if (l) { ms[cell] = l.cost; metres[cell] = l.dist; }
  }
  return bytes;
}

/**
 * The thread's arrays for the next matrix (cells here, answer bytes in `writer`, bucket entries
 * above) are kept and reused: allocating and faulting in ~40 MB per 1,000 × 1,000 request was a
 * third of the server's CPU. But a thread that answered one large matrix would hold them for the
 * rest of its life (issue 11 §6): after a matrix of more than KEEP_CELLS cells, RELEASE_MS without
 * another one gives them back (release()) and collects the garbage. A matrix sent in pieces
 * (matrixTask) holds only a block of BLOCK_CELLS cells at a time.
 */
export const KEEP_CELLS = 40_000;
export const RELEASE_MS = 1000;
/** Cells per block of a matrix sent in pieces: 512 KB of cells and ~0.5 MB of text. */
export const BLOCK_CELLS = 32_768;

let cellMs = new Float64Array(0), cellMetres = new Float64Array(0);
function cellScratch(n: number): [Float64Array, Float64Array] {
  if (cellMs.length < n) { cellMs = new Float64Array(n); cellMetres = new Float64Array(n); }
  return [cellMs.subarray(0, n).fill(Infinity), cellMetres.subarray(0, n).fill(Infinity)];
}

let releaseTimer: ReturnType<typeof setTimeout> | null = null;
function releaseLater() {
  if (releaseTimer) releaseTimer.refresh();
  else releaseTimer = setTimeout(release, RELEASE_MS).unref();
}
function release() {
  releaseTimer = null;
  cellMs = new Float64Array(0); cellMetres = new Float64Array(0);
  writer = new ByteWriter();
  main = new BucketIndex(); spare = new BucketIndex();
  collectSoon();
}

/** Bytes of the arrays this thread keeps for its next matrix (tests). */
export function keptBytes(): number {
  return cellMs.byteLength + cellMetres.byteLength + writer.buf.byteLength + main.bytes + spare.bytes;
}

/**
 * Costs of every cell in rows [r0, r1): see the file comment. With `scratch`, ms and metres are
 * the thread's reused arrays, valid until its next matrix.
 */
export function matrixCosts(args: MatrixArgs, scratch = false): MatrixCosts {
  return costsOf(prepare(args), scratch);
}

function costsOf(p: Prepared, scratch: boolean): MatrixCosts {
  const { graph, r0, r1, cols, src, dst, tr } = p, rows = r1 - r0;
  const [ms, metres] = scratch ? cellScratch(rows * cols) : [new Float64Array(rows * cols).fill(Infinity), new Float64Array(rows * cols).fill(Infinity)];
  if (tr?.traffic?.applied) {
    trafficCells(graph, tr.q, src.slice(r0, r1), dst, p.sp.slice(r0, r1), p.dp, p.radius, ms, metres);
    return { graph, r0, r1, cols, ms, metres, src, dst, stateBytes: 0, traffic: tr.traffic };
  }
  const stateBytes = fillRows(p, main.build(graph, dst.map(nearest), p.given?.dst), r0, r1, ms, metres);
  return { graph, r0, r1, cols, ms, metres, src, dst, stateBytes, ...(tr ? { traffic: tr.traffic } : {}) };
}

/**
 * Traffic-aware cells: the weights change under a CH, so each cell is a leg of its own over the
 * traffic search (between the nearest roads, or the pair /route moves to), as /route?traffic= answers it.
 */
function trafficCells(graph: LoadedGraph, q: ReturnType<typeof searchFor>['q'], src: (Snap[] | null)[], dst: (Snap[] | null)[], sp: [number, number][], dp: [number, number][], radius: number, ms: Float64Array, metres: Float64Array) {
  const cols = dst.length;
  if (src.length * cols > TRAFFIC_MATRIX_MAX_CELLS) {
    throw new TaskError(400, 'invalid_parameter', `A matrix with traffic has at most ${TRAFFIC_MATRIX_MAX_CELLS} cells; this one has ${src.length * cols}.`);
  }
  for (let i = 0; i < src.length; i++) {
    const a = src[i];
    if (!a) continue;
    for (let j = 0; j < cols; j++) {
      const b = dst[j];
      if (!b) continue;
      // the nearest roads, else the pair /route would move to (choosePair), driven with traffic
      let l = leg(graph.g, q, a[0], b[0]);
      if (!l) {
        const pair = choosePair(graph, a, b, sp[i], dp[j], radius);
        l = pair && leg(graph.g, q, pair[0], pair[1]);
      }
      if (l) { ms[i * cols + j] = l.cost; metres[i * cols + j] = l.dist; }
    }
  }
}

// ---- JSON written as bytes: 2 × 1,000,000 numbers through JSON.stringify cost ~0.3 s ----

const utf8 = new TextEncoder();

/** A byte buffer kept for the thread's next answer (the engine copies the answer out before it). */
/** 0000…9999 as four ASCII digits, little-endian in a u32; "null" likewise. */
const DIGITS4 = new Uint32Array(10000);
for (let i = 0; i < 10000; i++) {
  const d = String(i).padStart(4, '0');
  DIGITS4[i] = d.charCodeAt(0) | (d.charCodeAt(1) << 8) | (d.charCodeAt(2) << 16) | (d.charCodeAt(3) << 24);
}
const NULL = 0x6c6c756e;
/** Digits of 0…9999. */
const DIGITS_LEN = new Uint8Array(10000);
for (let i = 0; i < 10000; i++) DIGITS_LEN[i] = String(i).length;

class ByteWriter {
  buf: Uint8Array;
  view: DataView;
  n = 0;
  constructor(cap = 1 << 16) { this.buf = new Uint8Array(cap); this.view = new DataView(this.buf.buffer); }
  ensure(k: number) {
    if (this.n + k <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.n + k) cap *= 2;
    const b = new Uint8Array(cap); b.set(this.buf.subarray(0, this.n)); this.buf = b; this.view = new DataView(b.buffer);
  }
  str(s: string) {
    this.ensure(3 * s.length);
    this.n += utf8.encodeInto(s, this.buf.subarray(this.n)).written;
  }

  /**
   * Rows [v,v,null,…],[…] (comma-separated): seconds from ms, or metres, each rounded to 0.1 as
   * /route's round1 does. The integer part goes out four digits at a time from a table, each group
   * one 4-byte store with its leading zeros shifted off (the bytes past the number are overwritten
   * by what follows): ~20% less time than a digit at a time, and this is ~40% of a large matrix.
   */
  rows(arr: Float64Array, rows: number, cols: number, secs: boolean) {
    for (let i = 0; i < rows; i++) {
      this.ensure(cols * 24 + 8);
      const b = this.buf, view = this.view, L = DIGITS4, N = DIGITS_LEN;
      let n = this.n;
      if (i) b[n++] = 44;
      b[n++] = 91;
      for (let j = 0, off = i * cols; j < cols; j++) {
        if (j) b[n++] = 44;
        const v = arr[off + j];
        if (v === Infinity) { view.setUint32(n, NULL, true); n += 4; continue; }
        // Math.round and an integer division by 10 were over half of this loop's time; for
        // 0.5 ≤ x < 1e9, ⌊x + 0.5⌋ is exactly Math.round(x) (the sum is exact there), and t × 0.1
        // never falls below the next lower multiple's quotient (0.1 is slightly above 1/10).
        const x = secs ? (v / 1000) * 10 : v * 10;
        if (x >= 1e9 - 0.5) { n = this.big(n, Math.round(x)); continue; }
        const t = x < 0.5 ? 0 : (x + 0.5) | 0;
        const ip = (t * 0.1) | 0, f = t - ip * 10;
        if (ip < 10000) { const len = N[ip]; view.setUint32(n, L[ip] >>> ((4 - len) << 3), true); n += len; }
        else {
          const hi = (ip * 0.0001) | 0, len = N[hi]; // ip < 10^8: hi < 10^4 (0.0001 is slightly above 1/10^4)
          view.setUint32(n, L[hi] >>> ((4 - len) << 3), true); n += len;
          view.setUint32(n, L[ip - hi * 10000], true); n += 4;
        }
        if (f) { b[n] = 46; b[n + 1] = 48 + f; n += 2; }
      }
      b[n++] = 93;
      this.n = n;
    }
  }
  /** A value of 10^8 or more (a cost beyond 3 years, a distance beyond 100,000 km): as JSON.stringify writes it. */
  private big(n: number, t: number): number {
    const s = String(t / 10);
    for (let i = 0; i < s.length; i++) this.buf[n++] = s.charCodeAt(i);
    return n;
  }
  /** Snapped points as JSON array items (no brackets). */
  snapped(list: (Snap[] | null)[], from: number, to: number) {
    this.str(JSON.stringify(list.slice(from, to).map(snappedJson)).slice(1, -1));
  }
}

let writer = new ByteWriter();

/** Rows as ByteWriter.rows writes them, as text (for tests). */
export function rowsText(arr: Float64Array, rows: number, cols: number, secs: boolean): string {
  const w = new ByteWriter();
  w.rows(arr, rows, cols, secs);
  return Buffer.from(w.buf.subarray(0, w.n)).toString();
}

const snappedJson = (c: Snap[] | null) => c
  ? { lat: round(c[0].lat * 1e7) / 1e7, lng: round(c[0].lng * 1e7) / 1e7, distance_m: round(c[0].dist * 10) / 10 }
  : null;

/** The rows of a block as JSON text in a buffer of its own (to be moved to the main thread). */
function blockText(arr: Float64Array, rows: number, cols: number, secs: boolean): Uint8Array {
  const w = writer;
  w.n = 0;
  w.rows(arr, rows, cols, secs);
  return w.buf.slice(0, w.n);
}

/**
 * The whole answer as JSON bytes, or with `rows` a part (see the file comment); both in the
 * thread's reused buffer. With `stream` and a lane to send on (ctx.piece), the rows go ahead of the
 * part in blocks of BLOCK_CELLS cells, durations as stream 0 and distances as stream 1, and the
 * part's own sections of rows are empty: the thread never holds more than a block.
 */
export function matrixTask(args: MatrixArgs, ctx?: Pick<TaskContext, 'piece' | 'attached'>): JsonText | BinaryBody {
  // the request's points are checked once, for the side it writes and the rows it answers
  const ok = checked(args);
  let spaces: Uint8Array[] | undefined;
  if (args.phase === 'meet') {
    const buf = meetingBuffer(ctx?.attached);
    writeSide(args, buf, ok);
    spaces = readSides(args, buf);
  }
  const p = prepare(args, spaces, ok);
  const piece = args.stream && !p.tr?.traffic?.applied ? ctx?.piece : undefined;
  const part = !!args.rows || !!piece;
  const { r0, r1, cols, graph } = p, rows = r1 - r0;
  let w: ByteWriter, a: number, b: number, c: number, d: number, traffic = p.tr?.traffic;
  // what a large matrix leaves (cells, buckets, the writer) is given back once the thread is quiet
  if (rows * cols > KEEP_CELLS) releaseLater();
  if (piece) {
    const index = main.build(graph, p.dst.map(nearest), p.given?.dst), B = Math.max(1, Math.floor(BLOCK_CELLS / cols));
    for (let i = r0; i < r1; i += B) {
      const k = Math.min(B, r1 - i), [ms, metres] = cellScratch(k * cols);
      fillRows(p, index, i, i + k, ms, metres);
      piece(0, blockText(ms, k, cols, true));
      piece(1, blockText(metres, k, cols, false));
    }
    w = writer;
    w.n = a = b = c = d = 12;
  } else {
    const r = costsOf(p, true);
    traffic = r.traffic;
    // Grown once to what the answer can take, not by doubling (which left every smaller copy behind
    // as garbage); pages past what is written are never touched.
    const bound = 2 * rows * (cols * 24 + 8) + (rows + cols) * 64 + 4096;
    if (writer.buf.length < bound) writer = new ByteWriter(bound);
    w = writer;
    w.n = 0;
    if (part) w.n = 12; else w.str('{"durations_s":[');
    a = w.n;
    w.rows(r.ms, rows, cols, true);
    b = w.n;
    if (!part) w.str('],"distances_m":[');
    c = w.n;
    w.rows(r.metres, rows, cols, false);
    d = w.n;
  }
  if (!part) w.str('],"sources":[');
  const e = w.n;
  w.snapped(p.src, r0, r1);
  const f = w.n;
  // the rest of the object is read from the first part only (src/api/matrix.ts joinParts)
  if (!part || r0 === 0) {
    w.str(part ? '"destinations":[' : '],"destinations":[');
    w.snapped(p.dst, 0, p.dst.length);
    w.str(`],"mode":${JSON.stringify(graph.profile)},"extract":${JSON.stringify(graph.extract)}${graph.rules !== graph.profile ? `,"profile":${JSON.stringify(graph.rules)}` : ''}${traffic ? `,"traffic":${JSON.stringify(traffic)}` : ''}`);
  }
  if (!part) { w.str('}'); return new JsonText([w.buf.subarray(0, w.n)], true); }
  w.view.setUint32(0, b - a, true); w.view.setUint32(4, d - c, true); w.view.setUint32(8, f - e, true);
  return new BinaryBody(w.buf.subarray(0, w.n), true);
}
