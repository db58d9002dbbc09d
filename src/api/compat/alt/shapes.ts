// Our records → the platform's shapes: place types, address components, geometry with a
// viewport, and distances/durations as {text, value}.
import { M_PER_DEG } from '../../../core/geometry.ts';
import { tokens } from '../../../core/text/normalize.ts';

export interface LatLng { lat: number; lng: number }
export interface Bounds { northeast: LatLng; southwest: LatLng }

/** Our feature category → the platform's place types (most specific first). */
const TYPES: Record<string, string[]> = {
  country: ['country', 'political'],
  admin1: ['administrative_area_level_1', 'political'],
  city: ['locality', 'political'],
  town: ['locality', 'political'],
  village: ['locality', 'political'],
  locality: ['locality', 'political'],
  street: ['route'],
  airport: ['airport', 'point_of_interest', 'establishment'],
  port: ['point_of_interest', 'establishment'],
  river: ['natural_feature'],
  lake: ['natural_feature'],
  hospital: ['hospital', 'health', 'point_of_interest', 'establishment'],
  clinic: ['health', 'point_of_interest', 'establishment'],
  health_centre: ['health', 'point_of_interest', 'establishment'],
  health_post: ['health', 'point_of_interest', 'establishment'],
  dispensary: ['health', 'point_of_interest', 'establishment'],
  health_other: ['health', 'point_of_interest', 'establishment'],
  pharmacy: ['pharmacy', 'health', 'store', 'point_of_interest', 'establishment'],
  doctors: ['doctor', 'health', 'point_of_interest', 'establishment'],
  dentist: ['dentist', 'health', 'point_of_interest', 'establishment'],
  bus_stop: ['bus_station', 'transit_station', 'point_of_interest', 'establishment'],
};

export function placeTypes(category: string): string[] {
  return TYPES[category] ?? ['point_of_interest'];
}

/**
 * The platform's place types a nearby search or autocomplete may filter on → our nearby
 * category. A type we hold no data for is not an error on the platform: it finds nothing.
 */
export const TYPE_TO_CATEGORY: Record<string, string> = {
  hospital: 'hospital', pharmacy: 'pharmacy', drugstore: 'pharmacy', doctor: 'doctors', dentist: 'dentist',
  health: 'health', airport: 'airport', bus_station: 'bus_stop', transit_station: 'bus_stop', locality: 'place',
};

/**
 * Half the side of the suggested viewport, in metres, by category. A display suggestion, not a
 * boundary: we hold no extents for places (only points), so the scale follows the kind of place.
 */
const VIEW_M: Record<string, number> = {
  country: 400_000, admin1: 100_000, city: 12_000, town: 4_000, village: 1_500, locality: 1_500,
  street: 250, airport: 1_500, port: 1_000, river: 20_000, lake: 20_000,
};
const POI_VIEW_M = 150;

const round7 = (x: number) => Math.round(x * 1e7) / 1e7;

export function viewport(lat: number, lng: number, category: string): Bounds {
  const half = VIEW_M[category] ?? POI_VIEW_M;
  const dLat = half / M_PER_DEG;
  const dLng = half / (M_PER_DEG * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  return {
    northeast: { lat: round7(Math.min(90, lat + dLat)), lng: round7(Math.min(180, lng + dLng)) },
    southwest: { lat: round7(Math.max(-90, lat - dLat)), lng: round7(Math.max(-180, lng - dLng)) },
  };
}

/** ROOFTOP is never claimed: our points are settlement centres, street midpoints and mapped POIs. */
export function locationType(category: string): 'GEOMETRIC_CENTER' | 'APPROXIMATE' {
  return VIEW_M[category] !== undefined && category !== 'street' ? 'APPROXIMATE' : 'GEOMETRIC_CENTER';
}

export interface AddressComponent { long_name: string; short_name: string; types: string[] }

/** Address components from a place detail (/places/{id}): the feature itself when it is an address part, then locality, admin-1 and country. */
export function addressComponents(d: any): AddressComponent[] {
  const out: AddressComponent[] = [];
  const add = (name: string | null | undefined, types: string[], short?: string) => {
    if (name && !out.some((c) => c.long_name === name && c.types[0] === types[0])) out.push({ long_name: name, short_name: short ?? name, types });
  };
  const cat = String(d.type ?? '');
  if (cat === 'street') add(d.name, ['route']);
  else if (placeTypes(cat)[0] === 'locality') add(d.name, ['locality', 'political']);
  else if (placeTypes(cat).includes('establishment')) add(d.name, ['establishment', 'point_of_interest']);
  add(d.locality?.name, ['locality', 'political']);
  if (cat !== 'country') add(d.admin1, ['administrative_area_level_1', 'political']);
  add(d.country, ['country', 'political'], d.country_code ?? undefined);
  return out;
}

/** A geocode-shaped result of the platform from our result and (when fetched) its detail. */
export function geocodeResult(r: any, d: any | null, query?: string): Record<string, unknown> {
  const cat = String(r.type ?? '');
  const out: Record<string, unknown> = {
    address_components: addressComponents(d ?? r),
    formatted_address: r.address ?? r.name,
    geometry: {
      location: { lat: r.lat, lng: r.lng },
      location_type: locationType(cat),
      viewport: viewport(r.lat, r.lng, cat),
    },
    place_id: r.id,
    types: placeTypes(cat),
  };
  if (query !== undefined && partial(query, `${r.name ?? ''} ${r.address ?? ''}`)) out.partial_match = true;
  return out;
}

/** The platform's partial_match: some word of the request is not in the result's name or address. */
export function partial(query: string, matched: string): boolean {
  const have = new Set(tokens(matched));
  return tokens(query).some((t) => !have.has(t));
}

/** The platform's `vicinity`: the address without its country (and without the name it starts with). */
export function vicinity(r: any): string {
  const parts = String(r.address ?? '').split(', ').filter(Boolean);
  if (parts.length > 1 && parts[0] === r.name) parts.shift();
  if (parts.length > 1) parts.pop();
  return parts.join(', ');
}

/** Distance as the platform writes it: metric "350 m", "2.6 km"; imperial "0.2 mi", "15 ft". */
export function distanceText(m: number, units: 'metric' | 'imperial'): string {
  if (units === 'imperial') {
    const mi = m / 1609.344;
    if (mi < 0.1) return `${Math.round(m * 3.28084)} ft`;
    return mi < 100 ? `${trim1(mi)} mi` : `${Math.round(mi).toLocaleString('en-US')} mi`;
  }
  if (m < 1000) return `${Math.round(m)} m`;
  const km = m / 1000;
  return km < 100 ? `${trim1(km)} km` : `${Math.round(km).toLocaleString('en-US')} km`;
}

const trim1 = (x: number) => String(Math.round(x * 10) / 10);

/** Duration as the platform writes it: "1 min", "14 mins", "1 hour 5 mins", "2 days 3 hours". */
export function durationText(s: number): string {
  const mins = Math.max(1, Math.round(s / 60));
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  if (mins < 60) return plural(mins, 'min');
  const days = Math.floor(mins / 1440), hours = Math.floor((mins % 1440) / 60), rest = mins % 60;
  if (days > 0) return hours ? `${plural(days, 'day')} ${plural(hours, 'hour')}` : plural(days, 'day');
  return rest ? `${plural(hours, 'hour')} ${plural(rest, 'min')}` : plural(hours, 'hour');
}

export const distance = (m: number, units: 'metric' | 'imperial') => ({ text: distanceText(m, units), value: Math.round(m) });
export const duration = (s: number) => ({ text: durationText(s), value: Math.round(s) });

/** Bounds of [lng, lat] coordinates. */
export function boundsOf(coords: number[][]): Bounds {
  let n = -90, s = 90, e = -180, w = 180;
  for (const [lng, lat] of coords) {
    if (lat > n) n = lat; if (lat < s) s = lat;
    if (lng > e) e = lng; if (lng < w) w = lng;
  }
  return { northeast: { lat: n, lng: e }, southwest: { lat: s, lng: w } };
}
