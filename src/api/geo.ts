// Geo endpoints: geocode, reverse, suggest, places and the nearby layers. Each is a declared
// operation (validated before the handler, limits from src/core/limits.ts); the search runs
// in a worker task.
import type { TaskOp } from '../core/tasks/index.ts';
import { HttpError, type AppContext, type Req, type RouteDef, route } from '../http/types.ts';
import { Q, type QueryParam, type Schema, type Typed } from '../http/declaration.ts';
import { NEARBY_NAMES, NEARBY_ALIASES, HEALTH_CATEGORIES, resolveCategory } from '../core/categories.ts';
import { LODGING_NAMES, isLodging } from './hotels.ts';
import { PLACES_LIMITS } from './places-osm.ts';
import {
  GEOCODE_LIMIT, REVERSE_RADIUS, NEARBY_RADIUS, NEARBY_LIMIT, SEARCH_RADIUS, SEARCH_LIMIT,
  QUAKE_RADIUS_KM, QUAKE_LIMIT, WATER_RADIUS, WATER_LIMIT, type Limit,
} from '../core/limits.ts';

const ready = (op: TaskOp) => (ctx: AppContext) => ctx.pool.has(op) && ctx.pool.hasDataset('gazetteer');
const sandbox = (req: Req) => !!req.key?.test;
const MAX_TEXT = 200;

// ---- parameters shared by several operations (typed from their schemas: the task arguments are checked)

const text = (aliases: string[], required = true) => ({ schema: Q.str({ maxLength: MAX_TEXT }), required, aliases, description: 'Free text' });
const limit = (l: Limit) => ({ schema: Q.int({ min: 1, max: l.max, default: l.default }), description: 'Number of results' });
const radius = (l: Limit, unit = 'metres') => ({ schema: Q.num({ min: l.min ?? 1, max: l.max, default: l.default }), description: `Search radius in ${unit}` });
const lat = { schema: Q.num({ min: -90, max: 90 }), required: true as const, description: 'Latitude (or `location`/`latlng`=LAT,LNG)' };
const lng = { schema: Q.num({ min: -180, max: 180 }), required: true as const, aliases: ['lon'], description: 'Longitude' };
const point = { lat, lng };
const optionalPoint = { lat: { ...lat, required: false }, lng: { ...lng, required: false } };
const pairs = { location: ['lat', 'lng'], latlng: ['lat', 'lng'] } as Record<string, [string, string]>;
const country = { schema: Q.country(), description: 'ISO 3166-1 alpha-2 country filter' };
const components = { schema: Q.str({ maxLength: 200 }), description: "The alt platform's filter, e.g. `country:KE`" };
const focus = { schema: Q.latlng(), aliases: ['near', 'proximity'], description: 'Bias results towards LAT,LNG' };

/** Every spelling of a category (canonical names and aliases) whose canonical name is in `allowed`. */
function categoryParam(allowed: readonly string[]): QueryParam & { schema: Typed<string> } {
  const names = [...NEARBY_NAMES, ...Object.keys(NEARBY_ALIASES)].filter((n) => allowed.includes(resolveCategory(n) ?? ''));
  return { schema: { type: 'string', enum: names, 'x-normalise': 'slug' }, aliases: ['type'], description: `Category (alias \`type\`): ${allowed.join(', ')}` };
}
const category = (v: string | undefined) => (v === undefined ? undefined : resolveCategory(v)!);
/** The places categories plus lodging (served from the OSM POI build, hotels.ts). */
function placesCategoryParam(): QueryParam & { schema: Typed<string> } {
  const p = categoryParam(NEARBY_NAMES);
  return { ...p, schema: { ...p.schema, enum: [...(p.schema.enum as string[]), ...LODGING_NAMES] }, description: `${p.description}; lodging or ${LODGING_NAMES.slice(1).join(', ')} (from a full-tag OSM build)` };
}
/** /places/search and /places/nearby with a lodging category: the hotels task (hotels.ts), radius within its limit. */
async function lodging(req: Req, ctx: AppContext, q: Record<string, any>) {
  if (q.country || q.components) throw new HttpError(400, 'invalid_parameter', "Parameter 'country' is not available with a lodging category (OSM places carry no country); use lat/lng and radius.");
  const radius = Math.min(q.radius, PLACES_LIMITS.radius.max);
  const args = { q: q.q, category: q.category, lat: q.lat, lng: q.lng, radius, limit: q.limit };
  return { task: await ctx.pool.run('hotels_search', args, sandbox(req)) };
}

/** `country=CC`, or the alt platform's `components=country:CC|…`. */
function countryOf(q: Record<string, any>): string | undefined {
  if (q.country) return q.country;
  if (!q.components) return undefined;
  const m = /(?:^|\|)\s*country\s*:\s*([^|]*)/i.exec(q.components);
  if (!m) return undefined;
  if (!/^[A-Za-z]{2}$/.test(m[1].trim())) throw new HttpError(400, 'invalid_parameter', "Parameter 'components' country must be an ISO 3166-1 alpha-2 code, e.g. 'country:NG'.");
  return m[1].trim().toUpperCase();
}

// ---- response schemas

const nullableNum = { type: ['number', 'null'] };
const nullableStr = { type: ['string', 'null'] };
const result: Schema = {
  type: 'object', required: ['id', 'name', 'lat', 'lng', 'type'],
  properties: {
    id: { type: 'string' }, name: nullableStr, lat: nullableNum, lng: nullableNum, address: nullableStr,
    country_code: nullableStr, type: { type: 'string' }, source: nullableStr, sources: { type: 'array', items: { type: 'string' } },
    score: { type: 'number' }, distance_m: { type: 'number' }, distance_km: { type: 'number' },
  },
};
const list = (key: string, extra: Record<string, Schema> = {}, item: Schema = result): Schema => ({
  type: 'object', required: [key],
  properties: { [key]: { type: 'array', items: item }, sandbox: { type: 'boolean' }, ...extra },
});
const quake: Schema = {
  type: 'object', required: ['id', 'lat', 'lng', 'magnitude', 'time', 'distance_km'],
  properties: {
    id: { type: 'string' }, lat: { type: 'number' }, lng: { type: 'number' }, magnitude: { type: 'number' }, magnitude_type: nullableStr,
    depth_km: nullableNum, time: { type: 'string' }, country_code: nullableStr, distance_km: { type: 'number' }, source: { const: 'usgs' },
  },
};
const ok = (description: string, schema: Schema) => ({ 200: { description, schema }, 400: { description: 'Invalid parameter' }, 503: { description: 'The gazetteer is not loaded' } });

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/geocode', scope: 'geo',
    capabilities: ['geocode', 'parse_freeform'],
    ready: ready('geocode'),
    note: `Typo-tolerant, word-order-free search over GeoNames, Natural Earth, OSM health sites, WHO facilities, GTFS stops and named OSM streets; q or address, limit 1-${GEOCODE_LIMIT.max}, country or components=country:CC, focus=LAT,LNG.`,
    decl: {
      summary: 'Forward geocoding: free text to places, best first', tag: 'geo',
      query: { q: text(['address', 'query']), limit: limit(GEOCODE_LIMIT), country, components, focus },
      responses: ok('Matches, best first (empty when nothing matches)', list('results')),
      examples: [{ query: 'q=Nairobi&limit=3' }, { query: 'address=Mombasa&components=country:KE', summary: 'Alt-platform spelling' }],
    },
    async handler(req, ctx) {
      const q = req.q;
      const args = { q: q.q, limit: q.limit, country: countryOf(q), focus: q.focus };
      return { task: await ctx.pool.run('geocode', args, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/reverse', scope: 'geo',
    capabilities: ['reverse'],
    ready: ready('reverse'),
    note: `Nearest named street (within ${REVERSE_RADIUS.default} m, OSM extracts only), nearest populated place, the admin-1 (point-in-polygon on Natural Earth 10m admin-1, c. 2012-2013: e.g. Kenya as its 8 old provinces) and the country by point-in-polygon; nearest first.`,
    decl: {
      summary: 'Reverse geocoding: a point to street, place, admin-1 and country', tag: 'geo',
      query: { ...point, radius: radius(REVERSE_RADIUS) },
      pairAliases: pairs,
      responses: ok('Nearest first', list('results')),
      examples: [{ query: 'latlng=5.556,-0.1969' }],
    },
    async handler(req, ctx) {
      const { lat, lng, radius } = req.q;
      return { task: await ctx.pool.run('reverse', { lat, lng, radius }, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/search/suggest', scope: 'geo',
    capabilities: ['suggest'],
    ready: ready('suggest'),
    note: `Per-keystroke suggestions: prefix match on the last word, typo tolerant; q or input, focus=LAT,LNG, country, limit 1-${GEOCODE_LIMIT.max}.`,
    decl: {
      summary: 'Suggestions while typing (prefix match on the last word)', tag: 'geo',
      query: { q: text(['input']), limit: limit(GEOCODE_LIMIT), country, components, focus },
      responses: ok('Suggestions, best first', list('suggestions')),
      examples: [{ query: 'input=nair' }],
    },
    async handler(req, ctx) {
      const q = req.q;
      const args = { q: q.q, limit: q.limit, country: countryOf(q), focus: q.focus };
      return { task: await ctx.pool.run('suggest', args, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/places/nearby', scope: 'geo',
    capabilities: ['places_nearby'],
    ready: ready('places_nearby'),
    note: `Places by distance; category (alias type): ${NEARBY_NAMES.join(', ')}; radius metres (default ${NEARBY_RADIUS.default}, max ${NEARBY_RADIUS.max}).`,
    decl: {
      summary: 'Places by distance from a point, optionally of one category', tag: 'geo',
      query: { ...point, radius: radius(NEARBY_RADIUS), limit: limit(NEARBY_LIMIT), category: placesCategoryParam() },
      pairAliases: pairs,
      responses: ok('Nearest first', list('results', { category: nullableStr, radius_m: { type: 'number' } })),
      examples: [{ query: 'location=-1.2921,36.8219&type=hospital&radius=3000' }],
    },
    async handler(req, ctx) {
      const { lat, lng, radius, limit } = req.q;
      if (isLodging(req.q.category)) return lodging(req, ctx, req.q);
      const args = { lat, lng, radius, limit, category: category(req.q.category) };
      return { task: await ctx.pool.run('places_nearby', args, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/places/search', scope: 'geo',
    capabilities: ['places_search'],
    ready: ready('places_search'),
    note: `Text search filtered by category, country and distance (lat/lng + radius, default ${SEARCH_RADIUS.default / 1000} km); without q, browse by distance.`,
    decl: {
      summary: 'Text search of places filtered by category, country and distance', tag: 'geo',
      description: '`q` is required unless a point is given (then the places near it are listed by distance).',
      query: {
        q: text(['query', 'keyword'], false), category: placesCategoryParam(), country, components, ...optionalPoint,
        radius: radius(SEARCH_RADIUS), limit: limit(SEARCH_LIMIT),
      },
      pairAliases: pairs,
      responses: ok('Matches', list('results', { category: nullableStr, radius_m: { type: 'number' } })),
      examples: [{ query: 'q=Jomo%20Kenyatta&category=airport' }],
    },
    async handler(req, ctx) {
      const q = req.q;
      const at = q.lat !== undefined && q.lng !== undefined;
      if ((q.lat === undefined) !== (q.lng === undefined)) throw new HttpError(400, 'missing_parameter', `Parameter '${q.lat === undefined ? 'lat' : 'lng'}' is required with '${q.lat === undefined ? 'lng' : 'lat'}'.`);
      if (!q.q && !at) throw new HttpError(400, 'missing_parameter', "Parameter 'q' is required unless lat/lng are given.");
      if (isLodging(q.category)) return lodging(req, ctx, q);
      const args = {
        q: q.q, category: category(q.category), country: countryOf(q),
        ...(at ? { lat: q.lat, lng: q.lng } : {}), radius: q.radius, limit: q.limit,
      };
      return { task: await ctx.pool.run('places_search', args, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/places/:id', scope: 'geo',
    capabilities: ['place_by_id'],
    ready: ready('place_by_id'),
    note: 'One feature by its stable id (svc:<source>.<source id>), with sources, licences and source fields; 404 when unknown.',
    decl: {
      summary: 'One place by its stable id', tag: 'geo',
      params: { id: { schema: Q.str({ pattern: '^svc:[A-Za-z0-9._%-]{1,120}$', hint: "must look like 'svc:gn.2332459'" }), required: true, description: 'svc:<source>.<source id>' } },
      responses: { ...ok('The place with its sources and licences', { type: 'object', required: ['result'], properties: { result: result, sandbox: { type: 'boolean' } } }), 404: { description: 'Unknown id' } },
      examples: [{ params: { id: 'svc:gn.2332459' }, summary: 'Lagos' }],
    },
    async handler(req, ctx) {
      // OSM places (businesses, markets, lodging…) of a POI build: svc:poi.<n|w|r><OSM id>
      if (req.params.id.startsWith('svc:poi.')) return { task: await ctx.pool.run('poi_by_id', { id: req.params.id }, sandbox(req)) };
      return { task: await ctx.pool.run('place_by_id', { id: req.params.id }, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/health/nearby', scope: 'geo',
    capabilities: ['health_nearby'],
    ready: ready('health_nearby'),
    note: `Health facilities (healthsites.io/OSM and the WHO list, deduplicated within 100 m) by distance; category: health, ${HEALTH_CATEGORIES.join(', ')}.`,
    decl: {
      summary: 'Health facilities by distance', tag: 'geo',
      query: { ...point, radius: radius(NEARBY_RADIUS), limit: limit(NEARBY_LIMIT), category: categoryParam(['health', ...HEALTH_CATEGORIES]) },
      pairAliases: pairs,
      responses: ok('Nearest first', list('results', { category: nullableStr, radius_m: { type: 'number' } })),
      examples: [{ query: 'lat=-1.2921&lng=36.8219&category=pharmacy&radius=3000' }],
    },
    async handler(req, ctx) {
      const { lat, lng, radius, limit } = req.q;
      const args = { lat, lng, radius, limit, category: category(req.q.category) };
      return { task: await ctx.pool.run('health_nearby', args, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/transit/nearby', scope: 'geo',
    capabilities: ['transit_nearby'],
    ready: ready('transit_nearby'),
    note: `Nearest GTFS stops (Accra, Nairobi, Kigali) with the routes serving them; radius metres (default ${NEARBY_RADIUS.default}, max ${NEARBY_RADIUS.max}).`,
    decl: {
      summary: 'Nearest public-transport stops with their routes', tag: 'geo',
      query: { ...point, radius: radius(NEARBY_RADIUS), limit: limit(NEARBY_LIMIT) },
      pairAliases: pairs,
      responses: ok('Nearest first', list('results', { category: nullableStr, radius_m: { type: 'number' } })),
      examples: [{ query: 'lat=5.55&lng=-0.2&radius=2000' }],
    },
    async handler(req, ctx) {
      const { lat, lng, radius, limit } = req.q;
      return { task: await ctx.pool.run('transit_nearby', { lat, lng, radius, limit }, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/earthquakes/nearby', scope: 'geo',
    capabilities: ['earthquakes_nearby'],
    ready: ready('earthquakes_nearby'),
    note: `USGS significant earthquakes (M5.5+, 1965-2016, onshore Africa); radius_km (default ${QUAKE_RADIUS_KM.default}, max ${QUAKE_RADIUS_KM.max}), min_magnitude, since=YYYY-MM-DD.`,
    decl: {
      summary: 'Significant earthquakes near a point', tag: 'geo',
      query: {
        ...point, radius_km: radius(QUAKE_RADIUS_KM, 'kilometres'), min_magnitude: { schema: Q.num({ min: 0, max: 10 }) },
        since: { schema: Q.str({ maxLength: 40 }), description: 'A date such as 1990-01-01' }, limit: limit(QUAKE_LIMIT),
      },
      pairAliases: pairs,
      responses: ok('Nearest first', list('results', { coverage: { type: 'string' } }, quake)),
      examples: [{ query: 'lat=-1.5&lng=29.5&radius_km=300&min_magnitude=5.5' }],
    },
    async handler(req, ctx) {
      const { lat, lng, radius_km, min_magnitude, since, limit } = req.q;
      if (since !== undefined && Number.isNaN(Date.parse(since))) throw new HttpError(400, 'invalid_parameter', "Parameter 'since' must be a date such as 1990-01-01.");
      return { task: await ctx.pool.run('earthquakes_nearby', { lat, lng, radius_km, min_magnitude, since, limit }, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/waterways/nearby', scope: 'geo',
    capabilities: ['waterways'],
    ready: ready('waterways_nearby'),
    note: `Natural Earth 1:10m rivers and lakes: distance to the river line or lake shore (inside=true within a lake); radius metres (default ${WATER_RADIUS.default}, max ${WATER_RADIUS.max}).`,
    decl: {
      summary: 'Rivers and lakes near a point', tag: 'geo',
      query: { ...point, radius: radius(WATER_RADIUS), limit: limit(WATER_LIMIT) },
      pairAliases: pairs,
      responses: ok('Nearest first', list('results', { coverage: { type: 'string' } })),
      examples: [{ query: 'lat=15.6&lng=32.5&radius=20000' }],
    },
    async handler(req, ctx) {
      const { lat, lng, radius, limit } = req.q;
      return { task: await ctx.pool.run('waterways_nearby', { lat, lng, radius, limit }, sandbox(req)) };
    },
  }),
  route({
    method: 'GET', path: '/boundaries/at', scope: 'geo',
    capabilities: ['boundaries_at'],
    ready: ready('boundaries_at'),
    note: 'Country (Natural Earth 1:50m) and admin-1 (Natural Earth 10m states and provinces, c. 2012-2013: older than some current boundaries, e.g. Kenya as its 8 pre-2013 provinces) by point-in-polygon; where a country was built from a full-tag extract (graph-build -- country), also its own OpenStreetMap admin_level units (admin, most local first).',
    decl: {
      summary: 'The country and admin-1 at a point', tag: 'geo',
      query: point,
      pairAliases: pairs,
      responses: ok('Country and admin-1', {
        type: 'object', required: ['country', 'admin1', 'note'],
        properties: {
          country: { anyOf: [{ type: 'null' }, result] }, admin1: { type: ['object', 'null'] },
          admin: { type: 'array', items: result, description: 'OpenStreetMap admin_level units containing the point (countries built from a full-tag extract), most local first, each with admin_level' },
          note: { type: 'string' }, sandbox: { type: 'boolean' },
        },
      }),
      examples: [{ query: 'lat=-1.95&lng=30.06' }],
    },
    async handler(req, ctx) {
      const { lat, lng } = req.q;
      return { task: await ctx.pool.run('boundaries_at', { lat, lng }, sandbox(req)) };
    },
  }),
];
