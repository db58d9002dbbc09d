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
//   With `rows`, one part of a matrix split over threads, in the layout of src/core/matrix-part.ts,
//   for the pool's matrix dispatch to join without parsing. With `stream` (on a lane), a part whose
//   rows came ahead as pieces: its two sections of rows are empty.
//
// Every cell equals what /route answers for that pair (the same candidates, phantom costs, same-edge
// shortcut and fallback, workers/routing/locate/candidates.ts): duration_s and distance_m rounded to 0.1.
// Method: many-to-many CH with buckets (Knopp et al. 2007, as OSRM's table) over the edge-based
// hierarchy: one backward upward search per destination leaves (destination, weight, ms, metres) in
// a bucket at each node it settles; one forward upward search per source scans the buckets of the
// nodes it settles. A cell is the path of least routing weight, as a route's leg; it answers that
// path's time and metres. Work grows with
// (sources + destinations) × search space, not with their product, except the bucket scans.
// Other modules may call matrixCosts() directly (the trip optimiser does).
import { JsonText, BinaryBody, type TaskContext } from '../../../src/core/task.ts';
import type { MatrixArgs, MatrixReply, TrafficUse } from '../../../src/core/tasks/index.ts';
import { PART_HEAD_BYTES, writePartHead } from '../../../src/core/matrix-part.ts';
import type { LoadedGraph } from '../graphs.ts';
import type { Snap } from '../locate/snap.ts';
import { onComponentsNear, leastMovedPair, moved, nearestRoad, bigRoad } from '../locate/candidates.ts';
import { collectSoon } from '../../collect.ts';
import { openCells, type BucketIndex, type Cells } from './buckets.ts';
import { indexes, freshIndexes } from './many-to-many.ts';
import { prepare, checked, type Prepared } from './prepare.ts';
import { writeSide, readSides, meetingBuffer } from './meeting.ts';
import { trafficCells } from './traffic-cells.ts';
import { ByteWriter, matrixWriter, freshWriter, blockText } from './json.ts';
export type { MatrixArgs };

/**
 * Costs of a matrix: per cell the ms and metres of its path of least routing weight (Infinity
 * where unreachable), row-major over rows [r0, r1); `weight` is that weight (not with traffic,
 * whose cells are legs of their own).
 */
export interface MatrixCosts {
  graph: LoadedGraph;
  r0: number; r1: number; cols: number;
  ms: Float64Array;
  metres: Float64Array;
  weight?: Float64Array;
  src: (Snap[] | null)[];
  dst: (Snap[] | null)[];
  /** bytes of bucket and search state this computation held at its peak */
  stateBytes: number;
  /** What traffic applied (traffic=live|forecast only). */
  traffic?: TrafficUse | null;
}

/** A point's nearest road (with its twin: locate/candidates.ts nearestRoad), or null. */
const nearest = (c: Snap[] | null): Snap[] | null => (c ? nearestRoad(c) : null);
/** A point's big-component alternative (locate/candidates.ts bigRoad), or null. */
const bigAlt = (c: Snap[] | null): Snap[] | null => (c ? bigRoad(c) : null);

/**
 * Cells of source rows [i0, i1) (row-major from row i0), `index` built over the
 * destinations' nearest roads (nearest(p.dst)). As /route picks candidates (choose(),
 * locate/candidates.ts): first every cell between the points' nearest roads; a cell left open then
 * takes, among the pairs of nearest and big-component candidates that route, the one that moves its
 * two points least, then the lightest (three more bucket passes, only over the open rows and
 * columns); a cell still open gets choose()'s fallback onto every SCC within the radius: a bucket
 * pass over those candidates finds which cells any of them connects, and only those are chosen pair
 * by pair as /route does (leastMovedPair). A cell depends only on its row and column, so rows
 * computed in blocks equal rows computed at once.
 */
export function fillRows(p: Prepared, index: BucketIndex, i0: number, i1: number, cells: Cells): number {
  const { graph, src, dst, cols } = p, rows = i1 - i0;
  const { weight, ms, metres } = cells;
  const spare = indexes.spare;
  index.scan(src.slice(i0, i1).map(nearest), cells, p.given?.src.slice(i0, i1));
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
  const cjB = cj.filter((j) => bigAlt(dst[j]) !== null);
  const R = rowsX.length, C = cjB.length;
  const bn = openCells(R * cols), nb = openCells(R * C), bb = openCells(R * C);
  if (sB.some((x) => x)) index.scan(sB, bn);
  if (C) {
    spare.build(graph, cjB.map((j) => bigAlt(dst[j])));
    spare.scan(sN, nb);
    if (sB.some((x) => x)) spare.scan(sB, bb);
    bytes = Math.max(bytes, spare.bytes);
  }
  const colB = new Int32Array(cols).fill(-1);
  cjB.forEach((j, c) => { colB[j] = c; });
  for (let a = 0; a < R; a++) {
    const i = rowsX[a], s = src[i0 + i]!;
    for (const j of cj) {
      const cell = i * cols + j;
      if (ms[cell] !== Infinity) continue;
      const t = dst[j]!, c = colB[j], sAlt = bigAlt(s), tAlt = c >= 0 ? bigAlt(t)! : null;
      // each pair that routes (moved decimetres, its cells and cell): the least moved, then the lightest
      let bm = Infinity, bw = Infinity, bt = Infinity, bd = Infinity;
      const offer = (m: number, x: Cells, k: number) => {
        const w = x.weight[k];
        if (w === Infinity) return;
        if (m < bm || (m === bm && w < bw)) { bm = m; bw = w; bt = x.ms[k]; bd = x.metres[k]; }
      };
      if (sAlt) offer(moved(sAlt[0]) + moved(t[0]), bn, a * cols + j);
      if (tAlt) {
        offer(moved(s[0]) + moved(tAlt[0]), nb, a * C + c);
        if (sAlt) offer(moved(sAlt[0]) + moved(tAlt[0]), bb, a * C + c);
      }
      weight[cell] = bw; ms[cell] = bt; metres[cell] = bd;
    }
  }
  ({ rowsX, cj } = open());
  if (!rowsX.length) return bytes;
  // Pass 3: which open cells any candidate on an SCC within the radius connects, then those cells
  // chosen as /route chooses.
  const es = rowsX.map((i) => src[i0 + i]!.concat(onComponentsNear(graph, p.sp[i0 + i], src[i0 + i]!, p.radius)));
  const ed = cj.map((j) => (p.dstAll[j] ??= dst[j]!.concat(onComponentsNear(graph, p.dp[j], dst[j]!, p.radius))));
  const x = openCells(rowsX.length * cj.length);
  spare.build(graph, ed).scan(es, x);
  bytes = Math.max(bytes, spare.bytes);
  for (let a = 0; a < rowsX.length; a++) for (let c = 0; c < cj.length; c++) {
    const i = rowsX[a], j = cj[c], cell = i * cols + j;
    if (ms[cell] !== Infinity || x.weight[a * cj.length + c] === Infinity) continue;
    // what choose() picks for the two points once extended (es, ed are those candidates)
    const l = leastMovedPair(graph, es[a], ed[c]);
    if (l) { weight[cell] = l.weight; ms[cell] = l.cost; metres[cell] = l.dist; }
  }
  return bytes;
}

/**
 * The thread's arrays for the next matrix (cells here, answer bytes in `writer`, bucket entries
 * above) are kept and reused: allocating and faulting in ~40 MB per 1,000 × 1,000 request was a
 * third of the server's CPU. But a thread that answered one large matrix would hold them for the
 * rest of its life: after a matrix of more than KEEP_CELLS cells, RELEASE_MS without
 * another one gives them back (release()) and collects the garbage. A matrix sent in pieces
 * (matrixTask) holds only a block of BLOCK_CELLS cells at a time.
 */
export const KEEP_CELLS = 40_000;
export const RELEASE_MS = 1000;
/** Cells per block of a matrix sent in pieces: 512 KB of cells and ~0.5 MB of text. */
export const BLOCK_CELLS = 32_768;

let cellW = new Float64Array(0), cellMs = new Float64Array(0), cellMetres = new Float64Array(0);
function cellScratch(n: number): Cells {
  if (cellMs.length < n) { cellW = new Float64Array(n); cellMs = new Float64Array(n); cellMetres = new Float64Array(n); }
  return { weight: cellW.subarray(0, n).fill(Infinity), ms: cellMs.subarray(0, n).fill(Infinity), metres: cellMetres.subarray(0, n).fill(Infinity) };
}

let releaseTimer: ReturnType<typeof setTimeout> | null = null;
function releaseLater() {
  if (releaseTimer) releaseTimer.refresh();
  else releaseTimer = setTimeout(release, RELEASE_MS).unref();
}
function release() {
  releaseTimer = null;
  cellW = new Float64Array(0); cellMs = new Float64Array(0); cellMetres = new Float64Array(0);
  freshWriter();
  freshIndexes();
  collectSoon();
}

/** Bytes of the arrays this thread keeps for its next matrix (tests). */
export function keptBytes(): number {
  return cellW.byteLength + cellMs.byteLength + cellMetres.byteLength + matrixWriter().buf.byteLength + indexes.main.bytes + indexes.spare.bytes;
}

/**
 * Costs of every cell in rows [r0, r1): see the file comment. With `scratch`, the cells are the
 * thread's reused arrays, valid until its next matrix.
 */
export function matrixCosts(args: MatrixArgs, scratch = false): MatrixCosts {
  return costsOf(prepare(args), scratch);
}

function costsOf(p: Prepared, scratch: boolean): MatrixCosts {
  const { graph, r0, r1, cols, src, dst, tr } = p, rows = r1 - r0;
  const cells = scratch ? cellScratch(rows * cols) : openCells(rows * cols), { ms, metres } = cells;
  if (tr?.traffic?.applied) {
    trafficCells(graph, tr.q, src.slice(r0, r1), dst, p.sp.slice(r0, r1), p.dp, p.radius, ms, metres);
    return { graph, r0, r1, cols, ms, metres, src, dst, stateBytes: 0, traffic: tr.traffic };
  }
  const stateBytes = fillRows(p, indexes.main.build(graph, dst.map(nearest), p.given?.dst), r0, r1, cells);
  return { graph, r0, r1, cols, ms, metres, weight: cells.weight, src, dst, stateBytes, ...(tr ? { traffic: tr.traffic } : {}) };
}

/**
 * The whole answer as JSON bytes, or with `rows` a part (see the file comment); both in the
 * thread's reused buffer. With `stream` and a lane to send on (ctx.piece), the rows go ahead of the
 * part in blocks of BLOCK_CELLS cells, durations as stream 0 and distances as stream 1, and the
 * part's own sections of rows are empty: the thread never holds more than a block.
 */
export function matrixTask(args: MatrixArgs, ctx?: Pick<TaskContext, 'piece' | 'attached'>): JsonText<MatrixReply> | BinaryBody {
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
    const index = indexes.main.build(graph, p.dst.map(nearest), p.given?.dst), B = Math.max(1, Math.floor(BLOCK_CELLS / cols));
    for (let i = r0; i < r1; i += B) {
      const k = Math.min(B, r1 - i), cells = cellScratch(k * cols);
      fillRows(p, index, i, i + k, cells);
      piece(0, blockText(cells.ms, k, cols, true));
      piece(1, blockText(cells.metres, k, cols, false));
    }
    w = matrixWriter();
    w.n = a = b = c = d = PART_HEAD_BYTES;
  } else {
    const r = costsOf(p, true);
    traffic = r.traffic;
    // Grown once to what the answer can take, not by doubling (which left every smaller copy behind
    // as garbage); pages past what is written are never touched.
    const bound = 2 * rows * (cols * 24 + 8) + (rows + cols) * 64 + 4096;
    w = matrixWriter(bound);
    w.n = 0;
    if (part) w.n = PART_HEAD_BYTES; else w.str('{"durations_s":[');
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
  // the rest of the object is read from the first part only (src/pool/matrix-dispatch.ts joinParts)
  if (!part || r0 === 0) {
    w.str(part ? '"destinations":[' : '],"destinations":[');
    w.snapped(p.dst, 0, p.dst.length);
    w.str(`],"mode":${JSON.stringify(graph.profile)},"extract":${JSON.stringify(graph.extract)}${graph.rules !== graph.profile ? `,"profile":${JSON.stringify(graph.rules)}` : ''}${traffic ? `,"traffic":${JSON.stringify(traffic)}` : ''}`);
  }
  if (!part) { w.str('}'); return new JsonText([w.buf.subarray(0, w.n)], true); }
  writePartHead(w.view, b - a, d - c, f - e);
  return new BinaryBody(w.buf.subarray(0, w.n), true);
}
