// One route through snapped points: per leg, phantom start/end costs on the snapped
// edges, a shortest-path search, then distance and (optionally) geometry by unpacking.
import type { GraphViews } from '../../../src/core/format/route.ts';
import { E7 } from '../../../src/core/format/route.ts';
import type { PathSearch } from './path-search.ts';
import type { Snap } from '../locate/snap.ts';
import type { CoordSink } from '../answers/coords.ts';

export interface Leg {
  /** ms */
  cost: number;
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

/**
 * Best path between two snapped points. Returns null when there is none.
 * With `coords`, appends the leg's points (the sink drops a point equal to the last one).
 */
export function leg(g: GraphViews, q: PathSearch, s: Snap, t: Snap, coords?: CoordSink, trace?: LegTrace): Leg | null {
  const es = s.edge, et = t.edge;
  const fs = g.edgeFlags[es], ft = g.edgeFlags[et];
  // The partial end edges: a share of the edge's time, or, with a search of its own weights
  // (traffic), what that search says metres x..y of the edge take (partWeight: an edge's live time
  // may have been observed on a part of it only).
  const lenS = g.edgeDist[es], lenT = g.edgeDist[et];
  const part = q.partWeight
    ? (e: number, dir: 0 | 1, x: number, y: number) => q.partWeight!(e, dir, x, y)
    : (e: number, _dir: 0 | 1, x: number, y: number) => { const len = g.edgeDist[e]; return len > 0 ? ((y - x) / len) * g.edgeW[e] : 0; };
  const ch = !q.partWeight, wS = g.edgeW[es], wT = g.edgeW[et];
  q.reset();
  // (the contraction hierarchy keeps its products of fractions: the same rounding as its matrix)
  if (fs & 1) q.addSource(g.edgeV[es], r(ch ? (1 - s.frac) * wS : part(es, 0, s.pos, lenS)));
  if (fs & 2) q.addSource(g.edgeU[es], r(ch ? s.frac * wS : part(es, 1, 0, s.pos)));
  if (ft & 1) q.addTarget(g.edgeU[et], r(ch ? t.frac * wT : part(et, 0, 0, t.pos)));
  if (ft & 2) q.addTarget(g.edgeV[et], r(ch ? (1 - t.frac) * wT : part(et, 1, t.pos, lenT)));
  let cost = q.run();
  const settled = q.settled;
  // Both points on one edge: going straight along it may beat leaving it.
  let direct = 0; // 1 along u→v, -1 against
  if (es === et) {
    if (fs & 1 && s.pos <= t.pos) { const c = r(ch ? (t.frac - s.frac) * wS : part(es, 0, s.pos, t.pos)); if (c <= cost) { cost = c; direct = 1; } }
    if (fs & 2 && s.pos >= t.pos) { const c = r(ch ? (s.frac - t.frac) * wS : part(es, 1, t.pos, s.pos)); if (c <= cost) { cost = c; direct = -1; } }
  }
  if (cost === Infinity) return null;
  if (direct) {
    if (coords) {
      push(coords, s.lng, s.lat);
      if (direct > 0) for (let p = s.pt + 1; p <= t.pt; p++) pushPt(g, coords, p);
      else for (let p = s.pt; p > t.pt; p--) pushPt(g, coords, p);
      push(coords, t.lng, t.lat);
    }
    trace?.piece(es, direct > 0, s.pos, t.pos);
    return { cost, dist: Math.abs(t.pos - s.pos), settled };
  }
  const a = q.startNode(), b = q.endNode();
  // Which way the source edge was left and the target edge entered (a loop edge has u == v: use costs).
  const leaveForward = fs & 1 && g.edgeV[es] === a && (!(fs & 2) || g.edgeU[es] !== a || (1 - s.frac) <= s.frac);
  const enterForward = ft & 1 && g.edgeU[et] === b && (!(ft & 2) || g.edgeV[et] !== b || t.frac <= 1 - t.frac);
  let dist = (leaveForward ? g.edgeDist[es] - s.pos : s.pos) + (enterForward ? t.pos : g.edgeDist[et] - t.pos);
  const path = q.path(), n = path.length;
  for (let i = 0; i < n; i++) { const e = path[i]; dist += g.edgeDist[e > 0 ? e - 1 : -e - 1]; }
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
  if (trace) tracePath(g, trace, es, !!leaveForward, s.pos, path, n, et, !!enterForward, t.pos);
  return { cost, dist, settled };
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
