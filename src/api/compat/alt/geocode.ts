// /compat/alt/geocode: forward (address, components), reverse (latlng) and by id (place_id), in
// the platform's geocoding shape. Every result is completed with its detail (locality, admin-1,
// country) so address_components come from our data, not from splitting the address text.
import type { AppContext, Req } from '../../../http/types.ts';
import { Q } from '../../../http/declaration.ts';
import { altRoute } from './define.ts';
import { answer, invalid, notFound } from './envelope.ts';
import { task, mustTask } from './tasks.ts';
import { geocodeResult, placeTypes, locationType } from './shapes.ts';
import { parseComponents, matchesComponents, PLACE_ID } from './places.ts';
import { envelope, geocodeResult as resultSchema } from './schemas.ts';

/** The platform answers at most a handful of candidates; so do we. */
export const GEOCODE_MAX = 5;
/** Candidates fetched before text components (locality, administrative_area…) filter them. */
const FILTER_POOL = 20;

/** Details of every result, fetched together (the pool batches them). */
async function details(ctx: AppContext, req: Req, rs: any[]): Promise<(any | null)[]> {
  return Promise.all(rs.map(async (r) => {
    const d = await task(ctx, req, 'place_by_id', { id: r.id });
    return d.status === 200 ? d.body.result : null;
  }));
}

function parseBounds(raw: string): [number, number] {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\|\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(raw);
  if (!m) throw invalid('bounds', "must be 'SW_LAT,SW_LNG|NE_LAT,NE_LNG'");
  const [s, w, n, e] = m.slice(1).map(Number);
  if (Math.abs(s) > 90 || Math.abs(n) > 90 || Math.abs(w) > 180 || Math.abs(e) > 180) throw invalid('bounds', 'has coordinates out of range');
  return [(s + n) / 2, w <= e ? (w + e) / 2 : ((w + e + 360) / 2 > 180 ? (w + e + 360) / 2 - 360 : (w + e + 360) / 2)];
}

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

const pipeSet = (v: string | undefined) => (v ? new Set(v.split('|').map((x) => x.trim()).filter(Boolean)) : null);

export const geocode = altRoute({
  name: 'geocode',
  scope: 'geo',
  ops: ['geocode', 'reverse', 'place_by_id'],
  datasets: ['gazetteer'],
  empty: { results: [] },
  decl: {
    summary: 'Geocoding in the alt platform shape: address, components, latlng (reverse) or place_id',
    description: 'Google Maps Platform Geocoding API request parameters and response shape. `region` and `bounds` bias (region first restricts to the country, then falls back); `language` is accepted and names stay as in the data. `result_type` and `location_type` filter reverse results.',
    query: {
      address: { schema: Q.str({ maxLength: 200 }), description: 'Address or place name to geocode' },
      latlng: { schema: Q.latlng(), description: 'Reverse geocoding: LAT,LNG' },
      place_id: { schema: Q.str({ pattern: PLACE_ID.source }), description: "One of our place ids (svc:…)" },
      components: { schema: Q.str({ maxLength: 300 }), description: "Component filter: country:KE|locality:Nairobi|administrative_area:…|route:…" },
      region: { schema: Q.str({ pattern: '^[A-Za-z]{2}$' }), description: 'Country bias (ISO 3166-1 alpha-2 / ccTLD)' },
      bounds: { schema: Q.str({ maxLength: 100 }), description: 'Viewport bias: SW_LAT,SW_LNG|NE_LAT,NE_LNG' },
      language: { schema: Q.str({ maxLength: 20 }), description: 'Accepted; names are returned as in the data' },
      result_type: { schema: Q.str({ maxLength: 200 }), description: 'Reverse only: types to keep, pipe-separated (route|locality|country|…)' },
      location_type: { schema: Q.str({ maxLength: 100 }), description: 'Reverse only: GEOMETRIC_CENTER|APPROXIMATE (ROOFTOP and RANGE_INTERPOLATED never match)' },
    },
    responses: {
      200: { description: 'OK or ZERO_RESULTS', schema: envelope(['results'], { results: { type: 'array', items: resultSchema } }) },
      400: { description: 'INVALID_REQUEST' },
      404: { description: 'NOT_FOUND (unknown place_id)' },
    },
    examples: [
      { query: 'address=Nairobi&components=country:KE', summary: 'Nairobi, Kenya' },
      { query: 'latlng=5.5560,-0.1969', summary: 'Reverse, central Accra' },
      { query: 'place_id=svc:gn.149929', summary: 'Sikonge by id' },
    ],
  },
  async handler(req, ctx) {
    const q = req.q;
    if (q.latlng) return reverse(ctx, req, q.latlng, pipeSet(q.result_type), pipeSet(q.location_type));
    if (q.place_id) {
      const r = await task(ctx, req, 'place_by_id', { id: q.place_id });
      if (r.status === 404) throw notFound(`No place with place_id '${q.place_id}'.`);
      const d = r.status === 200 ? r.body.result : await mustTask(ctx, req, 'place_by_id', { id: q.place_id });
      return answer('OK', { results: [geocodeResult(d, d)] }, { results: [d] });
    }
    const comp = parseComponents(q.components);
    if (!q.address && !comp.country.length && !comp.text.length) {
      throw invalid('address', "is required (or one of 'latlng', 'place_id', 'components')");
    }
    if (comp.country.length > 1) throw invalid('components', 'may name one country');
    // With only components, the most specific text component is what is looked up.
    const text = q.address ?? [...comp.text].reverse().find((t) => t.name !== 'postal_code')?.value;
    const country = comp.country[0];
    const focus = q.bounds ? parseBounds(q.bounds) : undefined;
    const limit = comp.text.length ? FILTER_POOL : GEOCODE_MAX;
    let hits: any[] = [];
    if (text) {
      const region = !country && q.region ? String(q.region).toUpperCase() : undefined;
      // region is a bias: results in that country if there are any, else anywhere.
      if (region) hits = (await mustTask(ctx, req, 'geocode', { q: text, limit, country: region, focus })).results;
      if (!hits.length) hits = (await mustTask(ctx, req, 'geocode', { q: text, limit, country, focus })).results;
    } else {
      // components=country:XX alone: the country itself, looked up by its English name.
      const name = REGION_NAMES.of(country) ?? country;
      const r = await mustTask(ctx, req, 'geocode', { q: name, limit: 5, country });
      hits = (r.results as any[]).filter((x) => x.type === 'country' && x.country_code === country).slice(0, 1);
    }
    hits = hits.filter((h) => matchesComponents(h.address ?? '', comp)).slice(0, GEOCODE_MAX);
    if (!hits.length) return answer('ZERO_RESULTS', { results: [] }, { results: [] });
    const ds = await details(ctx, req, hits);
    return answer('OK', { results: hits.map((h, i) => geocodeResult(h, ds[i], text)) }, { results: hits });
  },
});

async function reverse(ctx: AppContext, req: Req, [lat, lng]: [number, number], types: Set<string> | null, locTypes: Set<string> | null) {
  const r = await mustTask(ctx, req, 'reverse', { lat, lng });
  // The admin-1 entry has no point of its own (no admin-1 polygons offline): it appears as an
  // address component of the other results instead of as a result.
  let hits = (r.results as any[]).filter((x) => x.lat !== null && x.lng !== null);
  if (types) hits = hits.filter((h) => placeTypes(h.type).some((t) => types.has(t)));
  if (locTypes) hits = hits.filter((h) => locTypes.has(locationType(h.type)));
  if (!hits.length) return answer('ZERO_RESULTS', { results: [] }, { results: r.results });
  const ds = await details(ctx, req, hits);
  return answer('OK', { results: hits.map((h, i) => geocodeResult(h, ds[i])) }, { results: r.results });
}
