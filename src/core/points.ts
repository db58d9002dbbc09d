// A point on the earth as clients send it: the ranges of latitude and longitude, the body schemas
// built on them (an object {lat, lng} or a pair [lat, lng]) and the parser of the query form
// "LAT,LNG". One definition, so every endpoint refuses the same points with the same words.

/** Latitude in decimal degrees. */
export const LAT = { type: 'number', minimum: -90, maximum: 90 } as const;
/** Longitude in decimal degrees. */
export const LNG = { type: 'number', minimum: -180, maximum: 180 } as const;

/** `{ "lat": …, "lng": … }`. */
export const POINT_OBJECT = { type: 'object', required: ['lat', 'lng'], properties: { lat: LAT, lng: LNG } } as const;
/** `[lat, lng]`. */
export const POINT_PAIR = { type: 'array', prefixItems: [LAT, LNG], minItems: 2, maxItems: 2 } as const;
/** Either spelling. */
export const POINT = { oneOf: [POINT_OBJECT, POINT_PAIR] } as const;

const LATLNG = /^\s*([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)\s*$/;

/** "LAT,LNG" → [lat, lng] with both in range, else null. */
export function latlngOf(s: string): [number, number] | null {
  const m = LATLNG.exec(s);
  if (!m) return null;
  const lat = Number(m[1]), lng = Number(m[2]);
  return lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 ? [lat, lng] : null;
}
