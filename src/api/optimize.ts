// POST /route/optimize: the visiting order of up to 200 stops, time-window aware (task `route_optimize`,
// workers/routing/optimize/optimize.ts).
import type { Reply, RouteDef } from '../http/types.ts';
import { route } from '../http/types.ts';
import { HttpError } from '../http/types.ts';
import { MODE_VALUES, travelMode } from '../core/modes.ts';
import { MAX_STOPS, SNAP_RADIUS } from '../core/limits.ts';
import { LAT, LNG, POINT } from '../core/points.ts';
import type { OptimizeArgs } from '../core/tasks/index.ts';

const place = POINT;

export const routes: RouteDef[] = [
  route({
    method: 'POST',
    path: '/route/optimize',
    scope: 'routing',
    ready: (ctx) => ctx.pool.has('route_optimize') && ctx.pool.hasDataset('road'),
    note: `Trip optimisation: the visiting order of up to ${MAX_STOPS} stops with service times and time windows.`,
    decl: {
      summary: 'The best order to visit stops (time windows, service times, round trip or fixed end)',
      description: `Up to ${MAX_STOPS} stops. Times are seconds after departure from start. Lateness is minimised first, then the time the tour ends. Exact up to 10 stops; above, cheapest insertion with or-opt/2-opt local search and perturbation (see docs/routing.md).`,
      tag: 'routing',
      body: {
        type: 'object', required: ['start', 'stops'],
        properties: {
          start: place,
          end: place,
          round_trip: { type: 'boolean', description: 'Return to start (default true when no end is given)' },
          stops: {
            type: 'array', minItems: 1, maxItems: MAX_STOPS,
            items: {
              type: 'object', required: ['lat', 'lng'],
              properties: {
                lat: LAT, lng: LNG,
                id: { type: 'string', maxLength: 200 },
                service_s: { type: 'number', minimum: 0, maximum: 86400 },
                time_window: { type: 'array', items: { type: 'number', minimum: 0 }, minItems: 2, maxItems: 2, description: '[from_s, to_s] after departure' },
              },
            },
          },
          mode: { type: 'string', enum: MODE_VALUES, default: 'driving' },
          radius: { type: 'integer', minimum: 1, maximum: SNAP_RADIUS.max, default: SNAP_RADIUS.default },
        },
      },
      responses: {
        200: {
          description: 'The order, the schedule and the legs',
          schema: {
            type: 'object', required: ['order', 'stops', 'legs', 'distance_m', 'duration_s', 'unmet_time_windows'],
            properties: {
              order: { type: 'array', items: { type: 'integer' } }, stops: { type: 'array' }, legs: { type: 'array' },
              distance_m: { type: 'number' }, duration_s: { type: 'number' }, total_time_s: { type: 'number' },
              unmet_time_windows: { type: 'array' }, round_trip: { type: 'boolean' }, method: { type: 'string' }, mode: { type: 'string' }, extract: { type: 'string' },
            },
          },
        },
        400: { description: 'Invalid parameter, no_road_nearby, no_route, out_of_coverage' },
        501: { description: 'Truck or transit routing' },
      },
      examples: [{
        body: { start: [-5.6333, 32.7667], stops: [{ lat: -5.70, lng: 32.80, id: 'a' }, { lat: -5.80, lng: 32.90, id: 'b', time_window: [0, 7200] }, { lat: -5.65, lng: 32.85, id: 'c', service_s: 300 }], radius: 5000 },
        summary: 'Three stops around Sikonge, Tanzania',
      }],
    },
    async handler(req, ctx): Promise<Reply> {
      const b = req.body;
      const mode = travelMode(b.mode);
      const pair = (p: any): [number, number] | undefined => (p === undefined ? undefined : Array.isArray(p) ? [p[0], p[1]] : [p.lat, p.lng]);
      b.stops.forEach((s: any, i: number) => {
        if (s.time_window && s.time_window[0] > s.time_window[1]) throw new HttpError(400, 'invalid_parameter', `Parameter 'stops[${i}].time_window' must be [from_s, to_s] with from_s ≤ to_s.`);
      });
      const args = { start: pair(b.start)!, end: pair(b.end), round_trip: b.round_trip, stops: b.stops as OptimizeArgs['stops'] /* each time_window validated as exactly [from_s, to_s] */, mode, radius: b.radius ?? SNAP_RADIUS.default };
      return { task: await ctx.pool.run('route_optimize', args, !!req.key?.test) };
    },
  }),
];
