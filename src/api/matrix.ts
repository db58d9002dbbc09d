// GET and POST /route/matrix: durations and distances from every source to every destination
// (workers/routing/matrix.ts, task `route_matrix`). Large matrices are split by source rows over
// the worker threads (Engine.runSpread), each part's rows coming back in blocks ahead of it
// (TaskReply.pieces); they are written out in order (Reply `chunks`), never parsed, decoded or
// joined into one buffer.
import type { Reply, RouteDef, AppContext } from '../http/types.ts';
import { route } from '../http/types.ts';
import type { TaskReply } from '../core/task.ts';
import { ATTRIBUTION_TAIL } from '../core/attribution.ts';
import { HttpError } from '../http/types.ts';
import { Q } from '../http/declaration.ts';
import { departAt } from './route.ts';
import { MODE_VALUES, travelMode } from '../core/modes.ts';
import { MATRIX_LIMITS, SNAP_RADIUS, TRAFFIC_MATRIX_MAX_CELLS } from '../core/limits.ts';
import { meetBytes, meetLayout, meetLength, meetReset } from '../core/meet.ts';
import { POINT } from '../core/points.ts';

/** Above this many cells a matrix is split by rows over the worker threads and sent in pieces. */
export const SPLIT_CELLS = 40_000;
/**
 * From this many cells up to SPLIT_CELLS, a matrix is computed on every thread at once when every
 * one is idle (runMeeting); otherwise whole on one, so a busy server spends no CPU on messages.
 */
export const IDLE_SPLIT_CELLS = 2_500;

const point = POINT;
const modeSchema = { type: 'string', enum: MODE_VALUES, default: 'driving' };
const rowsOf = (t: string) => ({ type: 'array', items: { type: 'array', items: { type: ['number', 'null'] } }, description: t });
const snappedList = { type: 'array', items: { type: ['object', 'null'], properties: { lat: { type: 'number' }, lng: { type: 'number' }, distance_m: { type: 'number' } } } };
const responses = {
  200: {
    description: 'The matrix: rows are sources, columns destinations; null where no route exists',
    schema: {
      type: 'object', required: ['durations_s', 'distances_m', 'sources', 'destinations'],
      properties: {
        durations_s: rowsOf('seconds, 0.1 s'), distances_m: rowsOf('metres, 0.1 m'),
        sources: snappedList, destinations: snappedList, mode: { type: 'string' }, extract: { type: 'string' },
        traffic: { type: ['object', 'null'] },
      },
    },
  },
  400: { description: 'Invalid parameter, too many cells, out_of_coverage' },
  501: { description: 'Truck or transit routing' },
};

function checkSize(sources: unknown[], destinations: unknown[], maxPoints: number) {
  for (const [name, list] of [['sources', sources], ['destinations', destinations]] as const) {
    if (list.length === 0) throw new HttpError(400, 'invalid_parameter', `Parameter '${name}' must list at least one point.`);
    if (list.length > maxPoints) throw new HttpError(400, 'invalid_parameter', `Parameter '${name}' lists ${list.length} points; at most ${maxPoints} per request${maxPoints < MATRIX_LIMITS.maxPoints ? ` (POST up to ${MATRIX_LIMITS.maxPoints})` : ''}.`);
  }
  const cells = sources.length * destinations.length;
  if (cells > MATRIX_LIMITS.maxCells) throw new HttpError(400, 'invalid_parameter', `The matrix has ${cells} cells (sources × destinations); at most ${MATRIX_LIMITS.maxCells}.`);
}

type MatrixArgs = { sources: [number, number][]; destinations: [number, number][]; mode: string; radius: number; traffic?: string; depart_at?: number };

/**
 * Runs the matrix; a large one split by rows over the threads, each part sending its rows ahead in
 * blocks (task arg `stream`), so no thread holds a large answer whole; a middling one
 * on every thread at once when every thread is idle (IDLE_SPLIT_CELLS). The answer as one body or as pieces
 * in order.
 */
export async function runMatrix(ctx: AppContext, args: MatrixArgs, sandbox: boolean): Promise<Reply> {
  const rows = args.sources.length, cells = rows * args.destinations.length, engine = ctx.engine;
  const large = cells > SPLIT_CELLS;
  // traffic cells are each a search of their own (at most TRAFFIC_MATRIX_MAX_CELLS, checked on the whole): not split
  const idle = !large && !args.traffic && cells >= IDLE_SPLIT_CELLS && engine.threads > 1 && engine.idleLanes === engine.threads;
  if (idle) return runMeeting(ctx, args, sandbox);
  if (!large) return { task: await engine.run('route_matrix', args, sandbox) };
  const replies = await engine.runSpread(byRows(engine.threads, args, { stream: true }), sandbox, cells * 0.2);
  const bad = replies.find((r) => r.status !== 200);
  return bad ? { task: bad } : { status: 200, chunks: joinParts(replies), release: releaseAll(replies) };
}

/** Gives the parts' reply buffers back to their threads once the answer is written. */
const releaseAll = (replies: TaskReply[]) => () => { for (const r of replies) r.release?.(); };

/** Balanced split of [0, n) into exactly k consecutive ranges (k ≤ n: none empty). */
function split(n: number, k: number): [number, number][] {
  return Array.from({ length: k }, (_, i) => [Math.floor((i * n) / k), Math.floor(((i + 1) * n) / k)] as [number, number]);
}

/** The matrix as one task per thread, each over a range of source rows. */
function byRows(threads: number, args: MatrixArgs, extra: object) {
  return split(args.sources.length, Math.min(threads, args.sources.length)).map((rows) => ({ op: 'route_matrix', args: { ...args, ...extra, rows } }));
}

/**
 * Room for the search spaces of a meeting matrix, in Float64s per point: a point's candidates and
 * ~70 settled nodes on the 1M-node grid take ~220. Raised when a side runs out (its length is then
 * what it needed), so a graph with larger search spaces pays one whole-on-one-thread matrix.
 */
export const meetRoom = { perPoint: 512 };

/** The last meeting buffer, kept for the next matrix: a new one faults its pages in as it is written. */
let kept: SharedArrayBuffer | null = null;

/**
 * A matrix on every idle thread at once, meeting in shared memory (src/core/meet.ts): each thread
 * snaps a share of all the points and writes their upward search spaces, waits for the others,
 * then fills a share of the rows from every point's space. Split by rows alone, each thread would
 * repeat every destination's snapping and search: on the 1M-node grid a 100 × 100 half cost 73% of
 * the whole. Runs whole on one thread when the threads are no longer all idle or a side ran out of
 * room.
 */
async function runMeeting(ctx: AppContext, args: MatrixArgs, sandbox: boolean): Promise<Reply> {
  const engine = ctx.engine, S = args.sources.length, points = S + args.destinations.length;
  const sides = Math.min(engine.threads, S), parts = split(points, sides), rows = split(S, sides);
  const cap = meetRoom.perPoint * Math.ceil(points / sides);
  const buf = kept && kept.byteLength >= meetBytes(sides, cap) ? kept : new SharedArrayBuffer(meetBytes(sides, cap));
  kept = null;
  meetReset(buf, sides);
  const shared = [new Uint8Array(buf)];
  const replies = await engine.runTogether(parts.map((part, side) => ({
    op: 'route_matrix', args: { ...args, phase: 'meet', part, side, sides, room: cap, rows: rows[side] }, attached: shared,
  })), sandbox, points * 15);
  if (!replies) return { task: await engine.run('route_matrix', args, sandbox) };
  // every side has answered, so no thread reads or writes the buffer any more
  kept = buf;
  // 409 is meet_full (workers/routing/matrix.ts readSides): every side answers it when one ran out of room
  const full = replies.find((r) => r.status === 409);
  if (full) {
    const m = meetLayout(buf, sides, cap)!;
    for (let k = 0; k < sides; k++) meetRoom.perPoint = Math.max(meetRoom.perPoint, Math.ceil((1.25 * meetLength(m, k)) / (parts[k][1] - parts[k][0])));
    releaseAll(replies)();
    return { task: await engine.run('route_matrix', args, sandbox) };
  }
  const failed = replies.find((r) => r.status !== 200);
  return failed ? { task: failed } : { status: 200, chunks: joinParts(replies), release: releaseAll(replies) };
}

const M_DUR = Buffer.from('{"durations_s":['), M_DIST = Buffer.from('],"distances_m":['), M_SRC = Buffer.from('],"sources":['), M_REST = Buffer.from('],'), COMMA = Buffer.from(',');
const TAIL = Buffer.from(ATTRIBUTION_TAIL);

/** A part's sections (workers/routing/matrix.ts: three u32 lengths, then durations, distances, sources and the rest). */
function readPart(b: Uint8Array) {
  const h = new DataView(b.buffer, b.byteOffset, 12);
  const d = 12 + h.getUint32(0, true), m = d + h.getUint32(4, true), s = m + h.getUint32(8, true);
  if (s > b.byteLength) throw new Error('matrix part in an unexpected layout');
  return { dur: b.subarray(12, d), dist: b.subarray(d, m), src: b.subarray(m, s), rest: b.subarray(s) };
}

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

/** traffic and depart_at for the task; none means the plain CH matrix. */
function trafficOf(traffic: string | undefined, depart: string | undefined): { traffic?: string; depart_at?: number } {
  if (!traffic || traffic === 'none') return {};
  return { traffic, ...(depart === undefined ? {} : { depart_at: departAt(depart) }) };
}

const toPair = (p: { lat: number; lng: number } | [number, number]): [number, number] => (Array.isArray(p) ? [p[0], p[1]] : [p.lat, p.lng]);

export const routes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/route/matrix',
    scope: 'routing',
    ready: (ctx) => ctx.engine.has('route_matrix') && ctx.engine.hasDataset('road'),
    note: 'Travel-time and distance matrix (many-to-many contraction hierarchy); GET up to 100 points a side, POST up to 1,000 × 1,000 cells.',
    decl: {
      summary: 'Durations and distances from every source to every destination',
      description: `Rows are sources, columns destinations; every cell equals the duration and distance /route answers for that pair, null where none exists. Destinations default to the sources. At most ${MATRIX_LIMITS.maxPointsGet} points a side in a GET; POST the same as JSON for up to ${MATRIX_LIMITS.maxPoints} a side and ${MATRIX_LIMITS.maxCells.toLocaleString('en')} cells.`,
      tag: 'routing',
      query: {
        sources: { schema: Q.latlngList(MATRIX_LIMITS.maxPointsGet), required: true, aliases: ['origins'], description: 'LAT,LNG;LAT,LNG…' },
        destinations: { schema: Q.latlngList(MATRIX_LIMITS.maxPointsGet), aliases: ['targets'], description: 'LAT,LNG;LAT,LNG… (default: the sources)' },
        mode: { schema: Q.enum(MODE_VALUES, 'driving'), description: 'driving, walk or cycle' },
        radius: { schema: Q.int({ min: 1, max: SNAP_RADIUS.max, default: SNAP_RADIUS.default }), description: 'Snap radius in metres' },
        traffic: { schema: Q.enum(['none', 'live', 'forecast'], 'none'), description: `As /route: live or forecast speeds where published (at most ${TRAFFIC_MATRIX_MAX_CELLS} cells)` },
        depart_at: { schema: Q.str({ maxLength: 40 }), aliases: ['departure_time'], description: "traffic=forecast: RFC 3339, Unix epoch seconds or 'now'" },
      },
      responses,
      examples: [{ query: 'sources=-5.6333,32.7667;-5.80,32.90&destinations=-5.70,32.80;-5.6333,32.7667&radius=5000', summary: 'Sikonge, Tanzania' }],
    },
    async handler(req, ctx): Promise<Reply> {
      const sources = req.q.sources;
      const destinations = req.q.destinations?.length ? req.q.destinations : sources;
      checkSize(sources, destinations, MATRIX_LIMITS.maxPointsGet);
      return runMatrix(ctx, { sources, destinations, mode: travelMode(req.q.mode), radius: req.q.radius, ...trafficOf(req.q.traffic, req.q.depart_at) }, !!req.key?.test);
    },
  }),
  route({
    method: 'POST',
    path: '/route/matrix',
    scope: 'routing',
    ready: (ctx) => ctx.engine.has('route_matrix') && ctx.engine.hasDataset('road'),
    decl: {
      summary: 'Durations and distances for large matrices (JSON body)',
      description: `As GET /route/matrix, with up to ${MATRIX_LIMITS.maxPoints} points a side and ${MATRIX_LIMITS.maxCells.toLocaleString('en')} cells. Points are {"lat","lng"} objects or [lat, lng] pairs.`,
      tag: 'routing',
      body: {
        type: 'object', required: ['sources'],
        properties: {
          sources: { type: 'array', items: point, minItems: 1, maxItems: MATRIX_LIMITS.maxPoints },
          destinations: { type: 'array', items: point, maxItems: MATRIX_LIMITS.maxPoints },
          mode: modeSchema,
          radius: { type: 'integer', minimum: 1, maximum: SNAP_RADIUS.max, default: SNAP_RADIUS.default },
          traffic: { enum: ['none', 'live', 'forecast'], default: 'none' },
          depart_at: { type: 'string', maxLength: 40 },
        },
      },
      responses,
      examples: [{ body: { sources: [{ lat: -5.6333, lng: 32.7667 }, [-5.80, 32.90]], destinations: [[-5.70, 32.80]], radius: 5000 }, summary: 'Sikonge, Tanzania' }],
    },
    async handler(req, ctx): Promise<Reply> {
      const b = req.body;
      const sources = (b.sources as []).map(toPair);
      const destinations = b.destinations?.length ? (b.destinations as []).map(toPair) : sources;
      checkSize(sources, destinations, MATRIX_LIMITS.maxPoints);
      return runMatrix(ctx, { sources, destinations, mode: travelMode(b.mode), radius: b.radius ?? SNAP_RADIUS.default, ...trafficOf(b.traffic, b.depart_at) }, !!req.key?.test);
    },
  }),
];
