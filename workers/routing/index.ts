// Routing module: contraction-hierarchy queries, snapping and geometry over road graphs.
// Tasks: `route` (full answer with geometry, issue 3 §7) and `route_cost` (cost only, for benchmarks).
import { TaskError, JsonText, type EngineModule } from '../../src/core/task.ts';
import { loadGraphs, type LoadedGraph } from './graphs.ts';
import { snap, type Snap } from './snap.ts';
import { leg } from './route.ts';
import { JsonCoordSink, type CoordSink } from './geometry.ts';
import type { PathSearch } from './search.ts';
import { TrafficState } from '../../src/core/traffic-state.ts';

export const MODES = ['driving', 'walk', 'cycle'] as const;
export type Mode = (typeof MODES)[number];
export const DEFAULT_RADIUS = 1000;
export const MAX_RADIUS = 10000;

export interface RouteArgs {
  from: [number, number];
  to: [number, number];
  via?: [number, number][];
  mode?: Mode;
  radius?: number;
  /** live: observed speeds where published; forecast: the weekly profile at depart_at; none (default): profile speeds only. */
  traffic?: 'live' | 'forecast' | 'none';
  /** Epoch ms of departure (forecast slot); default now. */
  depart_at?: number;
}

export interface TrafficUse { mode: 'live' | 'forecast'; applied: boolean; edges_with_data: number; slot?: { dow: number; hour: number } }

/** The search a leg runs on: the CH, or for traffic-aware routes Dijkstra over the shared traffic weights. */
function searchFor(graph: LoadedGraph, args: RouteArgs): { q: PathSearch; traffic: TrafficUse | null } {
  const mode = args.traffic ?? 'none';
  if (mode === 'none') return { q: graph.query, traffic: null };
  const t = graph.traffic;
  if (!t) return { q: graph.query, traffic: { mode, applied: false, edges_with_data: 0 } };
  let weights: Int32Array, n: number, slot: TrafficUse['slot'];
  if (mode === 'live') { weights = t.weightMs; n = t.meta[1]; }
  else {
    const s = TrafficState.slot(args.depart_at ?? Date.now());
    weights = t.profileSlot(s); n = t.meta[2 + s]; slot = { dow: Math.floor(s / 24), hour: s % 24 };
  }
  if (n === 0) return { q: graph.query, traffic: { mode, applied: false, edges_with_data: 0, ...(slot ? { slot } : {}) } };
  const q = graph.trafficQuery;
  q.setWeights(weights);
  return { q, traffic: { mode, applied: true, edges_with_data: n, ...(slot ? { slot } : {}) } };
}

let graphs: LoadedGraph[] = [];

export function setGraphs(gs: LoadedGraph[]) { graphs = gs; }

/** The graphs this worker holds, smallest coverage first (other worker modules read them). */
export function loadedGraphs(): readonly LoadedGraph[] { return graphs; }

const round1 = (x: number) => Math.round(x * 10) / 10;
const pointName = (i: number, n: number) => (i === 0 ? 'from' : i === n - 1 ? 'to' : `via[${i - 1}]`);

function checkPoint(p: unknown, name: string): [number, number] {
  if (!Array.isArray(p) || p.length !== 2 || !p.every((x) => typeof x === 'number' && Number.isFinite(x)) || Math.abs(p[0]) > 90 || Math.abs(p[1]) > 180)
    throw new TaskError(400, 'invalid_parameter', `Parameter '${name}' must be a [lat, lng] pair.`);
  return p as [number, number];
}

interface Solved<S extends CoordSink | null = CoordSink | null> { graph: LoadedGraph; snaps: Snap[]; legs: { cost: number; dist: number }[]; coords: S; settled: number; traffic: TrafficUse | null }

/** Pick the extract by coverage, snap every point, route every leg. */
export function solve<S extends CoordSink | null>(args: RouteArgs, sink: () => S): Solved<S> {
  const mode = (args.mode ?? 'driving') as Mode;
  if (!MODES.includes(mode)) throw new TaskError(400, 'invalid_parameter', `Parameter 'mode' must be one of ${MODES.join(', ')}.`);
  const radius = args.radius ?? DEFAULT_RADIUS;
  if (!(radius > 0 && radius <= MAX_RADIUS)) throw new TaskError(400, 'invalid_parameter', `Parameter 'radius' must be between 1 and ${MAX_RADIUS} metres.`);
  const pts = [checkPoint(args.from, 'from'), ...(args.via ?? []).map((p, i) => checkPoint(p, `via[${i}]`)), checkPoint(args.to, 'to')];
  const cands = graphs.filter((g) => g.profile === mode && pts.every(([la, lo]) => g.covers(la, lo, radius)));
  if (cands.length === 0) {
    const any = graphs.some((g) => g.profile === mode && pts.some(([la, lo]) => g.covers(la, lo, radius)));
    throw new TaskError(400, 'out_of_coverage', any
      ? 'The points lie in different road extracts; no single extract covers them all.'
      : `No ${mode} road extract covers these points.`);
  }
  let firstMiss: string | null = null;
  let noRoute: string | null = null;
  for (const graph of cands) {
    const snaps: Snap[] = [];
    for (let i = 0; i < pts.length; i++) {
      const s = snap(graph.g, graph.index, pts[i][0], pts[i][1], radius);
      if (!s) { firstMiss ??= `No ${mode} road within ${radius} m of '${pointName(i, pts.length)}'.`; break; }
      snaps.push(s);
    }
    if (snaps.length < pts.length) continue;
    const search = searchFor(graph, args);
    let r = route(graph, snaps, sink, search);
    if (typeof r === 'string') {
      // The nearest road may be an island (a clipped fragment, a private compound): retry with the
      // points that snapped off the main network moved to its nearest road within the radius.
      const main = graph.g.meta.main_component;
      let moved = false;
      const alt = snaps.map((s, i) => {
        if (graph.g.edgeComp[s.edge] === main) return s;
        const m = snap(graph.g, graph.index, pts[i][0], pts[i][1], radius, main);
        if (m) moved = true;
        return m ?? s;
      });
      if (moved) { const r2 = route(graph, alt, sink, search); if (typeof r2 !== 'string') r = r2; }
    }
    if (typeof r !== 'string') return r;
    noRoute ??= r;
  }
  if (noRoute) throw new TaskError(400, 'no_route', noRoute);
  throw new TaskError(400, 'no_road_nearby', firstMiss ?? 'No road nearby.');
}

/** Route every leg through the snapped points; a string is the no_route message. */
function route<S extends CoordSink | null>(graph: LoadedGraph, snaps: Snap[], sink: () => S, search: { q: PathSearch; traffic: TrafficUse | null }): Solved<S> | string {
  const mode = graph.profile;
  const coords = sink();
  const legs: { cost: number; dist: number }[] = [];
  let settled = 0;
  for (let i = 0; i + 1 < snaps.length; i++) {
    const l = leg(graph.g, search.q, snaps[i], snaps[i + 1], graph.path, coords ?? undefined);
    if (!l) return `No ${mode} route from '${pointName(i, snaps.length)}' to '${pointName(i + 1, snaps.length)}' (the roads are not connected).`;
    legs.push({ cost: l.cost, dist: l.dist });
    settled += l.settled;
  }
  return { graph, snaps, legs, coords, settled, traffic: search.traffic };
}

const snapped = (s: Snap) => ({ lat: Math.round(s.lat * 1e7) / 1e7, lng: Math.round(s.lng * 1e7) / 1e7, distance_m: round1(s.dist) });

/** Stands for the coordinates while the rest of the body is serialised (no other field can hold it). */
const COORDS = '\u0000coords';
const COORDS_JSON = JSON.stringify(COORDS);

/** The issue 3 §7 body (geometry as [[lng, lat], …]) as JSON text. */
export function routeTask(args: RouteArgs): JsonText {
  const r = solve(args, () => new JsonCoordSink());
  const t = totals(r);
  const body = {
    route: {
      mode: args.mode ?? 'driving',
      distance_m: round1(t.dist),
      duration_s: round1(t.cost / 1000),
      geometry: { type: 'LineString', coordinates: COORDS },
      legs: r.legs.map((l) => ({ distance_m: round1(l.dist), duration_s: round1(l.cost / 1000) })),
      snapped: snappedAll(r.snaps),
      extract: r.graph.extract,
      ...(r.traffic ? { traffic: r.traffic } : {}),
    },
  };
  const coords = r.coords.text();
  return new JsonText(JSON.stringify(body).replace(COORDS_JSON, () => coords));
}

function totals(r: Solved) {
  let cost = 0, dist = 0;
  for (const l of r.legs) { cost += l.cost; dist += l.dist; }
  return { cost, dist };
}

function snappedAll(snaps: Snap[]) {
  const out: Record<string, unknown> = { from: snapped(snaps[0]), to: snapped(snaps[snaps.length - 1]) };
  if (snaps.length > 2) out.via = snaps.slice(1, -1).map(snapped);
  return out;
}

export const routing: EngineModule = {
  init(datasets) { graphs = loadGraphs(datasets); },
  tasks: {
    route: (args: RouteArgs) => routeTask(args),
    route_cost: (args: RouteArgs) => {
      const r = solve(args, () => null);
      const t = totals(r);
      return { cost_ms: t.cost, distance_m: round1(t.dist), settled: r.settled, extract: r.graph.extract };
    },
  },
};
