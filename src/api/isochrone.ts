// GET /route/isochrone: the area reachable within given minutes or metres (task `route_isochrone`,
// workers/routing/isochrone/isochrone.ts).
import type { Reply, RouteDef } from '../http/types.ts';
import { route } from '../http/types.ts';
import { HttpError } from '../http/types.ts';
import { Q } from '../http/declaration.ts';
import { MODE_VALUES, travelMode } from '../core/modes.ts';
import { ISOCHRONE_LIMITS, SNAP_RADIUS } from '../core/limits.ts';

export const routes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/route/isochrone',
    scope: 'routing',
    ready: (ctx) => ctx.pool.has('route_isochrone') && ctx.pool.hasDataset('road'),
    note: 'Isochrones: GeoJSON polygons (with holes) of the area reachable within given minutes or metres.',
    decl: {
      summary: 'Areas reachable within given times or distances, as GeoJSON polygons',
      description: `minutes (up to ${ISOCHRONE_LIMITS.contours} values ≤ ${ISOCHRONE_LIMITS.minutes}) or meters (≤ ${ISOCHRONE_LIMITS.meters}); one MultiPolygon Feature per contour, largest first, with holes where nothing is reached. Polygons cover the roads reached and a band of about one grid cell (cell_m) around them.`,
      tag: 'routing',
      query: {
        from: { schema: Q.latlng(), required: true, aliases: ['origin', 'location'], description: 'Start, LAT,LNG' },
        minutes: { schema: Q.list({ type: 'number', exclusiveMinimum: 0, maximum: ISOCHRONE_LIMITS.minutes } as const, { max: ISOCHRONE_LIMITS.contours }), aliases: ['time'], description: 'Contours in minutes, e.g. 5,10,15' },
        meters: { schema: Q.list({ type: 'number', exclusiveMinimum: 0, maximum: ISOCHRONE_LIMITS.meters } as const, { max: ISOCHRONE_LIMITS.contours }), aliases: ['distance'], description: 'Contours in metres (instead of minutes)' },
        mode: { schema: Q.enum(MODE_VALUES, 'driving'), description: 'driving, walk or cycle' },
        radius: { schema: Q.int({ min: 1, max: SNAP_RADIUS.max, default: SNAP_RADIUS.default }), description: 'Snap radius in metres' },
      },
      responses: {
        200: { description: 'GeoJSON FeatureCollection', schema: { type: 'object', required: ['type', 'features'], properties: { type: { const: 'FeatureCollection' }, features: { type: 'array' }, snapped: { type: 'object' }, cell_m: { type: 'number' } } } },
        400: { description: 'Invalid parameter, out_of_coverage, no_road_nearby' },
        501: { description: 'Truck or transit routing' },
      },
      examples: [{ query: 'from=-5.6333,32.7667&minutes=10,20&radius=5000', summary: 'Sikonge, Tanzania' }],
    },
    async handler(req, ctx): Promise<Reply> {
      const mode = travelMode(req.q.mode);
      const { minutes, meters } = req.q;
      // the declaration checks each list against ISOCHRONE_LIMITS; the task takes exactly one
      const contours = minutes?.length && !meters?.length ? { minutes } : meters?.length && !minutes?.length ? { meters } : null;
      if (!contours) throw new HttpError(400, 'invalid_parameter', "Give exactly one of 'minutes' or 'meters'.");
      return { task: await ctx.pool.run('route_isochrone', { from: req.q.from, ...contours, mode, radius: req.q.radius }, !!req.key?.test) };
    },
  }),
];
