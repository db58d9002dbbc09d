// Geo endpoints: geocode, reverse, suggest, places and the nearby layers. Parameters are
// validated here (cheap, 400 naming the parameter); the search runs in a worker task.
import type { AppContext, Req, RouteDef } from '../http/types.ts';
import { point, int, num, str, bad, country as countryParam, pick, parseLatLng } from '../http/params.ts';
import { NEARBY_NAMES, HEALTH_CATEGORIES, resolveCategory } from '../core/categories.ts';

const ready = (op: string) => (ctx: AppContext) => ctx.engine.has(op) && ctx.engine.hasDataset('gazetteer');
const sandbox = (req: Req) => !!req.key?.test;

/** `country=CC`, or the alt platform's `components=country:CC|…`. */
function countryOf(q: URLSearchParams): string | undefined {
  const c = countryParam(q, 'country');
  if (c) return c;
  const comp = pick(q, 'components');
  if (!comp) return undefined;
  const m = /(?:^|\|)\s*country\s*:\s*([^|]*)/i.exec(comp.value);
  if (!m) return undefined;
  if (!/^[A-Za-z]{2}$/.test(m[1].trim())) throw bad('components', "country must be an ISO 3166-1 alpha-2 code, e.g. 'country:NG'");
  return m[1].trim().toUpperCase();
}

function focusOf(q: URLSearchParams): [number, number] | undefined {
  const f = pick(q, 'focus', 'near', 'proximity');
  return f ? parseLatLng(f.name, f.value) : undefined;
}

/** A category name from `category` (or an alias parameter), checked against `allowed`. */
function categoryOf(q: URLSearchParams, names: string[], allowed: readonly string[]): string | undefined {
  const p = pick(q, ...names);
  if (!p) return undefined;
  const c = resolveCategory(p.value);
  if (!c || !allowed.includes(c)) throw bad(p.name, `must be one of ${allowed.join(', ')}`);
  return c;
}

const text = (q: URLSearchParams, names: string[]) => str(q, names, { required: true, max: 200 })!;

/** The point (lat+lng, `location` or `latlng`), radius in metres and limit that every nearby layer takes. */
function nearbyArgs(q: URLSearchParams, radius: { def: number; max: number }, limit: { def: number; max: number }) {
  const [lat, lng] = point(q, ['location', 'latlng'], { required: true })!;
  return {
    lat, lng,
    radius: num(q, 'radius', { min: 1, max: radius.max, def: radius.def })!,
    limit: int(q, 'limit', { min: 1, max: limit.max, def: limit.def })!,
  };
}

export const routes: RouteDef[] = [
  {
    method: 'GET', path: '/geocode', scope: 'geo',
    capabilities: ['geocode', 'parse_freeform'],
    ready: ready('geocode'),
    note: 'Typo-tolerant, word-order-free search over GeoNames, Natural Earth, OSM health sites, WHO facilities, GTFS stops and named OSM streets; q or address, limit 1-20, country or components=country:CC, focus=LAT,LNG.',
    async handler(req, ctx) {
      const q = req.query;
      const args = { q: text(q, ['q', 'address', 'query']), limit: int(q, 'limit', { min: 1, max: 20, def: 5 }), country: countryOf(q), focus: focusOf(q) };
      return { task: await ctx.engine.run('geocode', args, sandbox(req)) };
    },
  },
  {
    method: 'GET', path: '/reverse', scope: 'geo',
    capabilities: ['reverse'],
    ready: ready('reverse'),
    note: 'Nearest named street (within 250 m, OSM extracts only), nearest populated place, the admin-1 (point-in-polygon on Natural Earth 10m admin-1, c. 2012-2013: e.g. Kenya as its 8 old provinces) and the country by point-in-polygon; nearest first.',
    async handler(req, ctx) {
      const q = req.query;
      const [lat, lng] = point(q, ['latlng', 'location'], { required: true })!;
      const radius = num(q, 'radius', { min: 1, max: 5000 });
      return { task: await ctx.engine.run('reverse', { lat, lng, radius }, sandbox(req)) };
    },
  },
  {
    method: 'GET', path: '/search/suggest', scope: 'geo',
    capabilities: ['suggest'],
    ready: ready('suggest'),
    note: 'Per-keystroke suggestions: prefix match on the last word, typo tolerant; q or input, focus=LAT,LNG, country, limit 1-20.',
    async handler(req, ctx) {
      const q = req.query;
      const args = { q: text(q, ['q', 'input']), limit: int(q, 'limit', { min: 1, max: 20, def: 5 }), country: countryOf(q), focus: focusOf(q) };
      return { task: await ctx.engine.run('suggest', args, sandbox(req)) };
    },
  },
  {
    method: 'GET', path: '/places/nearby', scope: 'geo',
    capabilities: ['places_nearby'],
    ready: ready('places_nearby'),
    note: `Places by distance; category (alias type): ${NEARBY_NAMES.join(', ')}; radius metres (default 1000, max 50000).`,
    async handler(req, ctx) {
      const q = req.query;
      const args = { ...nearbyArgs(q, { def: 1000, max: 50000 }, { def: 10, max: 50 }), category: categoryOf(q, ['category', 'type'], NEARBY_NAMES) };
      return { task: await ctx.engine.run('places_nearby', args, sandbox(req)) };
    },
  },
  {
    method: 'GET', path: '/places/search', scope: 'geo',
    capabilities: ['places_search'],
    ready: ready('places_search'),
    note: 'Text search filtered by category, country and distance (lat/lng + radius, default 50 km); without q, browse by distance.',
    async handler(req, ctx) {
      const q = req.query;
      const at = point(q, ['location', 'latlng']);
      const qq = str(q, ['q', 'query', 'keyword'], { max: 200 });
      if (!qq && !at) throw bad('q', 'is required unless lat/lng are given');
      const args = {
        q: qq, category: categoryOf(q, ['category', 'type'], NEARBY_NAMES), country: countryOf(q),
        ...(at ? { lat: at[0], lng: at[1] } : {}),
        radius: num(q, 'radius', { min: 1, max: 500000, def: 50000 }), limit: int(q, 'limit', { min: 1, max: 20, def: 10 }),
      };
      return { task: await ctx.engine.run('places_search', args, sandbox(req)) };
    },
  },
  {
    method: 'GET', path: '/places/:id', scope: 'geo',
    capabilities: ['place_by_id'],
    ready: ready('place_by_id'),
    note: 'One feature by its stable id (svc:<source>.<source id>), with sources, licences and source fields; 404 when unknown.',
    async handler(req, ctx) {
      const id = req.params.id ?? '';
      if (!/^svc:[A-Za-z0-9._%-]{1,120}$/.test(id)) throw bad('id', "must look like 'svc:gn.2332459'");
      return { task: await ctx.engine.run('place_by_id', { id }, sandbox(req)) };
    },
  },
  {
    method: 'GET', path: '/health/nearby', scope: 'geo',
    capabilities: ['health_nearby'],
    ready: ready('health_nearby'),
    note: `Health facilities (healthsites.io/OSM and the WHO list, deduplicated within 100 m) by distance; category: health, ${HEALTH_CATEGORIES.join(', ')}.`,
    async handler(req, ctx) {
      const q = req.query;
      const args = { ...nearbyArgs(q, { def: 1000, max: 50000 }, { def: 10, max: 50 }), category: categoryOf(q, ['category', 'type'], ['health', ...HEALTH_CATEGORIES]) };
      return { task: await ctx.engine.run('health_nearby', args, sandbox(req)) };
    },
  },
  {
    method: 'GET', path: '/transit/nearby', scope: 'geo',
    capabilities: ['transit_nearby'],
    ready: ready('transit_nearby'),
    note: 'Nearest GTFS stops (Accra, Nairobi, Kigali) with the routes serving them; radius metres (default 1000, max 50000).',
    async handler(req, ctx) {
      const args = nearbyArgs(req.query, { def: 1000, max: 50000 }, { def: 10, max: 50 });
      return { task: await ctx.engine.run('transit_nearby', args, sandbox(req)) };
    },
  },
  {
    method: 'GET', path: '/earthquakes/nearby', scope: 'geo',
    capabilities: ['earthquakes_nearby'],
    ready: ready('earthquakes_nearby'),
    note: 'USGS significant earthquakes (M5.5+, 1965-2016, onshore Africa); radius_km (default 500, max 5000), min_magnitude, since=YYYY-MM-DD.',
    async handler(req, ctx) {
      const q = req.query;
      const [lat, lng] = point(q, ['location', 'latlng'], { required: true })!;
      const since = str(q, 'since', { max: 40 });
      if (since !== undefined && Number.isNaN(Date.parse(since))) throw bad('since', 'must be a date such as 1990-01-01');
      const args = {
        lat, lng, radius_km: num(q, 'radius_km', { min: 0.001, max: 5000, def: 500 }),
        min_magnitude: num(q, 'min_magnitude', { min: 0, max: 10 }), since, limit: int(q, 'limit', { min: 1, max: 100, def: 10 }),
      };
      return { task: await ctx.engine.run('earthquakes_nearby', args, sandbox(req)) };
    },
  },
  {
    method: 'GET', path: '/waterways/nearby', scope: 'geo',
    capabilities: ['waterways'],
    ready: ready('waterways_nearby'),
    note: 'Natural Earth 1:10m rivers and lakes: distance to the river line or lake shore (inside=true within a lake); radius metres (default 10000, max 50000).',
    async handler(req, ctx) {
      const args = nearbyArgs(req.query, { def: 10000, max: 50000 }, { def: 5, max: 50 });
      return { task: await ctx.engine.run('waterways_nearby', args, sandbox(req)) };
    },
  },
  {
    method: 'GET', path: '/boundaries/at', scope: 'geo',
    capabilities: ['boundaries_at'],
    ready: ready('boundaries_at'),
    note: 'Country (Natural Earth 1:50m) and admin-1 (Natural Earth 10m states and provinces, c. 2012-2013: older than some current boundaries, e.g. Kenya as its 8 pre-2013 provinces) by point-in-polygon.',
    async handler(req, ctx) {
      const [lat, lng] = point(req.query, ['location', 'latlng'], { required: true })!;
      return { task: await ctx.engine.run('boundaries_at', { lat, lng }, sandbox(req)) };
    },
  },
];
