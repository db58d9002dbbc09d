// The ways the platform names a place in a request — "LAT,LNG", "place_id:<id>" or an address
// — resolved to a point with our stable id and address, and `components=country:KE|locality:…`.
import type { AppContext, Req } from '../../../http/types.ts';
import { latlngOf } from '../../../core/points.ts';
import { fold } from '../../../core/text/normalize.ts';
import { invalid } from './envelope.ts';
import { task, mustTask, ok } from './tasks.ts';
import { placeTypes } from './shapes.ts';

export const PLACE_ID = /^svc:[A-Za-z0-9._%-]{1,120}$/;

export interface Resolved {
  lat: number;
  lng: number;
  /** Our stable id, when the place came from the gazetteer. */
  place_id: string | null;
  address: string;
  types: string[];
  /** How the place was given. */
  kind: 'latlng' | 'place_id' | 'address';
  partial_match?: boolean;
}

/** One place of a request, or null when the address or id finds nothing (the platform's NOT_FOUND). */
export async function resolvePlace(ctx: AppContext, req: Req, param: string, raw: string): Promise<Resolved | null> {
  const v = raw.trim();
  const ll = latlngOf(v);
  if (ll) {
    // The platform reverse-geocodes coordinates for start_address/end_address; so do we.
    const r = await task(ctx, req, 'reverse', { lat: ll[0], lng: ll[1] });
    const near = r.status === 200 ? (r.body.results as any[]).find((x) => x.lat !== null) : undefined;
    return { lat: ll[0], lng: ll[1], place_id: near?.id ?? null, address: near?.address ?? `${ll[0]},${ll[1]}`, types: near ? placeTypes(near.type) : [], kind: 'latlng' };
  }
  if (/^place_id:/i.test(v)) {
    const id = v.slice(v.indexOf(':') + 1).trim();
    if (!PLACE_ID.test(id)) throw invalid(param, `has a place_id that is not one of ours (ids look like 'svc:gn.184745')`);
    const r = await task(ctx, req, 'place_by_id', { id });
    if (r.status === 404) return null;
    const p = ok(r, 'place_by_id').result;
    return { lat: p.lat, lng: p.lng, place_id: p.id, address: p.address, types: placeTypes(p.type), kind: 'place_id' };
  }
  if (/^-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?$/.test(v)) throw invalid(param, "has coordinates out of range (latitude -90..90, longitude -180..180)");
  if (v.length > 200) throw invalid(param, 'is longer than 200 characters');
  const r = await mustTask(ctx, req, 'geocode', { q: v, limit: 1 });
  const p = (r.results as any[])[0];
  if (!p) return null;
  return { lat: p.lat, lng: p.lng, place_id: p.id, address: p.address, types: placeTypes(p.type), kind: 'address' };
}

export interface Components {
  /** ISO 3166-1 alpha-2 codes, upper case (the platform allows several in autocomplete). */
  country: string[];
  /** Other components (locality, administrative_area, route, postal_code…) as folded text. */
  text: { name: string; value: string }[];
}

const KNOWN = new Set(['country', 'locality', 'administrative_area', 'route', 'postal_code', 'sublocality']);

/** `country:KE|locality:Nairobi` → its parts; an unknown component name is INVALID_REQUEST, as on the platform. */
export function parseComponents(raw: string | undefined, param = 'components'): Components {
  const out: Components = { country: [], text: [] };
  if (!raw) return out;
  for (const part of raw.split('|')) {
    if (!part.trim()) continue;
    const i = part.indexOf(':');
    if (i < 0) throw invalid(param, `must be 'name:value' pairs separated by '|', e.g. 'country:KE|locality:Nairobi'`);
    const name = part.slice(0, i).trim().toLowerCase(), value = part.slice(i + 1).trim();
    if (!KNOWN.has(name)) throw invalid(param, `has an unknown component '${name.slice(0, 40)}' (known: ${[...KNOWN].join(', ')})`);
    if (!value) throw invalid(param, `has an empty '${name}'`);
    if (name === 'country') {
      if (!/^[A-Za-z]{2}$/.test(value)) throw invalid(param, `country must be an ISO 3166-1 alpha-2 code, e.g. 'country:KE'`);
      out.country.push(value.toUpperCase());
    } else out.text.push({ name, value: fold(value) });
  }
  return out;
}

/** Whether a result's address mentions every text component (word-aligned, accents and case folded). */
export function matchesComponents(address: string, c: Components): boolean {
  if (!c.text.length) return true;
  const a = ` ${fold(address).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  return c.text.every((t) => a.includes(` ${t.value.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `));
}
