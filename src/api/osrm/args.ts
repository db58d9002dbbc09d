// The worker task arguments of each OSRM service, from the validated options (req.q, typed by
// options.ts) and the coordinates: the checks that need the number of coordinates or another
// option, with OSRM's codes and messages.
import type { OsrmMatchArgs, OsrmNearestArgs, OsrmRouteArgs, OsrmTableArgs, OsrmTripArgs } from '../../core/tasks/index.ts';
import type { QueryOf } from '../../http/declaration.ts';
import { MATRIX_LIMITS, MAX_TRACE_ACCURACY_M, MAX_VIA, SNAP_RADIUS } from '../../core/limits.ts';
import { MAX_ALTERNATIVES } from '../../core/guidance.ts';
import { OSRM_PROFILES, type Mode } from '../../core/modes.ts';
import { ANNOTATIONS } from '../../core/osrm.ts';
import { fail, parseCoordinates } from './coordinates.ts';
import type { GENERAL, MATCH, NEAREST, ROUTE, TABLE, TRIP } from './options.ts';

/** Coordinates per route request: origin, destination and MAX_VIA via points, as /route. */
export const OSRM_MAX_COORDINATES = MAX_VIA + 2;
/** Coordinates of one match request (OSRM's default max-matching-size). */
export const OSRM_MAX_MATCH = 100;

type General = QueryOf<typeof GENERAL>;
type Output = Pick<QueryOf<typeof ROUTE>, 'steps' | 'annotations' | 'geometries' | 'overview' | 'waypoints'>;
interface Path { profile: string; coordinates: string }

function profileOf(p: string): Mode {
  return OSRM_PROFILES[p] ?? fail('InvalidValue', `Unknown profile '${p}': use driving, walking or cycling (car, foot, bike).`);
}

/** A per-coordinate option must have one element per coordinate. */
function countMatches<Q extends Record<K, unknown[] | undefined>, K extends string>(q: Q, names: readonly K[], n: number): void {
  for (const name of names) {
    const v = q[name];
    if (v && v.length !== n) fail('InvalidOptions', `Number of elements in ${name} size ${v.length} does not match coordinate size ${n}`);
  }
}

/** Snap radius: OSRM's radiuses are per coordinate (default unlimited); we snap every point within the largest, at most our maximum. */
function radiusOf(radiuses: (number | 'unlimited' | null)[] | undefined): number {
  if (!radiuses) return SNAP_RADIUS.max;
  let max = 0;
  for (const r of radiuses) max = Math.max(max, r === null || r === 'unlimited' ? SNAP_RADIUS.max : r);
  return Math.min(SNAP_RADIUS.max, Math.max(1, max));
}

function excludeNone(exclude: string[] | undefined): void {
  if (exclude?.some((x) => x !== 'none')) fail('InvalidValue', 'Exclude flag combination is not supported.');
}

function general(q: General, n: number) {
  countMatches(q, ['radiuses', 'bearings', 'hints', 'approaches'], n);
  excludeNone(q.exclude);
  return { skipWaypoints: q.skip_waypoints, radius: radiusOf(q.radiuses) };
}

/** steps, geometries, overview, annotations (route, match, trip). */
function output(q: Output) {
  const annotations = q.annotations === true ? ANNOTATIONS.filter((a) => a !== 'nodes') : q.annotations === false || q.annotations === undefined ? [] : q.annotations;
  if (q.overview === 'by_legs') fail('NotImplemented', 'overview=by_legs is not supported; use full, simplified or false.');
  if (q.waypoints) fail('NotImplemented', "Option 'waypoints' is not supported: every coordinate is a waypoint.");
  return { annotations, steps: q.steps, geometries: q.geometries, overview: q.overview as Exclude<typeof q.overview, 'by_legs'> };
}

function atLeastTwo(n: number): void {
  if (n < 2) fail('InvalidOptions', 'Number of coordinates needs to be at least two.');
}

export function routeArgs(p: Path, q: QueryOf<typeof ROUTE>): OsrmRouteArgs {
  const mode = profileOf(p.profile);
  const coordinates = parseCoordinates(p.coordinates);
  atLeastTwo(coordinates.length);
  if (coordinates.length > OSRM_MAX_COORDINATES) fail('TooBig', `At most ${OSRM_MAX_COORDINATES} coordinates.`);
  // OSRM: true is one alternative, and alternatives are only searched between two points
  const asked = q.alternatives === true ? 1 : q.alternatives === false || q.alternatives === undefined ? 0 : Math.min(MAX_ALTERNATIVES, q.alternatives);
  const alternatives = coordinates.length > 2 ? 0 : asked;
  return { coordinates, mode, ...general(q, coordinates.length), alternatives, ...output(q), snapping: q.snapping };
}

/** 'all' or the indices given (each below n). */
function indices(v: 'all' | number[] | undefined, name: string, n: number): number[] {
  if (v === undefined || v === 'all') return Array.from({ length: n }, (_, i) => i);
  if (v.some((i) => i >= n)) fail('InvalidOptions', `Option '${name}' takes 'all' or indices from 0 to ${n - 1}, ';'-separated.`);
  return v;
}

export function tableArgs(p: Path, q: QueryOf<typeof TABLE>): OsrmTableArgs {
  const mode = profileOf(p.profile);
  const coordinates = parseCoordinates(p.coordinates);
  const n = coordinates.length;
  if (n > MATRIX_LIMITS.maxPointsGet) fail('TooBig', `At most ${MATRIX_LIMITS.maxPointsGet} coordinates.`);
  return {
    coordinates, mode, ...general(q, n),
    sources: indices(q.sources, 'sources', n), destinations: indices(q.destinations, 'destinations', n),
    annotations: q.annotations?.length ? q.annotations : ['duration'],
    fallbackSpeed: q.fallback_speed, scaleFactor: q.scale_factor, fallbackCoordinate: q.fallback_coordinate,
  };
}

export function tripArgs(p: Path, q: QueryOf<typeof TRIP>): OsrmTripArgs {
  const mode = profileOf(p.profile);
  const coordinates = parseCoordinates(p.coordinates);
  // the route through the trip repeats the first coordinate when it is a round trip
  const max = OSRM_MAX_COORDINATES - 1;
  if (coordinates.length > max) fail('TooBig', `At most ${max} coordinates.`);
  if ((q.roundtrip && q.destination === 'last') || (!q.roundtrip && q.source === 'any'))
    fail('NotSupported', `roundtrip=${q.roundtrip} with source=${q.source} and destination=${q.destination} is not supported.`);
  return { coordinates, mode, ...general(q, coordinates.length), ...output(q), snapping: q.snapping, roundtrip: q.roundtrip, destinationLast: q.destination === 'last' };
}

export function matchArgs(p: Path, q: QueryOf<typeof MATCH>): OsrmMatchArgs {
  const mode = profileOf(p.profile);
  const coordinates = parseCoordinates(p.coordinates);
  const n = coordinates.length;
  atLeastTwo(n);
  if (n > OSRM_MAX_MATCH) fail('TooBig', `At most ${OSRM_MAX_MATCH} coordinates.`);
  countMatches(q, ['bearings', 'hints', 'approaches', 'timestamps', 'radiuses'], n);
  excludeNone(q.exclude);
  // timestamps refuse empty elements in their declaration
  const timestamps = q.timestamps as number[] | undefined;
  if (timestamps?.some((x, i) => i > 0 && x < timestamps[i - 1])) fail('InvalidValue', 'Timestamps need to be monotonically increasing.');
  const radiuses = q.radiuses?.map((r) => (r === null ? null : Math.min(MAX_TRACE_ACCURACY_M, r) || null));
  return {
    coordinates, mode, skipWaypoints: q.skip_waypoints, ...output(q),
    ...(timestamps && q.gaps === 'split' ? { timestamps } : {}), ...(radiuses ? { radiuses } : {}),
  };
}

export function nearestArgs(p: Path, q: QueryOf<typeof NEAREST>): OsrmNearestArgs {
  const mode = profileOf(p.profile);
  const coordinates = parseCoordinates(p.coordinates);
  if (coordinates.length !== 1) fail('InvalidOptions', 'The nearest service takes exactly one coordinate.');
  return { coordinate: coordinates[0], mode, number: q.number, radius: general(q, 1).radius };
}
