// Task `route_matrix`: travel times and distances from every source to every destination.
//
//   args: { sources: [lat, lng][], destinations: [lat, lng][], mode?: 'driving'|'walk'|'cycle',
//           radius?: metres (snap radius, as /route), rows?: [from, to) — answer only these source rows }
//   answer (JSON text, in this member order, which src/api/matrix.ts relies on to join row ranges):
//     {"durations_s":[[…],…],"distances_m":[[…],…],"sources":[snapped|null,…],"destinations":[…],
//      "mode":"driving","extract":"…"}
//   rows = sources (only rows [from, to) when `rows` is given), columns = destinations; a cell is
//   null when no route exists or a point has no road within the radius (its snapped entry is null).
//   snapped = {lat, lng, distance_m} of the point's nearest road.
//
// Every cell equals what /route answers for that pair (the same candidates, phantom costs, same-edge
// shortcut and fallback, workers/routing/candidates.ts): duration_s and distance_m rounded to 0.1.
// Method: many-to-many CH with buckets (Knopp et al. 2007, as OSRM's table): one backward upward
// search per destination leaves (destination, ms, metres) in a bucket at each node it settles; one
// forward upward search per source scans the buckets of the nodes it settles. Work grows with
// (sources + destinations) × search space, not with their product, except the bucket scans.
// Other modules may call matrixCosts() directly (the trip optimiser does).
import { TaskError, JsonText } from '../../src/core/task.ts';
import type { LoadedGraph } from './graphs.ts';
import { loadedGraphs } from './graphs.ts';
import { candidates, onComponentsNear, modeAndRadius, checkPoint } from './candidates.ts';
import { UpwardSearch, FORWARD, BACKWARD } from './upward.ts';
import type { Snap } from './snap.ts';
import { leg } from './route.ts';
import { searchFor, type TrafficArgs, type TrafficUse } from './traffic-search.ts';
import { TRAFFIC_MATRIX_MAX_CELLS } from '../../src/core/limits.ts';

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
 * the nodes the backward searches settled (never to the graph).
 */
class Buckets {
  keys: Int32Array; start: Int32Array; end: Int32Array; mask: number;
  col: Int32Array; d: Float64Array; m: Float64Array;
  constructor(e: Entries) {
    let cap = 16;
    while (cap < 2 * e.n) cap *= 2;
    this.mask = cap - 1;
    this.keys = new Int32Array(cap); this.start = new Int32Array(cap); this.end = new Int32Array(cap);
    const slotOf = new Int32Array(e.n);
    for (let i = 0; i < e.n; i++) { const s = this.slot(e.node[i], true); slotOf[i] = s; this.end[s]++; }
    let off = 0;
    for (let s = 0; s < cap; s++) if (this.keys[s]) { this.start[s] = off; off += this.end[s]; this.end[s] = this.start[s]; }
    this.col = new Int32Array(e.n); this.d = new Float64Array(e.n); this.m = new Float64Array(e.n);
    for (let i = 0; i < e.n; i++) { const k = this.end[slotOf[i]]++; this.col[k] = e.col[i]; this.d[k] = e.d[i]; this.m[k] = e.m[i]; }
  }
  /** Slot of node x (inserted when `add`), -1 when absent. */
  slot(x: number, add = false): number {
    const keys = this.keys, mask = this.mask, k = x + 1;
    for (let i = Math.imul(x, 0x9e3779b1) >>> 0 & mask; ; i = (i + 1) & mask) {
      if (keys[i] === k) return i;
      if (keys[i] === 0) { if (!add) return -1; keys[i] = k; return i; }
    }
  }
  bytes(): number { return this.keys.length * 12 + this.col.length * 20; }
}

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
  const entries = new Entries();
  for (let j = 0; j < cols; j++) {
    const c = dst[j];
    if (!c) continue;
    q.reset();
    for (const t of c) seedTarget(q, graph, t);
    q.run(BACKWARD, (x, d, m) => entries.push(x, j, d, m));
  }
  const b = new Buckets(entries);
  const bytes = b.bytes() + entries.node.length * 24 + q.bytes();
  // destinations by snapped edge, for the same-edge shortcut
  const onEdge = new Map<number, [number, Snap][]>();
  for (let j = 0; j < cols; j++) for (const t of dst[j] ?? []) {
    const l = onEdge.get(t.edge);
    if (l) l.push([j, t]); else onEdge.set(t.edge, [[j, t]]);
  }
  const { keys, start, end, col: bc, d: bd, m: bm, mask } = b;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (!c) continue;
    const row = i * cols;
    q.reset();
    for (const s of c) seedSource(q, graph, s);
    q.run(FORWARD, (x, d, m) => {
      const k = x + 1;
      let s = Math.imul(x, 0x9e3779b1) >>> 0 & mask;
      while (keys[s] !== k) { if (keys[s] === 0) return; s = (s + 1) & mask; }
      for (let e = start[s], z = end[s]; e < z; e++) {
        const cost = d + bd[e], cell = row + bc[e];
        if (cost < ms[cell]) { ms[cell] = cost; metres[cell] = m + bm[e]; }
      }
    });
    for (const s of c) {
      for (const [j, t] of onEdge.get(s.edge) ?? []) {
        const dc = direct(graph, s, t);
        if (dc && dc[0] <= ms[row + j]) { ms[row + j] = dc[0]; metres[row + j] = dc[1]; }
      }
    }
  }
  return Math.max(bytes, q.bytes() + b.bytes());
}

/** Costs of every cell in rows [r0, r1): see the file comment. */
export function matrixCosts(args: MatrixArgs): MatrixCosts {
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
  const ms = new Float64Array(rows * cols).fill(Infinity), metres = new Float64Array(rows * cols).fill(Infinity);
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

// ---- JSON text, written as bytes: 2 × 1,000,000 numbers through JSON.stringify cost ~0.3 s ----

class ByteWriter {
  buf = new Uint8Array(1 << 16);
  n = 0;
  ensure(k: number) {
    if (this.n + k <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.n + k) cap *= 2;
    const b = new Uint8Array(cap); b.set(this.buf.subarray(0, this.n)); this.buf = b;
  }
  ascii(s: string) { this.ensure(s.length); for (let i = 0; i < s.length; i++) this.buf[this.n++] = s.charCodeAt(i); }

  /**
   * One row as [v,v,null,…] (a comma first unless it is the first row): seconds from ms, or metres,
   * each rounded to 0.1 as /route's round1 does.
   */
  row(arr: Float64Array, off: number, cols: number, secs: boolean) {
    this.ensure(cols * 24 + 4);
    const b = this.buf;
    let n = this.n;
    if (b[n - 1] === 93) b[n++] = 44; // "]," between rows
    b[n++] = 91;
    for (let j = 0; j < cols; j++) {
      if (j) b[n++] = 44;
      const v = arr[off + j];
      if (v === Infinity) { b[n++] = 110; b[n++] = 117; b[n++] = 108; b[n++] = 108; continue; }
      const t = secs ? Math.round((v / 1000) * 10) : Math.round(v * 10);
      let ip = (t / 10) | 0;
      const f = t - ip * 10;
      // digits of ip, last first, into their places
      const d = ip < 10 ? 1 : ip < 100 ? 2 : ip < 1000 ? 3 : ip < 10000 ? 4 : ip < 100000 ? 5 : ip < 1000000 ? 6 : ip < 10000000 ? 7 : ip < 100000000 ? 8 : 10;
      const len = d === 10 ? String(ip).length : d;
      for (let k = n + len - 1; k >= n; k--) { const q = (ip / 10) | 0; b[k] = 48 + ip - q * 10; ip = q; }
      n += len;
      if (f) { b[n++] = 46; b[n++] = 48 + f; }
    }
    b[n++] = 93;
    this.n = n;
  }
  text(): string { return Buffer.from(this.buf.buffer, 0, this.n).toString('latin1'); }
}

const snappedJson = (c: Snap[] | null) => c
  ? { lat: round(c[0].lat * 1e7) / 1e7, lng: round(c[0].lng * 1e7) / 1e7, distance_m: round(c[0].dist * 10) / 10 }
  : null;

export function matrixTask(args: MatrixArgs): JsonText {
  const r = matrixCosts(args);
  const w = new ByteWriter();
  const rows = r.r1 - r.r0, cols = r.cols;
  for (const [name, arr] of [['durations_s', r.ms], ['distances_m', r.metres]] as const) {
    const secs = name === 'durations_s';
    w.ascii(secs ? '{"durations_s":[' : '],"distances_m":[');
    for (let i = 0; i < rows; i++) w.row(arr, i * cols, cols, secs);
  }
  w.ascii('],"sources":');
  w.ascii(JSON.stringify(r.src.slice(r.r0, r.r1).map(snappedJson)));
  w.ascii(',"destinations":');
  w.ascii(JSON.stringify(r.dst.map(snappedJson)));
  w.ascii(`,"mode":${JSON.stringify(r.graph.profile)},"extract":${JSON.stringify(r.graph.extract)}${r.traffic ? `,"traffic":${JSON.stringify(r.traffic)}` : ''}}`);
  return new JsonText(w.text());
}
