// /compat/alt/directions: the platform's Directions API over our contraction-hierarchy routes.
// Places may be coordinates, addresses or place_id:svc:…; waypoints may be stopovers or via:
// points, optionally reordered by our trip optimiser (optimize:true). Transit is not offered:
// ZERO_RESULTS with a message, never a made-up route.
import type { GuidedRouteArgs } from '../../../core/tasks/index.ts';
import type { Reply } from '../../../http/types.ts';
import { Q } from '../../../http/declaration.ts';
import { guidanceLang, type GuidanceLang } from '../../../core/guidance.ts';
import { ALT_MODES, ALT_MODE_VALUES, ALT_TRAVEL_MODE, type AltMode } from '../../../core/modes.ts';
import { altRoute } from './define.ts';
import { answer, invalid } from './envelope.ts';
import { task, ok } from './tasks.ts';
import { resolvePlace, type Resolved } from './places.ts';
import { distance, duration, boundsOf, type LatLng } from './shapes.ts';
import { encodeLngLat } from './polyline.ts';
import { optimizeOrder, NO_ROUTE } from './optimize.ts';
import { stepsOf, summaryOf } from './steps.ts';
import { envelope, route as routeSchema, geocodedWaypoint } from './schemas.ts';

/** The platform allows 25 waypoints besides origin and destination. */
export const MAX_WAYPOINTS = 25;
/** How far from a road a place may be: addresses geocode to settlement centres, which can sit off the network. */
export const SNAP_RADIUS_M = 5000;


/** Extra routes asked for with alternatives=true (the platform gives up to three routes in all). */
const ALTERNATIVES = 2;

/** The `language` parameter as one of our guidance languages; others fall back to English. */
function langOf(language: unknown): GuidanceLang {
  return guidanceLang(String(language ?? 'en')) ?? 'en';
}

export const COPYRIGHTS = 'Map data © OpenStreetMap contributors (ODbL)';

interface Waypoint { raw: string; via: boolean }

/** `optimize:true|via:-1.2,36.8|Nairobi|place_id:svc:…` → the flag and the points. */
export function parseWaypoints(raw: string | undefined): { optimize: boolean; points: Waypoint[] } {
  if (!raw) return { optimize: false, points: [] };
  const parts = raw.split('|').map((p) => p.trim()).filter(Boolean);
  let optimize = false;
  if (parts[0] && /^optimize:(true|false)$/i.test(parts[0])) optimize = parts.shift()!.toLowerCase() === 'optimize:true';
  const points = parts.map((p) => (/^via:/i.test(p) ? { raw: p.slice(4).trim(), via: true } : { raw: p, via: false }));
  if (points.length > MAX_WAYPOINTS) throw invalid('waypoints', `has ${points.length} points; at most ${MAX_WAYPOINTS} are allowed`);
  if (points.some((p) => !p.raw)) throw invalid('waypoints', 'has an empty via: point');
  return { optimize, points };
}

const ll = (p: { lat: number; lng: number }): LatLng => ({ lat: p.lat, lng: p.lng });

function warningsOf(mode: AltMode, q: Record<string, any>): string[] {
  const w: string[] = [];
  if (mode === 'walking') w.push('Walking directions follow mapped roads and paths: sidewalks and crossings may be missing. Use caution.');
  if (q.avoid) w.push(`avoid=${String(q.avoid).slice(0, 60)} is not applied: the road data in this build carries no toll, ferry or motorway restrictions for routing.`);
  if (q.departure_time || q.arrival_time) w.push('departure_time/arrival_time are not applied: durations are free-flow, without traffic.');
  return w;
}

/** One platform route from one of our routes through the ordered points (snapped as the best route snapped them). */
function platformRoute(r: any, snapped: LatLng[], pts: Resolved[], stop: boolean[], mode: AltMode, units: 'metric' | 'imperial', order: number[], warnings: string[]) {
  const coords: number[][] = r.geometry.coordinates;
  const ourLegs: any[] = r.legs;
  const legs: Record<string, unknown>[] = [];
  const named: { name?: string; distance: { value: number } }[] = [];
  let a = 0;
  for (let b = 1; b < pts.length; b++) {
    if (!stop[b]) continue;
    let dist = 0, dur = 0;
    const steps: Record<string, unknown>[] = [];
    const via: Record<string, unknown>[] = [];
    for (let i = a; i < b; i++) {
      if (i > a) via.push({ location: snapped[i], step_index: steps.length, step_interpolation: 0 });
      dist += ourLegs[i].distance_m;
      dur += ourLegs[i].duration_s;
      for (const { name, ...st } of stepsOf(ourLegs[i], units)) {
        named.push({ name, distance: st.distance });
        steps.push({ ...st, travel_mode: ALT_TRAVEL_MODE[mode] });
      }
    }
    legs.push({
      distance: distance(dist, units),
      duration: duration(dur),
      start_address: pts[a].address,
      end_address: pts[b].address,
      start_location: snapped[a],
      end_location: snapped[b],
      steps,
      traffic_speed_entry: [],
      via_waypoint: via,
    });
    a = b;
  }
  return {
    bounds: boundsOf(coords),
    copyrights: COPYRIGHTS,
    legs,
    overview_polyline: { points: encodeLngLat(coords) },
    summary: summaryOf(named),
    warnings,
    waypoint_order: order,
  };
}

function geocoded(p: Resolved | null): Record<string, unknown> {
  if (!p) return { geocoder_status: 'ZERO_RESULTS' };
  return { geocoder_status: 'OK', ...(p.place_id ? { place_id: p.place_id } : {}), types: p.types };
}

const EMPTY = { geocoded_waypoints: [], routes: [] };

export const directions = altRoute({
  name: 'directions',
  scope: 'routing',
  ops: ['route', 'route_optimize', 'reverse', 'geocode', 'place_by_id'],
  datasets: ['road', 'gazetteer'],
  empty: EMPTY,
  decl: {
    summary: 'Directions in the alt platform shape (driving, walking, bicycling)',
    description: `Origin, destination and up to ${MAX_WAYPOINTS} waypoints as LAT,LNG, an address or place_id:svc:…; \`via:\` waypoints pass through without a stop; \`optimize:true\` reorders the stopovers with our trip optimiser (waypoint_order). mode=transit answers ZERO_RESULTS (no transit routing). \`alternatives\`, \`units\` are applied; \`avoid\`, \`departure_time\`, \`arrival_time\` are accepted and not applied (a warning says so); \`language\` is accepted (instructions are English). Geometry is an encoded polyline (precision 5), in this compat layer only.`,
    query: {
      origin: { schema: Q.str({ maxLength: 200 }), required: true, description: 'LAT,LNG, an address, or place_id:svc:…' },
      destination: { schema: Q.str({ maxLength: 200 }), required: true, description: 'LAT,LNG, an address, or place_id:svc:…' },
      waypoints: { schema: Q.str({ maxLength: 6000 }), description: 'optimize:true|via:LAT,LNG|address|place_id:svc:…' },
      mode: { schema: Q.enum(ALT_MODE_VALUES, 'driving'), description: 'transit answers ZERO_RESULTS' },
      alternatives: { schema: Q.bool(false), description: 'Also return alternative routes (without waypoints)' },
      units: { schema: Q.enum(['metric', 'imperial'], 'metric'), description: 'Units of the distance texts (values are always metres)' },
      avoid: { schema: Q.str({ maxLength: 100 }), description: 'Accepted, not applied (warning)' },
      language: { schema: Q.str({ maxLength: 20 }), description: 'Instruction language: en, fr, pt, ar or sw (others: English)' },
      region: { schema: Q.str({ pattern: '^[A-Za-z]{2}$' }), description: 'Accepted' },
      departure_time: { schema: Q.str({ maxLength: 20 }), description: 'Accepted, not applied (warning)' },
      arrival_time: { schema: Q.str({ maxLength: 20 }), description: 'Accepted, not applied (warning)' },
    },
    responses: {
      200: {
        description: 'OK or ZERO_RESULTS (no route, outside our road extracts, or transit)',
        schema: envelope(['routes', 'geocoded_waypoints'], { routes: { type: 'array', items: routeSchema }, geocoded_waypoints: { type: 'array', items: geocodedWaypoint } }),
      },
      400: { description: 'INVALID_REQUEST' },
      404: { description: 'NOT_FOUND: a place could not be geocoded' },
    },
    examples: [{ query: 'origin=-5.6333,32.7667&destination=-5.80,32.90', summary: 'Sikonge, Tanzania' }],
  },
  async handler(req, ctx) {
    const q = req.q;
    const mode = q.mode as AltMode | 'transit';
    const units = q.units as 'metric' | 'imperial';
    const wp = parseWaypoints(q.waypoints);
    if (mode === 'transit') {
      return answer('ZERO_RESULTS', EMPTY, { mode }, 'Transit directions are not offered by this service: it holds GTFS stops (see /api/v1/transit/nearby) but no timetable routing. Use mode=driving, walking or bicycling.');
    }
    if (wp.optimize && wp.points.some((p) => p.via)) throw invalid('waypoints', 'cannot mix via: points with optimize:true');
    const raws = [{ raw: String(q.origin), via: false, param: 'origin' }, ...wp.points.map((p) => ({ ...p, param: 'waypoints' })), { raw: String(q.destination), via: false, param: 'destination' }];
    const resolved = await Promise.all(raws.map((p) => resolvePlace(ctx, req, p.param, p.raw)));
    if (resolved.some((p) => !p)) return notFound(resolved, raws);
    const requested = resolved as Resolved[];
    let pts = requested;
    let stop = raws.map((p) => !p.via);
    let order = wp.points.map((_, i) => i);
    if (wp.optimize && wp.points.length > 1) {
      const o = await optimizeOrder(ctx, req, pts, ALT_MODES[mode], SNAP_RADIUS_M);
      if (!Array.isArray(o)) return answer('ZERO_RESULTS', { geocoded_waypoints: requested.map(geocoded), routes: [] }, { error: o }, o.message);
      order = o;
      pts = [pts[0], ...order.map((i) => pts[i + 1]), pts[pts.length - 1]];
      stop = pts.map(() => true);
    }
    const args: GuidedRouteArgs = {
      from: [pts[0].lat, pts[0].lng], to: [pts[pts.length - 1].lat, pts[pts.length - 1].lng],
      via: pts.slice(1, -1).map((p) => [p.lat, p.lng]), mode: ALT_MODES[mode], radius: SNAP_RADIUS_M,
      steps: true, lang: langOf(q.language), ...(q.alternatives && pts.length === 2 ? { alternatives: ALTERNATIVES } : {}),
    };
    const r = await task(ctx, req, 'route', args);
    if (r.status === 400 && NO_ROUTE.has(r.body?.error?.code)) {
      return answer('ZERO_RESULTS', { geocoded_waypoints: requested.map(geocoded), routes: [] }, { error: r.body.error }, r.body.error.message);
    }
    const body = ok(r, 'route');
    const ours: any[] = [body.route, ...(body.alternatives ?? [])];
    const sn = body.route.snapped;
    const snapped = [sn.from, ...(sn.via ?? []), sn.to].map(ll);
    const warnings = warningsOf(mode, q);
    const routes = ours.map((x) => platformRoute(x, snapped, pts, stop, mode, units, order, warnings));
    // geocoded_waypoints follow the request's order; the legs follow waypoint_order.
    return answer('OK', { geocoded_waypoints: requested.map(geocoded), routes }, { routes: ours.map(({ geometry, ...rest }) => rest) });
  },
});

/** The platform's NOT_FOUND: which places could not be geocoded, in geocoded_waypoints. */
function notFound(resolved: (Resolved | null)[], raws: { raw: string; param: string }[]): Reply {
  const missing = raws.filter((_, i) => !resolved[i]).map((p) => `${p.param} '${p.raw.slice(0, 80)}'`);
  const message = `Could not geocode ${missing.join(', ')}.`;
  return {
    status: 404,
    json: { geocoded_waypoints: resolved.map(geocoded), routes: [], status: 'NOT_FOUND', error_message: message, error: { code: 'not_found', message } },
  };
}

