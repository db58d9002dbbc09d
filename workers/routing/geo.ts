// Great-circle distance, shared by graph-build (edge lengths) and queries (snapping, geometry length).
export const EARTH_R = 6371008.8;
const RAD = Math.PI / 180;

/** Haversine distance in metres. */
export function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_R * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Metres per degree of latitude (spherical). */
export const M_PER_DEG = EARTH_R * RAD;
