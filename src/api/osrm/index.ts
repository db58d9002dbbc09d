// OSRM v5 HTTP API under /osrm/: a client of a self-hosted osrm-routed (MapLibre and
// Leaflet routing controls, OSRM client libraries) changes only its base URL. Request grammar and
// response shapes follow OSRM's docs/http.md: GET /osrm/{service}/v1/{profile}/{coordinates}[.json]
// with `lng,lat;lng,lat…` or `polyline(…)`/`polyline6(…)`, options in the query string, and
// `{"code":"Ok",…}` or a 400 with `{"code":"NoRoute|NoSegment|InvalidQuery|…","message"}`.
// The key may come as `?key=` here (such clients cannot set headers); the request log records the
// path only. docs/osrm.md lists what is accepted but ignored (hints, bearings, approaches).
import type { RouteDef } from '../../http/types.ts';
import { osrmRoute } from './define.ts';
import { MATCH, NEAREST, PARAMS, ROUTE, TABLE, TRIP } from './options.ts';
import { OSRM_SCHEMAS } from './responses.ts';
import { matchArgs, nearestArgs, routeArgs, tableArgs, tripArgs } from './args.ts';

export { OSRM_SCHEMAS } from './responses.ts';
export { parseCoordinates } from './coordinates.ts';
export { OSRM_MAX_NEAREST } from './options.ts';
export { OSRM_MAX_COORDINATES, OSRM_MAX_MATCH } from './args.ts';

export const routes: RouteDef[] = [
  osrmRoute({
    service: 'route',
    op: 'osrm_route',
    note: 'OSRM v5 route service (docs/osrm.md).',
    decl: {
      summary: 'OSRM v5 route service: fastest route through the coordinates, OSRM request grammar and response shape',
      params: PARAMS, query: ROUTE,
      responses: { 200: { description: 'OSRM route response', schema: OSRM_SCHEMAS.route } },
      examples: [
        { params: { profile: 'driving', coordinates: '32.7667,-5.6333;32.90,-5.80' }, query: 'overview=full&geometries=geojson', summary: 'Sikonge, Tanzania' },
        { params: { profile: 'driving', coordinates: '-0.205,5.55;-0.18,5.556' }, query: 'steps=true&alternatives=true', summary: 'Accra, with steps and an alternative (polyline)' },
      ],
    },
    handler: (req, ctx) => ctx.pool.run('osrm_route', routeArgs(req.params, req.q), !!req.key?.test),
  }),
  osrmRoute({
    service: 'table',
    op: 'osrm_table',
    note: 'OSRM v5 table service over the distance-matrix engine.',
    decl: {
      summary: 'OSRM v5 table service: durations and distances between all pairs of the chosen sources and destinations',
      params: PARAMS, query: TABLE,
      responses: { 200: { description: 'OSRM table response', schema: OSRM_SCHEMAS.table } },
      examples: [{ params: { profile: 'driving', coordinates: '32.7667,-5.6333;32.90,-5.80;32.80,-5.70' }, query: 'annotations=duration,distance', summary: 'Sikonge, Tanzania, 3×3' }],
    },
    handler: (req, ctx) => ctx.pool.run('osrm_table', tableArgs(req.params, req.q), !!req.key?.test),
  }),
  osrmRoute({
    service: 'trip',
    op: 'osrm_trip',
    note: 'OSRM v5 trip service over the stop-order optimiser.',
    decl: {
      summary: 'OSRM v5 trip service: the coordinates in the fastest visiting order (a travelling-salesman tour) and the route through them',
      params: PARAMS, query: TRIP,
      responses: { 200: { description: 'OSRM trip response', schema: OSRM_SCHEMAS.trip } },
      examples: [{ params: { profile: 'driving', coordinates: '32.7667,-5.6333;32.90,-5.80;32.80,-5.70;32.85,-5.65' }, query: 'overview=false', summary: 'Sikonge, Tanzania, round trip of four points' }],
    },
    handler: (req, ctx) => ctx.pool.run('osrm_trip', tripArgs(req.params, req.q), !!req.key?.test),
  }),
  osrmRoute({
    service: 'match',
    op: 'osrm_match',
    note: 'OSRM v5 match service over the map matcher.',
    decl: {
      summary: 'OSRM v5 match service: a GPS trace matched to the roads (hidden Markov model), as routes with confidence and tracepoints',
      params: PARAMS, query: MATCH,
      responses: { 200: { description: 'OSRM match response', schema: OSRM_SCHEMAS.match } },
      examples: [{ params: { profile: 'driving', coordinates: '-0.2050,5.5500;-0.2040,5.5501;-0.2030,5.5503' }, query: 'overview=full&geometries=geojson', summary: 'Accra, three fixes' }],
    },
    handler: (req, ctx) => ctx.pool.run('osrm_match', matchArgs(req.params, req.q), !!req.key?.test),
  }),
  osrmRoute({
    service: 'nearest',
    op: 'osrm_nearest',
    note: 'OSRM v5 nearest service.',
    decl: {
      summary: 'OSRM v5 nearest service: the nearest road segments to one coordinate',
      params: PARAMS, query: NEAREST,
      responses: { 200: { description: 'OSRM nearest response', schema: OSRM_SCHEMAS.nearest } },
      examples: [{ params: { profile: 'driving', coordinates: '32.7667,-5.6333' }, query: 'number=3', summary: 'Sikonge, Tanzania' }],
    },
    handler: (req, ctx) => ctx.pool.run('osrm_nearest', nearestArgs(req.params, req.q), !!req.key?.test),
  }),
];
