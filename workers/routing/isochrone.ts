// Task `route_isochrone`: the area reachable from a point within given times (or distances).
//
//   args: { from: [lat, lng], minutes?: number[] | meters?: number[] (1–MAX_CONTOURS values),
//           mode?, radius? }
//   answer: GeoJSON FeatureCollection, one Feature per contour, largest first: MultiPolygon (holes
//           where nothing is reached), properties { contour, metric: 'time'|'distance',
//           minutes | meters }; plus snapped, mode, extract.
//
// Method: plain Dijkstra on the uncontracted graph from the snapped point's phantom (as /route
// starts), bounded by the largest contour, gives a reach value (ms or metres) at each settled node.
// Every reached edge is then sampled every 50 m: a sample's value is the cheaper of
// its two ends plus the part of the edge travelled (only in allowed directions). Each sample writes
// into a grid (GRID cells on the long side of the reached area) the value plus the off-road walk to
// cells within OFFROAD_CELLS of it at OFFROAD_MPS. Contours of that grid (d3-contour, marching
// squares) are the polygons. So a polygon covers the roads reached in time and a band of about one
// cell around them; a road inside a hole or outside was not reached in time.
// The adjacency for the search is built per worker on first use (4 + 12 bytes per arc).
import { contours } from 'd3-contour';
import { TaskError } from '../../src/core/task.ts';
import { E7, type GraphViews } from '../../src/core/format/route.ts';
import { MinHeap } from '../../src/core/heap.ts';
import type { LoadedGraph } from './graphs.ts';
import { candidates, modeAndRadius, checkPoint } from './candidates.ts';
import { pickGraph } from './matrix.ts';

export interface IsochroneArgs { from: [number, number]; minutes?: number[]; meters?: number[]; mode?: string; radius?: number }

export const MAX_CONTOURS = 4;
export const MAX_MINUTES = 120;
export const MAX_METERS = 100_000;
const GRID = 240;
const OFFROAD_CELLS = 1;
const OFFROAD_MPS = 1.4;

interface Adjacency { first: Uint32Array; to: Int32Array; edge: Int32Array }
const adjCache = new WeakMap<GraphViews, Adjacency>();

function adjacency(g: GraphViews): Adjacency {
  let a = adjCache.get(g);
  if (a) return a;
  const n = g.meta.nodes, m = g.edgeU.length;
  const first = new Uint32Array(n + 1);
  for (let e = 0; e < m; e++) { if (g.edgeFlags[e] & 1) first[g.edgeU[e] + 1]++; if (g.edgeFlags[e] & 2) first[g.edgeV[e] + 1]++; }
  for (let v = 0; v < n; v++) first[v + 1] += first[v];
  const fill = first.slice(0, n), to = new Int32Array(first[n]), edge = new Int32Array(first[n]);
  for (let e = 0; e < m; e++) {
    if (g.edgeFlags[e] & 1) { const k = fill[g.edgeU[e]]++; to[k] = g.edgeV[e]; edge[k] = e; }
    if (g.edgeFlags[e] & 2) { const k = fill[g.edgeV[e]]++; to[k] = g.edgeU[e]; edge[k] = e; }
  }
  a = { first, to, edge };
  adjCache.set(g, a);
  return a;
}

/** Reach value (ms, or metres with byDistance) of every node within `limit`, from the snapped point. */
export function reach(graph: LoadedGraph, from: [number, number], radius: number, limit: number, byDistance: boolean) {
  const g = graph.g;
  const c = candidates(graph, from[0], from[1], radius);
  if (!c) throw new TaskError(400, 'no_road_nearby', `No ${graph.profile} road within ${radius} m of 'from'.`);
  const { first, to, edge } = adjacency(g);
  const dist = new Map<number, number>();
  const h = new MinHeap(256);
  const push = (v: number, d: number) => { if (d <= limit && !(dist.get(v)! <= d)) { dist.set(v, d); h.push(d, v); } };
  const cost = (k: number) => (byDistance ? g.edgeDist[k] : g.edgeW[k]);
  // every candidate starts, as /route may leave by any of them (a dead end's big-component one)
  for (const s of c) {
    const e = s.edge, f = g.edgeFlags[e];
    if (f & 1) push(g.edgeV[e], byDistance ? g.edgeDist[e] - s.pos : Math.round((1 - s.frac) * g.edgeW[e]));
    if (f & 2) push(g.edgeU[e], byDistance ? s.pos : Math.round(s.frac * g.edgeW[e]));
  }
  const settled = new Map<number, number>();
  while (h.length) {
    const x = h.peekId(), d = h.peekKey();
    h.pop();
    if (settled.has(x) || d > dist.get(x)!) continue;
    settled.set(x, d);
    for (let k = first[x]; k < first[x + 1]; k++) push(to[k], d + cost(edge[k]));
  }
  return { settled, snaps: c, cost };
}

export function isochroneTask(args: IsochroneArgs) {
  const { mode, radius } = modeAndRadius(args);
  const from = checkPoint(args.from, 'from');
  const byDistance = args.meters !== undefined;
  const raw = byDistance ? args.meters : args.minutes;
  const name = byDistance ? 'meters' : 'minutes';
  const max = byDistance ? MAX_METERS : MAX_MINUTES;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_CONTOURS || !raw.every((x) => typeof x === 'number' && x > 0 && x <= max))
    throw new TaskError(400, 'invalid_parameter', `Parameter '${name}' must list 1 to ${MAX_CONTOURS} values between 0 and ${max}.`);
  const levels = [...new Set(raw)].sort((a, b) => b - a);
  const limits = levels.map((x) => (byDistance ? x : x * 60_000));
  const graph = pickGraph(mode, [from], radius);
  const g = graph.g;
  const { settled, snaps, cost } = reach(graph, from, radius, limits[0], byDistance);
  const s = snaps[0];

  // Samples along every reached edge (lat, lng, value), then the grid over all of them.
  const sLat: number[] = [], sLng: number[] = [], sVal: number[] = [];
  for (const x of snaps) { sLat.push(x.lat); sLng.push(x.lng); sVal.push(0); }
  const approxCellM = 50; // first pass: sample finely enough for any grid of the area below
  for (let e = 0; e < g.edgeU.length; e++) {
    const du = settled.get(g.edgeU[e]), dv = settled.get(g.edgeV[e]);
    const start = snaps.find((x) => x.edge === e);
    if (du === undefined && dv === undefined && !start) continue;
    const f = g.edgeFlags[e], w = cost(e), len = g.edgeDist[e];
    const a = g.edgeShape[e], b = g.edgeShape[e + 1];
    for (let p = a; p < b; p++) {
      const la = g.shapeLat[p] / E7, lo = g.shapeLon[p] / E7;
      const pn = p + 1 < b ? p + 1 : p;
      const seg = g.shapeCum[pn] - g.shapeCum[p];
      const steps = pn === p ? 1 : Math.max(1, Math.ceil(seg / approxCellM));
      for (let k = 0; k < steps; k++) {
        const t = k / steps;
        const pos = g.shapeCum[p] + t * seg, frac = len > 0 ? pos / len : 0;
        let v = Infinity;
        if (du !== undefined && f & 1) v = Math.min(v, du + frac * w);
        if (dv !== undefined && f & 2) v = Math.min(v, dv + (1 - frac) * w);
        if (start) {
          if (f & 1 && pos >= start.pos) v = Math.min(v, (frac - start.frac) * w);
          if (f & 2 && pos <= start.pos) v = Math.min(v, (start.frac - frac) * w);
        }
        if (v > limits[0]) continue;
        sLat.push(pn === p ? la : la + t * (g.shapeLat[pn] / E7 - la));
        sLng.push(pn === p ? lo : lo + t * (g.shapeLon[pn] / E7 - lo));
        sVal.push(v);
      }
    }
  }
  let la0 = Infinity, la1 = -Infinity, lo0 = Infinity, lo1 = -Infinity;
  for (let i = 0; i < sLat.length; i++) {
    if (sLat[i] < la0) la0 = sLat[i]; if (sLat[i] > la1) la1 = sLat[i];
    if (sLng[i] < lo0) lo0 = sLng[i]; if (sLng[i] > lo1) lo1 = sLng[i];
  }
  const kx = Math.cos(((la0 + la1) / 2) * (Math.PI / 180));
  const span = Math.max((la1 - la0), (lo1 - lo0) * kx, 0.002);
  const cell = span / (GRID - 4); // degrees of latitude per cell
  const cellM = cell * 111_195;
  la0 -= 2 * cell; lo0 -= (2 * cell) / kx;
  const nx = Math.ceil(((lo1 - lo0) * kx) / cell) + 3, ny = Math.ceil((la1 - la0) / cell) + 3;
  const BIG = limits[0] * 4 + 1;
  const grid = new Float64Array(nx * ny).fill(BIG);
  const offRoad = byDistance ? 1 : 1000 / OFFROAD_MPS; // value units per metre off the road
  for (let i = 0; i < sLat.length; i++) {
    const cx = ((sLng[i] - lo0) * kx) / cell, cy = (sLat[i] - la0) / cell, v = sVal[i];
    const ix = Math.floor(cx), iy = Math.floor(cy);
    for (let dy = -OFFROAD_CELLS; dy <= OFFROAD_CELLS + 1; dy++) for (let dx = -OFFROAD_CELLS; dx <= OFFROAD_CELLS + 1; dx++) {
      const x = ix + dx, y = iy + dy;
      if (x < 0 || y < 0 || x >= nx || y >= ny) continue;
      // grid values sit at cell corners: the corners of the cell a road crosses take the road's
      // value, farther ones add the walk
      const dm = Math.hypot(x - cx, y - cy) * cellM;
      const val = v + Math.max(0, dm - 0.6 * cellM) * offRoad;
      if (val < grid[y * nx + x]) grid[y * nx + x] = val;
    }
  }
  // marching squares on -value: the area where value ≤ limit is where -value ≥ -limit
  const neg = Array.from(grid, (v) => -v);
  const polys = contours().size([nx, ny]).thresholds(limits.map((l) => -l))(neg);
  const toLngLat = (ring: number[][]) => ring.map(([x, y]) => [Math.round((lo0 + (x * cell) / kx) * 1e6) / 1e6, Math.round((la0 + y * cell) * 1e6) / 1e6]);
  const features = polys.map((p, i) => ({
    type: 'Feature',
    geometry: { type: 'MultiPolygon', coordinates: p.coordinates.map((poly) => poly.map(toLngLat)) },
    properties: { contour: levels[i], metric: byDistance ? 'distance' : 'time', [name]: levels[i] },
  }));
  return {
    type: 'FeatureCollection', features,
    snapped: { lat: Math.round(s.lat * 1e7) / 1e7, lng: Math.round(s.lng * 1e7) / 1e7, distance_m: Math.round(s.dist * 10) / 10 },
    cell_m: Math.round(cellM), reached_nodes: settled.size, mode, extract: graph.extract,
  };
}
