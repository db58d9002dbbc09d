// What an isochrone is drawn from: the value (ms, or metres) /route answers for every point of every
// road within a limit of a start point, from one Dijkstra over the edge-based graph
// (graph-build/contract/edge-based.ts), seeded as every search is (locate/seeds.ts).
//
// Time values follow the route /route takes: the search minimises the routing weight, as the
// hierarchy does, and carries the travel time of the path it keeps (turn durations included); the
// two differ where car.lua's routability is not the time (the penalty for entering a restricted
// road is keyed at its time: turnWeight()). Distance values minimise metres (turn
// weights left out; a forbidden turn is still missing). A node's value is that of standing at the
// far end of its edge (its head junction); a point part-way along a directed edge is reached from
// the edge's predecessors (turn plus the part driven) or, on the start's own edge, straight ahead
// of the start. A value within the limit is the one /route answers; one past it is only known to
// be past it (search()).
import { TaskError } from '../../../src/core/task.ts';
import { MinHeap } from '../../../src/core/heap.ts';
import type { GraphViews } from '../../../src/core/format/route.ts';
import type { LoadedGraph } from '../graphs.ts';
import { candidates, nearestRoad } from '../locate/candidates.ts';
import type { Snap } from '../locate/snap.ts';
import { sourceSeeds, weightShare, timeShare, aheadOf } from '../locate/seeds.ts';

export interface Reach {
  /** the start's candidates: its nearest road (both one-way edges of a twin road), then its big-component one */
  snaps: Snap[];
  /** edge-based nodes reached within the limit */
  reached: number;
  /** each reached node, with its value (ms or metres) at the head of its edge */
  forEach(fn: (node: number, value: number) => void): void;
  /** the value at `pos` metres along base edge e (either open direction), Infinity if unreached */
  valueAt(e: number, pos: number): number;
}

interface Tree { key: Map<number, number>; value: Map<number, number>; starts: Snap[] }

/**
 * Values within `limit` of the snapped `from`: from its nearest road, and, for what that cannot
 * reach, from its big-component candidate (candidates.ts), as /route leaves a point's nearest road
 * only when the route from it does not exist.
 */
export function reach(graph: LoadedGraph, from: [number, number], radius: number, limit: number, byDistance: boolean): Reach {
  const g = graph.g;
  const c = candidates(graph, from[0], from[1], radius);
  if (!c) throw new TaskError(400, 'no_road_nearby', `No ${graph.profile} road within ${radius} m of 'from'.`);
  const near = nearestRoad(c), far = c.slice(near.length);
  const trees = [search(g, near, limit, byDistance)];
  if (far.length) trees.push(search(g, far, limit, byDistance));
  // weights of partial edges rounded as leg() rounds them, so a near tie goes the way /route's does
  const share = weightShare(g);
  const wPart = byDistance ? (_e: number, _d: 0 | 1, x: number, y: number) => y - x : (e: number, d: 0 | 1, x: number, y: number) => Math.round(share(e, d, x, y));
  const vPart = byDistance ? wPart : timeShare(g);
  // per edge: [key, value] of its cheapest predecessor per direction, per tree (memoised: a long
  // edge is sampled at many points)
  const ends = new Map<number, Float64Array>();
  const endsOf = (e: number): Float64Array => {
    let a = ends.get(e);
    if (a) return a;
    a = new Float64Array(4 * trees.length).fill(Infinity);
    trees.forEach((t, i) => { for (const dir of [0, 1] as const) entry(g, t, e, dir, byDistance, a!, 4 * i + 2 * dir); });
    ends.set(e, a);
    return a;
  };
  let reached = 0;
  const seen = new Set<number>();
  for (const t of trees) for (const [x, v] of t.value) if (v <= limit && !seen.has(x)) { seen.add(x); reached++; }
  return {
    snaps: c,
    reached,
    forEach(fn) {
      const done = new Set<number>();
      for (const t of trees) for (const [x, v] of t.value) if (v <= limit && !done.has(x)) { done.add(x); fn(x, v); }
    },
    valueAt(e, pos) {
      const f = g.edgeFlags[e], len = g.edgeDist[e], a = endsOf(e);
      // the first tree that reaches the point decides, as /route tries the nearest road first
      for (let i = 0; i < trees.length; i++) {
        let bestKey = Infinity, v = Infinity;
        const take = (k: number, val: number) => { if (k < bestKey) { bestKey = k; v = val; } };
        if (f & 1 && a[4 * i] < Infinity) take(a[4 * i] + wPart(e, 0, 0, pos), a[4 * i + 1] + vPart(e, 0, 0, pos));
        if (f & 2 && a[4 * i + 2] < Infinity) take(a[4 * i + 2] + wPart(e, 1, pos, len), a[4 * i + 3] + vPart(e, 1, pos, len));
        for (const s of trees[i].starts) {
          if (s.edge !== e) continue;
          // straight ahead of the start on its own edge wins a tie, as leg()'s direct case does
          if (f & 1 && pos >= s.pos) { const k = wPart(e, 0, s.pos, pos); if (k <= bestKey) { bestKey = k; v = vPart(e, 0, s.pos, pos); } }
          if (f & 2 && pos <= s.pos) { const k = wPart(e, 1, pos, s.pos); if (k <= bestKey) { bestKey = k; v = vPart(e, 1, pos, s.pos); } }
        }
        if (v < Infinity) return v;
      }
      return Infinity;
    },
  };
}

/**
 * Weight of a turn as the isochrone keys it. car.lua's entry into an access-restricted road weighs
 * max_turn_weight (3,277 s, far above any turn's time): a route into a restricted area pays it once
 * whichever way it enters, so the lightest way there is the lightest without it, and keyed in full
 * it would make the search settle everything 55 minutes of weight around before any restricted
 * road, whatever the limit. Such a turn counts its duration instead.
 */
const turnWeight = (w: number, d: number) => (w - d > PENALTY_EXCESS ? d : w);
/** A turn weighing this much (ms) more than it takes is that marker; no real turn costs 10 minutes. */
const PENALTY_EXCESS = 600_000;

/** Into out[o], out[o+1]: key and value at the tail of edge e driven in direction dir, over its cheapest predecessor. */
function entry(g: GraphViews, t: Tree, e: number, dir: 0 | 1, byDistance: boolean, out: Float64Array, o: number) {
  for (let x = g.edgeEb[2 * e + dir]; x >= 0; x = g.copyNext[x]) {
    for (let k = g.ebInFirst[x]; k < g.ebInFirst[x + 1]; k++) {
      const p = g.ebIn[3 * k], kp = t.key.get(p);
      if (kp === undefined) continue;
      const key = kp + (byDistance ? 0 : turnWeight(g.ebIn[3 * k + 1], g.ebIn[3 * k + 2]));
      if (key < out[o]) { out[o] = key; out[o + 1] = t.value.get(p)! + (byDistance ? 0 : g.ebIn[3 * k + 2]); }
    }
  }
}

/**
 * Dijkstra from the snapped starts over the turns, keyed by weight (or metres), carrying the value.
 * Stopping at the first key whose value passes the limit would be wrong where the two differ: the
 * lightest way to a node may pass a node over the limit while a heavier one stays under it, and
 * /route drives the lightest. So the search goes on while a node within the limit is waiting, and
 * then until its key passes that of every turn out of a node within the limit: every node left has
 * its value over the limit, and is too heavy to be the predecessor a point within the limit is
 * reached from (entry()).
 */
function search(g: GraphViews, starts: Snap[], limit: number, byDistance: boolean): Tree {
  const key = new Map<number, number>(), value = new Map<number, number>();
  const done = new Set<number>();
  const h = new MinHeap(256);
  // waiting nodes within the limit; the heaviest key after a turn out of a node settled within it
  let live = 0, liveKey = -Infinity;
  const push = (y: number, k: number, v: number) => {
    const old = key.get(y);
    if (old !== undefined && old <= k) return;
    if (old !== undefined && value.get(y)! <= limit) live--;
    if (v <= limit) live++;
    key.set(y, k); value.set(y, v); h.push(k, y);
  };
  const wPart = weightShare(g), tPart = timeShare(g);
  for (const s of starts) {
    for (const a of sourceSeeds(g, s)) {
      const [x, y] = aheadOf(g, s, a.dir);
      if (byDistance) push(a.node, a.dist, a.dist);
      else push(a.node, Math.round(wPart(s.edge, a.dir, x, y)), tPart(s.edge, a.dir, x, y));
    }
  }
  const first = g.ebOutFirst, out = g.ebOut, ebEdge = g.ebEdge;
  while (h.length) {
    const x = h.peekId(), k = h.peekKey();
    h.pop();
    if (done.has(x) || k > key.get(x)!) continue;
    if (live === 0 && k > liveKey) break;
    done.add(x);
    const v = value.get(x)!, within = v <= limit;
    if (within) live--;
    for (let j = first[x], jEnd = first[x + 1]; j < jEnd; j++) {
      const y = out[3 * j], s = ebEdge[y], e = s > 0 ? s - 1 : -s - 1;
      const tw = byDistance ? 0 : turnWeight(out[3 * j + 1], out[3 * j + 2]);
      if (within && k + tw > liveKey) liveKey = k + tw;
      if (byDistance) push(y, k + g.edgeDist[e], v + g.edgeDist[e]);
      else push(y, k + tw + g.edgeWeight[e], v + out[3 * j + 2] + g.edgeW[e]);
    }
  }
  return { key, value, starts };
}
