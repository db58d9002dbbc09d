// svc's compressed graph as OSRM's intersection code reads its node-based graph: the roads at
// each node (a base edge or twin pair seen from one end) with their shapes, as far as OSRM's edge
// would run, and bearings; the intersections, and the queries its mergable road detector makes.
import type { BaseGraph } from '../contract/compress.ts';
import { EDGE_TWIN_BACK, E7 } from '../../src/core/format/route.ts';
import type { WayTable } from './ways.ts';
import type { ObstacleMap } from './obstacles.ts';
import type { NodeRestriction, Restrictions } from './restrictions.ts';
import { bearing, toFixed, type Fixed } from './geometry.ts';
import { osrmDistance } from '../contract/distance.ts';
import { coordinateAtLength, coordinateCloseToTurn, representativeCoordinate } from './coordinates.ts';
import { intersectionView, type Intersection, type Road } from './intersection.ts';
import type { MergeGraph } from './merge.ts';
import { emptyName, requiresNameAnnounced } from './names.ts';

const BARRIER = new Set(['barrier']);
const TURNING = new Set(['mini_roundabout', 'turning_loop', 'turning_circle']);
/** Obstacle::Type::Incompressible: barriers and turning places */
const INCOMPRESSIBLE = new Set(['barrier', ...TURNING]);
const STOPPED = -3;
/** metres of a road's shape past svc's node worth following: beyond every distance OSRM's rules read */
const MAX_SHAPE = 500;
/** nodes whose roads the merge detector's walks keep computed */
const CACHE_NODES = 20000;

export function roadGraph(base: BaseGraph, ways: WayTable, obstacles: ObstacleMap, restr: Restrictions, suffixes: ReadonlySet<string>) {
  const edgeWay = base.edgeWay!, edgeAlong = base.edgeAlong!, shapeNode = base.shapeNode!, shapeWay = base.shapeWay!;
  // incident roads per node: +(e+1) the edge's U end, -(e+1) its V end (twin halves: the first only)
  const N = base.nodes, E = base.edges;
  const first = new Int32Array(N + 1);
  for (let e = 0; e < E; e++) if (!(base.edgeFlags[e] & EDGE_TWIN_BACK)) { first[base.edgeU[e] + 1]++; first[base.edgeV[e] + 1]++; }
  for (let v = 0; v < N; v++) first[v + 1] += first[v];
  const inc = new Int32Array(first[N]), fill = first.slice(0, N);
  for (let e = 0; e < E; e++) if (!(base.edgeFlags[e] & EDGE_TWIN_BACK)) { inc[fill[base.edgeU[e]]++] = e + 1; inc[fill[base.edgeV[e]]++] = -(e + 1); }

  const nodeRaw = new Int32Array(N);
  for (let e = 0; e < E; e++) { nodeRaw[base.edgeU[e]] = shapeNode[base.edgeShape[e]]; nodeRaw[base.edgeV[e]] = shapeNode[base.edgeShape[e + 1] - 1]; }
  // every shape point in OSRM's fixed point, once
  const distance = (la1: number, lo1: number, la2: number, lo2: number) => osrmDistance(la1 / 1e6, lo1 / 1e6, la2 / 1e6, lo2 / 1e6);
  const P = base.shapeLat.length, fixLat = new Int32Array(P), fixLon = new Int32Array(P);
  for (let k = 0; k < P; k++) { const f = toFixed(base.shapeLat[k] / E7, base.shapeLon[k] / E7); fixLat[k] = f.lat; fixLon[k] = f.lon; }
  const fixedAt = (k: number): Fixed => ({ lat: fixLat[k], lon: fixLon[k] });
  // OSRM compresses a node where exactly two roads meet unless an obstacle or a restriction pins
  // it (graph_compressor.cpp): a road's shape, as the intersection sees it, runs on through such
  // nodes to the next one OSRM keeps. svc keeps some as graph nodes (obstacles it charges on turns).
  const pinned = new Set<number>();
  for (const l of restr.byFromVia.values()) for (const r of l) pinned.add(r.via);
  for (const r of restr.viaWay) { pinned.add(r.via[0]); pinned.add(r.via[r.via.length - 1]); }
  // svc's other nodes of two roads (a change of name, class, direction rule) are OSRM's too
  const passThrough = (y: number) => first[y + 1] - first[y] === 2 && obstacles.has(nodeRaw[y]) && !pinned.has(nodeRaw[y])
    && !obstacles.anyUndirected(nodeRaw[y], INCOMPRESSIBLE)
    && base.edgeAttr[Math.abs(inc[first[y]]) - 1] === base.edgeAttr[Math.abs(inc[first[y] + 1]) - 1];
  /** OSRM's compression key of the segment ending at shape point k of edge e (k > first), driven along U→V or not */
  const segKey = (e: number, k: number, uToV: boolean) => ways.compressKey(shapeWay[k], uToV === (edgeAlong[e] === 1) ? true : false);
  /**
   * Appends edge e's shape leaving its U end (atU) or V end, after the shape of a road whose last
   * segment had OSRM compression key `prevKey` (-1: none). Stops where OSRM's compressor would
   * keep a node (the way changes to one it cannot join: into a tunnel, another lane count…) and
   * returns STOPPED; else the key of its last segment.
   */
  const shape = { coords: [] as Fixed[], length: 0, limit: 0, lat: 0, lon: 0 };
  // One function for the whole build, not a closure per call: under tsx every closure created
  // is also named (a defineProperty), which cost a country build seconds.
  const push = (k: number) => {
    const cs = shape.coords, la = fixLat[k], lo = fixLon[k];
    if (!cs.length) { cs.push(fixedAt(k)); shape.lat = la; shape.lon = lo; return; }
    if (shape.lat === la && shape.lon === lo) return;
    // the points past every distance OSRM's coordinate rules read are not needed, only the length
    const before = shape.length;
    shape.length += distance(shape.lat, shape.lon, la, lo);
    shape.lat = la; shape.lon = lo;
    if (before <= shape.limit) cs.push(fixedAt(k));
  };
  const pushShape = (e: number, atU: boolean, prevKey: number): number => {
    const step = atU ? 1 : -1, start = atU ? base.edgeShape[e] : base.edgeShape[e + 1] - 1, end = atU ? base.edgeShape[e + 1] - 1 : base.edgeShape[e];
    push(start);
    for (let k = start; k !== end; k += step) {
      // segment k → k+step, recorded at its higher shape index
      const key = segKey(e, atU ? k + 1 : k, atU);
      if (prevKey !== -1 && key !== prevKey) return STOPPED;
      prevKey = key;
      push(k + step);
    }
    return prevKey;
  };
  /** The road of edge e seen from its U end (atU) or V end. */
  const makeRoad = (e: number, atU: boolean, limit: number): Road => {
    const twin = e + 1 < E && (base.edgeFlags[e + 1] & EDGE_TWIN_BACK) !== 0;
    const fwE = base.edgeFlags[e] & 1 ? e : -1;
    const bwE = twin ? e + 1 : base.edgeFlags[e] & 2 ? e : -1;
    const s0 = base.edgeShape[e], s1 = base.edgeShape[e + 1] - 1;
    shape.coords = []; shape.length = 0; shape.limit = limit;
    let key = pushShape(e, atU, -1);
    // on through the nodes OSRM would have compressed away, as far as any of its rules look
    const x = atU ? base.edgeU[e] : base.edgeV[e];
    let y = atU ? base.edgeV[e] : base.edgeU[e], cameBy = e;
    while (key !== STOPPED && y !== x && shape.length < MAX_SHAPE && passThrough(y)) {
      const a = inc[first[y]], b = inc[first[y] + 1];
      const next = Math.abs(a) - 1 === cameBy ? b : a;
      const ne = Math.abs(next) - 1;
      if (ne === cameBy) break; // a loop back onto itself
      key = pushShape(ne, next > 0, key);
      cameBy = ne; y = next > 0 ? base.edgeV[ne] : base.edgeU[ne];
    }
    const coords = shape.coords;
    if (coords.length < 2) coords.push(coords[0]);
    const way = edgeWay[e];
    return {
      edge: e, atU, way,
      out: atU ? (fwE >= 0 ? fwE + 1 : 0) : bwE >= 0 ? -(bwE + 1) : 0,
      in: atU ? (bwE >= 0 ? -(bwE + 1) : 0) : fwE >= 0 ? fwE + 1 : 0,
      nextRaw: shapeNode[atU ? s0 + 1 : s1 - 1],
      roundabout: ways.roundabout(way) || ways.circular(way),
      coords, length: shape.length, initial: 0, perceived: 0,
    };
  };

  /** Per directed edge: the way's direction it runs in. */
  const alongWay = (d: number) => (d > 0) === (edgeAlong[Math.abs(d) - 1] === 1);
  /** deciseconds of a directed edge, as OSRM's edge data holds it */
  const ds = (d: number) => base.edgeW[Math.abs(d) - 1] / 100;
  const speedOf = (d: number, len: number) => Math.trunc((len / ds(d)) * 36);

  /**
   * The roads of node x with their bearings (getIntersectionOutgoingGeometries): from each road's
   * representative coordinate, or with `close` from the first point a metre away (OSRM's
   * USE_CLOSE_COORDINATE, what its graph walks read), in node-adjacency order.
   */
  const computeRoads = (x: number, close: boolean): Road[] => {
    const roads: Road[] = [];
    let lanes = 0;
    for (let k = first[x]; k < first[x + 1]; k++) lanes = Math.max(lanes, ways.numLanes(edgeWay[Math.abs(inc[k]) - 1]));
    // beyond the farthest any coordinate rule looks (FAR_LOOKAHEAD_DISTANCE and the lanes' offset)
    const limit = 40 + 2.5 * Math.max(lanes, 2) * 3.25 + 1;
    for (let k = first[x]; k < first[x + 1]; k++) { const i = inc[k]; roads.push(makeRoad(Math.abs(i) - 1, i > 0, limit)); }
    for (const r of roads) {
      const cs = r.coords, w = r.way;
      const selfLoop = base.edgeU[r.edge] === base.edgeV[r.edge];
      const repr = close || roads.length <= 2 ? coordinateCloseToTurn(cs)
        : representativeCoordinate(cs, { roundabout: ways.roundabout(w), circular: ways.circular(w), lowPriority: ways.lowPriority(w), motorway: ways.motorway(w), ramp: ways.ramp(w), priority: ways.priorityClass(w) }, lanes, selfLoop);
      r.initial = bearing(cs[0], coordinateAtLength(2, cs));
      r.perceived = bearing(cs[0], repr);
    }
    return roads;
  };

  const intersectionAt = (x: number, roads: Road[]): Intersection => {
    const raw = nodeRaw[x];
    return {
      raw, roads,
      barrier: obstacles.anyUndirected(raw, BARRIER),
      turning: obstacles.anyUndirected(raw, TURNING),
      restrictions: (fromRaw: number): readonly NodeRestriction[] | undefined => restr.byFromVia.get(fromRaw + ',' + raw),
      uTurnLane: (r: Road) => ways.uTurnLane(r.way, alongWay(r.in)),
    };
  };

  const noMerge = new Set<Road>();
  // the graph as OSRM's mergable road detector walks it, unmerged roads cached per node
  const plain = new Map<number, Road[]>(), sorted = new Map<number, Road[]>(), closeRoads = new Map<number, Road[]>();
  const plainAt = (x: number) => {
    let r = plain.get(x);
    if (!r) {
      // the walks stay near the node being built: a bounded cache, dropped whole when full
      if (plain.size >= CACHE_NODES) { plain.clear(); sorted.clear(); closeRoads.clear(); }
      r = computeRoads(x, false); plain.set(x, r);
    }
    return r;
  };
  const announced = new Map<number, boolean>();
  const dirOf = (r: Road) => alongWay(r.out || r.in);
  const mg: MergeGraph = {
    roadsAt: (x) => { let r = sorted.get(x); if (!r) { r = [...plainAt(x)].sort((a, b) => a.perceived - b.perceived); sorted.set(x, r); } return r; },
    firstRoadAt: (x) => plainAt(x)[0],
    viewAt: (at, from, close) => {
      let rs = close ? closeRoads.get(at) : plainAt(at);
      if (!rs) {
        if (closeRoads.size >= CACHE_NODES) closeRoads.clear();
        rs = computeRoads(at, true); closeRoads.set(at, rs);
      }
      const f = rs.find((q) => q.edge === from.edge && q.atU === from.atU)!;
      return intersectionView(intersectionAt(at, rs), f, noMerge);
    },
    remote: (r) => (r.atU ? base.edgeV[r.edge] : base.edgeU[r.edge]),
    back: (r) => plainAt(r.atU ? base.edgeV[r.edge] : base.edgeU[r.edge]).find((q) => q.edge === r.edge && q.atU !== r.atU)!,
    coord: (x) => toFixed(base.nodeLat[x] / E7, base.nodeLon[x] / E7),
    shape: (r) => {
      const out: Fixed[] = [];
      const s0 = base.edgeShape[r.edge], s1 = base.edgeShape[r.edge + 1] - 1;
      for (let k = r.atU ? s0 : s1; r.atU ? k <= s1 : k >= s0; k += r.atU ? 1 : -1) {
        const last = out[out.length - 1];
        if (!last || last.lat !== fixLat[k] || last.lon !== fixLon[k]) out.push(fixedAt(k));
      }
      return out;
    },
    nameId: (r) => ways.nameId(r.way, dirOf(r)),
    emptyName: (id) => emptyName(ways.names[id]),
    announce: (a, b) => {
      const k = a * 1e7 + b;
      let v = announced.get(k);
      if (v === undefined) { v = requiresNameAnnounced(ways.names[a], ways.names[b], suffixes); announced.set(k, v); }
      return v;
    },
    supportsMerge: (a, b) => {
      if (ways.roundabout(a.way) || ways.roundabout(b.way)) return false;
      if (ways.mode(a.way, dirOf(a)) !== ways.mode(b.way, dirOf(b))) return false;
      const na = mg.nameId(a), nb = mg.nameId(b);
      if (!(!mg.emptyName(na) && !mg.emptyName(nb) && !mg.announce(na, nb) && !mg.announce(nb, na))) return false;
      return ways.classification(a.way) === ways.classification(b.way);
    },
    lanes: (r) => ways.numLanes(r.way),
  };

  return { nodes: N, degree: (x: number) => first[x + 1] - first[x], nodeRaw, computeRoads, intersectionAt, alongWay, mergeGraph: mg, noMerge };
}
