// Routing module: contraction-hierarchy queries, snapping and geometry over road graphs.
// Tasks: `route` (full answer with geometry), `route_matrix`, `road_access` and `route_cost` (cost and distance only:
// the compat distance matrix, bench osrm-pairs). Arguments arrive validated by the declarations
// that call them (points in range, radius within SNAP_RADIUS); they are not re-checked.
import { TaskError, JsonText, type EngineModule, type TaskContext } from '../../src/core/task.ts';
import { SNAP_RADIUS } from '../../src/core/limits.ts';
import { loadGraphs, type LoadedGraph } from './graphs.ts';
import type { Snap } from './snap.ts';
import { candidates, choose, moved } from './candidates.ts';
import { matrixTask, type MatrixArgs } from './matrix.ts';
import { optimizeTask, type OptimizeArgs } from './optimize.ts';
import { matchTask, type MatchArgs } from './match.ts';
import { isochroneTask, type IsochroneArgs } from './isochrone.ts';
import { leg, type LegTrace } from './route.ts';
import { JsonCoordSink, type CoordSink } from './geometry.ts';
import type { PathSearch } from './search.ts';
import { searchFor, type TrafficUse } from './traffic-search.ts';
export { searchFor, type TrafficUse };
import { roadAccess } from './access.ts';
import { fleetEtaTask, type FleetEtaArgs } from './fleet-eta.ts';
import { pickupTask, type PickupArgs } from './pickup.ts';
import { warmUpMatrix } from './warm-up.ts';
import { collectWhenIdle } from '../collect.ts';
import { guidedRouteTask, type GuidedRouteArgs } from './guided.ts';
import { osrmRouteTask, osrmNearestTask, osrmTableTask, osrmTripTask, osrmMatchTask, type OsrmRouteArgs } from './osrm.ts';

import { MODES, type Mode } from './candidates.ts';
export { MODES, type Mode };

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

import { loadedGraphs, setLoadedGraphs, withCarLua } from './graphs.ts';

const round1 = (x: number) => Math.round(x * 10) / 10;
const pointName = (i: number, n: number) => (i === 0 ? 'from' : i === n - 1 ? 'to' : `via[${i - 1}]`);

interface Solved<S extends CoordSink | null = CoordSink | null, T extends LegTrace = LegTrace> { graph: LoadedGraph; snaps: Snap[]; legs: { cost: number; dist: number; trace?: T }[]; coords: S; settled: number; traffic: TrafficUse | null }

/** Pick the extract by coverage, snap every point, route every leg (with `trace`, recording each leg's pieces). */
export function solve<S extends CoordSink | null, T extends LegTrace = LegTrace>(args: RouteArgs, sink: () => S, trace?: () => T): Solved<S, T> {
  const mode = args.mode ?? 'driving';
  const radius = args.radius ?? SNAP_RADIUS.default;
  const pts = [args.from, ...(args.via ?? []), args.to];
  const graphs = loadedGraphs();
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
    const cs: Snap[][] = [];
    for (let i = 0; i < pts.length; i++) {
      const c = candidates(graph, pts[i][0], pts[i][1], radius);
      if (!c) { firstMiss ??= `No ${mode} road within ${radius} m of '${pointName(i, pts.length)}'.`; break; }
      cs.push(c);
    }
    if (cs.length < pts.length) continue;
    const r = route(graph, cs, sink, pts, radius, searchFor(graph, args), trace);
    if (typeof r !== 'string') return r;
    noRoute ??= r;
  }
  if (noRoute) throw new TaskError(400, 'no_route', noRoute);
  throw new TaskError(400, 'no_road_nearby', firstMiss ?? 'No road nearby.');
}

/**
 * Route every leg from each point's nearest road; only when a leg fails, choose() picks the
 * candidates that move the points least (then the cheapest) and the legs are routed through them.
 * A string is the no_route message.
 */
function route<S extends CoordSink | null, T extends LegTrace>(graph: LoadedGraph, cs: Snap[][], sink: () => S, pts: [number, number][], radius: number, search: { q: PathSearch; traffic: TrafficUse | null }, trace?: () => T): Solved<S, T> | string {
  const mode = graph.profile;
  const n = cs.length;
  // The nearest road of every point first (OSRM's rule): a point is moved only when that fails. A
  // point on a road with a different time each way sits on two one-way twins at the same spot: then
  // choose() takes the cheaper of them (same distance moved, lower cost).
  let pick: number[] | number = cs.some(onTwins) ? choose(graph, cs, pts, radius) : cs.map(() => 0);
  for (let attempt = 0; ; attempt++) {
    if (typeof pick === 'number') return noRouteMessage(mode, pick - 1, pick, n);
    const snaps = cs.map((c, i) => c[(pick as number[])[i]]);
    const coords = sink();
    const legs: { cost: number; dist: number; trace?: T }[] = [];
    let settled = 0, failed = false;
    for (let i = 0; i + 1 < n; i++) {
      const tr = trace?.();
      const l = leg(graph.g, search.q, snaps[i], snaps[i + 1], coords ?? undefined, tr);
      if (!l) { failed = true; break; }
      legs.push({ cost: l.cost, dist: l.dist, trace: tr });
      settled += l.settled;
    }
    if (!failed) return { graph, snaps, legs, coords, settled, traffic: search.traffic };
    if (attempt > 0) return noRouteMessage(mode, 0, n - 1, n); // choose() found these legs; cannot happen
    pick = choose(graph, cs, pts, radius);
  }
}

const onTwins = (c: Snap[]) => c.length > 1 && moved(c[1]) === moved(c[0]);

const noRouteMessage = (mode: string, a: number, b: number, n: number) =>
  `No ${mode} route from '${pointName(a, n)}' to '${pointName(b, n)}' (the roads are not connected).`;

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
      // an operator's driving_tracks graph says so (graphs.ts); car.lua's driving graph says nothing extra
      ...(r.graph.rules !== r.graph.profile ? { profile: r.graph.rules } : {}),
      ...(r.traffic ? { traffic: r.traffic } : {}),
    },
  };
  const text = JSON.stringify(body), at = text.indexOf(COORDS_JSON);
  return new JsonText([text.slice(0, at), r.coords.bytes(), text.slice(at + COORDS_JSON.length)], true);
}

function totals(r: Solved) {
  let cost = 0, dist = 0;
  for (const l of r.legs) { cost += l.cost; dist += l.dist; }
  return { cost, dist };
}

/** The answer's `snapped`: each point where it met the road (native /route, plain and guided). */
export function snappedAll(snaps: Snap[]) {
  const out: Record<string, unknown> = { from: snapped(snaps[0]), to: snapped(snaps[snaps.length - 1]) };
  if (snaps.length > 2) out.via = snaps.slice(1, -1).map(snapped);
  return out;
}

export const routing: EngineModule = {
  // what the warm-up leaves is collected once the thread is idle after it
  init(datasets) { setLoadedGraphs(loadGraphs(datasets)); warmUpMatrix(loadedGraphs(), undefined, collectWhenIdle); },
  tasks: {
    // steps and alternatives take the guided path (guided.ts); the plain answer keeps its own
    route: (args: GuidedRouteArgs) => (args.steps || args.alternatives ? guidedRouteTask(args) : routeTask(args)),
    // the /osrm/ compatibility layer (osrm.ts)
    osrm_route: (a: OsrmRouteArgs) => withCarLua(() => osrmRouteTask(a)),
    osrm_nearest: (a: any) => withCarLua(() => osrmNearestTask(a)),
    osrm_table: (a: any) => withCarLua(() => osrmTableTask(a)),
    osrm_trip: (a: any) => withCarLua(() => osrmTripTask(a)),
    osrm_match: (a: any) => withCarLua(() => osrmMatchTask(a)),
    road_access: (args) => roadAccess(loadedGraphs(), args),
    route_matrix: (args: MatrixArgs, ctx: TaskContext) => matrixTask(args, ctx),
    // GET /fleet/vehicles/nearest: vehicles by road ETA to a rider (fleet-eta.ts)
    fleet_eta: (args: FleetEtaArgs) => fleetEtaTask(args),
    // GET /pickup-points: road points on the rider's side of the road (pickup.ts)
    pickup_roads: (args: PickupArgs) => pickupTask(args),
    route_optimize: (args: OptimizeArgs) => optimizeTask(args),
    route_match: (args: MatchArgs) => matchTask(args),
    route_isochrone: (args: IsochroneArgs) => isochroneTask(args),
    // Cost and length only, no geometry: benchmarks and the no_route checks compare it with OSRM.
    route_cost: (args: RouteArgs) => {
      const r = solve(args, () => null);
      const t = totals(r);
      return { cost_ms: t.cost, distance_m: round1(t.dist), settled: r.settled, extract: r.graph.extract };
    },
  },
};
