// Every response carries this (JSON field `attribution`, header `X-Attribution`, drawn on images).
// It names the service and the licences of the data it serves from.
import { JsonText } from './task.ts';

export const ATTRIBUTION =
  'svc maps API. Data © OpenStreetMap contributors (ODbL), GeoNames (CC BY 4.0), Natural Earth (public domain), healthsites.io (ODbL), WHO/KEMRI-Wellcome, USGS, GTFS feeds of Accra, Nairobi and Kigali';

/** HTTP header values must be Latin-1; spell the copyright sign out. */
export const ATTRIBUTION_HEADER = ATTRIBUTION.replace('©', '(c)');

const ATTR_JSON = JSON.stringify(ATTRIBUTION);

/** What replaces the closing brace of a non-empty JSON object to add the attribution as its last member. */
export const ATTRIBUTION_TAIL = `,"attribution":${ATTR_JSON}}`;

/**
 * JSON text of {...body, attribution} without building a second object: the body's own
 * serialisation (or a task's JsonText) with the attribution spliced in before its closing
 * brace. A body that is not a plain object is wrapped as {"result": body}.
 */
export function withAttribution(body: unknown): string {
  if (body instanceof JsonText) return splice(body.text);
  return plainWithAttribution(body);
}

/** withAttribution as pieces (see JsonText): a JsonText's pieces stay as they are but for the last. */
export function partsWithAttribution(body: unknown): (string | Uint8Array)[] {
  if (!(body instanceof JsonText)) return [plainWithAttribution(body)];
  const parts = body.parts.slice();
  const last = parts[parts.length - 1];
  if (typeof last === 'string') parts[parts.length - 1] = parts.length === 1 ? splice(last) : `${last.slice(0, -1)}${ATTRIBUTION_TAIL}`;
  else { parts[parts.length - 1] = last.subarray(0, last.length - 1); parts.push(ATTRIBUTION_TAIL); }
  return parts;
}

function plainWithAttribution(body: unknown): string {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return JSON.stringify({ result: body, attribution: ATTRIBUTION });
  return splice(JSON.stringify(body));
}

/** The text of a JSON object with the attribution added as its last member. */
function splice(inner: string): string {
  return inner === '{}' ? `{"attribution":${ATTR_JSON}}` : `${inner.slice(0, -1)}${ATTRIBUTION_TAIL}`;
}
