// GET /route: a declared operation (validated before the handler), then one `route` task in the pool.
import type { RouteDef } from '../http/types.ts';
import { HttpError } from '../http/types.ts';
import { Q } from '../http/operation.ts';

/** Accepted spellings of each mode. */
const MODE_ALIASES: Record<string, 'driving' | 'walk' | 'cycle'> = {
  driving: 'driving', drive: 'driving', car: 'driving',
  walk: 'walk', walking: 'walk', foot: 'walk',
  cycle: 'cycle', cycling: 'cycle', bicycle: 'cycle', bike: 'cycle',
};
const NOT_IMPLEMENTED = ['truck', 'hgv', 'transit'];
export const MAX_VIA = 25;
/** Snap radius in metres: how far from a road a point may be. */
export const SNAP_RADIUS = { default: 1000, max: 10000 };

/** `depart_at` as epoch ms: RFC 3339, Unix epoch seconds (as the alt platform's departure_time) or 'now'. */
function departAt(v: string): number {
  if (v === 'now') return Date.now();
  const ms = /^\d{9,11}$/.test(v) ? Number(v) * 1000 : /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw new HttpError(400, 'invalid_parameter', "Parameter 'depart_at' must be an RFC 3339 time, Unix epoch seconds or 'now'.");
  return ms;
}

const lineString = { type: 'object', required: ['type', 'coordinates'], properties: { type: { const: 'LineString' }, coordinates: { type: 'array', items: { type: 'array', items: { type: 'number' } } } } };

export const routes: RouteDef[] = [
  {
    method: 'GET',
    path: '/route',
    scope: 'routing',
    capabilities: ['route_driving'],
    ready: (ctx) => ctx.engine.has('route') && ctx.engine.hasDataset('road'),
    note: 'Contraction-hierarchy routes (driving, walk, cycle) over the built OpenStreetMap extracts.',
    decl: {
      summary: 'A route between two points (and optional via points) as GeoJSON',
      tag: 'routing',
      query: {
        from: { schema: Q.latlng(), required: true, aliases: ['origin'], description: 'Start, LAT,LNG' },
        to: { schema: Q.latlng(), required: true, aliases: ['destination'], description: 'End, LAT,LNG' },
        via: { schema: Q.latlngList(MAX_VIA), aliases: ['waypoints'], description: `Up to ${MAX_VIA} intermediate points, LAT,LNG;LAT,LNG` },
        mode: { schema: Q.enum([...Object.keys(MODE_ALIASES), ...NOT_IMPLEMENTED], 'driving'), description: 'driving, walk or cycle (aliases car, walking, cycling, bicycle); truck, hgv and transit answer 501' },
        radius: { schema: Q.int({ min: 1, max: SNAP_RADIUS.max, default: SNAP_RADIUS.default }), description: 'Snap radius in metres' },
        traffic: { schema: Q.enum(['none', 'live', 'forecast'], 'none'), description: 'live: observed speeds where published (last 15 min); forecast: the weekly profile at depart_at; none: profile speeds' },
        depart_at: { schema: Q.str({ maxLength: 40 }), aliases: ['departure_time'], description: "Departure time for traffic=forecast: RFC 3339, Unix epoch seconds, or 'now'" },
      },
      responses: {
        200: {
          description: 'The route',
          schema: {
            type: 'object', required: ['route'],
            properties: {
              route: {
                type: 'object', required: ['mode', 'distance_m', 'duration_s', 'geometry', 'legs'],
                properties: { mode: { type: 'string' }, distance_m: { type: 'number' }, duration_s: { type: 'number' }, geometry: lineString, legs: { type: 'array' }, snapped: { type: 'object' }, extract: { type: 'string' }, traffic: { type: 'object', required: ['mode', 'applied', 'edges_with_data'] } },
              },
            },
          },
        },
        400: { description: 'Invalid parameter, out_of_coverage, no_road_nearby or no_route' },
        501: { description: 'Truck or transit routing' },
      },
      examples: [{ query: 'from=-5.6333,32.7667&to=-5.80,32.90&radius=5000', summary: 'Sikonge, Tanzania' }],
    },
    async handler(req, ctx) {
      const { from, to, via = [], radius } = req.q;
      const modeRaw = String(req.q.mode).toLowerCase();
      if (NOT_IMPLEMENTED.includes(modeRaw)) {
        throw new HttpError(501, 'not_implemented', `mode=${modeRaw} is not available in this build; use driving, walk or cycle.`);
      }
      const mode = MODE_ALIASES[modeRaw];
      const traffic = req.q.traffic === 'none' ? undefined : req.q.traffic;
      const depart_at = req.q.depart_at === undefined ? undefined : departAt(req.q.depart_at);
      return { task: await ctx.engine.run('route', { from, to, via, mode, radius, traffic, depart_at }, !!req.key?.test) };
    },
  },
];
