// Routing module: contraction-hierarchy queries, snapping and geometry over road graphs.
// Tasks: `route` (full answer with geometry, issue 3 §7) and `route_cost` (cost only, for benchmarks).
import { TaskError, JsonText, type EngineModule } from '../../src/core/task.ts';
import { loadGraphs, type LoadedGraph } from './graphs.ts';
import { snap, componentsNear, type Snap } from './snap.ts';
import { leg } from './route.ts';
import { JsonCoordSink, type CoordSink } from './geometry.ts';
import { guidedRouteTask, type GuidedRouteArgs } from './guided.ts';
import { osrmRouteTask, osrmNearestTask } from './osrm.ts';

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
}

let graphs: LoadedGraph[] = [];

export function setGraphs(gs: LoadedGraph[]) { graphs = gs; }
/** The graphs this thread holds, smallest coverage first (the OSRM layer's nearest service). */
export function loadedGraphs(): readonly LoadedGraph[] { return graphs; }

const round1 = (x: number) => Math.round(x * 10) / 10;
const pointName = (i: number, n: number) => (i === 0 ? 'from' : i === n - 1 ? 'to' : `via[${i - 1}]`);

function checkPoint(p: unknown, name: string): [number, number] {
  if (!Array.isArray(p) || p.length !== 2 || !p.every((x) => typeof x === 'number' && Number.isFinite(x)) || Math.abs(p[0]) > 90 || Math.abs(p[1]) > 180)
    throw new TaskError(400, 'invalid_parameter', `Parameter '${name}' must be a [lat, lng] pair.`);
  return p as [number, number];
}

interface Solved<S extends CoordSink | null = CoordSink | null> { graph: LoadedGraph; snaps: Snap[]; legs: { cost: number; dist: number }[]; coords: S; settled: number }

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
    const cs: Snap[][] = [];
    for (let i = 0; i < pts.length; i++) {
      const c = candidates(graph, pts[i][0], pts[i][1], radius);
      if (!c) { firstMiss ??= `No ${mode} road within ${radius} m of '${pointName(i, pts.length)}'.`; break; }
      cs.push(c);
    }
    if (cs.length < pts.length) continue;
    const r = route(graph, cs, sink, pts, radius);
    if (typeof r !== 'string') return r;
    noRoute ??= r;
  }
  if (noRoute) throw new TaskError(400, 'no_route', noRoute);
  throw new TaskError(400, 'no_road_nearby', firstMiss ?? 'No road nearby.');
}

/**
 * Where a point may join the graph: its nearest road within the radius and, when that road lies
 * outside every big strongly connected component (a oneway dead end, an island, a street whose
 * only exit is a wrong-way oneway), also the nearest road on a big one within the radius, as OSRM
 * adds a "big component" phantom node (graph-build/contract/components.ts says which are big). A route uses whichever candidate gives the cheapest route, so a
 * point is never declared unreachable because its nearest road is. Null when no road is in range.
 */
export function candidates(graph: LoadedGraph, lat: number, lng: number, radius: number): Snap[] | null {
  const s = snap(graph.g, graph.index, lat, lng, radius);
  if (!s) return null;
  if (graph.onBig(s.edge)) return [s];
  const m = snap(graph.g, graph.index, lat, lng, radius, graph.onBig);
  return m ? [s, m] : [s];
}

/**
 * Route every leg through the candidates of each point: the cheapest choice of one candidate per
 * point (dynamic programming over the legs; a point has one or two), then the legs again with
 * geometry. A string is the no_route message.
 */
function route<S extends CoordSink | null>(graph: LoadedGraph, cs: Snap[][], sink: () => S, pts: [number, number][], radius: number): Solved<S> | string {
  const mode = graph.profile;
  const n = cs.length;
  // The common case, one candidate per point, routes straight away; a choice (or a failed leg) goes through choose().
  let pick = cs.every((c) => c.length === 1) ? cs.map(() => 0) : choose(graph, cs, pts, radius);
  for (let attempt = 0; ; attempt++) {
    if (typeof pick === 'number') return noRouteMessage(mode, pick - 1, pick, n);
    const snaps = cs.map((c, i) => c[(pick as number[])[i]]);
    const coords = sink();
    const legs: { cost: number; dist: number }[] = [];
    let settled = 0, failed = false;
    for (let i = 0; i + 1 < n; i++) {
      const l = leg(graph.g, graph.query, snaps[i], snaps[i + 1], graph.path, coords ?? undefined);
      if (!l) { failed = true; break; }
      legs.push({ cost: l.cost, dist: l.dist });
      settled += l.settled;
    }
    if (!failed) return { graph, snaps, legs, coords, settled };
    if (attempt > 0) return noRouteMessage(mode, 0, n - 1, n); // choose() found these legs; cannot happen
    pick = choose(graph, cs, pts, radius);
  }
}

/**
 * The cheapest choice of one candidate per point (dynamic programming over the legs), or the index
 * of the first point no candidate of the previous one reaches. A leg that no pair of candidates
 * connects gets, once, a candidate on every strongly connected component within the radius of each
 * end (onComponentsNear). So a route is refused only when no road within the radius of one point
 * reaches any road within the radius of the other. (OSRM's fixed
 * "big component" test misses pairs whose component is just under its size limit.)
 */
export function choose(graph: LoadedGraph, cs: Snap[][], pts: [number, number][], radius: number): number[] | number {
  const n = cs.length;
  const extended = new Uint8Array(n);
  for (;;) {
    let best = cs[0].map(() => 0);
    const from: number[][] = [[]];
    let failed = -1;
    for (let i = 1; i < n; i++) {
      const nb = cs[i].map(() => Infinity), nf = cs[i].map(() => -1);
      for (let a = 0; a < cs[i - 1].length; a++) {
        if (best[a] === Infinity) continue;
        for (let b = 0; b < cs[i].length; b++) {
          const l = leg(graph.g, graph.query, cs[i - 1][a], cs[i][b], graph.path);
          if (l && best[a] + l.cost < nb[b]) { nb[b] = best[a] + l.cost; nf[b] = a; }
        }
      }
      best = nb; from.push(nf);
      if (best.every((x) => x === Infinity)) { failed = i; break; }
    }
    if (failed < 0) {
      const pick = new Array(n);
      let c = 0;
      for (let b = 1; b < best.length; b++) if (best[b] < best[c]) c = b;
      for (let i = n - 1; i >= 0; i--) { pick[i] = c; c = i > 0 ? from[i][c] : 0; }
      return pick;
    }
    const i = failed;
    if (extended[i]) return i;
    extended[i] = 1;
    const addA = extended[i - 1] ? [] : onComponentsNear(graph, pts[i - 1], cs[i - 1], radius);
    const addB = onComponentsNear(graph, pts[i], cs[i], radius);
    extended[i - 1] = 1;
    if (!addA.length && !addB.length) return i;
    cs[i - 1] = cs[i - 1].concat(addA); cs[i] = cs[i].concat(addB);
  }
}

/**
 * For a pair no candidates connect: the point's nearest road, within the radius, on every strongly
 * connected component with a road within the radius (that `own` does not already touch). Inside one
 * SCC every road reaches every other, so the nearest road of each stands for all of them.
 */
export function onComponentsNear(graph: LoadedGraph, pt: [number, number], own: Snap[], radius: number): Snap[] {
  const ec = graph.g.edgeComp;
  const comps = componentsNear(graph.g, graph.index, pt[0], pt[1], radius);
  for (const s of own) comps.delete(ec[s.edge]);
  const out: Snap[] = [];
  for (const c of comps) {
    const s = snap(graph.g, graph.index, pt[0], pt[1], radius, (e) => ec[e] === c);
    if (s) out.push(s);
  }
  return out;
}

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
    // steps and alternatives take the guided path (guided.ts); the plain answer keeps its own
    route: (args: GuidedRouteArgs) => (args.steps || args.alternatives ? guidedRouteTask(args) : routeTask(args)),
    // the /osrm/ compatibility layer (osrm.ts)
    osrm_route: osrmRouteTask,
    osrm_nearest: osrmNearestTask,
    route_cost: (args: RouteArgs) => {
      const r = solve(args, () => null);
      const t = totals(r);
      return { cost_ms: t.cost, distance_m: round1(t.dist), settled: r.settled, extract: r.graph.extract };
    },
  },
};
