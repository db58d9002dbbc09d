// OSRM v5 HTTP API under /osrm/: a client of a self-hosted osrm-routed (MapLibre and
// Leaflet routing controls, OSRM client libraries) changes only its base URL. Request grammar and
// response shapes follow OSRM's docs/http.md: GET /osrm/{service}/v1/{profile}/{coordinates}[.json]
// with `lng,lat;lng,lat…` or `polyline(…)`/`polyline6(…)`, options in the query string, and
// `{"code":"Ok",…}` or a 400 with `{"code":"NoRoute|NoSegment|InvalidQuery|…","message"}`.
// The key may come as `?key=` here (such clients cannot set headers); the request log records the
// path only. docs/osrm.md lists what is accepted but ignored (hints, bearings, approaches).
import type { TaskOp } from '../core/tasks/index.ts';
import polyline from '@mapbox/polyline';
import type { Req, Reply, RouteDef, AppContext } from '../http/types.ts';
import { Q, type Schema } from '../http/declaration.ts';
import { MATRIX_LIMITS, MAX_VIA, SNAP_RADIUS } from '../core/limits.ts';
import { MAX_ALTERNATIVES } from '../core/guidance.ts';
import { OSRM_PROFILES, type Mode } from '../core/modes.ts';
import { ANNOTATIONS } from '../core/osrm.ts';
import type { TaskReply } from '../core/task.ts';

/** Coordinates per route request: origin, destination and MAX_VIA via points, as /route. */
export const OSRM_MAX_COORDINATES = MAX_VIA + 2;
/** nearest?number= at most. */
export const OSRM_MAX_NEAREST = 100;

/** A 400 in OSRM's shape. */
class OsrmError extends Error {
  constructor(readonly code: string, message: string) { super(message); }
}

const fail = (code: string, message: string): never => { throw new OsrmError(code, message); };

/** `lng,lat;lng,lat…`, `polyline(…)` or `polyline6(…)` (an optional `.json` suffix) → [lng, lat][]. */
export function parseCoordinates(raw: string): [number, number][] {
  let s = raw;
  if (s.endsWith('.json')) s = s.slice(0, -5);
  else if (s.endsWith('.flatbuffers')) fail('NotImplemented', 'The flatbuffers format is not supported; use JSON.');
  const m = /^polyline(6?)\((.+)\)$/.exec(s);
  let pts: [number, number][];
  if (m) {
    let dec: [number, number][];
    try { dec = polyline.decode(m[2], m[1] ? 6 : 5); } catch { return fail('InvalidQuery', 'The polyline in the coordinates could not be decoded.'); }
    pts = dec.map(([lat, lng]) => [lng, lat]);
  } else {
    pts = s.split(';').map((p, i) => {
      const c = /^\s*([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)\s*$/.exec(p);
      if (!c) fail('InvalidQuery', `Coordinate ${i} is not 'longitude,latitude'.`);
      return [Number(c![1]), Number(c![2])] as [number, number];
    });
  }
  pts.forEach(([lng, lat], i) => { if (!(Math.abs(lng) <= 180 && Math.abs(lat) <= 90)) fail('InvalidValue', `Coordinate ${i} is out of range (longitude -180..180, latitude -90..90).`); });
  if (!pts.length) fail('InvalidQuery', 'No coordinates.');
  return pts;
}

function bool(q: URLSearchParams, name: string, def: boolean): boolean {
  const v = q.get(name);
  if (v === null || v === '') return def;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return fail('InvalidQuery', `Option '${name}' must be true or false.`);
}

function oneOf<T extends string>(q: URLSearchParams, name: string, values: readonly T[], def: T): T {
  const v = q.get(name);
  if (v === null || v === '') return def;
  if (!(values as readonly string[]).includes(v)) fail('InvalidQuery', `Option '${name}' must be one of ${values.join(', ')}.`);
  return v as T;
}

/** A per-coordinate option (`a;b;;c`) must have one element per coordinate. */
function perCoordinate(q: URLSearchParams, name: string, n: number): string[] | null {
  const v = q.get(name);
  if (v === null) return null;
  const parts = v.split(';');
  if (parts.length !== n) fail('InvalidOptions', `Option '${name}' must have ${n} elements, one per coordinate.`);
  return parts;
}

/** Snap radius: OSRM's radiuses are per coordinate (default unlimited); we snap every point within the largest, at most our maximum. */
function radiusOf(q: URLSearchParams, n: number): number {
  const r = perCoordinate(q, 'radiuses', n);
  if (!r) return SNAP_RADIUS.max;
  let max = 0;
  for (const x of r) {
    if (x === '' || x === 'unlimited') { max = SNAP_RADIUS.max; continue; }
    const v = Number(x);
    if (!(v >= 0)) fail('InvalidQuery', "Option 'radiuses' takes numbers ≥ 0 or 'unlimited'.");
    max = Math.max(max, v);
  }
  return Math.min(SNAP_RADIUS.max, Math.max(1, max));
}

function common(q: URLSearchParams, n: number) {
  for (const name of ['bearings', 'hints', 'approaches']) perCoordinate(q, name, n);
  const ex = q.get('exclude');
  if (ex && ex !== 'none') fail('InvalidValue', 'Exclude flag combination is not supported.');
  oneOf(q, 'snapping', ['default', 'any'], 'default');
  bool(q, 'generate_hints', true);
  return { skipWaypoints: bool(q, 'skip_waypoints', false), radius: radiusOf(q, n) };
}

function profileOf(p: string): Mode {
  return OSRM_PROFILES[p] ?? fail('InvalidValue', `Unknown profile '${p}': use driving, walking or cycling (car, foot, bike).`);
}

/** The worker answered: an OSRM error body becomes a 400; our own errors (never expected here) pass through. */
function reply(t: TaskReply): Reply {
  if (t.status === 200 && !startsWithOk(t.body)) return { task: { status: 400, body: t.body } };
  return { task: t };
}
const OK = Buffer.from('{"code":"Ok"');
const startsWithOk = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, Math.min(b.length, OK.length)).equals(OK);

async function handle(req: Req, run: () => Promise<Reply>): Promise<Reply> {
  try { return await run(); } catch (e) {
    if (e instanceof OsrmError) return { status: 400, json: { code: e.code, message: e.message } };
    throw e;
  }
}

/** steps, geometries, overview, annotations (route, match, trip). */
function outputOptions(q: URLSearchParams) {
  const annRaw = q.get('annotations') ?? 'false';
  let annotations: string[] = [];
  if (annRaw === 'true') annotations = ANNOTATIONS.filter((a) => a !== 'nodes');
  else if (annRaw !== 'false') {
    annotations = annRaw.split(',');
    if (annotations.some((a) => !(ANNOTATIONS as readonly string[]).includes(a))) fail('InvalidQuery', `Option 'annotations' must be true, false or a list of ${ANNOTATIONS.join(', ')}.`);
  }
  const overview = oneOf(q, 'overview', ['simplified', 'full', 'false', 'by_legs'] as const, 'simplified');
  if (overview === 'by_legs') fail('NotImplemented', "overview=by_legs is not supported; use full, simplified or false.");
  oneOf(q, 'continue_straight', ['default', 'true', 'false'], 'default');
  if (q.get('waypoints')) fail('NotImplemented', "Option 'waypoints' is not supported: every coordinate is a waypoint.");
  return {
    annotations,
    steps: bool(q, 'steps', false),
    geometries: oneOf(q, 'geometries', ['polyline', 'polyline6', 'geojson'] as const, 'polyline'),
    overview: overview as 'simplified' | 'full' | 'false',
  };
}

function routeArgs(req: Req) {
  const q = req.query;
  const mode = profileOf(req.params.profile);
  const coordinates = parseCoordinates(req.params.coordinates);
  if (coordinates.length < 2) fail('InvalidOptions', 'Number of coordinates needs to be at least two.');
  if (coordinates.length > OSRM_MAX_COORDINATES) fail('TooBig', `At most ${OSRM_MAX_COORDINATES} coordinates.`);
  const { skipWaypoints, radius } = common(q, coordinates.length);
  const altRaw = q.get('alternatives') ?? 'false';
  let alternatives = 0;
  if (altRaw === 'true') alternatives = 1; // OSRM: true = one alternative
  else if (altRaw !== 'false') {
    if (!/^\d+$/.test(altRaw)) fail('InvalidQuery', "Option 'alternatives' must be true, false or a number.");
    alternatives = Math.min(MAX_ALTERNATIVES, Number(altRaw));
  }
  if (coordinates.length > 2) alternatives = 0; // as OSRM: alternatives only between two points
  const out = outputOptions(q);
  return { coordinates, mode, radius, skipWaypoints, alternatives, ...out };
}

/** `all` or `i;j;…` (each 0 ≤ i < n). */
function indices(q: URLSearchParams, name: string, n: number): number[] {
  const v = q.get(name);
  if (v === null || v === '' || v === 'all') return Array.from({ length: n }, (_, i) => i);
  return v.split(';').map((x) => {
    if (!/^\d+$/.test(x) || Number(x) >= n) fail('InvalidOptions', `Option '${name}' takes 'all' or indices from 0 to ${n - 1}, ';'-separated.`);
    return Number(x);
  });
}

function tableArgs(req: Req) {
  const q = req.query;
  const mode = profileOf(req.params.profile);
  const coordinates = parseCoordinates(req.params.coordinates);
  if (coordinates.length > MATRIX_LIMITS.maxPointsGet) fail('TooBig', `At most ${MATRIX_LIMITS.maxPointsGet} coordinates.`);
  const { skipWaypoints, radius } = common(q, coordinates.length);
  const sources = indices(q, 'sources', coordinates.length), destinations = indices(q, 'destinations', coordinates.length);
  const ann = (q.get('annotations') ?? 'duration').split(',');
  if (!ann.length || ann.some((x) => x !== 'duration' && x !== 'distance')) fail('InvalidOptions', "Option 'annotations' must be duration, distance or duration,distance.");
  const num = (name: string) => {
    const v = q.get(name);
    if (v === null || v === '') return undefined;
    const x = Number(v);
    if (!(x > 0)) fail('InvalidOptions', `Option '${name}' must be a number > 0.`);
    return x;
  };
  return {
    coordinates, mode, radius, skipWaypoints, sources, destinations, annotations: ann as ('duration' | 'distance')[],
    fallbackSpeed: num('fallback_speed'), scaleFactor: num('scale_factor') ?? 1,
    fallbackCoordinate: oneOf(q, 'fallback_coordinate', ['input', 'snapped'] as const, 'input'),
  };
}

function tripArgs(req: Req) {
  const q = req.query;
  // the route through the trip repeats the first coordinate when it is a round trip
  const max = OSRM_MAX_COORDINATES - 1;
  const coordinates = parseCoordinates(req.params.coordinates);
  if (coordinates.length > max) fail('TooBig', `At most ${max} coordinates.`);
  const base = routeArgs({ ...req, params: { ...req.params, coordinates: coordinates.length === 1 ? `${req.params.coordinates};${req.params.coordinates}` : req.params.coordinates } } as Req);
  const roundtrip = bool(q, 'roundtrip', true);
  const source = oneOf(q, 'source', ['any', 'first'] as const, 'any');
  const destination = oneOf(q, 'destination', ['any', 'last'] as const, 'any');
  if ((roundtrip && destination === 'last') || (!roundtrip && source === 'any'))
    fail('NotSupported', `roundtrip=${roundtrip} with source=${source} and destination=${destination} is not supported.`);
  const { alternatives: _a, ...rest } = base;
  return { ...rest, coordinates, roundtrip, destinationLast: destination === 'last' };
}

/** Coordinates of one match request (OSRM's default max-matching-size). */
export const OSRM_MAX_MATCH = 100;

function matchArgs(req: Req) {
  const q = req.query;
  const mode = profileOf(req.params.profile);
  const coordinates = parseCoordinates(req.params.coordinates);
  const n = coordinates.length;
  if (n < 2) fail('InvalidOptions', 'Number of coordinates needs to be at least two.');
  if (n > OSRM_MAX_MATCH) fail('TooBig', `At most ${OSRM_MAX_MATCH} coordinates.`);
  for (const name of ['bearings', 'hints', 'approaches']) perCoordinate(q, name, n);
  const ex = q.get('exclude');
  if (ex && ex !== 'none') fail('InvalidValue', 'Exclude flag combination is not supported.');
  if (q.get('waypoints')) fail('NotImplemented', "Option 'waypoints' is not supported: every matched coordinate is a waypoint.");
  const ts = perCoordinate(q, 'timestamps', n);
  let timestamps: number[] | undefined;
  if (ts) {
    timestamps = ts.map((x) => { if (!/^\d+$/.test(x)) fail('InvalidQuery', "Option 'timestamps' takes integer seconds since the UNIX epoch."); return Number(x); });
    if (timestamps.some((x, i) => i > 0 && x < timestamps![i - 1])) fail('InvalidValue', 'Timestamps need to be monotonically increasing.');
  }
  const rs = perCoordinate(q, 'radiuses', n);
  const radiuses = rs?.map((x) => {
    if (x === '') return null;
    const v = Number(x);
    if (!(v >= 0)) fail('InvalidQuery', "Option 'radiuses' takes numbers ≥ 0.");
    return Math.min(1000, v) || null;
  });
  const gaps = oneOf(q, 'gaps', ['split', 'ignore'] as const, 'split');
  bool(q, 'tidy', false);
  return {
    coordinates, mode, skipWaypoints: bool(q, 'skip_waypoints', false), ...outputOptions(q),
    ...(timestamps && gaps === 'split' ? { timestamps } : {}), ...(radiuses ? { radiuses } : {}),
  };
}

// ---- declarations (OpenAPI, reference page, auth matrix) --------------------------------------

const str = (description: string) => ({ schema: Q.str(), description });
const generalQuery = {
  radiuses: str("Per coordinate: metres or 'unlimited', ';'-separated (we snap every point within the largest, at most 10 km)"),
  bearings: str('Per coordinate; accepted and ignored'),
  hints: str('Per coordinate; accepted and ignored (we snap again)'),
  approaches: str('Per coordinate; accepted and ignored'),
  generate_hints: str('true|false; waypoints always carry a hint'),
  exclude: str("Only empty or 'none' (no class exclusion in this build)"),
  snapping: str('default|any'),
  skip_waypoints: str('true|false'),
};
const routeQuery = {
  ...generalQuery,
  alternatives: str(`true (one), false, or a number up to ${MAX_ALTERNATIVES}`),
  steps: str('true|false: legs[].steps with maneuvers, as OSRM'),
  annotations: str('true|false or a list of duration, distance, speed, weight, datasources (nodes: not available, OSM ids are not kept)'),
  geometries: str('polyline (default, precision 5), polyline6 or geojson'),
  overview: str('simplified (default), full or false'),
  continue_straight: str('default|true|false; accepted and ignored'),
};
const params = {
  profile: { schema: { ...Q.str({ minLength: 1 }), examples: ['driving'] }, description: 'driving, walking or cycling (also car, foot, bike, bicycle)' },
  coordinates: { schema: Q.str({ minLength: 3 }), description: "lng,lat;lng,lat… or polyline(…) / polyline6(…), optional '.json'" },
};
const waypoint: Schema = { type: 'object', required: ['hint', 'distance', 'name', 'location'], properties: { hint: { type: 'string' }, distance: { type: 'number' }, name: { type: 'string' }, location: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 } } };
const geometry: Schema = { oneOf: [{ type: 'string' }, { type: 'object', required: ['type', 'coordinates'], properties: { type: { const: 'LineString' }, coordinates: { type: 'array' } } }] };
const maneuver: Schema = { type: 'object', required: ['location', 'bearing_before', 'bearing_after', 'type'], properties: { location: { type: 'array', items: { type: 'number' } }, bearing_before: { type: 'integer' }, bearing_after: { type: 'integer' }, type: { type: 'string' }, modifier: { type: 'string' }, exit: { type: 'integer' } } };
const intersection: Schema = { type: 'object', required: ['location', 'bearings', 'entry'], properties: { location: { type: 'array' }, bearings: { type: 'array', items: { type: 'integer' } }, entry: { type: 'array', items: { type: 'boolean' } }, in: { type: 'integer' }, out: { type: 'integer' } } };
const step: Schema = { type: 'object', required: ['distance', 'duration', 'weight', 'geometry', 'name', 'mode', 'maneuver', 'intersections'], properties: { distance: { type: 'number' }, duration: { type: 'number' }, weight: { type: 'number' }, geometry, name: { type: 'string' }, ref: { type: 'string' }, pronunciation: { type: 'string' }, destinations: { type: 'string' }, mode: { type: 'string' }, maneuver, intersections: { type: 'array', items: intersection }, rotary_name: { type: 'string' } } };
const leg: Schema = { type: 'object', required: ['distance', 'duration', 'weight', 'summary', 'steps'], properties: { distance: { type: 'number' }, duration: { type: 'number' }, weight: { type: 'number' }, summary: { type: 'string' }, steps: { type: 'array', items: step }, annotation: { type: 'object' } } };
const route: Schema = { type: 'object', required: ['distance', 'duration', 'weight', 'weight_name', 'legs'], properties: { distance: { type: 'number' }, duration: { type: 'number' }, weight: { type: 'number' }, weight_name: { type: 'string' }, geometry, legs: { type: 'array', items: leg } } };
/** OSRM's documented shapes (docs/http.md "Result objects"); the tests validate answers against them. */
export const OSRM_SCHEMAS = {
  error: { type: 'object', required: ['code'], properties: { code: { type: 'string' }, message: { type: 'string' } } } as Schema,
  route: { type: 'object', required: ['code', 'routes'], properties: { code: { const: 'Ok' }, routes: { type: 'array', items: route }, waypoints: { type: 'array', items: waypoint } } } as Schema,
  match: { type: 'object', required: ['code', 'matchings'], properties: { code: { const: 'Ok' }, matchings: { type: 'array', items: { ...route, required: [...(route.required as string[]), 'confidence'], properties: { ...(route.properties as object), confidence: { type: 'number', minimum: 0, maximum: 1 } } } }, tracepoints: { type: 'array', items: { anyOf: [{ type: 'null' }, { ...waypoint, required: ['hint', 'distance', 'name', 'location', 'matchings_index', 'waypoint_index', 'alternatives_count'], properties: { ...(waypoint.properties as object), matchings_index: { type: 'integer' }, waypoint_index: { type: 'integer' }, alternatives_count: { type: 'integer' } } }] } } } } as Schema,
  trip: { type: 'object', required: ['code', 'trips'], properties: { code: { const: 'Ok' }, trips: { type: 'array', items: route }, waypoints: { type: 'array', items: { ...waypoint, required: ['hint', 'distance', 'name', 'location', 'waypoint_index', 'trips_index'], properties: { ...(waypoint.properties as object), waypoint_index: { type: 'integer' }, trips_index: { type: 'integer' } } } } } } as Schema,
  table: { type: 'object', required: ['code'], properties: { code: { const: 'Ok' }, durations: { type: 'array', items: { type: 'array', items: { type: ['number', 'null'] } } }, distances: { type: 'array', items: { type: 'array', items: { type: ['number', 'null'] } } }, sources: { type: 'array', items: waypoint }, destinations: { type: 'array', items: waypoint }, fallback_speed_cells: { type: 'array' } } } as Schema,
  nearest: { type: 'object', required: ['code', 'waypoints'], properties: { code: { const: 'Ok' }, waypoints: { type: 'array', items: { ...waypoint, required: ['nodes', 'hint', 'distance', 'name', 'location'], properties: { ...(waypoint.properties as object), nodes: { type: 'array', items: { type: 'integer' } } } } } } } as Schema,
};
const errors = { 400: { description: 'OSRM error: {"code":"InvalidQuery|InvalidValue|InvalidOptions|NoSegment|NoRoute|NoTrips|NoMatch|TooBig|NotImplemented|NotSupported","message"}', schema: OSRM_SCHEMAS.error } };
const ready = (op: TaskOp) => (ctx: AppContext) => ctx.pool.has(op) && ctx.pool.hasDataset('road');

export const routes: RouteDef[] = [
  {
    method: 'GET',
    path: '//osrm/route/v1/:profile/:coordinates',
    scope: 'routing',
    keyInQuery: true,
    ready: ready('osrm_route'),
    note: 'OSRM v5 route service (docs/osrm.md).',
    decl: {
      summary: 'OSRM v5 route service: fastest route through the coordinates, OSRM request grammar and response shape',
      tag: 'compat',
      params, query: routeQuery,
      responses: { 200: { description: 'OSRM route response', schema: OSRM_SCHEMAS.route }, ...errors },
      examples: [
        { params: { profile: 'driving', coordinates: '32.7667,-5.6333;32.90,-5.80' }, query: 'overview=full&geometries=geojson', summary: 'Sikonge, Tanzania' },
        { params: { profile: 'driving', coordinates: '-0.205,5.55;-0.18,5.556' }, query: 'steps=true&alternatives=true', summary: 'Accra, with steps and an alternative (polyline)' },
      ],
    },
    handler: (req, ctx) => handle(req, async () => reply(await ctx.pool.run('osrm_route', routeArgs(req), !!req.key?.test))),
  },
  {
    method: 'GET',
    path: '//osrm/table/v1/:profile/:coordinates',
    scope: 'routing',
    keyInQuery: true,
    ready: ready('osrm_table'),
    note: 'OSRM v5 table service over the distance-matrix engine.',
    decl: {
      summary: 'OSRM v5 table service: durations and distances between all pairs of the chosen sources and destinations',
      tag: 'compat',
      params,
      query: {
        ...generalQuery,
        sources: str("'all' (default) or indices i;j;…"), destinations: str("'all' (default) or indices i;j;…"),
        annotations: str('duration (default), distance, or duration,distance'),
        fallback_speed: str('m/s: unreachable cells get the straight-line distance at this speed (listed in fallback_speed_cells)'),
        fallback_coordinate: str('input (default) or snapped: where the fallback distance is measured from'),
        scale_factor: str('> 0: multiplies the durations'),
      },
      responses: { 200: { description: 'OSRM table response', schema: OSRM_SCHEMAS.table }, ...errors },
      examples: [{ params: { profile: 'driving', coordinates: '32.7667,-5.6333;32.90,-5.80;32.80,-5.70' }, query: 'annotations=duration,distance', summary: 'Sikonge, Tanzania, 3×3' }],
    },
    handler: (req, ctx) => handle(req, async () => reply(await ctx.pool.run('osrm_table', tableArgs(req), !!req.key?.test))),
  },
  {
    method: 'GET',
    path: '//osrm/trip/v1/:profile/:coordinates',
    scope: 'routing',
    keyInQuery: true,
    ready: ready('osrm_trip'),
    note: 'OSRM v5 trip service over the stop-order optimiser.',
    decl: {
      summary: 'OSRM v5 trip service: the coordinates in the fastest visiting order (a travelling-salesman tour) and the route through them',
      tag: 'compat',
      params,
      query: {
        ...routeQuery,
        roundtrip: str('true (default): back to the first coordinate; false: an open trip'),
        source: str('any (default; the trip starts at the first coordinate) or first'),
        destination: str('any (default) or last (with roundtrip=false)'),
      },
      responses: { 200: { description: 'OSRM trip response', schema: OSRM_SCHEMAS.trip }, ...errors },
      examples: [{ params: { profile: 'driving', coordinates: '32.7667,-5.6333;32.90,-5.80;32.80,-5.70;32.85,-5.65' }, query: 'overview=false', summary: 'Sikonge, Tanzania, round trip of four points' }],
    },
    handler: (req, ctx) => handle(req, async () => reply(await ctx.pool.run('osrm_trip', tripArgs(req), !!req.key?.test))),
  },
  {
    method: 'GET',
    path: '//osrm/match/v1/:profile/:coordinates',
    scope: 'routing',
    keyInQuery: true,
    ready: ready('osrm_match'),
    note: 'OSRM v5 match service over the map matcher.',
    decl: {
      summary: 'OSRM v5 match service: a GPS trace matched to the roads (hidden Markov model), as routes with confidence and tracepoints',
      tag: 'compat',
      params,
      query: {
        ...routeQuery,
        timestamps: str('Per coordinate: integer seconds since the UNIX epoch, increasing'),
        radiuses: str('Per coordinate: GPS accuracy in metres (default 10)'),
        gaps: str('split (default: a jump of more than 10 minutes starts a new matching) or ignore'),
        tidy: str('true|false; accepted, ignored'),
      },
      responses: { 200: { description: 'OSRM match response', schema: OSRM_SCHEMAS.match }, ...errors },
      examples: [{ params: { profile: 'driving', coordinates: '-0.2050,5.5500;-0.2040,5.5501;-0.2030,5.5503' }, query: 'overview=full&geometries=geojson', summary: 'Accra, three fixes' }],
    },
    handler: (req, ctx) => handle(req, async () => reply(await ctx.pool.run('osrm_match', matchArgs(req), !!req.key?.test))),
  },
  {
    method: 'GET',
    path: '//osrm/nearest/v1/:profile/:coordinates',
    scope: 'routing',
    keyInQuery: true,
    ready: ready('osrm_nearest'),
    note: 'OSRM v5 nearest service.',
    decl: {
      summary: 'OSRM v5 nearest service: the nearest road segments to one coordinate',
      tag: 'compat',
      params, query: { ...generalQuery, number: str(`Number of nearest segments, 1–${OSRM_MAX_NEAREST} (default 1)`) },
      responses: { 200: { description: 'OSRM nearest response', schema: OSRM_SCHEMAS.nearest }, ...errors },
      examples: [{ params: { profile: 'driving', coordinates: '32.7667,-5.6333' }, query: 'number=3', summary: 'Sikonge, Tanzania' }],
    },
    handler: (req, ctx) => handle(req, async () => {
      const mode = profileOf(req.params.profile);
      const coords = parseCoordinates(req.params.coordinates);
      if (coords.length !== 1) fail('InvalidOptions', 'The nearest service takes exactly one coordinate.');
      const { radius } = common(req.query, 1);
      const nRaw = req.query.get('number') ?? '1';
      if (!/^\d+$/.test(nRaw) || Number(nRaw) < 1 || Number(nRaw) > OSRM_MAX_NEAREST) fail('InvalidOptions', `Option 'number' must be an integer from 1 to ${OSRM_MAX_NEAREST}.`);
      return reply(await ctx.pool.run('osrm_nearest', { coordinate: coords[0], mode, number: Number(nRaw), radius }, !!req.key?.test));
    }),
  },
];
