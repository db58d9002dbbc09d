// Task `route_matrix`: travel times and distances from every source to every destination.
//
//   args: { sources: [lat, lng][], destinations: [lat, lng][], mode?: 'driving'|'walk'|'cycle',
//           radius?: metres (snap radius, as /route), rows?: [from, to) — answer only these source rows }
//   answer (JSON bytes):
//     {"durations_s":[[…],…],"distances_m":[[…],…],"sources":[snapped|null,…],"destinations":[…],
//      "mode":"driving","extract":"…"}
//   rows = sources, columns = destinations; a cell is null when no route exists or a point has no
//   road within the radius (its snapped entry is null). snapped = {lat, lng, distance_m} of the
//   point's nearest road.
//   With `rows`, one part of a matrix split over threads, for src/api/matrix.ts to join without
//   parsing (readPart): three u32 (little-endian) byte lengths, then the durations rows `[…],[…]`,
//   the distances rows, the snapped sources of those rows `{…},null`, and the rest of the object
//   from `"destinations":` on, without its braces.
//
// Every cell equals what /route answers for that pair (the same candidates, phantom costs, same-edge
// shortcut and fallback, workers/routing/candidates.ts): duration_s and distance_m rounded to 0.1.
// Method: many-to-many CH with buckets (Knopp et al. 2007, as OSRM's table): one backward upward
// search per destination leaves (destination, ms, metres) in a bucket at each node it settles; one
// forward upward search per source scans the buckets of the nodes it settles. Work grows with
// (sources + destinations) × search space, not with their product, except the bucket scans.
// Other modules may call matrixCosts() directly (the trip optimiser does).
import { TaskError, JsonText, BinaryBody } from '../../src/core/task.ts';
import type { LoadedGraph } from './graphs.ts';
import { loadedGraphs } from './graphs.ts';
import { candidates, onComponentsNear, modeAndRadius, checkPoint } from './candidates.ts';
import { UpwardSearch, FORWARD, BACKWARD } from './upward.ts';
import type { Snap } from './snap.ts';
import { leg } from './route.ts';
import { searchFor, type TrafficArgs, type TrafficUse } from './traffic-search.ts';
import { TRAFFIC_MATRIX_MAX_CELLS } from '../../src/core/limits.ts';
import { collectSoon } from '../collect.ts';

export interface MatrixArgs extends TrafficArgs {
  sources: [number, number][];
  destinations: [number, number][];
  mode?: string;
  radius?: number;
  rows?: [number, number];
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
 * Buckets by node, contiguous: an open-addressing table node → [start, end) into col/d/m, sized to
 * the nodes the backward searches settled (never to the graph). Rebuilt per matrix into arrays
 * kept for the thread's next matrix.
 */
class Buckets {
  keys = new Int32Array(16); start = new Int32Array(16); end = new Int32Array(16); mask = 15;
  col = new Int32Array(1024); d = new Float64Array(1024); m = new Float64Array(1024);
  private slotOf = new Int32Array(1024);
  build(e: Entries): this {
    let cap = 16;
    while (cap < 2 * e.n) cap *= 2;
    this.mask = cap - 1;
    if (this.keys.length < cap) { this.keys = new Int32Array(cap); this.start = new Int32Array(cap); this.end = new Int32Array(cap); }
    else { this.keys.fill(0, 0, cap); this.end.fill(0, 0, cap); }
    if (this.col.length < e.n) {
      const k = Math.max(e.n, 2 * this.col.length);
      this.col = new Int32Array(k); this.d = new Float64Array(k); this.m = new Float64Array(k); this.slotOf = new Int32Array(k);
    }
    const slotOf = this.slotOf, keys = this.keys, start = this.start, end = this.end;
    for (let i = 0; i < e.n; i++) { const s = this.slot(e.node[i]); slotOf[i] = s; end[s]++; }
    let off = 0;
    for (let s = 0; s < cap; s++) if (keys[s]) { start[s] = off; off += end[s]; end[s] = start[s]; }
    const col = this.col, d = this.d, m = this.m, ec = e.col, ed = e.d, em = e.m;
    for (let i = 0; i < e.n; i++) { const k = end[slotOf[i]]++; col[k] = ec[i]; d[k] = ed[i]; m[k] = em[i]; }
    return this;
  }
  /** Slot of node x, inserted when absent. */
  private slot(x: number): number {
    const keys = this.keys, mask = this.mask, k = x + 1;
    for (let i = Math.imul(x, 0x9e3779b1) >>> 0 & mask; ; i = (i + 1) & mask) {
      if (keys[i] === k) return i;
      if (keys[i] === 0) { keys[i] = k; return i; }
    }
  }
  bytes(): number { return (this.mask + 1) * 12 + this.col.length * 24; }
}

/** Nodes a forward search settled, with their ms and metres, scanned against the buckets after the search. */
class Settled {
  n = 0;
  node = new Int32Array(256); d = new Float64Array(256); m = new Float64Array(256);
  push = (x: number, d: number, m: number) => {
    if (this.n === this.node.length) {
      const k = this.n * 2;
      const a = new Int32Array(k); a.set(this.node); this.node = a;
      const b = new Float64Array(k); b.set(this.d); this.d = b;
      const c = new Float64Array(k); c.set(this.m); this.m = c;
    }
    this.node[this.n] = x; this.d[this.n] = d; this.m[this.n] = m; this.n++;
  };
}

// The thread's state for the next matrix: a matrix runs start to end on one thread, and only one at a time.
let entries = new Entries(), buckets = new Buckets();
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

/** Both points on one edge: the cost (and metres) of driving straight along it, as leg() does, or null. */
function direct(graph: LoadedGraph, s: Snap, t: Snap): [number, number] | null {
  const g = graph.g, f = g.edgeFlags[s.edge], w = g.edgeW[s.edge];
  let best: number | null = null;
  if (f & 1 && s.pos <= t.pos) best = round((t.frac - s.frac) * w);
  if (f & 2 && s.pos >= t.pos) { const c = round((s.frac - t.frac) * w); if (best === null || c < best) best = c; }
  return best === null ? null : [best, Math.abs(t.pos - s.pos)];
}

/**
 * The bucket search: min over each source's and each destination's candidates (and the same-edge
 * shortcut) into ms/metres, row-major (sources × destinations); a null entry is skipped.
 * Returns the bytes of state it held.
 */
export function manyToMany(graph: LoadedGraph, src: (Snap[] | null)[], dst: (Snap[] | null)[], ms: Float64Array, metres: Float64Array): number {
  const cols = dst.length;
  const q = upward(graph);
  entries.clear();
  let j = 0;
  const add = (x: number, d: number, m: number) => entries.push(x, j, d, m);
  for (; j < cols; j++) {
    const c = dst[j];
    if (!c) continue;
    q.reset();
    for (const t of c) seedTarget(q, graph, t);
    q.run(BACKWARD, add);
  }
  const b = buckets.build(entries);
  const bytes = b.bytes() + entries.node.length * 24 + q.bytes();
  // destinations by snapped edge, for the same-edge shortcut
  const onEdge = new Map<number, [number, Snap][]>();
  for (let j = 0; j < cols; j++) for (const t of dst[j] ?? []) {
    const l = onEdge.get(t.edge);
    if (l) l.push([j, t]); else onEdge.set(t.edge, [[j, t]]);
  }
  const { keys, start, end, col: bc, d: bd, m: bm, mask } = b;
  const f = settled;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (!c) continue;
    const row = i * cols;
    q.reset();
    for (const s of c) seedSource(q, graph, s);
    f.n = 0;
    q.run(FORWARD, f.push);
    // A loop here rather than in the search's callback: the hot loop's arrays stay in registers.
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
      for (const [j, t] of onEdge.get(s.edge) ?? []) {
        const dc = direct(graph, s, t);
        if (dc && dc[0] <= ms[row + j]) { ms[row + j] = dc[0]; metres[row + j] = dc[1]; }
      }
    }
  }
  return Math.max(bytes, q.bytes() + b.bytes());
}

/**
 * The thread's arrays for the next matrix (cells here, answer bytes in `writer`, bucket entries
 * above) are kept and reused: allocating and faulting in ~40 MB per 1,000 × 1,000 request was a
 * third of the server's CPU. But a thread that answered one large matrix would hold them for the
 * rest of its life (issue 11 §6): after a matrix of more than KEEP_CELLS cells, RELEASE_MS without
 * another one gives them back (release()) and collects the garbage.
 */
export const KEEP_CELLS = 40_000;
export const RELEASE_MS = 1000;

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
  entries = new Entries(); buckets = new Buckets();
  collectSoon();
}

/** Bytes of the arrays this thread keeps for its next matrix (tests). */
export function keptBytes(): number {
  return cellMs.byteLength + cellMetres.byteLength + writer.buf.byteLength + entries.node.length * 24 + buckets.bytes();
}

/**
 * Costs of every cell in rows [r0, r1): see the file comment. With `scratch`, ms and metres are
 * the thread's reused arrays, valid until its next matrix.
 */
export function matrixCosts(args: MatrixArgs, scratch = false): MatrixCosts {
  const { mode, radius } = modeAndRadius(args);
  if (!Array.isArray(args.sources) || !args.sources.length) throw new TaskError(400, 'invalid_parameter', "Parameter 'sources' must list at least one point.");
  if (!Array.isArray(args.destinations) || !args.destinations.length) throw new TaskError(400, 'invalid_parameter', "Parameter 'destinations' must list at least one point.");
  const sp = args.sources.map((p, i) => checkPoint(p, `sources[${i}]`));
  const dp = args.destinations.map((p, i) => checkPoint(p, `destinations[${i}]`));
  const [r0, r1] = args.rows ?? [0, sp.length];
  if (!(Number.isInteger(r0) && Number.isInteger(r1) && r0 >= 0 && r0 < r1 && r1 <= sp.length)) throw new TaskError(400, 'invalid_parameter', "Parameter 'rows' is out of range.");
  const graph = pickGraph(mode, [...sp, ...dp], radius);
  const g = graph.g;
  const src = sp.map((p, i) => (i >= r0 && i < r1 ? candidates(graph, p[0], p[1], radius) : null));
  const dst = dp.map((p) => candidates(graph, p[0], p[1], radius));
  const cols = dp.length, rows = r1 - r0;
  const [ms, metres] = scratch ? cellScratch(rows * cols) : [new Float64Array(rows * cols).fill(Infinity), new Float64Array(rows * cols).fill(Infinity)];
  const tr = args.traffic && args.traffic !== 'none' ? searchFor(graph, args) : null;
  if (tr?.traffic?.applied) {
    trafficCells(graph, tr.q, src.slice(r0, r1), dst, ms, metres);
    return { graph, r0, r1, cols, ms, metres, src, dst, stateBytes: 0, traffic: tr.traffic };
  }
  let stateBytes = manyToMany(graph, src.slice(r0, r1), dst, ms, metres);

  // Cells no pair of candidates connects get choose()'s fallback: each point's candidates on every
  // SCC within the radius (computed once per point), through the same search on those rows and columns.
  const rowsX: number[] = [], colsX = new Set<number>();
  for (let i = 0; i < rows; i++) {
    if (!src[r0 + i]) continue;
    let any = false;
    for (let j = 0; j < cols; j++) if (ms[i * cols + j] === Infinity && dst[j]) { any = true; colsX.add(j); }
    if (any) rowsX.push(i);
  }
  if (rowsX.length) {
    const cj = [...colsX];
    const es = rowsX.map((i) => src[r0 + i]!.concat(onComponentsNear(graph, sp[r0 + i], src[r0 + i]!, radius)));
    const ed = cj.map((j) => dst[j]!.concat(onComponentsNear(graph, dp[j], dst[j]!, radius)));
    const xm = new Float64Array(rowsX.length * cj.length).fill(Infinity), xd = new Float64Array(rowsX.length * cj.length).fill(Infinity);
    stateBytes = Math.max(stateBytes, manyToMany(graph, es, ed, xm, xd));
    for (let a = 0; a < rowsX.length; a++) for (let c = 0; c < cj.length; c++) {
      const cell = rowsX[a] * cols + cj[c];
      if (ms[cell] === Infinity) { ms[cell] = xm[a * cj.length + c]; metres[cell] = xd[a * cj.length + c]; }
    }
  }
  return { graph, r0, r1, cols, ms, metres, src, dst, stateBytes, ...(tr ? { traffic: tr.traffic } : {}) };
}

/**
 * Traffic-aware cells: the weights change under a CH, so each cell is a leg of its own over the
 * traffic search (the cheapest pair of candidates), as /route?traffic= answers it.
 */
function trafficCells(graph: LoadedGraph, q: ReturnType<typeof searchFor>['q'], src: (Snap[] | null)[], dst: (Snap[] | null)[], ms: Float64Array, metres: Float64Array) {
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
      for (const s of a) for (const t of b) {
        const l = leg(graph.g, q, s, t);
        if (l && l.cost < ms[i * cols + j]) { ms[i * cols + j] = l.cost; metres[i * cols + j] = l.dist; }
      }
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

/** The whole answer as JSON bytes, or with `rows` a part (see the file comment); both in the thread's reused buffer. */
export function matrixTask(args: MatrixArgs): JsonText | BinaryBody {
  const r = matrixCosts(args, true);
  const part = !!args.rows;
  const rows = r.r1 - r.r0, cols = r.cols;
  // Grown once to what the answer can take, not by doubling (which left every smaller copy behind
  // as garbage); pages past what is written are never touched.
  const bound = 2 * rows * (cols * 24 + 8) + (rows + cols) * 64 + 4096;
  if (writer.buf.length < bound) writer = new ByteWriter(bound);
  if (rows * cols > KEEP_CELLS) releaseLater();
  const w = writer;
  w.n = 0;
  if (part) w.n = 12; else w.str('{"durations_s":[');
  const a = w.n;
  w.rows(r.ms, rows, cols, true);
  const b = w.n;
  if (!part) w.str('],"distances_m":[');
  const c = w.n;
  w.rows(r.metres, rows, cols, false);
  const d = w.n;
  if (!part) w.str('],"sources":[');
  const e = w.n;
  w.snapped(r.src, r.r0, r.r1);
  const f = w.n;
  w.str(part ? '"destinations":[' : '],"destinations":[');
  w.snapped(r.dst, 0, r.dst.length);
  w.str(`],"mode":${JSON.stringify(r.graph.profile)},"extract":${JSON.stringify(r.graph.extract)}${r.traffic ? `,"traffic":${JSON.stringify(r.traffic)}` : ''}`);
  if (!part) { w.str('}'); return new JsonText([w.buf.subarray(0, w.n)], true); }
  w.view.setUint32(0, b - a, true); w.view.setUint32(4, d - c, true); w.view.setUint32(8, f - e, true);
  return new BinaryBody(w.buf.subarray(0, w.n), true);
}
