// Encoded polylines (precision 5) — the platform's geometry format, used in this compat layer
// only; our own API answers GeoJSON.
import { createRequire } from 'node:module';

const polyline = createRequire(import.meta.url)('@mapbox/polyline') as {
  encode(coords: [number, number][], precision?: number): string;
  decode(s: string, precision?: number): [number, number][];
};

/** [[lng, lat], …] (GeoJSON order) → encoded polyline. */
export function encodeLngLat(coords: number[][]): string {
  return polyline.encode(coords.map(([lng, lat]) => [lat, lng]));
}

/** Encoded polyline → [[lat, lng], …]; throws on text that is not a polyline. */
export function decode(s: string): [number, number][] {
  const pts = polyline.decode(s);
  if (pts.some(([a, b]) => !Number.isFinite(a) || !Number.isFinite(b) || Math.abs(a) > 90 || Math.abs(b) > 180)) throw new Error('not a polyline');
  return pts;
}
