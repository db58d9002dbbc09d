// Task `route_isochrone`: the area reachable from a point within given times (or distances).
//
//   args: { from: [lat, lng], minutes: number[] | meters: number[] (ISOCHRONE_LIMITS, checked
//           before the task), mode?, radius? }
//   answer: GeoJSON FeatureCollection, one Feature per contour, largest first: MultiPolygon (holes
//           where nothing is reached), properties { contour, metric: 'time'|'distance',
//           minutes | meters }; plus snapped, mode, extract.
//
// Method: plain Dijkstra on the uncontracted edge-based graph from the snapped point's candidates
// (as /route starts), bounded by the largest contour (reach.ts). Every road point is then worth
// what /route answers for it: its edge's cheapest predecessor plus the turn and the part driven
// (allowed directions only), or of its big-component candidate when its edge lies outside every
// big SCC (candidates.ts); Infinity if neither is reached. Every road in the area
// (from the spatial index; a grid of GRID cells on the long side of the reached area sets the
// sampling) is sampled at each shape point and at most half a cell apart, and these samples, with
// grid points far from roads valued at the cheapest road nearby plus a walk at OFFROAD_MPS (blocks
// between reached streets fill), are the sites of a Delaunay triangulation whose marching-triangle
// contours (tri-contour.ts) are the polygons. The contour crosses each triangle edge between a site
// within its value and one beyond, so every sampled road point inside is reached within its value
// and every one outside is not, however close the two lie: a oneway carriageway reached beside the
// other one reached much later, a motorway over streets it has no exit to. A grid (the method
// before) could only put whole cells on one side, which left out a quarter of the reached vertices
// of inner contours or let reached roads' late neighbours in.
import { TaskError } from '../../../src/core/task.ts';
import { E7, EDGE_NO_START } from '../../../src/core/format/route.ts';
import { candidates, modeAndRadius, checkPoint } from '../locate/candidates.ts';
import { snap } from '../locate/snap.ts';
import { reach } from './reach.ts';
import { pickGraph } from '../matrix/prepare.ts';
import { triContours } from './tri-contour.ts';
import { collectSoon } from '../../collect.ts';

import type { IsochroneArgs, IsochroneReply } from '../../../src/core/tasks/index.ts';
export type { IsochroneArgs };

const GRID = 240;
const OFFROAD_CELLS = 1;
const OFFROAD_MPS = 1.4;
/**
 * Sites above which the thread collects its garbage once the answer is out: a dense town's
 * triangulation leaves tens of MB (site map, Delaunator's arrays) that an idle worker would
 * otherwise hold until its next busy spell.
 */
const COLLECT_SITES = 20_000;

export function isochroneTask(args: IsochroneArgs): IsochroneReply {
  const { mode, radius } = modeAndRadius(args);
  const from = checkPoint(args.from, 'from');
  // The contours' count and range are checked where the request arrives (src/core/limits.ts).
  const [byDistance, raw] = args.meters ? [true, args.meters] : [false, args.minutes];
  const levels = [...new Set(raw)].sort((a, b) => b - a);
  const limits = levels.map((x) => (byDistance ? x : x * 60_000));
  const graph = pickGraph(mode, [from], radius);
  const g = graph.g;
  const r = reach(graph, from, radius, limits[0], byDistance);
  const snaps = r.snaps, s = snaps[0];
  const valueAt = r.valueAt;

  // A point on an edge outside every big SCC also gets a candidate on a big one within the radius
  // (candidates.ts), which /route takes when the point's own road cannot be reached: so does its
  // value here, instead of Infinity for a road the search cannot enter (a oneway out of a dead end).
  const viaBig = (lat: number, lng: number): number => {
    const m = snap(g, graph.index, lat, lng, radius, graph.bigMask);
    return m ? valueAt(m.edge, m.pos) : Infinity;
  };
  /** Every shape point of edge e and points at most `step` metres apart between them. */
  const sample = (e: number, step: number, out: (lat: number, lng: number, v: number) => void) => {
    const emit = graph.onBig(e) ? out : (lat: number, lng: number, v: number) => out(lat, lng, v < Infinity ? v : viaBig(lat, lng));
    const a = g.edgeShape[e], b = g.edgeShape[e + 1];
    for (let p = a; p < b; p++) {
      const la = g.shapeLat[p] / E7, lo = g.shapeLon[p] / E7;
      if (p + 1 === b) { emit(la, lo, valueAt(e, g.shapeCum[p] - g.shapeCum[a])); break; }
      const seg = g.shapeCum[p + 1] - g.shapeCum[p], steps = Math.max(1, Math.ceil(seg / step));
      const la2 = g.shapeLat[p + 1] / E7, lo2 = g.shapeLon[p + 1] / E7;
      for (let k = 0; k < steps; k++) {
        const t = k / steps;
        emit(la + t * (la2 - la), lo + t * (lo2 - lo), valueAt(e, g.shapeCum[p] - g.shapeCum[a] + t * seg));
      }
    }
  };

  // The reached area: the edges of reached nodes, those they turn into, and the start's, sampled
  // every 50 m, gives the grid's extent.
  const reachedEdges: number[] = [];
  let la0 = Infinity, la1 = -Infinity, lo0 = Infinity, lo1 = -Infinity;
  const grow = (lat: number, lng: number, v: number) => {
    if (v > limits[0]) return;
    if (lat < la0) la0 = lat; if (lat > la1) la1 = lat;
    if (lng < lo0) lo0 = lng; if (lng > lo1) lo1 = lng;
  };
  for (const x of snaps) grow(x.lat, x.lng, 0);
  // from the reached nodes, not a scan of the whole graph: an isochrone on the 4M-node graph spent
  // 0.3–0.45 s there; in edge order, as that scan found them
  const atReached = new Set<number>(snaps.map((x) => x.edge));
  const edgeOf = (x: number) => Math.abs(g.ebEdge[x]) - 1;
  r.forEach((x) => {
    atReached.add(edgeOf(x));
    for (let k = g.ebOutFirst[x], kEnd = g.ebOutFirst[x + 1]; k < kEnd; k++) atReached.add(edgeOf(g.ebOut[3 * k]));
  });
  for (const e of Int32Array.from(atReached).sort()) {
    reachedEdges.push(e);
    sample(e, 50, grow);
  }
  const kx = Math.cos(((la0 + la1) / 2) * (Math.PI / 180));
  const span = Math.max((la1 - la0), (lo1 - lo0) * kx, 0.002);
  const cell = span / (GRID - 4); // degrees of latitude per cell
  const cellM = cell * 111_195;
  la0 -= 2 * cell; lo0 -= (2 * cell) / kx;
  const nx = Math.ceil(((lo1 - lo0) * kx) / cell) + 3, ny = Math.ceil((la1 - la0) / cell) + 3;

  // Every road in the grid, reached or not, sampled at every shape point and at most half a cell
  // apart, is a site of the triangulation (tri-contour.ts) with its value: the contour passes
  // between every road point reached within its value and every one that is not, however close
  // (a oneway carriageway beside the other, a street under a motorway). Points that coincide (a
  // node, the end of each edge at it) are one site: the value /route answers for it when their
  // edges disagree. Grid points with no road in their four cells are sites too, valued at the
  // cheapest road cell within OFFROAD_CELLS more plus a walk at OFFROAD_MPS, so blocks between
  // reached streets fill and the area stops a little way into a park or the sea; a frame of
  // unreached sites one cell outside the grid closes every ring.
  const cmin = new Float64Array((nx - 1) * (ny - 1)).fill(Infinity);
  const site = new SiteIndex(); // quantised position → site index
  let xy = new Float64Array(1 << 16), lo = new Float64Array(1 << 15), hi = new Float64Array(1 << 15);
  let n = 0;
  const addSite = (x: number, y: number, v: number) => {
    const qx = Math.round(x * 4096), qy = Math.round(y * 4096); // 1/4096 of a cell apart
    const i = site.siteOr(qx, qy, n);
    if (i >= 0) { if (v < lo[i]) lo[i] = v; if (v > hi[i]) hi[i] = v; return; }
    if (n === lo.length) {
      const a = new Float64Array(2 * xy.length); a.set(xy); xy = a;
      const b = new Float64Array(2 * n); b.set(lo); lo = b;
      const c = new Float64Array(2 * n); c.set(hi); hi = c;
    }
    xy[2 * n] = x; xy[2 * n + 1] = y; lo[n] = v; hi[n] = v; n++;
  };
  const put = (lat: number, lng: number, v: number) => {
    const x = ((lng - lo0) * kx) / cell, y = (lat - la0) / cell;
    const ix = Math.floor(x), iy = Math.floor(y);
    if (ix < 0 || iy < 0 || ix >= nx - 1 || iy >= ny - 1) return;
    const k = iy * (nx - 1) + ix;
    if (v < cmin[k]) cmin[k] = v;
    addSite(x, y, v);
  };
  for (const x of snaps) put(x.lat, x.lng, 0);
  const inGrid = new Set<number>(reachedEdges);
  const ic = g.meta.index_cos_lat;
  for (const i of graph.index.search(lo0 * ic, la0, (lo0 + ((nx - 1) * cell) / kx) * ic, la0 + (ny - 1) * cell)) {
    if (!(g.edgeFlags[g.segEdge[i]] & EDGE_NO_START)) inGrid.add(g.segEdge[i]);
  }
  const step = Math.min(50, cellM / 2);
  for (const e of inGrid) sample(e, step, put);
  const roadSites = n;
  const offRoad = byDistance ? 1 : 1000 / OFFROAD_MPS; // value units per metre off the road
  const R = 1 + OFFROAD_CELLS;
  // fill value of each grid point with no road in its four cells (NaN: a road there)
  const fill = new Float64Array(nx * ny);
  for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) {
    let road = false;
    for (let cy = y - 1; cy <= y && !road; cy++) for (let cx = x - 1; cx <= x; cx++) {
      if (cx >= 0 && cy >= 0 && cx < nx - 1 && cy < ny - 1 && cmin[cy * (nx - 1) + cx] !== Infinity) { road = true; break; }
    }
    if (road) { fill[y * nx + x] = NaN; continue; }
    let best = Infinity;
    for (let cy = y - R; cy < y + R; cy++) for (let cx = x - R; cx < x + R; cx++) {
      if (cx < 0 || cy < 0 || cx >= nx - 1 || cy >= ny - 1) continue;
      const m = cmin[cy * (nx - 1) + cx];
      if (m === Infinity) continue;
      // the nearest point of that cell is at least this far from the grid point
      const gapX = Math.max(0, cx - x, x - cx - 1), gapY = Math.max(0, cy - y, y - cy - 1);
      const val = m + Math.hypot(gapX, gapY) * cellM * offRoad;
      if (val < best) best = val;
    }
    fill[y * nx + x] = best;
  }
  // Far from every road only the first unreached grid points are sites: the rest is left to the frame.
  const near = (x: number, y: number) => x >= 0 && y >= 0 && x < nx && y < ny && fill[y * nx + x] !== Infinity;
  for (let y = 0; y < ny; y++) for (let x = 0; x < nx; x++) {
    const f = fill[y * nx + x];
    if (f !== f) continue;
    if (f === Infinity && !near(x - 1, y) && !near(x + 1, y) && !near(x, y - 1) && !near(x, y + 1)) continue;
    addSite(x, y, f);
  }
  for (let x = -1; x <= nx; x++) { addSite(x, -1, Infinity); addSite(x, ny, Infinity); }
  for (let y = 0; y < ny; y++) { addSite(-1, y, Infinity); addSite(nx, y, Infinity); }
  // Coinciding road points whose values fall on both sides of a contour: what /route answers there.
  const value = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    value[i] = hi[i];
    if (i >= roadSites || !limits.some((l) => lo[i] <= l && hi[i] > l)) continue;
    const lat = la0 + xy[2 * i + 1] * cell, lng = lo0 + (xy[2 * i] * cell) / kx;
    const cs = candidates(graph, lat, lng, radius);
    // the nearest road's value when it is reached, else the big-component candidate's (as /route)
    if (cs) for (const c of cs) { value[i] = valueAt(c.edge, c.pos); if (value[i] < Infinity) break; }
  }
  const polys = triContours(xy.subarray(0, 2 * n), value, limits);
  if (n > COLLECT_SITES) collectSoon();
  const toLngLat = (ring: number[]) => {
    const out: number[][] = [];
    for (let i = 0; i < ring.length; i += 2) out.push([Math.round((lo0 + (ring[i] * cell) / kx) * 1e6) / 1e6, Math.round((la0 + ring[i + 1] * cell) * 1e6) / 1e6]);
    return out;
  };
  const features: IsochroneReply['features'] = polys.map((p, i) => ({
    type: 'Feature',
    geometry: { type: 'MultiPolygon', coordinates: p.map((poly) => poly.map(toLngLat)) },
    properties: { contour: levels[i], metric: byDistance ? 'distance' : 'time', [byDistance ? 'meters' : 'minutes']: levels[i] },
  }));
  return {
    type: 'FeatureCollection', features,
    snapped: { lat: Math.round(s.lat * 1e7) / 1e7, lng: Math.round(s.lng * 1e7) / 1e7, distance_m: Math.round(s.dist * 10) / 10 },
    cell_m: Math.round(cellM), reached_nodes: r.reached, mode, extract: graph.extract,
  };
}

/**
 * Site of each quantised position (integers qx, qy): open addressing in typed arrays. A Map keyed
 * by one number per position held a boxed key and an entry for each of a dense town's ~100k sites.
 */
class SiteIndex {
  private qx = new Int32Array(1 << 12);
  private qy = new Int32Array(1 << 12);
  private at = new Int32Array(1 << 12).fill(-1);
  private size = 0;

  /** The site at (qx, qy), or -1 after making `next` the site there. */
  siteOr(qx: number, qy: number, next: number): number {
    const mask = this.at.length - 1;
    let h = (Math.imul(qx, 0x9e3779b1) ^ Math.imul(qy, 0x85ebca77)) & mask;
    for (;;) {
      const i = this.at[h];
      if (i < 0) break;
      if (this.qx[h] === qx && this.qy[h] === qy) return i;
      h = (h + 1) & mask;
    }
    this.qx[h] = qx; this.qy[h] = qy; this.at[h] = next;
    if (++this.size * 2 > this.at.length) this.grow();
    return -1;
  }

  private grow() {
    const { qx, qy, at } = this, cap = at.length * 2, mask = cap - 1;
    this.qx = new Int32Array(cap); this.qy = new Int32Array(cap); this.at = new Int32Array(cap).fill(-1);
    for (let k = 0; k < at.length; k++) {
      if (at[k] < 0) continue;
      let h = (Math.imul(qx[k], 0x9e3779b1) ^ Math.imul(qy[k], 0x85ebca77)) & mask;
      while (this.at[h] >= 0) h = (h + 1) & mask;
      this.qx[h] = qx[k]; this.qy[h] = qy[k]; this.at[h] = at[k];
    }
  }
}
