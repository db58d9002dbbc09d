// Spatial queries: nearest points per layer (kdbush + geokdbush), country by
// point-in-polygon, nearest street segment, distance to rivers and lake shores.
import { around } from 'geokdbush';
import type { Gazetteer } from './store.ts';
import { inRing, segmentDistance, haversine, degBox } from '../../src/core/geometry.ts';

export interface Near { f: number; d: number }

/** Nearest features of one layer within `radiusM`, nearest first, passing `accept`. */
export function nearest(g: Gazetteer, layer: string, lat: number, lng: number, radiusM: number, limit: number, accept?: (f: number) => boolean): Near[] {
  const kd = g.kd[layer];
  if (!kd || kd.numItems === 0) return [];
  const base = g.layers[layer][0];
  const ids = around(kd, lng, lat, limit, radiusM / 1000, accept ? (i: number) => accept(base + i) : undefined);
  return ids.map((i) => ({ f: base + i, d: haversine(lat, lng, g.lat[base + i], g.lng[base + i]) }));
}

/** Country index containing the point (even-odd over all rings of that country), or -1. */
export function countryAt(g: Gazetteer, lat: number, lng: number): number {
  if (!g.cIndex) return -1;
  const cand = g.cIndex.search(lng, lat, lng, lat);
  if (!cand.length) return -1;
  const parity = new Map<number, boolean>();
  for (const r of cand) {
    if (inRing(lng, lat, g.cCoords, g.cStart[r], g.cStart[r + 1])) parity.set(g.cOwner[r], !parity.get(g.cOwner[r]));
  }
  for (const [c, v] of parity) if (v) return c;
  return -1;
}

/**
 * OpenStreetMap administrative units (feature ids of layer admin) containing the point, by
 * even-odd over each unit's rings, with their admin_level: the most local (highest level) first.
 */
export function adminUnitsAt(g: Gazetteer, lat: number, lng: number): { f: number; level: number }[] {
  if (!g.adIndex) return [];
  const parity = new Map<number, boolean>();
  for (const r of g.adIndex.search(lng, lat, lng, lat)) {
    if (inRing(lng, lat, g.adCoords, g.adStart[r], g.adStart[r + 1])) parity.set(g.adOwner[r], !parity.get(g.adOwner[r]));
  }
  const out: { f: number; level: number }[] = [];
  for (const [f, v] of parity) if (v) out.push({ f, level: Number((g.extra(f) as { admin_level?: number } | null)?.admin_level ?? 0) });
  return out.sort((a, b) => b.level - a.level || a.f - b.f);
}

/** Nearest point on segment k of a segment set, and its distance. */
function segNear(coords: Float64Array, k: number, lat: number, lng: number): { d: number; lat: number; lng: number } {
  const ax = coords[2 * k], ay = coords[2 * k + 1], bx = coords[2 * k + 2], by = coords[2 * k + 3];
  const c = Math.cos((lat * Math.PI) / 180);
  const dx = (bx - ax) * c, dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? (((lng - ax) * c) * dx + (lat - ay) * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return { d: segmentDistance(lat, lng, ax, ay, bx, by), lat: ay + t * (by - ay), lng: ax + t * (bx - ax) };
}

export interface LineHit { f: number; d: number; lat: number; lng: number }

/** Per owner feature, the nearest segment within radiusM; sorted by distance. */
function nearestLines(index: Gazetteer['sIndex'], coords: Float64Array, seg: Uint32Array, owner: Uint32Array, lat: number, lng: number, radiusM: number,
  accept?: (f: number) => boolean): LineHit[] {
  if (!index) return [];
  const { dLat, dLng } = degBox(lat, radiusM);
  const best = new Map<number, LineHit>();
  for (const i of index.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat)) {
    const f = owner[i];
    if (accept && !accept(f)) continue;
    const h = segNear(coords, seg[i], lat, lng);
    if (h.d > radiusM) continue;
    const b = best.get(f);
    if (!b || h.d < b.d) best.set(f, { f, ...h });
  }
  return [...best.values()].sort((a, b) => a.d - b.d);
}

export function nearestStreets(g: Gazetteer, lat: number, lng: number, radiusM: number, accept?: (f: number) => boolean): LineHit[] {
  return nearestLines(g.sIndex, g.sCoords, g.sSeg, g.sSegOwner, lat, lng, radiusM, accept);
}

export function nearestWater(g: Gazetteer, lat: number, lng: number, radiusM: number, accept?: (f: number) => boolean): (LineHit & { inside: boolean })[] {
  const hits = nearestLines(g.wIndex, g.wCoords, g.wSeg, g.wSegOwner, lat, lng, radiusM, accept).map((h) => ({ ...h, inside: false }));
  // A point inside a lake is 0 m from it (the shore distance is still reported separately).
  const inside = new Set<number>();
  if (g.lkIndex) {
    const parity = new Map<number, boolean>();
    for (const r of g.lkIndex.search(lng, lat, lng, lat)) {
      if (inRing(lng, lat, g.lkCoords, g.lkStart[r], g.lkStart[r + 1])) parity.set(g.lkOwner[r], !parity.get(g.lkOwner[r]));
    }
    for (const [f, v] of parity) if (v && (!accept || accept(f))) inside.add(f);
  }
  for (const f of inside) {
    const h = hits.find((x) => x.f === f);
    if (h) h.inside = true;
    else hits.push({ f, d: 0, lat, lng, inside: true });
  }
  return hits.sort((a, b) => (a.inside === b.inside ? a.d - b.d : a.inside ? -1 : 1));
}

/** Country whose border lies within `maxM` of the point (for points just off a generalised coastline), or -1. */
export function countryNear(g: Gazetteer, lat: number, lng: number, maxM: number): number {
  if (!g.cIndex) return -1;
  const { dLat, dLng } = degBox(lat, maxM);
  let best = -1, bd = maxM;
  for (const r of g.cIndex.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat)) {
    const c = g.cCoords;
    for (let i = g.cStart[r]; i < g.cStart[r + 1] - 1; i++) {
      const x1 = c[2 * i], y1 = c[2 * i + 1], x2 = c[2 * i + 2], y2 = c[2 * i + 3];
      // Cheap bbox reject before the exact distance.
      if (Math.max(x1, x2) < lng - dLng || Math.min(x1, x2) > lng + dLng || Math.max(y1, y2) < lat - dLat || Math.min(y1, y2) > lat + dLat) continue;
      const d = segmentDistance(lat, lng, x1, y1, x2, y2);
      if (d < bd) { bd = d; best = g.cOwner[r]; }
    }
  }
  return best;
}

/**
 * Admin-1 unit (index into g.admin1Units) containing the point, by even-odd over each unit's
 * rings; with `nearM`, a point outside every polygon (offshore, generalised coast) takes the
 * nearest unit within that distance. `country` (a code) restricts both. -1 when none.
 */
export function admin1At(g: Gazetteer, lat: number, lng: number, country: string | null = null, nearM = 0): { u: number; method: 'point_in_polygon' | 'nearest_polygon' } | null {
  if (!g.a1Index) return null;
  const units = g.admin1Units;
  const parity = new Map<number, boolean>();
  for (const r of g.a1Index.search(lng, lat, lng, lat)) {
    if (inRing(lng, lat, g.a1Coords, g.a1Start[r], g.a1Start[r + 1])) parity.set(g.a1Owner[r], !parity.get(g.a1Owner[r]));
  }
  for (const [u, v] of parity) if (v && (!country || units[u].country === country)) return { u, method: 'point_in_polygon' };
  if (nearM <= 0) return null;
  const { dLat, dLng } = degBox(lat, nearM);
  let best = -1, bd = nearM;
  const c = g.a1Coords;
  for (const r of g.a1Index.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat)) {
    const u = g.a1Owner[r];
    if (country && units[u].country !== country) continue;
    for (let i = g.a1Start[r]; i < g.a1Start[r + 1] - 1; i++) {
      const x1 = c[2 * i], y1 = c[2 * i + 1], x2 = c[2 * i + 2], y2 = c[2 * i + 3];
      if (Math.max(x1, x2) < lng - dLng || Math.min(x1, x2) > lng + dLng || Math.max(y1, y2) < lat - dLat || Math.min(y1, y2) > lat + dLat) continue;
      const d = segmentDistance(lat, lng, x1, y1, x2, y2);
      if (d < bd) { bd = d; best = u; }
    }
  }
  return best >= 0 ? { u: best, method: 'nearest_polygon' } : null;
}
