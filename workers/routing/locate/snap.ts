// Snapping: the nearest road segment to a point, with the point projected onto it.
import Flatbush from 'flatbush';
import type { GraphViews } from '../../../src/core/format/route.ts';
import { E7, EDGE_NO_START } from '../../../src/core/format/route.ts';
import { haversine, M_PER_DEG } from '../../../src/core/geometry.ts';
import { MinHeap } from '../../../src/core/heap.ts';
import { queryAddon, type NativeSnapIndex } from '../search/native-query.ts';

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

/**
 * Which edges a snap may land on: a test per edge, or a mask by strongly connected component
 * (mask[edgeComp[e]] = 1), which the native search applies itself.
 */
export type EdgeFilter = ((edge: number) => boolean) | Uint8Array;

/**
 * Nearest segment within `radius` metres (optionally only on edges that `onEdge` accepts), or null.
 * Edges a route may not start or end on (EDGE_NO_START: ferries, private service roads, OSRM's
 * is_startpoint) are skipped unless `anyEdge` (OSRM's snapping=any).
 */
export function snap(g: GraphViews, index: Flatbush, lat: number, lng: number, radius: number, onEdge?: EdgeFilter, anyEdge = false): Snap | null {
  if (g.segEdge.length === 0) return null;
  const c = g.meta.index_cos_lat;
  const x = lng * c, y = lat;
  // Box distance is a lower bound on segment distance, up to the index's fixed cos(lat0) scaling of
  // longitude (exact at lat0, stretched by cos(lat0)/cos(lat) elsewhere): scale the search radius by it.
  // So every box within the best exact distance found so far (× slack) must be looked at, and no other.
  const slack = boxSlack(g, lat);
  const best = nearestSeg(g, index, x, y, lat, lng, (radius / M_PER_DEG) * slack, slack, anyEdge ? 0 : EDGE_NO_START, onEdge);
  if (best.i < 0) return null;
  const r = project(g, best.i, best.t, lat, lng);
  return r.dist > radius ? null : r;
}

/** Flatbush's packed tree (fields of flatbush 4.7, pinned in package.json; not in its type declarations). */
interface PackedTree { _boxes: Float64Array; _indices: Uint32Array | Uint16Array; _levelBounds: number[]; nodeSize: number; numItems: number }

const queue = new MinHeap(256);
const io = new Float64Array(10);
const nativeIndexes = new WeakMap<Flatbush, NativeSnapIndex>();

/** nearestSeg() in C++ (native/query), the same answer bit for bit; null without the addon or with a filter function. */
function nearestNative(g: GraphViews, index: Flatbush, x: number, y: number, lat: number, lng: number, maxBox: number, slack: number, skipFlags: number, onEdge?: EdgeFilter) {
  if (typeof onEdge === 'function') return null;
  const a = queryAddon();
  if (!a) return null;
  let h = nativeIndexes.get(index);
  if (!h) {
    const t = index as unknown as PackedTree;
    if (!(t._boxes instanceof Float64Array)) return null;
    h = a.snapIndex(t._boxes, t._indices, Uint32Array.from(t._levelBounds), t.nodeSize, t.numItems, g.segPt, g.segEdge, g.shapeLat, g.shapeLon, g.edgeFlags, g.edgeComp);
    nativeIndexes.set(index, h);
  }
  io[0] = x; io[1] = y; io[2] = lat; io[3] = lng; io[4] = Math.cos(lat * (Math.PI / 180)) * M_PER_DEG; io[5] = M_PER_DEG;
  io[6] = maxBox; io[7] = slack; io[8] = skipFlags; io[9] = M_PER_DEG;
  a.nearest(h, io, onEdge ?? null);
  return { i: io[0], t: io[1], d: io[2] };
}

/**
 * The segment nearest to the point (exact, in a local metric plane around the point) among
 * those whose box lies within `maxBox` of (x, y) in index units, in one best-first pass over the
 * index: boxes in order of box distance, each leaf measured exactly as it comes, and the bound
 * tightened to the best exact distance found so far (box distance ≤ exact distance × slack, see
 * snap()). Flatbush's neighbors() needed two passes (8 nearest boxes, then every box within the
 * best of them) and a filter call per leaf: a third of a 100 × 100 matrix's time was snapping.
 * Returns i = -1 when nothing is in range. Ties go to the smaller box distance, as before.
 */
export function nearestSeg(g: GraphViews, index: Flatbush, x: number, y: number, lat: number, lng: number, maxBox: number, slack: number, skipFlags: number, onEdge?: EdgeFilter) {
  return nearestNative(g, index, x, y, lat, lng, maxBox, slack, skipFlags, onEdge) ?? nearestTs(g, index, x, y, lat, lng, maxBox, slack, skipFlags, onEdge);
}

function nearestTs(g: GraphViews, index: Flatbush, x: number, y: number, lat: number, lng: number, maxBox: number, slack: number, skipFlags: number, filter?: EdgeFilter) {
  const comp = g.edgeComp;
  const onEdge = filter instanceof Uint8Array ? (e: number) => filter[comp[e]] === 1 : filter;
  const t = index as unknown as PackedTree;
  const boxes = t._boxes, indices = t._indices, levels = t._levelBounds, nodeSize4 = t.nodeSize * 4, numItems4 = t.numItems * 4;
  const nSeg = g.segEdge.length, segPt = g.segPt, segEdge = g.segEdge, sLat = g.shapeLat, sLon = g.shapeLon, edgeFlags = g.edgeFlags;
  const kx = Math.cos(lat * (Math.PI / 180)) * M_PER_DEG, ky = M_PER_DEG;
  let bound = maxBox * maxBox, bi = -1, bt = 0, bd = Infinity;
  const q = queue;
  q.clear();
  q.push(0, (boxes.length - 4) << 1);
  while (q.length) {
    const top = q.peekId(), key = q.peekKey();
    q.pop();
    if (key > bound) break;
    if (top & 1) {
      const i = top >> 1;
      const p = segPt[i];
      const ax = (sLon[p] / E7 - lng) * kx, ay = (sLat[p] / E7 - lat) * ky;
      const bx = (sLon[p + 1] / E7 - lng) * kx, by = (sLat[p + 1] / E7 - lat) * ky;
      const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
      let f = l2 > 0 ? -(ax * dx + ay * dy) / l2 : 0;
      if (f < 0) f = 0; else if (f > 1) f = 1;
      const px = ax + f * dx, py = ay + f * dy, d = Math.sqrt(px * px + py * py);
      if (d < bd) {
        bd = d; bi = i; bt = f;
        const b = (d / M_PER_DEG) * slack + 1e-9;
        if (b * b < bound) bound = b * b;
      }
      continue;
    }
    const node = top >> 1, leafLevel = node < numItems4;
    let end = node + nodeSize4;
    for (let l = 0; l < levels.length; l++) if (levels[l] > node) { if (levels[l] < end) end = levels[l]; break; }
    for (let pos = node; pos < end; pos += 4) {
      const ddx = Math.max(boxes[pos] - x, x - boxes[pos + 2], 0), ddy = Math.max(boxes[pos + 1] - y, y - boxes[pos + 3], 0);
      const dist = ddx * ddx + ddy * ddy;
      if (dist > bound) continue;
      const child = indices[pos >> 2] | 0;
      if (!leafLevel) q.push(dist, child << 1);
      // child ≥ nSeg: an empty index's placeholder
      else if (child < nSeg && !(edgeFlags[segEdge[child]] & skipFlags) && (!onEdge || onEdge(segEdge[child]))) q.push(dist, (child << 1) | 1);
    }
  }
  return { i: bi, t: bt, d: bd };
}

/** How much the index's box distance can understate the distance in metres at latitude `lat` (see snap()). */
export function boxSlack(g: GraphViews, lat: number): number {
  return 1.05 * Math.max(1, g.meta.index_cos_lat / Math.max(0.01, Math.cos(lat * (Math.PI / 180))));
}

/**
 * Where index segment i comes nearest to the point, in a metric plane around it (kx, ky: metres
 * per degree of longitude and latitude there): the fraction `t` along the segment and the distance
 * `d` in metres, written into `out`. (nearestSeg() has the same lines inlined: it is the hot loop.)
 */
export function nearOnSeg(g: GraphViews, i: number, lat: number, lng: number, kx: number, ky: number, out: { t: number; d: number }) {
  const p = g.segPt[i];
  const ax = (g.shapeLon[p] / E7 - lng) * kx, ay = (g.shapeLat[p] / E7 - lat) * ky;
  const bx = (g.shapeLon[p + 1] / E7 - lng) * kx, by = (g.shapeLat[p + 1] / E7 - lat) * ky;
  const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? -(ax * dx + ay * dy) / l2 : 0;
  if (t < 0) t = 0; else if (t > 1) t = 1;
  const px = ax + t * dx, py = ay + t * dy;
  out.t = t; out.d = Math.sqrt(px * px + py * py);
}

/** The snap at fraction t of index segment i, measured from the query point. */
export function project(g: GraphViews, i: number, t: number, lat: number, lng: number): Snap {
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
 * `skip` does not name: one index query, every segment measured once. EDGE_NO_START edges only
 * with `anyEdge`, as snap().
 */
export function nearestPerComponent(g: GraphViews, index: Flatbush, lat: number, lng: number, radius: number, skip: Set<number>, anyEdge = false): Snap[] {
  if (g.segEdge.length === 0) return [];
  const c = g.meta.index_cos_lat;
  const kx = Math.cos(lat * (Math.PI / 180)) * M_PER_DEG, ky = M_PER_DEG;
  const best = new Map<number, { i: number; t: number; d: number }>();
  const m = { t: 0, d: 0 };
  for (const i of index.neighbors(lng * c, lat, Infinity, (radius / M_PER_DEG) * boxSlack(g, lat))) {
    if (i >= g.segEdge.length || (!anyEdge && g.edgeFlags[g.segEdge[i]] & EDGE_NO_START)) continue;
    const comp = g.edgeComp[g.segEdge[i]];
    if (comp < 0 || skip.has(comp)) continue;
    nearOnSeg(g, i, lat, lng, kx, ky, m);
    const o = best.get(comp);
    if (!o || m.d < o.d) best.set(comp, { i, t: m.t, d: m.d });
  }
  const out: Snap[] = [];
  for (const b of best.values()) {
    const s = project(g, b.i, b.t, lat, lng);
    if (s.dist <= radius) out.push(s);
  }
  return out;
}
