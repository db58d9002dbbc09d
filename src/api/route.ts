// GET /route: a declared operation (validated before the handler), then one `route` task in the pool.
import type { RouteDef } from '../http/types.ts';
import { HttpError } from '../http/types.ts';
import { Q } from '../http/operation.ts';
import { MAX_VIA, SNAP_RADIUS } from '../core/limits.ts';

/** Accepted spellings of each mode. */
export const MODE_ALIASES: Record<string, 'driving' | 'walk' | 'cycle'> = {
  driving: 'driving', drive: 'driving', car: 'driving',
  walk: 'walk', walking: 'walk', foot: 'walk',
  cycle: 'cycle', cycling: 'cycle', bicycle: 'cycle', bike: 'cycle',
};
export const NOT_IMPLEMENTED = ['truck', 'hgv', 'transit'];

const snappedPoint = { type: 'object', required: ['lat', 'lng', 'distance_m'], properties: { lat: { type: 'number' }, lng: { type: 'number' }, distance_m: { type: 'number' } } };
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
      },
      responses: {
        200: {
          description: 'The route',
          schema: {
            type: 'object', required: ['route'],
            properties: {
              route: {
                type: 'object', required: ['mode', 'distance_m', 'duration_s', 'geometry', 'legs'],
                properties: { mode: { type: 'string' }, distance_m: { type: 'number' }, duration_s: { type: 'number' }, geometry: lineString, legs: { type: 'array', items: { type: 'object', required: ['distance_m', 'duration_s'], properties: { distance_m: { type: 'number' }, duration_s: { type: 'number' } } } },
                  snapped: { type: 'object', required: ['from', 'to'], properties: { from: snappedPoint, to: snappedPoint, via: { type: 'array', items: snappedPoint } } },
                  extract: { type: 'string' },
                },
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
      return { task: await ctx.engine.run('route', { from, to, via, mode, radius }, !!req.key?.test) };
    },
  },
];
