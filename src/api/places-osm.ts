// Places from OpenStreetMap: businesses, markets and protected areas of the full-tag
// extracts an operator builds with `npm run graph-build -- pois --input country.osm.pbf`. The default
// data (road-only extracts) has none, so these capabilities are off until such a build is loaded.
import type { TaskOp } from '../core/tasks/index.ts';
import { HttpError, type AppContext, type RouteDef, route } from '../http/types.ts';
import { Q, type Schema } from '../http/declaration.ts';
import type { PoiKind } from '../core/format/pois.ts';

/** Radius (metres) and limit of the places endpoints: one definition for the schemas. */
export const PLACES_LIMITS = { radius: { default: 5000, max: 50_000 }, protectedRadius: { default: 20_000, max: 200_000 }, limit: { default: 10, max: 50 } };

const has = (kind: PoiKind, op: TaskOp) => (ctx: AppContext) =>
  ctx.pool.has(op) && ctx.pool.hasDataset('pois', (d) => ((d.manifest.counts as Record<string, number> | undefined)?.[kind] ?? 0) > 0);
const sandbox = (req: { key: { test: boolean } | null }) => !!req.key?.test;
const BUILD = 'npm run graph-build -- pois --input country.osm.pbf';

const place: Schema = {
  type: 'object', required: ['id', 'category', 'type', 'lat', 'lng'],
  properties: {
    id: { type: 'string' }, name: { type: ['string', 'null'] }, category: { type: 'string' }, group: { type: 'string' }, type: { type: 'string' },
    lat: { type: 'number' }, lng: { type: 'number' }, address: { type: ['string', 'null'] }, osm: { type: 'object' }, tags: { type: 'object' },
    distance_m: { type: 'number' }, area_m2: { type: 'number' }, inside: { type: 'boolean' },
  },
};
const list: Schema = { type: 'object', required: ['results'], properties: { results: { type: 'array', items: place } } };
const point = {
  lat: { schema: Q.num({ min: -90, max: 90 }), description: 'Latitude' },
  lng: { schema: Q.num({ min: -180, max: 180 }), aliases: ['lon'], description: 'Longitude' },
};
const limit = { schema: Q.int({ min: 1, max: PLACES_LIMITS.limit.max, default: PLACES_LIMITS.limit.default }) };

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/businesses/search', scope: 'geo',
    capabilities: ['businesses_search'],
    ready: has('business', 'businesses_search'),
    note: `GET /api/v1/businesses/search?q&category&lat&lng&radius: shops, offices, crafts, commercial amenities (restaurant, bank, fuel, pharmacy…) and lodging of the loaded full-tag OpenStreetMap extracts (built with \`${BUILD}\`).`,
    decl: {
      summary: 'Search businesses from OpenStreetMap by name, category and distance',
      tag: 'geo',
      query: {
        q: { schema: Q.str({ maxLength: 200 }), aliases: ['query', 'keyword'], description: 'Name words (each a prefix of a name word)' },
        category: { schema: Q.str({ maxLength: 64, pattern: '^[A-Za-z0-9_:-]+$' }), aliases: ['type'], description: 'OSM value (restaurant, bank, fuel, supermarket…) or group (shop, office, craft, amenity, tourism)' },
        ...point,
        radius: { schema: Q.num({ min: 1, max: PLACES_LIMITS.radius.max, default: PLACES_LIMITS.radius.default }), description: 'Metres around lat/lng' },
        limit,
      },
      pairAliases: { location: ['lat', 'lng'] },
      responses: { 200: { description: 'Businesses, nearest first with a point', schema: list }, 400: { description: 'Invalid parameter' }, 503: { description: 'No business data loaded' } },
      examples: [{ query: 'q=pizza', summary: 'needs a POI build, e.g. of Monaco' }, { query: 'category=restaurant&lat=43.7384&lng=7.4246&radius=500' }],
    },
    async handler(req, ctx) {
      const { q, category, lat, lng, radius, limit } = req.q;
      if (lat !== undefined && lng === undefined) return badPair('lng');
      if (lng !== undefined && lat === undefined) return badPair('lat');
      return { task: await ctx.pool.run('businesses_search', { q, category, lat, lng, radius, limit }, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/markets', scope: 'geo',
    capabilities: ['markets'],
    ready: has('market', 'markets_list'),
    note: `GET /api/v1/markets?q&lat&lng&radius and /markets/{id}: amenity=marketplace nodes, ways and areas of the loaded full-tag OpenStreetMap extracts (built with \`${BUILD}\`).`,
    decl: {
      summary: 'Markets (amenity=marketplace) by name or distance',
      tag: 'geo',
      query: {
        q: { schema: Q.str({ maxLength: 200 }), description: 'Name words' }, ...point,
        radius: { schema: Q.num({ min: 1, max: PLACES_LIMITS.radius.max, default: PLACES_LIMITS.radius.default }) }, limit,
      },
      pairAliases: { location: ['lat', 'lng'] },
      responses: { 200: { description: 'Markets', schema: list }, 503: { description: 'No market data loaded' } },
      examples: [{ query: 'lat=43.7426&lng=7.4262&radius=1000' }],
    },
    async handler(req, ctx) {
      const { q, lat, lng, radius, limit } = req.q;
      if (lat !== undefined && lng === undefined) return badPair('lng');
      if (lng !== undefined && lat === undefined) return badPair('lat');
      return { task: await ctx.pool.run('markets_list', { q, lat, lng, radius, limit }, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/markets/:id', scope: 'geo',
    capabilities: ['markets'],
    ready: has('market', 'market_by_id'),
    decl: {
      summary: 'One market by id, with its area when mapped as one; 404 when unknown',
      tag: 'geo',
      params: { id: { schema: Q.str({ maxLength: 80 }), required: true, description: 'svc:poi.<n|w|r><OSM id>' } },
      responses: { 200: { description: 'The market', schema: { type: 'object', required: ['market'], properties: { market: place } } }, 404: { description: 'Unknown market' } },
      examples: [{ params: { id: 'svc:poi.n268113781' }, summary: 'Monaco build' }],
    },
    async handler(req, ctx) {
      return { task: await ctx.pool.run('market_by_id', { id: req.params.id }, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/protected-areas/at', scope: 'geo',
    capabilities: ['protected_areas'],
    ready: has('protected_area', 'protected_at'),
    note: `GET /api/v1/protected-areas/at and /protected-areas/nearby: boundary=protected_area, boundary=national_park and leisure=nature_reserve polygons (closed ways and multipolygon relations) of the loaded full-tag OpenStreetMap extracts (built with \`${BUILD}\`).`,
    decl: {
      summary: 'Protected areas containing a point',
      tag: 'geo',
      query: { lat: { ...point.lat, required: true }, lng: { ...point.lng, required: true } },
      pairAliases: { location: ['lat', 'lng'] },
      responses: { 200: { description: 'Areas containing the point', schema: list }, 503: { description: 'No protected-area data loaded' } },
      examples: [{ query: 'lat=43.7365&lng=7.3698', summary: 'Monaco build: inside Parc de la Grande Corniche' }],
    },
    async handler(req, ctx) {
      return { task: await ctx.pool.run('protected_at', { lat: req.q.lat, lng: req.q.lng }, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/protected-areas/nearby', scope: 'geo',
    capabilities: ['protected_areas'],
    ready: has('protected_area', 'protected_nearby'),
    decl: {
      summary: 'Protected areas near a point, with the distance to their boundary (0 inside)',
      tag: 'geo',
      query: {
        lat: { ...point.lat, required: true }, lng: { ...point.lng, required: true },
        radius: { schema: Q.num({ min: 1, max: PLACES_LIMITS.protectedRadius.max, default: PLACES_LIMITS.protectedRadius.default }) }, limit,
      },
      pairAliases: { location: ['lat', 'lng'] },
      responses: { 200: { description: 'Areas, nearest first', schema: list }, 503: { description: 'No protected-area data loaded' } },
      examples: [{ query: 'lat=43.74&lng=7.42&radius=20000' }],
    },
    async handler(req, ctx) {
      return { task: await ctx.pool.run('protected_nearby', { lat: req.q.lat, lng: req.q.lng, radius: req.q.radius, limit: req.q.limit }, sandbox(req)) };
    },
  }),
];

function badPair(missing: string): never {
  throw new HttpError(400, 'missing_parameter', `Parameter '${missing}' is required (lat and lng go together).`);
}
