// OSRM v5 request options (docs/http.md), declared with their real types: the validator coerces
// and checks them (operation.ts) and the OpenAPI document shows booleans, numbers, enums and lists
// as such. What needs the number of coordinates (per-coordinate counts, table indices) or another
// option (trip's source and destination) is checked by the handlers (args.ts).
import { Q, type Schema, type Typed } from '../../http/declaration.ts';
import { ANNOTATIONS, GEOMETRIES, type Annotation } from '../../core/osrm.ts';
import { MAX_ALTERNATIVES } from '../../core/guidance.ts';
import { MAX_TRACE_ACCURACY_M, SNAP_RADIUS } from '../../core/limits.ts';

/** nearest?number= at most. */
export const OSRM_MAX_NEAREST = 100;

/**
 * One element per coordinate, ';'-separated (`a;b;;c`). With `empty`, an empty element is null
 * (that coordinate's default); without, it is refused as OSRM refuses it.
 */
function perCoordinate<V>(item: Schema, empty: boolean): Typed<(V | null)[]> {
  return { type: 'array', 'x-separator': ';', 'x-keep-empty': true, items: empty ? { oneOf: [item, { type: 'null' }] } : item };
}

const opt = <S extends Schema>(schema: S, description: string) => ({ schema, description });

const UNSIGNED: Schema = { type: 'number', minimum: 0 };

/** Options every service takes. */
export const GENERAL = {
  radiuses: opt(perCoordinate<number | 'unlimited'>({ oneOf: [UNSIGNED, { enum: ['unlimited'] }] }, true),
    `Per coordinate: metres or 'unlimited' (we snap every point within the largest, at most ${SNAP_RADIUS.max / 1000} km)`),
  bearings: opt(perCoordinate<string>({ type: 'string', pattern: '^\\d{1,3},\\d{1,3}$', 'x-hint': "must be 'bearing,range' in degrees" }, true), 'Per coordinate `bearing,range`; accepted and ignored'),
  hints: opt(perCoordinate<string>({ type: 'string' }, true), 'Per coordinate; accepted and ignored (we snap again)'),
  approaches: opt(perCoordinate<'curb' | 'unrestricted' | 'opposite'>({ type: 'string', enum: ['curb', 'unrestricted', 'opposite'] }, true), 'Per coordinate; accepted and ignored'),
  generate_hints: opt(Q.bool(true), 'Waypoints always carry a hint'),
  exclude: opt(Q.list(Q.str()), "Only 'none' (no class exclusion in this build)"),
  snapping: opt(Q.enum(['default', 'any'], 'default'), "'any': route and trip points may also snap onto ferries and private service roads (accepted and ignored by the other services)"),
  skip_waypoints: opt(Q.bool(false), 'Leave the waypoints out of the answer'),
};

/** Options of the answers that carry routes (route, trip, match). */
const OUTPUT = {
  steps: opt(Q.bool(false), 'legs[].steps with maneuvers, as OSRM'),
  annotations: opt({ oneOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string', enum: [...ANNOTATIONS] } }] } as Typed<boolean | Annotation[]>,
    'true, false, or a list of duration, distance, speed, weight, datasources (nodes: not available, OSM ids are not kept)'),
  geometries: opt(Q.enum(GEOMETRIES, 'polyline'), 'polyline (precision 5), polyline6 or geojson'),
  overview: opt(Q.enum(['simplified', 'full', 'false', 'by_legs'], 'simplified'), 'simplified, full or false (by_legs: NotImplemented)'),
  continue_straight: opt({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['default'] }] } as Typed<boolean | 'default'>, 'default, true or false; accepted and ignored'),
  waypoints: opt(Q.list(Q.int({ min: 0 }), { separator: ';' }), 'Not supported: every coordinate is a waypoint (NotImplemented)'),
};

export const ROUTE = {
  ...GENERAL, ...OUTPUT,
  // integer first: `1` is one alternative, as a number, not `true`
  alternatives: opt({ oneOf: [{ type: 'integer', minimum: 0 }, { type: 'boolean' }] } as Typed<number | boolean>,
    `true (one), false, or a number (at most ${MAX_ALTERNATIVES} are answered); only between two coordinates`),
};

/** `all` or indices `i;j;…`. */
const indices = (description: string) => opt({ oneOf: [{ type: 'string', enum: ['all'] }, { type: 'array', 'x-separator': ';', items: { type: 'integer', minimum: 0 } }] } as Typed<'all' | number[]>, description);

export const TABLE = {
  ...GENERAL,
  sources: indices("'all' (default) or coordinate indices i;j;…"),
  destinations: indices("'all' (default) or coordinate indices i;j;…"),
  annotations: opt(Q.list(Q.enum(['duration', 'distance'])), 'duration (default), distance, or duration,distance'),
  fallback_speed: opt({ type: 'number', exclusiveMinimum: 0 } as Typed<number>, 'm/s: unreachable cells get the straight-line distance at this speed (listed in fallback_speed_cells)'),
  fallback_coordinate: opt(Q.enum(['input', 'snapped'], 'input'), 'Where the fallback distance is measured from'),
  scale_factor: opt({ type: 'number', exclusiveMinimum: 0, default: 1 } as Typed<number, true>, 'Multiplies the durations'),
};

export const TRIP = {
  ...GENERAL, ...OUTPUT,
  roundtrip: opt(Q.bool(true), 'true: back to the first coordinate; false: an open trip'),
  source: opt(Q.enum(['any', 'first'], 'any'), 'any (the trip starts at the first coordinate) or first'),
  destination: opt(Q.enum(['any', 'last'], 'any'), 'any, or last (with roundtrip=false)'),
};

export const MATCH = {
  ...GENERAL, ...OUTPUT,
  timestamps: opt(perCoordinate<number>({ type: 'integer', minimum: 0 }, false), 'Per coordinate: integer seconds since the UNIX epoch, increasing'),
  radiuses: opt(perCoordinate<number>(UNSIGNED, true), `Per coordinate: GPS accuracy in metres (default 10, at most ${MAX_TRACE_ACCURACY_M} used)`),
  gaps: opt(Q.enum(['split', 'ignore'], 'split'), 'split: a jump of more than 10 minutes starts a new matching; ignore'),
  tidy: opt(Q.bool(false), 'Accepted, ignored'),
};

export const NEAREST = {
  ...GENERAL,
  number: opt(Q.int({ min: 1, max: OSRM_MAX_NEAREST, default: 1 }), `Number of nearest segments, 1–${OSRM_MAX_NEAREST}`),
};

/** The path segments. */
export const PARAMS = {
  profile: { schema: { ...Q.str({ minLength: 1 }), examples: ['driving'] }, description: 'driving, walking or cycling (also car, foot, bike, bicycle)' },
  coordinates: { schema: Q.str({ minLength: 1 }), description: "lng,lat;lng,lat… or polyline(…) / polyline6(…), optional '.json'" },
};
