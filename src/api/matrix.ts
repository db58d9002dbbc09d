// GET and POST /route/matrix: durations and distances from every source to every destination
// (task `route_matrix`, workers/routing/matrix). How a matrix is spread over the threads, and its
// parts joined, is the pool's matrix dispatch (src/pool/matrix-dispatch.ts); a split answer is
// written out in order as pieces (Reply `chunks`).
import type { Reply, RouteDef, AppContext } from '../http/types.ts';
import { route } from '../http/types.ts';
import type { MatrixArgs } from '../core/tasks/index.ts';
import { runMatrix } from '../pool/matrix-dispatch.ts';
import { HttpError } from '../http/types.ts';
import { Q } from '../http/declaration.ts';
import { departAt } from './route.ts';
import { MODE_VALUES, travelMode } from '../core/modes.ts';
import { MATRIX_LIMITS, SNAP_RADIUS, TRAFFIC_MATRIX_MAX_CELLS } from '../core/limits.ts';
import { POINT } from '../core/points.ts';

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
        profile: { type: 'string', description: "Present when the driving graph is the operator's `driving_tracks` (car.lua + highway=track)." },
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

/** The matrix's answer as a reply: one task's, or the parts' pieces written in order. */
async function matrixReply(ctx: AppContext, args: MatrixArgs, sandbox: boolean): Promise<Reply> {
  const a = await runMatrix(ctx.pool, args, sandbox, ctx.config.matrixMeet);
  return a.kind === 'whole' ? { task: a.reply } : { status: 200, chunks: a.chunks, release: a.release };
}

/** traffic and depart_at for the task; none means the plain CH matrix. */
function trafficOf(traffic: MatrixArgs['traffic'], depart: string | undefined): Pick<MatrixArgs, 'traffic' | 'depart_at'> {
  if (!traffic || traffic === 'none') return {};
  return { traffic, ...(depart === undefined ? {} : { depart_at: departAt(depart) }) };
}

const toPair = (p: { lat: number; lng: number } | [number, number]): [number, number] => (Array.isArray(p) ? [p[0], p[1]] : [p.lat, p.lng]);

export const routes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/route/matrix',
    scope: 'routing',
    ready: (ctx) => ctx.pool.has('route_matrix') && ctx.pool.hasDataset('road'),
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
      return matrixReply(ctx, { sources, destinations, mode: travelMode(req.q.mode), radius: req.q.radius, ...trafficOf(req.q.traffic, req.q.depart_at) }, !!req.key?.test);
    },
  }),
  route({
    method: 'POST',
    path: '/route/matrix',
    scope: 'routing',
    ready: (ctx) => ctx.pool.has('route_matrix') && ctx.pool.hasDataset('road'),
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
      return matrixReply(ctx, { sources, destinations, mode: travelMode(b.mode), radius: b.radius ?? SNAP_RADIUS.default, ...trafficOf(b.traffic, b.depart_at) }, !!req.key?.test);
    },
  }),
];
