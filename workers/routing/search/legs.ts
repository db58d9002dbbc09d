// One route through snapped points: per leg, phantom start/end costs on the snapped edges
// (locate/seeds.ts), a shortest-path search over the edge-based graph, then time, distance and
// (optionally) geometry by unpacking.
import type { GraphViews } from '../../../src/core/format/route.ts';
import { E7 } from '../../../src/core/format/route.ts';
import type { PathSearch } from './path-search.ts';
import type { Snap } from '../locate/snap.ts';
import type { CoordSink } from '../answers/coords.ts';
import { sourceSeeds, targetSeeds, aheadOf, upTo, weightShare, timeShare, type PartCost, type SourceSeed, type TargetSeed } from '../locate/seeds.ts';

export interface Leg {
  /** ms of travel time */
  cost: number;
  /** routing weight (ms-scaled; what the route minimises: car.lua's routability) */
  weight: number;
  /** metres, from edge lengths and snapped positions */
  dist: number;
  settled: number;
}

const r = Math.round;

/**
 * Receives a leg as the stretches of base edges it drives, in order (guidance builds its steps
 * from them): edge e from position `from` to `to` (metres from the edge's first shape point;
 * from ≤ to when driven along u→v).
 */
export interface LegTrace {
  piece(edge: number, forward: boolean, from: number, to: number): void;
}

const srcSeeds: SourceSeed[] = [], tgtSeeds: TargetSeed[] = [];

/**
 * Best path between two snapped points. Returns null when there is none.
 * With `coords`, appends the leg's points (the sink drops a point equal to the last one).
 */
export function leg(g: GraphViews, q: PathSearch, s: Snap, t: Snap, coords?: CoordSink, trace?: LegTrace): Leg | null {
  const es = s.edge, et = t.edge;
  // The partial end edges: a share of the edge's weight and time, or, with a search of its own
  // weights (traffic), what that search says metres x..y of the edge take (partWeight: an edge's
  // live time may have been observed on a part of it only).
  const weight: PartCost = q.partWeight ? (e, d, x, y) => q.partWeight!(e, d, x, y) : weightShare(g);
  const time: PartCost = q.partTime ? (e, d, x, y) => q.partTime!(e, d, x, y) : timeShare(g);
  q.reset();
  const sources = sourceSeeds(g, s, srcSeeds), targets = targetSeeds(g, t, tgtSeeds);
  for (const a of sources) q.addSource(a.node, sourceWeight(g, weight, s, a));
  for (const b of targets) q.addTarget(b.node, targetWeight(g, weight, t, b));
  let cost = q.run();
  const settled = q.settled;
  // Both points on one edge: going straight along it may beat leaving it.
  let direct = 0; // 1 along u→v, -1 against
  const st = straight(g, weight, s, t);
  if (st && st[0] <= cost) [cost, direct] = st;
  if (cost === Infinity) return null;
  if (direct) {
    if (coords) {
      push(coords, s.lng, s.lat);
      if (direct > 0) for (let p = s.pt + 1; p <= t.pt; p++) pushPt(g, coords, p);
      else for (let p = s.pt; p > t.pt; p--) pushPt(g, coords, p);
      push(coords, t.lng, t.lat);
    }
    trace?.piece(es, direct > 0, s.pos, t.pos);
    const dur = direct > 0 ? time(es, 0, s.pos, t.pos) : time(es, 1, t.pos, s.pos);
    return { cost: r(dur), weight: cost, dist: Math.abs(t.pos - s.pos), settled };
  }
  const a = q.startNode(), b = q.endNode();
  const leaveDir: 0 | 1 = g.ebEdge[a] > 0 ? 0 : 1;
  const end = targetEnd(g, targets, b, t, weight);
  const enterDir = end.dir;
  const leaveForward = leaveDir === 0, enterForward = enterDir === 0;
  let dist = (leaveForward ? g.edgeDist[es] - s.pos : s.pos) + (enterForward ? t.pos : g.edgeDist[et] - t.pos);
  const path = q.path(), n = path.length;
  for (let i = 0; i < n; i++) { const e = path[i]; dist += g.edgeDist[e > 0 ? e - 1 : -e - 1]; }
  const dur = time(es, leaveDir, ...aheadOf(g, s, leaveDir)) + q.pathDuration() + end.turnDur + time(et, enterDir, ...upTo(g, t, enterDir));
  if (coords) {
    push(coords, s.lng, s.lat);
    const s0 = g.edgeShape[es], s1 = g.edgeShape[es + 1];
    if (leaveForward) for (let p = s.pt + 1; p < s1; p++) pushPt(g, coords, p);
    else for (let p = s.pt; p >= s0; p--) pushPt(g, coords, p);
    for (let i = 0; i < n; i++) {
      const e = path[i];
      if (e > 0) for (let p = g.edgeShape[e - 1]; p < g.edgeShape[e]; p++) pushPt(g, coords, p);
      else for (let p = g.edgeShape[-e] - 1; p >= g.edgeShape[-e - 1]; p--) pushPt(g, coords, p);
    }
    const t0 = g.edgeShape[et], t1 = g.edgeShape[et + 1];
    if (enterForward) for (let p = t0; p <= t.pt; p++) pushPt(g, coords, p);
    else for (let p = t1 - 1; p > t.pt; p--) pushPt(g, coords, p);
    push(coords, t.lng, t.lat);
  }
  if (trace) tracePath(g, trace, es, leaveForward, s.pos, path, n, et, enterForward, t.pos);
  return { cost: r(dur), weight: cost, dist, settled };
}

/** The weight of leaving by source seed x: the part of s's edge ahead of s in x's direction. */
const sourceWeight = (g: GraphViews, weight: PartCost, s: Snap, x: SourceSeed) => r(weight(s.edge, x.dir, ...aheadOf(g, s, x.dir)));
/** The weight of arriving by target seed x: its turn into t's edge and the part of that edge up to t. */
const targetWeight = (g: GraphViews, weight: PartCost, t: Snap, x: TargetSeed) => r(x.turnWeight + weight(t.edge, x.dir, ...upTo(g, t, x.dir)));

/**
 * Driving straight from s to t along their one edge, where its direction allows: the weight and
 * the direction (1 along u→v, -1 against) of the cheaper way (against, of equals), or null.
 */
function straight(g: GraphViews, weight: PartCost, s: Snap, t: Snap): [number, 1 | -1] | null {
  if (s.edge !== t.edge) return null;
  const e = s.edge, f = g.edgeFlags[e];
  const along = f & 1 && s.pos <= t.pos ? r(weight(e, 0, s.pos, t.pos)) : Infinity;
  const against = f & 2 && s.pos >= t.pos ? r(weight(e, 1, t.pos, s.pos)) : Infinity;
  if (along === Infinity && against === Infinity) return null;
  return against <= along ? [against, -1] : [along, 1];
}

/** The target seed a search that ended at node b used: the cheapest of those seeded at b. */
export function targetEnd(g: GraphViews, targets: TargetSeed[], b: number, t: Snap, weight: PartCost): TargetSeed {
  let best: TargetSeed | null = null, bc = Infinity;
  for (const x of targets) {
    if (x.node !== b) continue;
    const c = x.turnWeight + weight(t.edge, x.dir, ...upTo(g, t, x.dir));
    if (c < bc) { bc = c; best = x; }
  }
  if (!best) throw new Error(`search ended at ${b}, which is no target seed`);
  return best;
}

/** The pieces of a leg that leaves edge es, drives path[0..n), and enters edge et. */
export function tracePath(g: GraphViews, trace: LegTrace, es: number, leaveForward: boolean, sPos: number, path: Int32Array | number[], n: number, et: number, enterForward: boolean, tPos: number) {
  trace.piece(es, leaveForward, sPos, leaveForward ? g.edgeDist[es] : 0);
  for (let i = 0; i < n; i++) {
    const e = path[i];
    if (e > 0) trace.piece(e - 1, true, 0, g.edgeDist[e - 1]);
    else trace.piece(-e - 1, false, g.edgeDist[-e - 1], 0);
  }
  trace.piece(et, enterForward, enterForward ? 0 : g.edgeDist[et], tPos);
}

function pushPt(g: GraphViews, c: CoordSink, p: number) {
  c.add(g.shapeLon[p], g.shapeLat[p]);
}

function push(c: CoordSink, lng: number, lat: number) {
  c.add(Math.round(lng * E7), Math.round(lat * E7));
}

/**
 * Of every pair (a[i], b[j]), the one whose leg() weighs least, as choose() (locate/candidates.ts)
 * picks among candidates that move their points as far: the first b[j] (in order) whose cheapest
 * pair weighs least, then the first a[i] that weighs that with it. One search seeded from all of
 * them instead of one per pair (a junction's 3 × 3 candidates took 9). Ties are common (two roads
 * leaving one junction node), so each seed carries a fraction below one unit of weight that ranks
 * the pairs as choose() does: j / (2·|b|) + i / (2·|a|·|b|), less than 1 in all, on weights that
 * are whole numbers. A pair on one edge may also drive straight along it, as leg() does. Null when
 * no pair routes.
 */
export function cheapestPair(g: GraphViews, q: PathSearch, a: Snap[], b: Snap[]): [number, number] | null {
  const weight = weightShare(g), ea = 0.5 / (a.length * b.length), eb = 0.5 / b.length;
  q.reset();
  // per candidate, its seeds' nodes and costs: which one the path starts or ends at
  const from: [number, number, number][] = [], to: [number, number, number][] = [];
  a.forEach((s, i) => {
    for (const x of sourceSeeds(g, s, srcSeeds)) { const c = sourceWeight(g, weight, s, x) + i * ea; from.push([x.node, c, i]); q.addSource(x.node, c); }
  });
  b.forEach((t, j) => {
    for (const x of targetSeeds(g, t, tgtSeeds)) { const c = targetWeight(g, weight, t, x) + j * eb; to.push([x.node, c, j]); q.addTarget(x.node, c); }
  });
  let cost = q.run(), pair: [number, number] | null = cost < Infinity ? [cheapestAt(from, q.startNode()), cheapestAt(to, q.endNode())] : null;
  a.forEach((s, i) => b.forEach((t, j) => {
    const st = straight(g, weight, s, t);
    if (st && st[0] + i * ea + j * eb < cost) { cost = st[0] + i * ea + j * eb; pair = [i, j]; }
  }));
  return pair;
}

/** The candidate whose seed at node x costs least (the first of equals): the one a search seeded there kept. */
function cheapestAt(seeds: [number, number, number][], x: number): number {
  let best = -1, bc = Infinity;
  for (const [node, c, k] of seeds) if (node === x && c < bc) { bc = c; best = k; }
  return best;
}
