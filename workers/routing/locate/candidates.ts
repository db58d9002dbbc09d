// How a point joins the graph, shared by /route, the matrix and every other many-point task, so
// that they agree cell for cell: candidates (the nearest road, plus one on a big strongly connected
// component) and choose() (the nearest when it routes, else the candidates that move the points
// least, with the fallback onto every SCC near a point when no pair of candidates connects).
import { osrmRules, type LoadedGraph } from '../graphs.ts';
import { snap, nearestPerComponent, type Snap } from './snap.ts';
import { leg, cheapestPair } from '../search/legs.ts';
import { TaskError } from '../../../src/core/task.ts';
import { SNAP_RADIUS } from '../../../src/core/limits.ts';
import { EDGE_NO_START, EDGE_TWIN_BACK } from '../../../src/core/format/route.ts';

import { ROUTED_MODES as MODES, type RoutedMode as Mode } from '../../../src/core/tasks/index.ts';
export const DEFAULT_RADIUS = SNAP_RADIUS.default;
export const MAX_RADIUS = SNAP_RADIUS.max;

/** Mode and radius of a task's arguments, checked (the HTTP layer validated them already; tasks are also called directly). */
export function modeAndRadius(args: { mode?: string; radius?: number }): { mode: Mode; radius: number } {
  const mode = (args.mode ?? 'driving') as Mode;
  if (!MODES.includes(mode)) throw new TaskError(400, 'invalid_parameter', `Parameter 'mode' must be one of ${MODES.join(', ')}.`);
  const radius = args.radius ?? DEFAULT_RADIUS;
  if (!(radius > 0 && radius <= MAX_RADIUS)) throw new TaskError(400, 'invalid_parameter', `Parameter 'radius' must be between 1 and ${MAX_RADIUS} metres.`);
  return { mode, radius };
}

/**
 * p as a [lat, lng] pair, or a 400 naming the parameter `name` (`name[i]` with an index). No string
 * or closure is made unless it fails: a 1,000 × 1,000 matrix checks 2,000 points.
 */
export function checkPoint(p: unknown, name: string, i = -1): [number, number] {
  const ok = Array.isArray(p) && p.length === 2 && typeof p[0] === 'number' && typeof p[1] === 'number' &&
    Math.abs(p[0]) <= 90 && Math.abs(p[1]) <= 180; // NaN fails the comparisons, ±Infinity the bounds
  if (!ok) throw new TaskError(400, 'invalid_parameter', `Parameter '${i < 0 ? name : `${name}[${i}]`}' must be a [lat, lng] pair.`);
  return p as [number, number];
}

/**
 * Where a point may join the graph: its nearest road within the radius and, when that road lies
 * outside every big strongly connected component (a oneway dead end, an island, a street whose
 * only exit is a wrong-way oneway), also the nearest road on a big one within the radius, as OSRM
 * adds a "big component" phantom node (graph-build/contract/components.ts says which are big). The
 * nearest comes first and is used whenever the route from it exists (choose()); the other only when
 * it must, so a point is never declared unreachable because its nearest road is, and never moved
 * off a road that routes. Null when no road is in range.
 */
export function candidates(graph: LoadedGraph, lat: number, lng: number, radius: number, anyEdge = false): Snap[] | null {
  const s = snap(graph.g, graph.index, lat, lng, radius, undefined, anyEdge);
  if (!s) return null;
  const own = atNode(graph, s, anyEdge);
  if (own.some((x) => graph.onBig(x.edge))) return own;
  const m = snap(graph.g, graph.index, lat, lng, radius, graph.bigMask, anyEdge);
  return m ? [...own, ...atNode(graph, m, anyEdge)] : own;
}

/** Metres within which a projection counts as the edge's end node. */
const AT_NODE_M = 0.01;

/**
 * The snap with its twin, and when it lies on the edge's end node, the same spot on every other road
 * leaving or entering that node: a point at a junction is as much on one of its roads as on another,
 * and the index's pick among them (a one-way road's far end, a roundabout's loop) must not decide the
 * route. The route takes whichever is cheapest (nearestRoad() holds them all).
 */
function atNode(graph: LoadedGraph, s: Snap, anyEdge: boolean): Snap[] {
  const g = graph.g, len = g.edgeDist[s.edge];
  const out = withTwin(graph, s);
  const atU = s.pos <= AT_NODE_M, atV = s.pos >= len - AT_NODE_M;
  if (!atU && !atV) return out;
  const x = atU ? g.edgeU[s.edge] : g.edgeV[s.edge];
  for (let k = g.adjFirst[x]; k < g.adjFirst[x + 1]; k++) {
    const a = g.adjEdge[k], e = Math.abs(a) - 1, fromU = a > 0;
    if (e === s.edge || g.edgeFlags[e] & (anyEdge ? EDGE_TWIN_BACK : EDGE_NO_START | EDGE_TWIN_BACK)) continue;
    const l = g.edgeDist[e];
    const pos = fromU ? 0 : l, pt = fromU ? g.edgeShape[e] : Math.max(g.edgeShape[e], g.edgeShape[e + 1] - 2);
    out.push(...withTwin(graph, { ...s, edge: e, pos, pt, frac: fromU ? 0 : 1 }));
  }
  return out;
}

/**
 * A road whose two directions take different times is two one-way edges over one shape, and only
 * the first is in the snapping index (graph-build/contract/compress.ts): the point is on both, so
 * both are candidates and the route leaves in whichever direction is cheaper.
 */
function withTwin(graph: LoadedGraph, s: Snap): Snap[] {
  const f = graph.g.edgeFlags;
  return s.edge + 1 < f.length && f[s.edge + 1] & EDGE_TWIN_BACK ? [s, { ...s, edge: s.edge + 1 }] : [s];
}


/**
 * A point's nearest road among its candidates: the first, with its twin when that road is two one-way
 * edges, and the other roads at the same spot when that is a junction (atNode).
 */
export function nearestRoad(c: Snap[]): Snap[] {
  let k = 1;
  while (k < c.length && c[k].lat === c[0].lat && c[k].lng === c[0].lng && c[k].dist === c[0].dist) k++;
  return k === c.length ? c : c.slice(0, k);
}

/** A point's big-component alternative (with its twin), or null when its nearest road is on a big component. */
export function bigRoad(c: Snap[]): Snap[] | null {
  const k = nearestRoad(c).length;
  return c.length > k ? c.slice(k) : null;
}

/**
 * The nearest road of every point (OSRM's rule), as indices into each point's candidates; where a
 * nearest road is two one-way edges, the direction that makes the route cheapest (choose() over
 * the nearest roads only). Null when the nearest roads do not connect: the caller then moves the
 * points (choose() over every candidate). With no twin it does not search: the legs tell.
 */
export function nearestFirst(graph: LoadedGraph, cs: Snap[][], pts: [number, number][], radius: number, anyEdge = false): number[] | null {
  const near = cs.map(nearestRoad);
  if (near.every((g) => g.length === 1)) return cs.map(() => 0);
  // two points: the nearest roads' candidates all move their point as far, so the cheapest pair
  // wins, found by one search from all of them (a junction's 3 × 3 took 9); none routes: null, as
  // choose() over them would find no pick among them
  if (cs.length === 2) return cheapestPair(graph.g, graph.query, near[0], near[1]);
  const pick = choose(graph, near, pts, radius, anyEdge); // near holds copies: its extensions stay here
  return typeof pick !== 'number' && pick.every((k, i) => k < nearestRoad(cs[i]).length) ? pick : null;
}

/**
 * How far a choice of candidates moves its points, in decimetres: choices are compared on it first
 * (the one that moves the points least), then on cost. Rounded so that two candidates at the same
 * spot (both sides of a junction) tie and the cheaper wins.
 */
export const moved = (s: Snap) => Math.round(s.dist * 10);

/**
 * One candidate per point, as OSRM snaps and then some: the nearest road of every point when every
 * leg between them can be routed (checked by the caller: route() in index.ts, the matrix's first
 * pass); otherwise, among the choices whose legs all route, the one that moves the points least in
 * total, then the cheapest (dynamic programming over the legs, lexicographic on moved decimetres
 * and cost, both additive). The candidates are first the nearest and OSRM's big-component
 * alternative; a leg that no pair of them connects gets, once, a candidate on every strongly
 * connected component within the radius of each end whose nearest road is off every big component
 * (onComponentsNear). So a point leaves its
 * nearest road only when no route exists from it, it never moves further than it must, never
 * beyond the radius, and a route is refused only when no road within the radius of one point
 * reaches any road within the radius of the other. Returns the index of each point's pick, or the
 * index of the first point no candidate of the previous one reaches.
 */
export function choose(graph: LoadedGraph, cs: Snap[][], pts: [number, number][], radius: number, anyEdge = false): number[] | number {
  const n = cs.length;
  const extended = new Uint8Array(n);
  for (;;) {
    // best choice ending at each candidate of point i: moved decimetres and cost so far
    let bm = cs[0].map(moved), bc = cs[0].map(() => 0);
    const from: number[][] = [[]];
    let failed = -1;
    for (let i = 1; i < n; i++) {
      const nm = cs[i].map(() => Infinity), nc = cs[i].map(() => Infinity), nf = cs[i].map(() => -1);
      for (let a = 0; a < cs[i - 1].length; a++) {
        if (bm[a] === Infinity) continue;
        for (let b = 0; b < cs[i].length; b++) {
          const m = bm[a] + moved(cs[i][b]);
          if (m > nm[b]) continue; // cannot win: skip its search
          const l = leg(graph.g, graph.query, cs[i - 1][a], cs[i][b]);
          if (!l) continue;
          const c = bc[a] + l.weight;
          if (m < nm[b] || c < nc[b]) { nm[b] = m; nc[b] = c; nf[b] = a; }
        }
      }
      bm = nm; bc = nc; from.push(nf);
      if (bm.every((x) => x === Infinity)) { failed = i; break; }
    }
    if (failed < 0) {
      const pick = new Array(n);
      let c = 0;
      for (let b = 1; b < bm.length; b++) if (bm[b] < bm[c] || (bm[b] === bm[c] && bc[b] < bc[c])) c = b;
      for (let i = n - 1; i >= 0; i--) { pick[i] = c; c = i > 0 ? from[i][c] : 0; }
      return pick;
    }
    const i = failed;
    // OSRM's layer stops here, as osrm-routed does: no candidate beyond the nearest and the big component's
    if (extended[i] || osrmRules()) return i;
    extended[i] = 1;
    const addA = extended[i - 1] ? [] : onComponentsNear(graph, pts[i - 1], cs[i - 1], radius, anyEdge);
    const addB = onComponentsNear(graph, pts[i], cs[i], radius, anyEdge);
    // (onComponentsNear leaves a point whose nearest road is on a big component where it is)
    extended[i - 1] = 1;
    if (!addA.length && !addB.length) return i;
    cs[i - 1] = cs[i - 1].concat(addA); cs[i] = cs[i].concat(addB);
  }
}

/**
 * Of the pairs of candidates a × b that route (plain CH legs), the one that moves the two points
 * least, then the cheapest: what choose() picks for two points over the same candidates. Pairs are
 * tried in order of moved decimetres and the search stops after the first distance that routes.
 */
export function leastMovedPair(graph: LoadedGraph, a: Snap[], b: Snap[]): { s: Snap; t: Snap; cost: number; weight: number; dist: number } | null {
  const pairs: [number, Snap, Snap][] = [];
  for (const s of a) for (const t of b) pairs.push([moved(s) + moved(t), s, t]);
  pairs.sort((x, y) => x[0] - y[0]);
  let best: { s: Snap; t: Snap; cost: number; weight: number; dist: number } | null = null, at = Infinity;
  for (const [m, s, t] of pairs) {
    if (m > at) break;
    const l = leg(graph.g, graph.query, s, t);
    if (l && (!best || l.weight < best.weight)) { best = { s, t, cost: l.cost, weight: l.weight, dist: l.dist }; at = m; }
  }
  return best;
}

/**
 * The pair of candidates /route drives between two points when their nearest roads do not connect
 * (choose() over the two): for the matrix's cells that its bucket passes leave open. Null when no
 * pair routes. `a` and `b` are not changed.
 */
export function choosePair(graph: LoadedGraph, a: Snap[], b: Snap[], pa: [number, number], pb: [number, number], radius: number): [Snap, Snap] | null {
  const cs = [a, b];
  const pick = choose(graph, cs, [pa, pb], radius);
  return typeof pick === 'number' ? null : [cs[0][pick[0]], cs[1][pick[1]]];
}

/**
 * For a pair no candidates connect: the point's nearest road, within the radius, on every strongly
 * connected component with a road within the radius (that `own` does not already touch). Inside one
 * SCC every road reaches every other, so the nearest road of each stands for all of them. None for
 * a point whose nearest road (own[0]) lies on a big component.
 */
export function onComponentsNear(graph: LoadedGraph, pt: [number, number], own: Snap[], radius: number, anyEdge = false): Snap[] {
  // A point on a big component stays on it: a route that fails from there (a restriction, a
  // oneway) is no route, as OSRM answers, not a reason to move the point onto another road.
  if (graph.onBig(own[0].edge)) return [];
  return nearestPerComponent(graph.g, graph.index, pt[0], pt[1], radius, new Set(own.map((s) => graph.g.edgeComp[s.edge])), anyEdge);
}

