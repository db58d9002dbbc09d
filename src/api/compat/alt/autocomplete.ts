// /compat/alt/autocomplete: per-keystroke predictions in the platform's Place Autocomplete shape,
// over our typo-tolerant prefix suggest task.
import { Q } from '../../../http/declaration.ts';
import { haversine } from '../../../core/geometry.ts';
import { fold } from '../../../core/text/normalize.ts';
import { altRoute } from './define.ts';
import { answer, invalid } from './envelope.ts';
import { mustTask } from './tasks.ts';
import { placeTypes } from './shapes.ts';
import { parseComponents } from './places.ts';
import { envelope, prediction } from './schemas.ts';

/** The platform answers at most five predictions. */
export const AUTOCOMPLETE_MAX = 5;
/** Candidates fetched when a filter (several countries, types, strictbounds) may drop some. */
const FILTER_POOL = 20;
/** The platform allows up to five countries in `components`. */
const MAX_COUNTRIES = 5;

/** Type collections of the platform → a test on a result's place types. */
const COLLECTIONS: Record<string, (types: string[]) => boolean> = {
  '(cities)': (t) => t.includes('locality'),
  '(regions)': (t) => t.includes('political'),
  geocode: (t) => !t.includes('establishment'),
  address: (t) => t.includes('route'),
  establishment: (t) => t.includes('establishment'),
};

interface Sub { offset: number; length: number }

/** "A, B, C" → terms with their offsets. */
function terms(description: string): { offset: number; value: string }[] {
  const out: { offset: number; value: string }[] = [];
  let at = 0;
  for (const value of description.split(', ')) {
    out.push({ offset: at, value });
    at += value.length + 2;
  }
  return out;
}

/** Where the words of the input start words of the text (case and accents folded), as the platform marks them. */
function matched(text: string, input: string[], from = 0): Sub[] {
  const out: Sub[] = [];
  const re = /[\p{L}\p{N}'’]+/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const w = fold(m[0]);
    const t = input.find((x) => w.startsWith(x));
    if (t) out.push({ offset: from + m.index, length: Math.min(m[0].length, t.length) });
  }
  return out;
}

export function predictionOf(r: any, input: string, origin?: [number, number]): Record<string, unknown> {
  const name = String(r.name);
  const address = String(r.address ?? name);
  const description = address.startsWith(name) ? address : `${name}, ${address}`;
  const secondary = description.slice(name.length).replace(/^,\s*/, '');
  const words = fold(input).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const main = matched(name, words);
  const out: Record<string, unknown> = {
    description,
    place_id: r.id,
    matched_substrings: main,
    structured_formatting: { main_text: name, main_text_matched_substrings: main, ...(secondary ? { secondary_text: secondary } : {}) },
    terms: terms(description),
    types: placeTypes(r.type),
  };
  if (origin) out.distance_meters = Math.round(haversine(origin[0], origin[1], r.lat, r.lng));
  return out;
}

export const autocomplete = altRoute({
  name: 'autocomplete',
  scope: 'geo',
  ops: ['suggest'],
  datasets: ['gazetteer'],
  empty: { predictions: [] },
  decl: {
    summary: 'Place Autocomplete in the alt platform shape',
    description: 'Prefix match on the last word, typo tolerant. `location` biases; with `strictbounds` and `radius` it restricts. `components=country:xx` (up to 5), `types` (a type or a collection: (cities), (regions), geocode, address, establishment), `origin` adds distance_meters, `offset` uses only that many characters of the input. `language` and `sessiontoken` are accepted.',
    query: {
      input: { schema: Q.str({ maxLength: 200 }), required: true, description: 'The text typed so far' },
      location: { schema: Q.latlng(), description: 'Bias point LAT,LNG' },
      radius: { schema: Q.num({ min: 1, max: 50_000 }), description: 'Metres around location (a restriction with strictbounds)' },
      strictbounds: { schema: Q.bool(), description: 'Only predictions within radius of location' },
      origin: { schema: Q.latlng(), description: 'Point from which distance_meters is measured' },
      components: { schema: Q.str({ maxLength: 100 }), description: 'country:KE|country:TZ (up to 5)' },
      types: { schema: Q.str({ maxLength: 100 }), description: '(cities), (regions), geocode, address, establishment or a place type' },
      offset: { schema: Q.int({ min: 1, max: 200 }), description: 'Characters of input to use' },
      language: { schema: Q.str({ maxLength: 20 }), description: 'Accepted; names are returned as in the data' },
      sessiontoken: { schema: Q.str({ maxLength: 200 }), description: 'Accepted' },
    },
    responses: {
      200: { description: 'OK or ZERO_RESULTS', schema: envelope(['predictions'], { predictions: { type: 'array', items: prediction } }) },
      400: { description: 'INVALID_REQUEST' },
    },
    examples: [{ query: 'input=Nairo&components=country:ke', summary: 'Nairobi while typing' }],
  },
  async handler(req, ctx) {
    const q = req.q;
    const input = q.offset ? String(q.input).slice(0, q.offset) : String(q.input);
    const comp = parseComponents(q.components);
    if (comp.text.length) throw invalid('components', "supports only 'country:' filters here, as on the platform");
    if (comp.country.length > MAX_COUNTRIES) throw invalid('components', `may name at most ${MAX_COUNTRIES} countries`);
    if (q.strictbounds && !(q.location && q.radius)) throw invalid('strictbounds', "needs 'location' and 'radius'");
    const type = q.types ? String(q.types) : undefined;
    const typeOk = type ? COLLECTIONS[type] ?? ((t: string[]) => t.includes(type)) : null;
    const filtering = comp.country.length > 1 || !!typeOk || !!q.strictbounds;
    const args = {
      q: input, limit: filtering ? FILTER_POOL : AUTOCOMPLETE_MAX,
      country: comp.country.length === 1 ? comp.country[0] : undefined, focus: q.location,
    };
    let hits = (await mustTask(ctx, req, 'suggest', args)).suggestions as any[];
    if (comp.country.length > 1) hits = hits.filter((h) => comp.country.includes(h.country_code));
    if (typeOk) hits = hits.filter((h) => typeOk(placeTypes(h.type)));
    const { location, radius } = q; // both present with strictbounds (checked above)
    if (q.strictbounds && location && radius) hits = hits.filter((h) => haversine(location[0], location[1], h.lat, h.lng) <= radius);
    hits = hits.slice(0, AUTOCOMPLETE_MAX);
    if (!hits.length) return answer('ZERO_RESULTS', { predictions: [] }, { suggestions: [] });
    return answer('OK', { predictions: hits.map((h) => predictionOf(h, input, q.origin)) }, { suggestions: hits });
  },
});
