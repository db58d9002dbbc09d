// Snapping: the nearest road segment to a point, with the point projected onto it.
import Flatbush from 'flatbush';
import type { GraphViews } from '../../src/core/format/route.ts';
import { E7 } from '../../src/core/format/route.ts';
import { haversine, M_PER_DEG } from '../../src/core/geometry.ts';

export interface Snap {
  edge: number;
  /** shape point index where the snapped segment starts */
  pt: number;
  /** metres from the edge's first shape point to the projection */
  pos: number;
  /** pos / edge length (0 for a zero-length edge) */
  frac: number;
  lat: number;
  lng: number;
  /** metres from the query point to the projection */
  dist: number;
}

export function loadIndex(g: GraphViews): Flatbush {
  return Flatbush.from(g.spatial.buffer as ArrayBuffer, g.spatial.byteOffset);
}

/** Nearest segment within `radius` metres (optionally only on edges that `onEdge` accepts), or null. */
export function snap(g: GraphViews, index: Flatbush, lat: number, lng: number, radius: number, onEdge?: (edge: number) => boolean): Snap | null {
  if (g.segEdge.length === 0) return null;
  const filter = onEdge ? (i: number) => i < g.segEdge.length && onEdge(g.segEdge[i]) : undefined;
  const c = g.meta.index_cos_lat;
  const x = lng * c, y = lat;
  // Box distance is a lower bound on segment distance, up to the index's fixed cos(lat0) scaling of
  // longitude (exact at lat0, stretched by cos(lat0)/cos(lat) elsewhere): scale the search radius by it.
  // So the nearest few boxes, then every box within the best exact distance, must contain the answer.
  const slack = 1.05 * Math.max(1, c / Math.max(0.01, Math.cos(lat * (Math.PI / 180))));
  let cands = index.neighbors(x, y, 8, (radius / M_PER_DEG) * slack, filter);
  if (cands.length === 0) return null;
  let best = bestOf(g, cands, lat, lng);
  if (cands.length === 8) {
    cands = index.neighbors(x, y, Infinity, (best.d / M_PER_DEG) * slack + 1e-9, filter);
    best = bestOf(g, cands, lat, lng);
  }
  const r = project(g, best.i, best.t, lat, lng);
  return r.dist > radius ? null : r;
}

/** The snap at fraction t of index segment i, measured from the query point. */
function project(g: GraphViews, i: number, t: number, lat: number, lng: number): Snap {
  const p = g.segPt[i], e = g.segEdge[i];
  const la1 = g.shapeLat[p] / E7, lo1 = g.shapeLon[p] / E7, la2 = g.shapeLat[p + 1] / E7, lo2 = g.shapeLon[p + 1] / E7;
  const plat = la1 + t * (la2 - la1), plng = lo1 + t * (lo2 - lo1);
  const dist = haversine(lat, lng, plat, plng);
  const segLen = g.shapeCum[p + 1] - g.shapeCum[p];
  const pos = g.shapeCum[p] + t * segLen;
  const len = g.edgeDist[e];
  return { edge: e, pt: p, pos, frac: len > 0 ? Math.min(1, Math.max(0, pos / len)) : 0, lat: plat, lng: plng, dist };
}

/**
 * The nearest road within `radius` metres on each strongly connected component (edgeComp ≥ 0) that
 * `skip` does not name: one index query, every segment measured once.
 */
export function nearestPerComponent(g: GraphViews, index: Flatbush, lat: number, lng: number, radius: number, skip: Set<number>): Snap[] {
  if (g.segEdge.length === 0) return [];
  const c = g.meta.index_cos_lat;
  const slack = 1.05 * Math.max(1, c / Math.max(0.01, Math.cos(lat * (Math.PI / 180))));
  const kx = Math.cos(lat * (Math.PI / 180)) * M_PER_DEG, ky = M_PER_DEG;
  const best = new Map<number, { i: number; t: number; d: number }>();
  for (const i of index.neighbors(lng * c, lat, Infinity, (radius / M_PER_DEG) * slack)) {
    if (i >= g.segEdge.length) continue;
    const comp = g.edgeComp[g.segEdge[i]];
    if (comp < 0 || skip.has(comp)) continue;
    const p = g.segPt[i];
    const ax = (g.shapeLon[p] / E7 - lng) * kx, ay = (g.shapeLat[p] / E7 - lat) * ky;
    const bx = (g.shapeLon[p + 1] / E7 - lng) * kx, by = (g.shapeLat[p + 1] / E7 - lat) * ky;
    const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    let t = l2 > 0 ? -(ax * dx + ay * dy) / l2 : 0;
    if (t < 0) t = 0; else if (t > 1) t = 1;
    const px = ax + t * dx, py = ay + t * dy, d = Math.sqrt(px * px + py * py);
    const o = best.get(comp);
    if (!o || d < o.d) best.set(comp, { i, t, d });
  }
  const out: Snap[] = [];
  for (const b of best.values()) {
    const s = project(g, b.i, b.t, lat, lng);
    if (s.dist <= radius) out.push(s);
  }
  return out;
}

/** Exact nearest among candidate segments, in a local metric plane around the query point. */
function bestOf(g: GraphViews, cands: number[], lat: number, lng: number): { i: number; t: number; d: number } {
  const kx = Math.cos(lat * (Math.PI / 180)) * M_PER_DEG, ky = M_PER_DEG;
  let bi = -1, bt = 0, bd = Infinity;
  for (const i of cands) {
    if (i >= g.segEdge.length) continue; // the placeholder item of an empty index
    const p = g.segPt[i];
    const ax = (g.shapeLon[p] / E7 - lng) * kx, ay = (g.shapeLat[p] / E7 - lat) * ky;
    const bx = (g.shapeLon[p + 1] / E7 - lng) * kx, by = (g.shapeLat[p + 1] / E7 - lat) * ky;
    const dx = bx - ax, dy = by - ay;
    const l2 = dx * dx + dy * dy;
    let t = l2 > 0 ? -(ax * dx + ay * dy) / l2 : 0;
    if (t < 0) t = 0; else if (t > 1) t = 1;
    const px = ax + t * dx, py = ay + t * dy;
    const d = Math.sqrt(px * px + py * py);
    if (d < bd) { bd = d; bi = i; bt = t; }
  }
  return { i: bi, t: bt, d: bd };
}
