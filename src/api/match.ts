// POST /route/match: a GPS trace matched to the roads (task `route_match`, workers/routing/match/match.ts).
import type { Reply, RouteDef } from '../http/types.ts';
import { route } from '../http/types.ts';
import { MODE_VALUES, travelMode } from '../core/modes.ts';
import { LAT, LNG } from '../core/points.ts';
import { MAX_TRACE_ACCURACY_M, MAX_TRACE_POINTS } from '../core/limits.ts';

export const routes: RouteDef[] = [
  route({
    method: 'POST',
    path: '/route/match',
    scope: 'routing',
    ready: (ctx) => ctx.pool.has('route_match') && ctx.pool.hasDataset('road'),
    note: `Map matching (hidden Markov model, Newson & Krumm 2009) of GPS traces up to ${MAX_TRACE_POINTS} points.`,
    decl: {
      summary: 'Snap a GPS trace to the roads: matched geometry, per-point positions, confidence',
      description: `Up to ${MAX_TRACE_POINTS} points in time order. accuracy_m (default 10) sets each fix's σ and search radius (4σ, 50–200 m). The trace is split where no route joins consecutive points or ts jumps by more than 10 minutes; points off every road are answered null. See docs/routing.md.`,
      tag: 'routing',
      body: {
        type: 'object', required: ['points'],
        properties: {
          points: {
            type: 'array', minItems: 2, maxItems: MAX_TRACE_POINTS,
            items: {
              type: 'object', required: ['lat', 'lng'],
              properties: {
                lat: LAT, lng: LNG,
                ts: { type: 'number', description: 'unix seconds' },
                accuracy_m: { type: 'number', exclusiveMinimum: 0, maximum: MAX_TRACE_ACCURACY_M },
              },
            },
          },
          mode: { type: 'string', enum: MODE_VALUES, default: 'driving' },
        },
      },
      responses: {
        200: {
          description: 'The matched pieces and per-point positions',
          schema: {
            type: 'object', required: ['matchings', 'points', 'confidence'],
            properties: {
              matchings: { type: 'array', items: { type: 'object', properties: { geometry: { type: 'object' }, distance_m: { type: 'number' }, duration_s: { type: 'number' }, confidence: { type: 'number' }, from: { type: 'integer' }, to: { type: 'integer' }, points: { type: 'integer' } } } },
              points: { type: 'array', items: { type: ['object', 'null'] } },
              confidence: { type: 'number' }, mode: { type: 'string' }, extract: { type: 'string' },
            },
          },
        },
        400: { description: 'Invalid parameter, out_of_coverage' },
        501: { description: 'Truck or transit routing' },
      },
      examples: [{
        body: { points: [{ lat: -5.63345, lng: 32.76650, ts: 1700000000 }, { lat: -5.64150, lng: 32.77720, ts: 1700000120 }, { lat: -5.67270, lng: 32.80240, ts: 1700000420 }, { lat: -5.69755, lng: 32.81230, ts: 1700000650 }] },
        summary: 'Three fixes near Sikonge, Tanzania',
      }],
    },
    async handler(req, ctx): Promise<Reply> {
      const b = req.body;
      const mode = travelMode(b.mode);
      return { task: await ctx.pool.run('route_match', { points: b.points, mode }, !!req.key?.test) };
    },
  }),
];
