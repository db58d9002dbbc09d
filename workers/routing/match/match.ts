// Task `route_match`: a GPS trace snapped to the roads (hidden Markov model map matching, Newson &
// Krumm 2009).
//
//   args: { points: { lat, lng, ts?: unix seconds, accuracy_m?: metres }[] (≤ 2,000), mode?, radius? }
//   answer: { matchings: [{ geometry: LineString, distance_m, duration_s, confidence, from, to }]
//               (one per piece: the trace is split where no route joins consecutive points, or
//               where `ts` jumps by more than MAX_GAP_S),
//             points: [{ lat, lng, distance_m, matching } | null] (null: an outlier or no road near),
//             confidence (0–1), mode, extract }
//
// Model: candidates of a point = the nearest position on each of the CANDIDATES nearest roads within
// max(MIN_SEARCH_M, 4σ) (σ = accuracy_m, default SIGMA_M); emission log p = -½(d/σ)²; transition
// log p = -|route metres − great-circle metres| / BETA_M, where route metres come from the
// many-to-many CH search between consecutive candidate sets (matrix/many-to-many.ts, so a leg is
// what /route would drive). Viterbi keeps the best path; a point whose every candidate is
// unreachable from the previous point's is first tried as an outlier (skipped), and when the next
// point cannot be reached either the trace is split there. The matched geometry routes consecutive
// chosen candidates with leg() (the /route code).
// Other modules (traffic) call matchTrace() for the matched base edges of each piece.
import { TaskError, JsonText } from '../../../src/core/task.ts';
import { E7, EDGE_NO_START } from '../../../src/core/format/route.ts';
import { haversine, M_PER_DEG } from '../../../src/core/geometry.ts';
import type { LoadedGraph } from '../graphs.ts';
import { modeAndRadius, checkPoint } from '../locate/candidates.ts';
import { manyToMany } from '../matrix/many-to-many.ts';
import { loadedGraphs } from '../graphs.ts';
import { leg, type LegTrace } from '../search/legs.ts';
import { JsonCoordSink } from '../answers/coords.ts';
import { boxSlack, nearOnSeg, project, type Snap } from '../locate/snap.ts';
import { coveringMost } from '../../../src/core/coverage.ts';

import type { MatchArgs, MatchReply, TracePoint } from '../../../src/core/tasks/index.ts';
export type { MatchArgs, TracePoint };

export const SIGMA_M = 10;
export const BETA_M = 15;
const MIN_SEARCH_M = 50;
const MAX_SEARCH_M = 200;
const CANDIDATES = 6;
/** A time gap above this many seconds starts a new matching. */
export const MAX_GAP_S = 600;
/** Route metres beyond great-circle + this are not a plausible transition. */
const MAX_DETOUR_M = 2000;
/** How far behind the previous fix on the same road a fix may fall and still count as standing still. */
const BACKTRACK_M = 40;
/** A fix whose visit adds more than this many metres over skipping it is dropped as an outlier. */
const DETOUR_M = 150;

export interface Matching {
  /** indices into the trace of the points this piece matched, in order */
  idx: number[];
  /** chosen candidate per matched point */
  snaps: Snap[];
  /** base edges driven, in order: +(e+1) along u→v, -(e+1) against (consecutive duplicates removed) */
  edges: number[];
  distance: number;
  /** ms */
  cost: number;
  confidence: number;
}

/** Candidates of one point: nearest position on each of the nearest distinct roads within the search radius. */
function pointCandidates(graph: LoadedGraph, lat: number, lng: number, search: number): Snap[] {
  const g = graph.g, c = g.meta.index_cos_lat;
  const kx = Math.cos(lat * (Math.PI / 180)) * M_PER_DEG, ky = M_PER_DEG;
  const byEdge = new Map<number, { i: number; t: number; d: number }>();
  const m = { t: 0, d: 0 };
  for (const i of graph.index.neighbors(lng * c, lat, 64, (search / M_PER_DEG) * boxSlack(g, lat))) {
    if (i >= g.segEdge.length || g.edgeFlags[g.segEdge[i]] & EDGE_NO_START) continue;
    nearOnSeg(g, i, lat, lng, kx, ky, m);
    if (m.d > search) continue;
    const e = g.segEdge[i], o = byEdge.get(e);
    if (!o || m.d < o.d) byEdge.set(e, { i, t: m.t, d: m.d });
  }
  const best = [...byEdge.values()].sort((a, b) => a.d - b.d).slice(0, CANDIDATES);
  return best.map((b) => project(g, b.i, b.t, lat, lng));
}

/** The matchings of a trace on one graph (see the file comment). */
export function matchTrace(graph: LoadedGraph, pts: TracePoint[]): { matchings: Matching[]; chosen: (Snap | null)[]; piece: number[] } {
  const n = pts.length;
  const cands = pts.map((p) => {
    const sigma = p.accuracy_m && p.accuracy_m > 0 ? p.accuracy_m : SIGMA_M;
    return pointCandidates(graph, p.lat, p.lng, Math.min(MAX_SEARCH_M, Math.max(MIN_SEARCH_M, 4 * sigma)));
  });
  const sigmaOf = (i: number) => (pts[i].accuracy_m && pts[i].accuracy_m! > 0 ? pts[i].accuracy_m! : SIGMA_M);
  const emission = (i: number, s: Snap) => -0.5 * (s.dist / sigmaOf(i)) ** 2;

  const matchings: Matching[] = [];
  const chosen: (Snap | null)[] = new Array(n).fill(null);
  const piece: number[] = new Array(n).fill(-1);
  // Viterbi state of the current piece
  let idx: number[] = [], score: Float64Array = new Float64Array(0), back: Int32Array[] = [];
  let last = -1; // trace index of the last point in the piece

  const close = () => {
    if (idx.length === 0) return;
    let c = 0;
    for (let k = 1; k < score.length; k++) if (score[k] > score[c]) c = k;
    const choice = new Array(idx.length);
    for (let k = idx.length - 1; k >= 0; k--) { choice[k] = c; if (k > 0) c = back[k][c]; }
    let snaps = idx.map((i, k) => cands[i][choice[k]]);
    let kept = idx.slice();
    const g = graph.g;
    // A fix that noise put a few metres behind the previous one on the same road would cost a loop
    // round the block (one-way streets): the vehicle stood still, so it keeps the previous position.
    for (let k = 1; k < snaps.length; k++) {
      const s = snaps[k - 1], t = snaps[k];
      if (s.edge === t.edge && t.pos < s.pos && s.pos - t.pos <= BACKTRACK_M) snaps[k] = { ...s, dist: haversine(pts[kept[k]].lat, pts[kept[k]].lng, s.lat, s.lng) };
    }
    // A fix whose road costs a detour (there and back) that skipping it avoids is an outlier.
    for (let pass = 0; pass < 2; pass++) {
      const drop = new Uint8Array(snaps.length);
      for (let k = 1; k + 1 < snaps.length; k++) {
        if (drop[k - 1]) continue;
        const a = leg(g, graph.query, snaps[k - 1], snaps[k]), b = leg(g, graph.query, snaps[k], snaps[k + 1]);
        const c = leg(g, graph.query, snaps[k - 1], snaps[k + 1]);
        if (a && b && c && a.dist + b.dist > c.dist + DETOUR_M) drop[k] = 1;
      }
      if (!drop.some(Boolean)) break;
      snaps = snaps.filter((_, k) => !drop[k]);
      kept = kept.filter((_, k) => !drop[k]);
    }
    idx = kept;
    const m: Matching = { idx: idx.slice(), snaps, edges: [], distance: 0, cost: 0, confidence: 0 };
    let sumDiff = 0;
    // the base edges each leg drives, as leg() traces them (its seeding and target end)
    const pushE = (e: number) => { if (m.edges[m.edges.length - 1] !== e) m.edges.push(e); };
    const trace: LegTrace = { piece: (e, forward) => pushE(forward ? e + 1 : -(e + 1)) };
    for (let k = 1; k < snaps.length; k++) {
      const l = leg(g, graph.query, snaps[k - 1], snaps[k], undefined, trace);
      if (!l) continue; // cannot happen: Viterbi kept only reachable transitions
      m.distance += l.dist; m.cost += l.cost;
      sumDiff += Math.abs(l.dist - haversine(pts[idx[k - 1]].lat, pts[idx[k - 1]].lng, pts[idx[k]].lat, pts[idx[k]].lng));
    }
    // how well route lengths explain the distances between fixes: 1 = exactly
    m.confidence = snaps.length > 1 ? Math.max(0, 1 - sumDiff / Math.max(1, m.distance)) : 0;
    for (let k = 0; k < idx.length; k++) { chosen[idx[k]] = snaps[k]; piece[idx[k]] = matchings.length; }
    matchings.push(m);
    idx = []; back = []; last = -1;
  };

  const start = (i: number) => {
    idx = [i]; back = [new Int32Array(0)];
    score = Float64Array.from(cands[i], (s) => emission(i, s));
    last = i;
  };

  for (let i = 0; i < n; i++) {
    const C = cands[i];
    if (C.length === 0) continue; // no road near: an outlier, left unmatched
    if (last < 0) { start(i); continue; }
    const gap = pts[i].ts !== undefined && pts[last].ts !== undefined ? pts[i].ts! - pts[last].ts! : 0;
    if (gap > MAX_GAP_S) { close(); start(i); continue; }
    const P = cands[last], K = C.length;
    const gc = haversine(pts[last].lat, pts[last].lng, pts[i].lat, pts[i].lng);
    const ms = new Float64Array(P.length * K).fill(Infinity), metres = new Float64Array(P.length * K).fill(Infinity);
    manyToMany(graph, P.map((s) => [s]), C.map((s) => [s]), ms, metres);
    const ns = new Float64Array(K).fill(-Infinity), nb = new Int32Array(K).fill(-1);
    for (let a = 0; a < P.length; a++) {
      if (score[a] === -Infinity) continue;
      for (let b = 0; b < K; b++) {
        const d = metres[a * K + b];
        if (d === Infinity) continue;
        const dd = Math.abs(d - gc);
        if (d - gc > MAX_DETOUR_M) continue;
        const v = score[a] - dd / BETA_M + emission(i, C[b]);
        if (v > ns[b]) { ns[b] = v; nb[b] = a; }
      }
    }
    if (ns.every((v) => v === -Infinity)) {
      // Unreachable from the previous point: an outlier if the next usable point is reachable from
      // the previous one, else the trace breaks here.
      let j = i + 1;
      while (j < n && cands[j].length === 0) j++;
      if (j < n && reachable(graph, P, cands[j], pts[last], pts[j])) continue;
      close(); start(i); continue;
    }
    idx.push(i); back.push(nb); score = ns; last = i;
  }
  close();
  return { matchings, chosen, piece };
}

function reachable(graph: LoadedGraph, P: Snap[], C: Snap[], p: TracePoint, c: TracePoint): boolean {
  const ms = new Float64Array(P.length * C.length).fill(Infinity), metres = new Float64Array(P.length * C.length).fill(Infinity);
  manyToMany(graph, P.map((s) => [s]), C.map((s) => [s]), ms, metres);
  const gc = haversine(p.lat, p.lng, c.lat, c.lng);
  for (const d of metres) if (d !== Infinity && d - gc <= MAX_DETOUR_M) return true;
  return false;
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r7 = (x: number) => Math.round(x * 1e7) / 1e7;
const COORDS = '\u0000coords';

export function matchTask(args: MatchArgs): JsonText<MatchReply> {
  const { mode } = modeAndRadius({ mode: args.mode });
  // The trace's length and each fix's ts and accuracy are checked where it arrives (src/core/limits.ts).
  const pts: TracePoint[] = args.points.map((p, i) => {
    const [lat, lng] = checkPoint([p.lat, p.lng], 'points', i);
    return { lat, lng, ts: p.ts, accuracy_m: p.accuracy_m };
  });
  // The extract covering the most fixes (an outlier far out must not refuse the whole trace).
  const graph = coveringMost(loadedGraphs(), mode, pts, MAX_SEARCH_M);
  const r = matchTrace(graph, pts);
  const geoms: string[] = [];
  const matchings = r.matchings.map((m) => {
    const sink = new JsonCoordSink();
    for (let k = 1; k < m.snaps.length; k++) leg(graph.g, graph.query, m.snaps[k - 1], m.snaps[k], sink);
    if (m.snaps.length === 1) { sink.add(Math.round(m.snaps[0].lng * E7), Math.round(m.snaps[0].lat * E7)); }
    geoms.push(sink.text());
    return { geometry: { type: 'LineString', coordinates: COORDS }, distance_m: r1(m.distance), duration_s: r1(m.cost / 1000), confidence: Math.round(m.confidence * 1000) / 1000, from: m.idx[0], to: m.idx[m.idx.length - 1], points: m.idx.length };
  });
  const matched = r.chosen.filter(Boolean).length;
  let wsum = 0, w = 0;
  for (const m of r.matchings) { wsum += m.confidence * Math.max(1, m.distance); w += Math.max(1, m.distance); }
  const body = {
    matchings,
    points: r.chosen.map((s, i) => (s ? { lat: r7(s.lat), lng: r7(s.lng), distance_m: r1(s.dist), matching: r.piece[i] } : null)),
    confidence: w ? Math.round((wsum / w) * (matched / pts.length) * 1000) / 1000 : 0,
    mode, extract: graph.extract,
  };
  let k = 0;
  // each geometry's coordinates written as JSON text (as /route does), spliced in order
  return new JsonText(JSON.stringify(body).replace(/"\\u0000coords"/g, () => geoms[k++]));
}
