// What a static map is: the spec the HTTP layer parses (and the compat layer builds) and the
// worker renders. Limits are the alt platform's: 640×640 logical pixels, scale 1 or 2.
import type { Theme } from './style.ts';

export const STATICMAP_LIMITS = {
  maxWidth: 640, maxHeight: 640, minSize: 16,
  scales: [1, 2] as const,
  minZoom: 0, maxZoom: 20,
  maxMarkers: 50, maxPaths: 10, maxPathPoints: 2000,
  /** Zoom chosen by auto-fit (no center/zoom given) is at most this. */
  maxFitZoom: 17,
};

export interface StaticMarker { lat: number; lng: number; color?: string; label?: string; size?: 'tiny' | 'small' | 'mid' }
export interface StaticPath { points: [number, number][]; color?: string; weight?: number; fillcolor?: string }

/** The input of the `staticmap` worker task (and of renderStaticMap in src/api/maps/staticmap.ts). */
export interface StaticMapSpec {
  center: [number, number];
  zoom: number;
  width: number;
  height: number;
  scale: 1 | 2;
  theme: Theme;
  markers: StaticMarker[];
  paths: StaticPath[];
}

/** Web-mercator pixel position of a point at a zoom (256-pixel tiles). */
export function project(lat: number, lng: number, z: number): [number, number] {
  const size = 256 * 2 ** z;
  const s = Math.min(Math.max(Math.sin((lat * Math.PI) / 180), -0.9999), 0.9999);
  return [((lng + 180) / 360) * size, (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * size];
}

export function unproject(x: number, y: number, z: number): [number, number] {
  const size = 256 * 2 ** z;
  const lng = (x / size) * 360 - 180;
  const n = Math.PI - (2 * Math.PI * y) / size;
  return [(180 / Math.PI) * Math.atan(0.5 * (Math.exp(n) - Math.exp(-n))), lng];
}

/** Center and zoom that show every point with a margin, as the alt platform does without center/zoom. */
export function fitView(points: [number, number][], width: number, height: number, pad = 40): { center: [number, number]; zoom: number } {
  let minLat = Infinity, maxLat = -Infinity, minLng = Infinity, maxLng = -Infinity;
  for (const [lat, lng] of points) {
    minLat = Math.min(minLat, lat); maxLat = Math.max(maxLat, lat); minLng = Math.min(minLng, lng); maxLng = Math.max(maxLng, lng);
  }
  let zoom = STATICMAP_LIMITS.maxFitZoom;
  for (; zoom > 0; zoom--) {
    const [x0, y0] = project(maxLat, minLng, zoom), [x1, y1] = project(minLat, maxLng, zoom);
    if (x1 - x0 <= width - 2 * pad && y1 - y0 <= height - 2 * pad) break;
  }
  const [x0, y0] = project(maxLat, minLng, zoom), [x1, y1] = project(minLat, maxLng, zoom);
  return { center: unproject((x0 + x1) / 2, (y0 + y1) / 2, zoom), zoom };
}
