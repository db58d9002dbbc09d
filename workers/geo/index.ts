// Geo module: geocode, reverse, suggest, places and nearby layers over the gazetteer.
// Arguments arrive validated by the declarations in src/api/geo.ts (ranges from
// src/core/limits.ts); a task applies the default of a value left out and never re-checks.
import type { ResultsReply, TaskTable, TextSearchArgs } from '../../src/core/tasks/index.ts';
import { TaskError, type Dataset, type WorkerModule, type TaskContext } from '../../src/core/task.ts';
import { Gazetteer } from './store.ts';
import { TextSearch, type SearchFilter } from './text.ts';
import { result, detail } from './results.ts';
import { nearest, countryAt, countryNear, nearestStreets, nearestWater, admin1At, adminUnitsAt } from './spatial.ts';
import { CAT, NEARBY, NEARBY_NAMES, HEALTH_CATEGORIES, resolveCategory, inLagos, type Category } from '../../src/core/categories.ts';
import { haversine } from '../../src/core/geometry.ts';
import { GEOCODE_LIMIT, REVERSE_RADIUS, NEARBY_RADIUS, NEARBY_LIMIT, SEARCH_RADIUS, QUAKE_RADIUS_KM, QUAKE_LIMIT, WATER_RADIUS, WATER_LIMIT, type Limit } from '../../src/core/limits.ts';
import { parseAddress, mayHaveStructure, type ParsedAddress } from './address/parse.ts';
import { lexiconOf } from './address/lexicon.ts';
import { resolveParsed, isPartial, hasStructure } from './address/resolve.ts';

let g: Gazetteer | null = null;
let text: TextSearch | null = null;
const countryIndex = new Map<string, number>();

/** Open the gazetteer (first one found). Exported for tests and the bench, which run it in-process. */
export function load(datasets: Dataset[]): Gazetteer | null {
  const ds = datasets.find((d) => d.dataset === 'gazetteer');
  g = ds ? new Gazetteer(ds) : null;
  text = g ? new TextSearch(g) : null;
  countryIndex.clear();
  if (g) g.meta.countries.forEach((c: { code: string; alias?: boolean }, i: number) => { if (!c.alias) countryIndex.set(c.code, i); });
  // The address lexicon is built here, once per worker, so no request pays for it.
  if (g) lexiconOf(g);
  return g;
}

/** The loaded gazetteer and its text search (for the address tasks), or a 503. */
export function gazetteer(): { g: Gazetteer; text: TextSearch } {
  return need();
}

/** A top hit whose text score reaches this matched the query whole: no address fallback. */
const WHOLE_TEXT = 0.95;

/** Parses an address (q, country) with the loaded gazetteer's lexicon. */
export function parseQuery(g: Gazetteer, q: string, country?: string | null): ParsedAddress {
  return parseAddress(q, lexiconOf(g), country ? String(country).toUpperCase() : null);
}

/**
 * Geocode's fallback for a query it cannot match whole: parse it as an address and answer its
 * most precise part that matches (street, landmark, locality, admin-1, country), saying so.
 */
function addressFallback(g: Gazetteer, text: TextSearch, a: TextSearchArgs, ctx: TaskContext, hitsEmpty: boolean): ResultsReply | null {
  const q = String(a.q);
  if (!/[,\d\s،]/.test(q.trim())) return null; // one word: nothing to split
  if (!hitsEmpty && !mayHaveStructure(q, lexiconOf(g))) return null;
  const p = parseQuery(g, q, a.country);
  if (!hasStructure(p) && !hitsEmpty) return null;
  const r = resolveParsed(g, text, p, ctx.sandbox ? inSandbox(g) : undefined);
  if (!r.best) return null;
  const partial = isPartial(p.components, r);
  const out = result(g, r.best.f, { score: r.best.score, match_level: r.best.level, partial_match: partial, matched_component: r.best.component });
  return sandboxed(ctx, { results: [out], match_level: r.best.level, partial_match: partial, parsed: p.components });
}


function need(): { g: Gazetteer; text: TextSearch } {
  if (!g || !text) throw new TaskError(503, 'not_loaded', 'The gazetteer is not loaded on this server (run `npm run graph-build -- gazetteer`).');
  return { g, text };
}

const LOCALITY_RADIUS_M = 30_000;
/** 1:50m coastlines are generalised: coastal cities (Lagos Island, Dakar) can fall just outside. */
const COAST_M = 10_000;
/** Reverse names a house (an addr:* address) only this close; farther, the street is the answer. */
const ADDRESS_RADIUS_M = 75;

function bad(name: string, why: string): never {
  throw new TaskError(400, 'invalid_parameter', `Parameter '${name}' ${why}.`);
}
const latLng = (a: any): [number, number] => [a.lat, a.lng];
const valueOf = (a: any, name: string, l: Limit): number => a?.[name] ?? l.default;
function countryFilter(a: any): number {
  if (!a?.country) return -1;
  const c = countryIndex.get(String(a.country).toUpperCase());
  // A valid ISO code of a country outside the data simply matches nothing.
  return c === undefined ? -2 : c;
}
function sandboxed<B extends object>(ctx: TaskContext, body: B): B & { sandbox?: true } {
  // marks answers from the sandbox subset (svc_test_ keys)
  if (ctx.sandbox) (body as { sandbox?: true }).sandbox = true;
  return body;
}
const inSandbox = (gz: Gazetteer) => (f: number) => inLagos(gz.lat[f], gz.lng[f]);
const both = (a?: (f: number) => boolean, b?: (f: number) => boolean) => (a && b ? (f: number) => a(f) && b(f) : a ?? b);

function textSearch(a: any, ctx: TaskContext, prefix: boolean, extraFilter?: Partial<SearchFilter>) {
  const { g, text } = need();
  const q = typeof a?.q === 'string' ? a.q.trim() : '';
  if (!q) throw new TaskError(400, 'missing_parameter', "Parameter 'q' is required.");
  const country = countryFilter(a);
  const limit = valueOf(a, 'limit', GEOCODE_LIMIT);
  if (country === -2) return { g, hits: [] };
  const filter: SearchFilter = {
    country,
    cats: extraFilter?.cats ?? null,
    accept: both(ctx.sandbox ? inSandbox(g) : undefined, extraFilter?.accept),
  };
  const focus: [number, number] | null = a?.focus ?? null;
  return { g, hits: text.search(q, filter, { limit, focus, prefix }) };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** What every admin-1 answer says about its boundaries: they are older than today's. */
export const ADMIN1_BOUNDARIES = 'Admin-1 by point-in-polygon on Natural Earth 10m states and provinces (c. 2012-2013): older than some current boundaries, e.g. Kenya as its 8 pre-2013 provinces rather than its 47 counties, South Sudan as its 10 pre-2015 states.';

/** The admin-1 unit at a point as a result object (the admin1-layer feature), or null. */
export function admin1Result(g: Gazetteer, lat: number, lng: number, cc: string | null): Record<string, unknown> | null {
  const hit = admin1At(g, lat, lng, cc, COAST_M);
  if (!hit) return null;
  const f = g.admin1Feature(hit.u);
  const u = g.admin1Units[hit.u];
  const base = f >= 0 ? result(g, f) : { name: u.name, country_code: u.country, type: 'admin1' };
  return { ...base, admin1_type: u.type, code: u.code, hasc: u.hasc, method: hit.method, boundaries: 'natural_earth_2012' };
}

/** The OpenStreetMap admin_level units at a point (most local first) as results with their level. */
function adminUnits(g: Gazetteer, lat: number, lng: number, accept?: (f: number) => boolean): Record<string, unknown>[] {
  return adminUnitsAt(g, lat, lng).filter((u) => !accept || accept(u.f)).map((u) => ({ ...result(g, u.f), admin_level: u.level, boundaries: 'openstreetmap' }));
}

export const geo = {
  init(datasets: Dataset[]) {
    load(datasets);
  },
  tasks: {
    geocode(a, ctx) {
      const { g, hits } = textSearch(a, ctx, false);
      if (!hits.length || hits[0].text < WHOLE_TEXT) {
        const fb = addressFallback(g, text!, a, ctx, !hits.length);
        if (fb) return fb;
      }
      const results = new Array(hits.length);
      for (let i = 0; i < hits.length; i++) {
        const r = result(g, hits[i].f);
        r.score = round3(hits[i].score);
        results[i] = r;
      }
      return sandboxed(ctx, { results });
    },

    suggest(a, ctx) {
      const { g, hits } = textSearch(a, ctx, true);
      return sandboxed(ctx, {
        suggestions: hits.map((h) => {
          const matched = g.altName(h.name);
          const r = result(g, h.f);
          r.score = round3(h.score);
          if (matched !== r.name) r.matched_name = matched;
          return r;
        }),
      });
    },

    reverse(a, ctx) {
      const { g } = need();
      const [lat, lng] = latLng(a);
      const radius = valueOf(a, 'radius', REVERSE_RADIUS);
      const accept = ctx.sandbox ? inSandbox(g) : undefined;
      if (ctx.sandbox && !inLagos(lat, lng)) return sandboxed(ctx, { results: [] });
      const out: Record<string, unknown>[] = [];
      const house = nearest(g, 'address', lat, lng, Math.min(radius, ADDRESS_RADIUS_M), 1, accept)[0];
      if (house) out.push(result(g, house.f, { distance_m: Math.round(house.d) }));
      const street = nearestStreets(g, lat, lng, radius, accept)[0];
      if (street) out.push(result(g, street.f, { distance_m: Math.round(street.d) }));
      const loc = nearest(g, 'place', lat, lng, LOCALITY_RADIUS_M, 1, accept)[0];
      if (loc) out.push(result(g, loc.f, { distance_m: Math.round(loc.d) }));
      const inside = countryAt(g, lat, lng);
      const c = inside >= 0 ? inside : countryNear(g, lat, lng, COAST_M);
      const cc0 = c >= 0 ? g.meta.countries[c].code : null;
      for (const u of adminUnits(g, lat, lng, accept)) out.push({ ...u, distance_m: 0 });
      const a1 = admin1Result(g, lat, lng, cc0);
      if (a1) out.push({ ...a1, distance_m: 0 });
      if (c >= 0) {
        const cf = g.layers.country[0] + c;
        out.push(result(g, cf, inside >= 0 ? { distance_m: 0 } : { distance_m: 0, method: `nearest_country_within_${COAST_M / 1000}km` }));
      }
      return sandboxed(ctx, { results: out, ...(a1 ? { admin1_boundaries: ADMIN1_BOUNDARIES } : {}) });
    },

    places_nearby(a, ctx) {
      return nearbyTask(a, ctx, null);
    },
    health_nearby(a, ctx) {
      return nearbyTask(a, ctx, 'health');
    },
    transit_nearby(a, ctx) {
      return nearbyTask({ ...a, category: 'bus_stop' }, ctx, 'transit');
    },

    place_by_id(a, ctx) {
      const { g } = need();
      const id = String(a?.id ?? '');
      const f = id.startsWith('svc:') ? g.find(id.slice(4)) : -1;
      if (f < 0 || (ctx.sandbox && !inLagos(g.lat[f], g.lng[f]))) throw new TaskError(404, 'not_found', `No place with id '${id.slice(0, 80)}'.`);
      return sandboxed(ctx, { result: detail(g, f) });
    },

    places_search(a, ctx) {
      const { g } = need();
      const cat = a?.category ? resolveCategory(String(a.category)) : null;
      if (a?.category && !cat) bad('category', `must be one of ${NEARBY_NAMES.join(', ')}`);
      const point = a?.lat !== undefined ? latLng(a) : null;
      const radius = valueOf(a, 'radius', SEARCH_RADIUS);
      if (!a?.q) {
        if (!point) throw new TaskError(400, 'missing_parameter', "Parameter 'q' is required (or give lat/lng to browse by distance).");
        return nearbyTask({ ...a, radius: Math.min(radius, NEARBY_RADIUS.max) }, ctx, null);
      }
      const cats = cat ? new Set(NEARBY[cat].cats.map((c) => CAT[c])) : null;
      const accept = point ? (f: number) => haversine(point[0], point[1], g.lat[f], g.lng[f]) <= radius : undefined;
      const { hits } = textSearch({ ...a, focus: point ?? a.focus }, ctx, false, { cats, accept });
      return sandboxed(ctx, {
        results: hits.map((h) => result(g, h.f, {
          score: round3(h.score), ...(point ? { distance_m: Math.round(haversine(point[0], point[1], g.lat[h.f], g.lng[h.f])) } : {}),
        })),
      });
    },

    earthquakes_nearby(a, ctx) {
      const { g } = need();
      const [lat, lng] = latLng(a);
      const radiusKm = valueOf(a, 'radius_km', QUAKE_RADIUS_KM);
      const limit = valueOf(a, 'limit', QUAKE_LIMIT);
      const minMag: number = a?.min_magnitude ?? 0;
      const since = a?.since === undefined ? -Infinity : Date.parse(String(a.since));
      const sb = ctx.sandbox ? inSandbox(g) : undefined;
      const info = (f: number) => g.extra(f) as { magnitude: number; time: string; depth_km: number; magnitude_type: string | null };
      const near = nearest(g, 'quake', lat, lng, radiusKm * 1000, limit, (f) => {
        if (sb && !sb(f)) return false;
        const e = info(f);
        return e.magnitude >= minMag && Date.parse(e.time) >= since;
      });
      return sandboxed(ctx, {
        results: near.map(({ f, d }) => {
          const e = info(f);
          return {
            id: `svc:${g.code(f)}`, lat: g.lat[f], lng: g.lng[f], magnitude: e.magnitude, magnitude_type: e.magnitude_type,
            depth_km: e.depth_km, time: e.time, country_code: g.countryCode(f), distance_km: Math.round(d / 100) / 10, source: 'usgs',
          };
        }),
        coverage: 'USGS significant earthquakes M5.5+ 1965-2016, onshore Africa',
      });
    },

    waterways_nearby(a, ctx) {
      const { g } = need();
      const [lat, lng] = latLng(a);
      const radius = valueOf(a, 'radius', WATER_RADIUS);
      const limit = valueOf(a, 'limit', WATER_LIMIT);
      if (ctx.sandbox && !inLagos(lat, lng)) return sandboxed(ctx, { results: [] });
      const hits = nearestWater(g, lat, lng, radius).slice(0, limit);
      return sandboxed(ctx, {
        results: hits.map((h) => result(g, h.f, {
          distance_m: Math.round(h.d), inside: h.inside, nearest: { lat: Math.round(h.lat * 1e6) / 1e6, lng: Math.round(h.lng * 1e6) / 1e6 },
        })),
        coverage: 'Natural Earth 1:10m rivers and lakes (major waterways only)',
      });
    },

    boundaries_at(a, ctx) {
      const { g } = need();
      const [lat, lng] = latLng(a);
      if (ctx.sandbox && !inLagos(lat, lng)) return sandboxed(ctx, { country: null, admin1: null, admin: [], note: 'Sandbox answers only inside the Lagos State bounding box.' });
      const inside = countryAt(g, lat, lng);
      const c = inside >= 0 ? inside : countryNear(g, lat, lng, COAST_M);
      const country = c >= 0 ? { ...result(g, g.layers.country[0] + c), method: inside >= 0 ? 'point_in_polygon' : `nearest_country_within_${COAST_M / 1000}km` } : null;
      const a1 = c >= 0 ? admin1Result(g, lat, lng, g.meta.countries[c].code) : null;
      return sandboxed(ctx, {
        country,
        admin1: a1,
        admin: adminUnits(g, lat, lng),
        note: c < 0
          ? 'The point is not inside or within 10 km of any African country polygon (Natural Earth 1:50m).'
          : `Country by point-in-polygon (Natural Earth 1:50m; within 10 km of the generalised coastline the nearest country). ${a1 || g.a1Index ? ADMIN1_BOUNDARIES : 'Admin-1 polygons are not in this gazetteer build: admin1 is null.'}`,
      });
    },
  } satisfies TaskTable<'geocode' | 'suggest' | 'reverse' | 'places_nearby' | 'health_nearby' | 'transit_nearby' | 'place_by_id' | 'places_search' | 'earthquakes_nearby' | 'waterways_nearby' | 'boundaries_at'>,
} satisfies WorkerModule;

function nearbyTask(a: any, ctx: TaskContext, group: 'health' | 'transit' | null) {
  const { g } = need();
  const [lat, lng] = latLng(a);
  const radius = valueOf(a, 'radius', NEARBY_RADIUS);
  const limit = valueOf(a, 'limit', NEARBY_LIMIT);
  let key: string | null = null;
  if (a?.category) {
    key = resolveCategory(String(a.category));
    const allowed = group === 'health' ? ['health', ...HEALTH_CATEGORIES] : group === 'transit' ? ['bus_stop', 'transit'] : NEARBY_NAMES;
    if (!key || !allowed.includes(key)) bad(a.categoryParam ?? 'category', `must be one of ${allowed.join(', ')}`);
  }
  if (!key && group) key = group === 'health' ? 'health' : 'bus_stop';
  const sb = ctx.sandbox ? inSandbox(g) : undefined;
  const specs = key ? [NEARBY[key]] : [NEARBY.place, NEARBY.airport, NEARBY.port, NEARBY.health, NEARBY.bus_stop];
  const found: { f: number; d: number }[] = [];
  for (const spec of specs) {
    const cats = new Set(spec.cats.map((c: Category) => CAT[c]));
    found.push(...nearest(g, spec.layer, lat, lng, radius, limit, (f) => cats.has(g.cat[f]) && (!sb || sb(f))));
  }
  found.sort((x, y) => x.d - y.d || x.f - y.f);
  return sandboxed(ctx, {
    results: found.slice(0, limit).map(({ f, d }) => {
      const r = result(g, f, { distance_m: Math.round(d) });
      if (g.cat[f] === CAT.bus_stop) {
        const e = g.extra(f) as { routes?: unknown[]; feed?: string } | null;
        r.routes = e?.routes ?? [];
        r.feed = e?.feed ?? null;
      }
      return r;
    }),
    category: key,
    radius_m: radius,
  });
}
