// GET /route: a declared operation (validated before the handler), then one `route` task in the pool.
import type { GuidedRouteArgs } from '../core/tasks/index.ts';
import type { RouteDef } from '../http/types.ts';
import { route } from '../http/types.ts';
import { HttpError } from '../http/types.ts';
import { Q } from '../http/declaration.ts';
import { MAX_VIA, SNAP_RADIUS } from '../core/limits.ts';
import { MODE_VALUES, travelMode } from '../core/modes.ts';
import { GUIDANCE_LANGS, MAX_ALTERNATIVES, negotiateLang } from '../core/guidance.ts';

/** `depart_at` as epoch ms: RFC 3339, Unix epoch seconds (as the alt platform's departure_time) or 'now'. */
export function departAt(v: string): number {
  if (v === 'now') return Date.now();
  const ms = /^\d{9,11}$/.test(v) ? Number(v) * 1000 : /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw new HttpError(400, 'invalid_parameter', "Parameter 'depart_at' must be an RFC 3339 time, Unix epoch seconds or 'now'.");
  return ms;
}

const snappedPoint = { type: 'object', required: ['lat', 'lng', 'distance_m'], properties: { lat: { type: 'number' }, lng: { type: 'number' }, distance_m: { type: 'number' } } };
const lineString = { type: 'object', required: ['type', 'coordinates'], properties: { type: { const: 'LineString' }, coordinates: { type: 'array', items: { type: 'array', items: { type: 'number' } } } } };

/** One step of legs[].steps[] (workers/routing/guidance/steps.ts documents every field). */
const stepSchema = {
  type: 'object', required: ['maneuver', 'name', 'mode', 'distance_m', 'duration_s', 'geometry', 'instruction'],
  properties: {
    maneuver: {
      type: 'object', required: ['type', 'bearing_before', 'bearing_after', 'location'],
      properties: {
        type: { enum: ['depart', 'turn', 'continue', 'new name', 'merge', 'on ramp', 'off ramp', 'fork', 'end of road', 'roundabout', 'exit roundabout', 'arrive'] },
        modifier: { enum: ['uturn', 'sharp right', 'right', 'slight right', 'straight', 'slight left', 'left', 'sharp left'] },
        exit: { type: 'integer', minimum: 1 },
        bearing_before: { type: 'integer', minimum: 0, maximum: 359 }, bearing_after: { type: 'integer', minimum: 0, maximum: 359 },
        location: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
      },
    },
    name: { type: 'string' }, ref: { type: 'string' }, destinations: { type: 'string' }, rotary_name: { type: 'string' }, mode: { type: 'string' },
    distance_m: { type: 'number' }, duration_s: { type: 'number' }, geometry: lineString, instruction: { type: 'string' },
  },
};
const legSchema = { type: 'object', required: ['distance_m', 'duration_s'], properties: { distance_m: { type: 'number' }, duration_s: { type: 'number' }, steps: { type: 'array', items: stepSchema } } };

/** steps, lang (else Accept-Language, else en) and alternatives (true = the maximum; none with via points) for the route task. */
export function guidanceArgs(q: Record<string, any>, acceptLanguage: string | undefined, hasVia: boolean): Pick<GuidedRouteArgs, 'steps' | 'lang' | 'alternatives'> {
  const out: Pick<GuidedRouteArgs, 'steps' | 'lang' | 'alternatives'> = {};
  if (q.steps) { out.steps = true; out.lang = q.lang ?? negotiateLang(acceptLanguage) ?? 'en'; }
  const a = q.alternatives === 'true' ? MAX_ALTERNATIVES : q.alternatives === undefined || q.alternatives === 'false' ? 0 : Number(q.alternatives);
  if (a > 0 && !hasVia) out.alternatives = a;
  return out;
}

export const routes: RouteDef[] = [
  route({
    method: 'GET',
    path: '/route',
    scope: 'routing',
    capabilities: ['route_driving'],
    ready: (ctx) => ctx.pool.has('route') && ctx.pool.hasDataset('road'),
    note: 'Contraction-hierarchy routes (driving, walk, cycle) over the built OpenStreetMap extracts.',
    decl: {
      summary: 'A route between two points (and optional via points) as GeoJSON',
      tag: 'routing',
      query: {
        from: { schema: Q.latlng(), required: true, aliases: ['origin'], description: 'Start, LAT,LNG' },
        to: { schema: Q.latlng(), required: true, aliases: ['destination'], description: 'End, LAT,LNG' },
        via: { schema: Q.latlngList(MAX_VIA), aliases: ['waypoints'], description: `Up to ${MAX_VIA} intermediate points, LAT,LNG;LAT,LNG` },
        mode: { schema: Q.enum(MODE_VALUES, 'driving'), description: 'driving, walk or cycle (aliases car, walking, cycling, bicycle); truck, hgv and transit answer 501' },
        radius: { schema: Q.int({ min: 1, max: SNAP_RADIUS.max, default: SNAP_RADIUS.default }), description: 'Snap radius in metres' },
        steps: { schema: Q.bool(false), description: 'true adds legs[].steps[]: turn-by-turn maneuvers, names and instructions (docs/guidance.md)' },
        lang: { schema: Q.enum(GUIDANCE_LANGS), aliases: ['language'], description: 'Instruction language: en, fr, pt, ar or sw; without it Accept-Language decides, else en' },
        alternatives: { schema: Q.str({ pattern: `^(true|false|[0-${MAX_ALTERNATIVES}])$` }), description: `true (= ${MAX_ALTERNATIVES}) or 0–${MAX_ALTERNATIVES}: up to that many meaningfully different extra routes in \`alternatives\` (no via points)` },
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
                properties: { mode: { type: 'string' }, distance_m: { type: 'number' }, duration_s: { type: 'number' }, geometry: lineString, legs: { type: 'array', items: legSchema },
                  snapped: { type: 'object', required: ['from', 'to'], properties: { from: snappedPoint, to: snappedPoint, via: { type: 'array', items: snappedPoint } } },
                  extract: { type: 'string' },
                  profile: { type: 'string', description: "Present when the extract's driving graph is the operator's `driving_tracks` (car.lua + highway=track); absent for OSRM's car.lua." },
                  traffic: { type: 'object', required: ['mode', 'applied', 'edges_with_data'] },
                },
              },
              alternatives: { type: 'array', items: { type: 'object', required: ['distance_m', 'duration_s', 'geometry', 'legs'], properties: { distance_m: { type: 'number' }, duration_s: { type: 'number' }, geometry: lineString, legs: { type: 'array', items: legSchema } } } },
            },
          },
        },
        400: { description: 'Invalid parameter, out_of_coverage, no_road_nearby or no_route' },
        501: { description: 'Truck or transit routing' },
      },
      examples: [
        { query: 'from=-5.6333,32.7667&to=-5.80,32.90&radius=5000', summary: 'Sikonge, Tanzania' },
        { query: 'from=-5.6333,32.7667&to=-5.80,32.90&radius=5000&steps=true&lang=sw', summary: 'Sikonge, Tanzania, with steps in Swahili' },
        { query: 'from=5.5500,-0.2050&to=5.5560,-0.1800&steps=true&lang=en&alternatives=2', summary: 'Accra, steps in English and up to two alternatives' },
        { query: 'from=36.7650,3.0540&to=36.7585,3.0600&steps=true&lang=fr', summary: 'Algiers, steps in French (lang=ar: Arabic street names and instructions)' },
        { query: 'from=-5.6333,32.7667&to=-5.80,32.90&radius=5000&steps=true&lang=pt', summary: 'Sikonge, Tanzania, steps in Portuguese' },
      ],
    },
    async handler(req, ctx) {
      const { from, to, via = [], radius } = req.q;
      const mode = travelMode(req.q.mode);
      const traffic = req.q.traffic === 'none' ? undefined : req.q.traffic;
      const depart_at = req.q.depart_at === undefined ? undefined : departAt(req.q.depart_at);
      const guidance = guidanceArgs(req.q, req.headers['accept-language'], via.length > 0);
      return { task: await ctx.pool.run('route', { from, to, via, mode, radius, traffic, depart_at, ...guidance }, !!req.key?.test) };
    },
  }),
];
