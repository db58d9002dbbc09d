// Small geometry for the proof layer: point-in-polygon over GeoJSON rings (distance: src/core/geometry.ts).
// Zones are small (a depot, a neighbourhood, a city), so planar tests on lng/lat are exact
// enough; polygons crossing the antimeridian are not supported (none in Africa).

/** Even-odd ray cast on one ring of [lng, lat] positions (closed: first = last). */
export function inRing(lng: number, lat: number, ring: number[][]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** GeoJSON Polygon rule: inside the exterior ring and outside every hole. */
export function inPolygon(lng: number, lat: number, rings: number[][][]): boolean {
  if (!rings.length || !inRing(lng, lat, rings[0])) return false;
  for (let h = 1; h < rings.length; h++) if (inRing(lng, lat, rings[h])) return false;
  return true;
}

export function bbox(rings: number[][][]): { minLat: number; minLng: number; maxLat: number; maxLng: number } {
  let minLat = 90, minLng = 180, maxLat = -90, maxLng = -180;
  for (const [x, y] of rings[0]) {
    if (y < minLat) minLat = y;
    if (y > maxLat) maxLat = y;
    if (x < minLng) minLng = x;
    if (x > maxLng) maxLng = x;
  }
  return { minLat, minLng, maxLat, maxLng };
}

/** Shoelace area of a ring in squared degrees; zero means a degenerate ring. */
export function ringArea(ring: number[][]): number {
  let s = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) s += (ring[j][0] + ring[i][0]) * (ring[j][1] - ring[i][1]);
  return Math.abs(s / 2);
}
