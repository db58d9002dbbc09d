// A matrix on several threads at once (MatrixArgs.phase 'meet', src/core/meet.ts): each side
// writes the upward search spaces of its share of the points into shared memory, waits for the
// other sides, and reads every side's back (prepare.ts readSpaces) to answer its rows.
import { TaskError } from '../../../src/core/task.ts';
import type { MatrixArgs } from '../../../src/core/tasks/index.ts';
import { meetLayout, meetRegion, meetPublish, meetWait, meetLength, MEET_PENDING, MEET_WRITTEN, MEET_FULL, MEET_FULL_ERROR } from '../../../src/core/meet.ts';
import { candidates, nearestRoad } from '../locate/candidates.ts';
import { FORWARD, BACKWARD } from '../search/upward.ts';
import { upward, searchFrom } from './buckets.ts';
import { checked } from './prepare.ts';



/** How long a side waits for the others before it answers 503 (a thread that died, a stalled machine). */
export const MEET_TIMEOUT_MS = 5000;

/**
 * Writes side `side` of a meeting matrix into its region of the shared buffer: points
 * [part[0], part[1]) of sources ++ destinations, each as its candidate count, its candidates
 * (edge, pt, pos, frac, lat, lng, dist) and, with any, the count and the quadruples (node, weight,
 * ms, metres) its upward search settled, forward for a source and backward for a destination. Publishes the
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
    const f = searchFrom(q, graph, nearestRoad(c), i < S ? FORWARD : BACKWARD);
    put(f.n);
    for (let k = 0; k < f.n; k++) { put(f.node[k]); put(f.d[k]); put(f.t[k]); put(f.m[k]); }
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
  if (full) throw new TaskError(MEET_FULL_ERROR.status, MEET_FULL_ERROR.code, 'The search spaces did not fit the shared buffer.');
  return out;
}

function layoutOf(args: MatrixArgs, buf: SharedArrayBuffer) {
  const side = args.side, m = meetLayout(buf, args.sides ?? 0, args.room ?? 0);
  if (!m || !(Number.isInteger(side) && side! >= 0 && side! < m.sides)) throw new TaskError(400, 'invalid_parameter', "Parameters 'side', 'sides' and 'room' do not fit the matrix's shared buffer.");
  return m;
}

/** The shared buffer a meeting matrix's task is given (TaskContext.attached). */
export function meetingBuffer(attached?: Uint8Array[]): SharedArrayBuffer {
  const b = attached?.[0]?.buffer;
  if (!(b instanceof SharedArrayBuffer)) throw new TaskError(400, 'invalid_parameter', "Phase 'meet' needs its shared buffer.");
  return b;
}

