// Spherical helpers on plain numbers and flat coordinate arrays: the one great-circle distance
// every stage uses (edge lengths at build, snapping and geometry length at query, pins and zones
// in the proof layer), point-in-ring and the degree boxes of radius searches.

/** Mean Earth radius, metres. */
export const EARTH_R = 6371008.8;
const R = EARTH_R;
const RAD = Math.PI / 180;
/** Metres per degree of latitude (spherical). */
export const M_PER_DEG = EARTH_R * RAD;

/** Great-circle distance in metres. */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD, dLng = (lng2 - lng1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Even-odd ray cast against ring [s, e) of lng,lat pairs in `c` (pair indices). */
export function inRing(x: number, y: number, c: ArrayLike<number>, s: number, e: number): boolean {
  let inside = false;
  for (let i = s, j = e - 1; i < e; j = i++) {
    const xi = c[2 * i], yi = c[2 * i + 1], xj = c[2 * j], yj = c[2 * j + 1];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Metres from (lat,lng) to the segment a→b, on a local equirectangular projection
 * centred on the query point: exact enough (< 0.5 %) for the few-km distances asked here.
 */
export function segmentDistance(lat: number, lng: number, ax: number, ay: number, bx: number, by: number): number {
  const k = Math.cos(lat * RAD);
  const x1 = (ax - lng) * k, y1 = ay - lat, x2 = (bx - lng) * k, y2 = by - lat;
  const dx = x2 - x1, dy = y2 - y1;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? -(x1 * dx + y1 * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return Math.hypot(x1 + t * dx, y1 + t * dy) * RAD * R;
}

/** Degrees of latitude / longitude that cover `m` metres around latitude `lat` (for bbox searches). */
export function degBox(lat: number, m: number): { dLat: number; dLng: number } {
  const dLat = m / (RAD * R);
  return { dLat, dLng: dLat / Math.max(0.01, Math.cos(lat * RAD)) };
}
