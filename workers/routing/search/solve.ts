// Solving a route: the extract that covers every point (by coverage, smallest first), each point's
// candidates on the roads, and every leg searched, choosing per point the candidate that gives the
// cheapest route. Every routed answer starts here: /route (plain and guided), route_cost, the OSRM
// layer's route service; the answers are written from what it returns (answers/route-json.ts).
import { TaskError } from '../../../src/core/task.ts';
import { SNAP_RADIUS } from '../../../src/core/limits.ts';
import { coveringAll } from '../../../src/core/coverage.ts';
import type { RouteArgs } from '../../../src/core/tasks/index.ts';
import { loadedGraphs, type LoadedGraph } from '../graphs.ts';
import type { Snap } from '../locate/snap.ts';
import { candidates, choose, nearestFirst } from '../locate/candidates.ts';
import { leg, type LegTrace } from './legs.ts';
import type { CoordSink } from '../answers/coords.ts';
import type { PathSearch } from './path-search.ts';
import { searchFor, type TrafficUse } from './traffic-search.ts';

const pointName = (i: number, n: number) => (i === 0 ? 'from' : i === n - 1 ? 'to' : `via[${i - 1}]`);

export interface Solved<S extends CoordSink | null = CoordSink | null, T extends LegTrace = LegTrace> { graph: LoadedGraph; snaps: Snap[]; legs: { cost: number; weight: number; dist: number; trace?: T }[]; coords: S; settled: number; traffic: TrafficUse | null }

/** Pick the extract by coverage, snap every point, route every leg (with `trace`, recording each leg's pieces). */
export function solve<S extends CoordSink | null, T extends LegTrace = LegTrace>(args: RouteArgs, sink: () => S, trace?: () => T): Solved<S, T> {
  const mode = args.mode ?? 'driving';
  const radius = args.radius ?? SNAP_RADIUS.default;
  const pts = [args.from, ...(args.via ?? []), args.to];
  const anyEdge = args.snapping === 'any';
  const cands = coveringAll(loadedGraphs(), mode, pts, radius);
  let firstMiss: string | null = null;
  let noRoute: string | null = null;
  for (const graph of cands) {
    const cs: Snap[][] = [];
    for (let i = 0; i < pts.length; i++) {
      const c = candidates(graph, pts[i][0], pts[i][1], radius, anyEdge);
      if (!c) { firstMiss ??= `No ${mode} road within ${radius} m of '${pointName(i, pts.length)}'.`; break; }
      cs.push(c);
    }
    if (cs.length < pts.length) continue;
    const r = route(graph, cs, sink, pts, radius, searchFor(graph, args), anyEdge, trace);
    if (typeof r !== 'string') return r;
    noRoute ??= r;
  }
  if (noRoute) throw new TaskError(400, 'no_route', noRoute);
  throw new TaskError(400, 'no_road_nearby', firstMiss ?? 'No road nearby.');
}

/**
 * Route every leg through the candidates of each point: the cheapest choice of one candidate per
 * point (dynamic programming over the legs; a point has one or two), then the legs again with
 * geometry. A string is the no_route message.
 */
function route<S extends CoordSink | null, T extends LegTrace>(graph: LoadedGraph, cs: Snap[][], sink: () => S, pts: [number, number][], radius: number, search: { q: PathSearch; traffic: TrafficUse | null }, anyEdge: boolean, trace?: () => T): Solved<S, T> | string {
  const mode = graph.profile;
  const n = cs.length;
  // The nearest road of every point first (OSRM's rule): a point is moved only when that fails.
  let pick: number[] | number = nearestFirst(graph, cs, pts, radius, anyEdge) ?? choose(graph, cs, pts, radius, anyEdge);
  for (let attempt = 0; ; attempt++) {
    if (typeof pick === 'number') return noRouteMessage(mode, pick - 1, pick, n);
    const snaps = cs.map((c, i) => c[(pick as number[])[i]]);
    const coords = sink();
    const legs: { cost: number; weight: number; dist: number; trace?: T }[] = [];
    let settled = 0, failed = false;
    for (let i = 0; i + 1 < n; i++) {
      const tr = trace?.();
      const l = leg(graph.g, search.q, snaps[i], snaps[i + 1], coords ?? undefined, tr);
      if (!l) { failed = true; break; }
      legs.push({ cost: l.cost, weight: l.weight, dist: l.dist, trace: tr });
      settled += l.settled;
    }
    if (!failed) return { graph, snaps, legs, coords, settled, traffic: search.traffic };
    if (attempt > 0) return noRouteMessage(mode, 0, n - 1, n); // choose() found these legs; cannot happen
    pick = choose(graph, cs, pts, radius, anyEdge);
  }
}

const noRouteMessage = (mode: string, a: number, b: number, n: number) =>
  `No ${mode} route from '${pointName(a, n)}' to '${pointName(b, n)}' (the roads are not connected).`;

/** Cost and length of a solved route, over its legs. */
export function totals(r: Solved) {
  let cost = 0, dist = 0;
  for (const l of r.legs) { cost += l.cost; dist += l.dist; }
  return { cost, dist };
}
