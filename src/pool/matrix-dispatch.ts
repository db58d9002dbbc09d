// How a matrix is spread over the worker threads (task `route_matrix`, workers/routing/matrix):
// small ones whole on one thread; middling ones on every thread at once when every one is idle,
// the threads meeting in shared memory (src/core/meet.ts); large ones split by source rows, each
// part's rows coming back in blocks ahead of it (TaskReply.pieces). The parts are written out in
// order as pieces (joinParts), never parsed, decoded or joined into one buffer.
import type { TaskReply } from '../core/task.ts';
import type { MatrixArgs, TaskResult } from '../core/tasks/index.ts';
import { ATTRIBUTION_TAIL } from '../core/attribution.ts';
import { readPart } from '../core/matrix-part.ts';
import { meetBytes, meetLayout, meetLength, meetReset, MEET_FULL_ERROR } from '../core/meet.ts';
import type { WorkerPool } from './worker-pool.ts';

/** Above this many cells a matrix is split by rows over the worker threads and sent in pieces. */
export const SPLIT_CELLS = 40_000;
/**
 * From this many cells up to SPLIT_CELLS, a matrix is computed on every thread at once when every
 * one is idle and meetings are on (runMeeting); otherwise whole on one, so a busy server spends no
 * CPU on messages. Meetings are on by default only where a core is left beside the worker threads
 * (config MATRIX_MEET): on 2 cores with 2 worker threads, a meeting lost to one thread on every
 * graph measured, its second thread contending with the HTTP thread and the client (docs/routing.md).
 */
export const IDLE_SPLIT_CELLS = 2_500;

/** A route_matrix reply: the whole answer's JSON, a part's bytes, or an error. */
type MatrixTaskReply = TaskReply<TaskResult<'route_matrix'>>;

/** A matrix's answer: one task's reply (the whole matrix, or an error), or the parts' JSON in pieces. */
export type MatrixAnswer =
  | { kind: 'whole'; reply: MatrixTaskReply }
  /** `release` gives the parts' buffers back to their threads once the pieces are written */
  | { kind: 'parts'; chunks: Uint8Array[]; release: () => void };

/**
 * Runs the matrix: a large one split by rows over the threads, each part sending its rows ahead
 * in blocks (task arg `stream`), so no thread holds a large answer whole; a middling one on every
 * thread at once when `meet` and every thread is idle (IDLE_SPLIT_CELLS); else whole on one thread.
 */
export async function runMatrix(pool: WorkerPool, args: MatrixArgs, sandbox: boolean, meet: boolean): Promise<MatrixAnswer> {
  const rows = args.sources.length, cells = rows * args.destinations.length;
  const large = cells > SPLIT_CELLS;
  // traffic cells are each a search of their own (at most TRAFFIC_MATRIX_MAX_CELLS, checked on the whole): not split
  const idle = meet && !large && !args.traffic && cells >= IDLE_SPLIT_CELLS && pool.threads > 1 && pool.idleLanes === pool.threads;
  if (idle) return runMeeting(pool, args, sandbox);
  if (!large) return whole(pool, args, sandbox);
  const replies = await pool.runSpread(byRows(pool.threads, args, { stream: true }), sandbox, cells * 0.2);
  const bad = replies.find((r) => r.status !== 200);
  return bad ? { kind: 'whole', reply: bad } : { kind: 'parts', chunks: joinParts(replies), release: releaseAll(replies) };
}

const whole = async (pool: WorkerPool, args: MatrixArgs, sandbox: boolean): Promise<MatrixAnswer> =>
  ({ kind: 'whole', reply: await pool.run('route_matrix', args, sandbox) });

/** Gives the parts' reply buffers back to their threads once the answer is written. */
const releaseAll = (replies: TaskReply[]) => () => { for (const r of replies) r.release?.(); };

/** Balanced split of [0, n) into exactly k consecutive ranges (k ≤ n: none empty). */
export function split(n: number, k: number): [number, number][] {
  return Array.from({ length: k }, (_, i) => [Math.floor((i * n) / k), Math.floor(((i + 1) * n) / k)] as [number, number]);
}

/** The matrix as one task per thread, each over a range of source rows. */
function byRows(threads: number, args: MatrixArgs, extra: Partial<MatrixArgs>) {
  return split(args.sources.length, Math.min(threads, args.sources.length)).map((rows) => ({ op: 'route_matrix' as const, args: { ...args, ...extra, rows } }));
}

/**
 * Room for the search spaces of a meeting matrix, in Float64s per point: a point's candidates and
 * ~70 settled nodes on the 1M-node grid take ~220. Raised when a side runs out (its length is then
 * what it needed), so a graph with larger search spaces pays one whole-on-one-thread matrix.
 */
export const meetRoom = { perPoint: 512 };

/** The last meeting buffer, kept for the next matrix: a new one faults its pages in as it is written. */
let kept: SharedArrayBuffer | null = null;

/** How the sides of a meeting came back. */
type Meeting =
  | { kind: 'answered'; replies: MatrixTaskReply[] }
  /** a side ran out of room: every side answers MEET_FULL_ERROR */
  | { kind: 'out_of_room'; replies: MatrixTaskReply[] }
  | { kind: 'failed'; reply: MatrixTaskReply };

const decoder = new TextDecoder();
function isMeetFull(r: TaskReply): boolean {
  if (r.status !== MEET_FULL_ERROR.status) return false;
  try { return JSON.parse(decoder.decode(r.body))?.error?.code === MEET_FULL_ERROR.code; } catch { return false; }
}

function meetingOf(replies: MatrixTaskReply[]): Meeting {
  if (replies.some(isMeetFull)) return { kind: 'out_of_room', replies };
  const failed = replies.find((r) => r.status !== 200);
  return failed ? { kind: 'failed', reply: failed } : { kind: 'answered', replies };
}

/**
 * A matrix on every idle thread at once, meeting in shared memory (src/core/meet.ts): each thread
 * snaps a share of all the points and writes their upward search spaces, waits for the others,
 * then fills a share of the rows from every point's space. Split by rows alone, each thread would
 * repeat every destination's snapping and search: on the 1M-node grid a 100 × 100 half cost 73% of
 * the whole. Runs whole on one thread when the threads are no longer all idle or a side ran out of
 * room.
 */
async function runMeeting(pool: WorkerPool, args: MatrixArgs, sandbox: boolean): Promise<MatrixAnswer> {
  const S = args.sources.length, points = S + args.destinations.length;
  const sides = Math.min(pool.threads, S), parts = split(points, sides), rows = split(S, sides);
  const cap = meetRoom.perPoint * Math.ceil(points / sides);
  const buf = kept && kept.byteLength >= meetBytes(sides, cap) ? kept : new SharedArrayBuffer(meetBytes(sides, cap));
  kept = null;
  meetReset(buf, sides);
  const shared = [new Uint8Array(buf)];
  const sent = pool.runTogether(parts.map((part, side) => ({
    op: 'route_matrix' as const, args: { ...args, phase: 'meet' as const, part, side, sides, room: cap, rows: rows[side] }, attached: shared,
  })), sandbox, points * 15);
  if (!sent) return whole(pool, args, sandbox);
  const m = meetingOf(await sent);
  // every side has answered, so no thread reads or writes the buffer any more
  kept = buf;
  switch (m.kind) {
    case 'out_of_room': {
      const layout = meetLayout(buf, sides, cap)!;
      for (let k = 0; k < sides; k++) meetRoom.perPoint = Math.max(meetRoom.perPoint, Math.ceil((1.25 * meetLength(layout, k)) / (parts[k][1] - parts[k][0])));
      releaseAll(m.replies)();
      return whole(pool, args, sandbox);
    }
    case 'failed': return { kind: 'whole', reply: m.reply };
    case 'answered': return { kind: 'parts', chunks: joinParts(m.replies), release: releaseAll(m.replies) };
  }
}

const M_DUR = Buffer.from('{"durations_s":['), M_DIST = Buffer.from('],"distances_m":['), M_SRC = Buffer.from('],"sources":['), M_REST = Buffer.from('],'), COMMA = Buffer.from(',');
const TAIL = Buffer.from(ATTRIBUTION_TAIL);

/**
 * The whole answer's JSON as pieces, from parts holding consecutive row ranges (each part's rows
 * sent ahead, then its own sections); the rest of the object comes from the first.
 */
export function joinParts(parts: { body: Uint8Array; pieces?: Uint8Array[][] }[]): Uint8Array[] {
  const cut = parts.map((p) => readPart(p.body));
  const rowsOf = (k: 'dur' | 'dist', stream: number) => parts.flatMap((p, i) => [...(p.pieces?.[stream] ?? []), cut[i][k]]);
  const join = (list: Uint8Array[]) => list.filter((b) => b.byteLength).flatMap((b, i) => (i ? [COMMA, b] : [b]));
  return [M_DUR, ...join(rowsOf('dur', 0)), M_DIST, ...join(rowsOf('dist', 1)), M_SRC, ...join(cut.map((c) => c.src)), M_REST, cut[0].rest, TAIL];
}
