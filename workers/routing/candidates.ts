// How a point joins the graph, shared by /route, the matrix and every other many-point task, so
// that they agree cell for cell: candidates (the nearest road, plus one on a big strongly connected
// component) and choose() (the cheapest candidate per point, with the fallback onto every SCC near
// a point when no pair of candidates connects).
import type { LoadedGraph } from './graphs.ts';
import { snap, nearestPerComponent, type Snap } from './snap.ts';
import { leg } from './route.ts';
import { TaskError } from '../../src/core/task.ts';
import { SNAP_RADIUS } from '../../src/core/limits.ts';
import { MODES, type Mode } from '../../src/core/modes.ts';

export { MODES, type Mode };
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
          const l = leg(graph.g, graph.query, cs[i - 1][a], cs[i][b]);
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
  return nearestPerComponent(graph.g, graph.index, pt[0], pt[1], radius, new Set(own.map((s) => graph.g.edgeComp[s.edge])));
}

