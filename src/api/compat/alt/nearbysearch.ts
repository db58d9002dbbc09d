// /compat/alt/nearbysearch: places around a point in the platform's Nearby Search shape, 20 a
// page, with real page tokens (pagetoken.ts).
import type { AppContext, Req } from '../../../http/types.ts';
import type { Config } from '../../../core/config.ts';
import { Q } from '../../../http/declaration.ts';
import { ATTRIBUTION } from '../../../core/attribution.ts';
import { resolveCategory } from '../../../core/categories.ts';
import { NEARBY_RADIUS } from '../../../core/limits.ts';
import { altRoute } from './define.ts';
import { answer, invalid } from './envelope.ts';
import { mustTask } from './tasks.ts';
import { placeTypes, viewport, vicinity, TYPE_TO_CATEGORY } from './shapes.ts';
import { PageTokens } from './pagetoken.ts';
import { envelope, placeResult } from './schemas.ts';

/** The nearby layers' own limit (src/core/limits.ts). */
export const NEARBY_MAX_RADIUS = NEARBY_RADIUS.max;
export const PAGE_SIZE = 20;
/** Results one query can page through: the places_nearby task answers at most 50 (the platform: 60). */
export const NEARBY_MAX_RESULTS = 50;
/** With a keyword the text search answers at most 20: one page. */
const KEYWORD_MAX_RESULTS = 20;
/** rankby=distance has no radius on the platform; ours searches this far. */
const RANKBY_DISTANCE_RADIUS = NEARBY_MAX_RADIUS;

const tokens = new WeakMap<Config, PageTokens>();
function pageTokens(ctx: AppContext): PageTokens {
  let t = tokens.get(ctx.config);
  if (!t) tokens.set(ctx.config, (t = new PageTokens(ctx.config.pageTokenSecret)));
  return t;
}

/** The canonical query a page re-runs. */
interface NearbyQuery {
  lat: number;
  lng: number;
  radius: number;
  category: string | null;
  keyword: string | null;
  /** A platform type we hold no places for: the answer is ZERO_RESULTS. */
  unknownType: string | null;
}

function canonical(q: Record<string, any>): NearbyQuery {
  if (!q.location) throw invalid('location', 'is required (LAT,LNG)');
  const byDistance = q.rankby === 'distance';
  if (byDistance && q.radius !== undefined) throw invalid('radius', 'must not be given with rankby=distance');
  if (byDistance && !q.keyword && !q.name && !q.type) throw invalid('rankby', "=distance needs one of 'keyword', 'name' or 'type'");
  if (!byDistance && q.radius === undefined) throw invalid('radius', 'is required (unless rankby=distance)');
  let category: string | null = null, unknownType: string | null = null;
  if (q.type) {
    const t = String(q.type).toLowerCase();
    category = TYPE_TO_CATEGORY[t] ?? resolveCategory(t);
    if (!category) unknownType = t;
  }
  const keyword = [q.keyword, q.name].filter(Boolean).join(' ').trim() || null;
  return { lat: q.location[0], lng: q.location[1], radius: byDistance ? RANKBY_DISTANCE_RADIUS : q.radius, category, keyword, unknownType };
}

async function search(ctx: AppContext, req: Req, n: NearbyQuery, upTo: number): Promise<any[]> {
  if (n.unknownType) return [];
  const base = { lat: n.lat, lng: n.lng, radius: n.radius, ...(n.category ? { category: n.category } : {}) };
  if (n.keyword) return (await mustTask(ctx, req, 'places_search', { ...base, q: n.keyword, limit: Math.min(upTo, KEYWORD_MAX_RESULTS) })).results;
  return (await mustTask(ctx, req, 'places_nearby', { ...base, limit: Math.min(upTo, NEARBY_MAX_RESULTS) })).results;
}

export function nearbyResult(r: any): Record<string, unknown> {
  return {
    name: r.name,
    geometry: { location: { lat: r.lat, lng: r.lng }, viewport: viewport(r.lat, r.lng, r.type) },
    place_id: r.id,
    reference: r.id,
    types: placeTypes(r.type),
    vicinity: vicinity(r),
  };
}

export const nearbysearch = altRoute({
  name: 'nearbysearch',
  scope: 'geo',
  ops: ['places_nearby', 'places_search'],
  datasets: ['gazetteer'],
  empty: { html_attributions: [], results: [] },
  decl: {
    summary: 'Nearby Search in the alt platform shape, 20 a page with page tokens',
    description: `Places within \`radius\` (≤ ${NEARBY_MAX_RADIUS} m) of \`location\`, nearest first (also for the default rankby=prominence: we hold no popularity signal), at most ${NEARBY_MAX_RESULTS} results over pages of ${PAGE_SIZE}; \`next_page_token\` is valid 5 minutes for the key that asked. \`type\` takes the platform's types we hold data for (hospital, pharmacy, doctor, dentist, health, airport, bus_station, transit_station, locality) or our categories; other types find nothing. \`keyword\`/\`name\` search names (one page of at most ${KEYWORD_MAX_RESULTS}). \`opennow\`, \`minprice\`, \`maxprice\` and \`language\` are accepted and not applied (no opening hours or prices in the data).`,
    query: {
      location: { schema: Q.latlng(), description: 'LAT,LNG (required unless pagetoken)' },
      radius: { schema: Q.num({ min: 1, max: NEARBY_MAX_RADIUS }), description: `Metres, at most ${NEARBY_MAX_RADIUS}; required unless rankby=distance` },
      rankby: { schema: Q.enum(['prominence', 'distance']), description: 'distance needs keyword, name or type and no radius' },
      type: { schema: Q.str({ maxLength: 60, pattern: '^[A-Za-z_ -]+$' }), description: 'Place type' },
      keyword: { schema: Q.str({ maxLength: 200 }), description: 'Words to match in names' },
      name: { schema: Q.str({ maxLength: 200 }), description: 'Words to match in names' },
      pagetoken: { schema: Q.str({ maxLength: 2000 }), description: 'next_page_token of a previous answer' },
      opennow: { schema: Q.bool(), description: 'Accepted, not applied' },
      minprice: { schema: Q.int({ min: 0, max: 4 }), description: 'Accepted, not applied' },
      maxprice: { schema: Q.int({ min: 0, max: 4 }), description: 'Accepted, not applied' },
      language: { schema: Q.str({ maxLength: 20 }), description: 'Accepted; names are returned as in the data' },
    },
    responses: {
      200: {
        description: 'OK or ZERO_RESULTS',
        schema: envelope(['results', 'html_attributions'], {
          results: { type: 'array', items: placeResult, maxItems: PAGE_SIZE }, html_attributions: { type: 'array', items: { type: 'string' } }, next_page_token: { type: 'string' },
        }),
      },
      400: { description: 'INVALID_REQUEST (also an invalid or expired pagetoken)' },
    },
    examples: [{ query: 'location=-1.2864,36.8172&radius=2000&type=hospital', summary: 'Hospitals in central Nairobi' }],
  },
  async handler(req, ctx) {
    const keyId = req.key?.id ?? '';
    let n: NearbyQuery, offset = 0;
    if (req.q.pagetoken) {
      const s = pageTokens(ctx).open(String(req.q.pagetoken), keyId);
      if ('error' in s) throw invalid('pagetoken', s.error);
      n = s.q as unknown as NearbyQuery;
      offset = s.o;
    } else n = canonical(req.q);
    // One more than the page tells whether another page follows.
    const all = await search(ctx, req, n, offset + PAGE_SIZE + 1);
    const page = all.slice(offset, offset + PAGE_SIZE);
    const next = all.length > offset + PAGE_SIZE ? pageTokens(ctx).issue({ q: n as unknown as Record<string, unknown>, o: offset + PAGE_SIZE }, keyId) : undefined;
    const svc = { results: page, offset, ...(n.unknownType ? { note: `No places of type '${n.unknownType}' are held in this build.` } : {}) };
    if (!page.length) return answer('ZERO_RESULTS', { html_attributions: [], results: [] }, svc);
    return answer('OK', { html_attributions: [ATTRIBUTION], results: page.map(nearbyResult), ...(next ? { next_page_token: next } : {}) }, svc);
  },
});
