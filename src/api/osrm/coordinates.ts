// OSRM's `{coordinates}` path segment and its error: `lng,lat;lng,lat…`, `polyline(…)` or
// `polyline6(…)` with an optional `.json` suffix (docs/http.md "General options").
import polyline from '@mapbox/polyline';

/** A 400 in OSRM's shape: `{"code","message"}`. */
export class OsrmError extends Error {
  constructor(readonly code: string, message: string) { super(message); }
}

export const fail = (code: string, message: string): never => { throw new OsrmError(code, message); };

/** `lng,lat;lng,lat…`, `polyline(…)` or `polyline6(…)` (an optional `.json` suffix) → [lng, lat][]. */
export function parseCoordinates(raw: string): [number, number][] {
  let s = raw;
  if (s.endsWith('.json')) s = s.slice(0, -5);
  else if (s.endsWith('.flatbuffers')) fail('NotImplemented', 'The flatbuffers format is not supported; use JSON.');
  const m = /^polyline(6?)\((.+)\)$/.exec(s);
  let pts: [number, number][];
  if (m) {
    let dec: [number, number][];
    try { dec = polyline.decode(m[2], m[1] ? 6 : 5); } catch { return fail('InvalidQuery', 'The polyline in the coordinates could not be decoded.'); }
    pts = dec.map(([lat, lng]) => [lng, lat]);
  } else {
    pts = s.split(';').map((p, i) => {
      const c = /^\s*([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)\s*$/.exec(p);
      if (!c) fail('InvalidQuery', `Coordinate ${i} is not 'longitude,latitude'.`);
      return [Number(c![1]), Number(c![2])] as [number, number];
    });
  }
  pts.forEach(([lng, lat], i) => { if (!(Math.abs(lng) <= 180 && Math.abs(lat) <= 90)) fail('InvalidValue', `Coordinate ${i} is out of range (longitude -180..180, latitude -90..90).`); });
  if (!pts.length) fail('InvalidQuery', 'No coordinates.');
  return pts;
}
