// Task `route_optimize`: the order to visit up to 200 stops, time-window aware.
//
//   args: { start: [lat, lng], end?: [lat, lng], round_trip?: boolean (default: true without `end`),
//           stops: { lat, lng, id?: string, service_s?: number, time_window?: [from_s, to_s] }[],
//           mode?, radius? }
//   Times are seconds after departure from `start` (t = 0). Arriving before a window opens waits for
//   it; arriving after it closes is allowed but reported (`unmet_time_windows`, `late_s`).
//   answer: { order: [stop index…], stops: [{ index, id?, lat, lng, arrival_s, start_s, departure_s,
//             late_s, time_window? }], legs: [{ from, to, distance_m, duration_s }] ('start', stop
//             index, or 'end'), distance_m, duration_s (driving), total_time_s (with waiting and
//             service), unmet_time_windows: [{ index, id?, late_s }], method, mode, extract }
//
// Objective: lateness first (each late second weighs LATE_WEIGHT driving seconds), then the time the
// tour ends (driving + waiting + service). Costs come from the matrix task (matrixCosts), so every
// leg equals /route's answer for it. Method: cheapest insertion, then local search over neighbour
// lists with don't-look bits (2-opt reversals and or-opt moves of 1–3 stops either way round that
// put a stop next to one of its NEIGHBOURS nearest), each move scored from prefix arrays (class
// Search: O(1) without windows, a walk of the changed part with windows, exact with asymmetric
// costs), then iterated local search: a segment exchange near a random place, local search from
// the changed junctions, kept when no worse; it stops after STALL_ROUNDS rounds without
// improvement, MAX_ROUNDS, or SEARCH_MS. Up to EXACT_MAX stops the result then bounds an exact
// depth-first branch and bound over orders.
import { TaskError } from '../../../src/core/task.ts';
import { matrixCosts } from '../matrix/task.ts';
import { checkPoint } from '../locate/candidates.ts';
import { rng } from '../../../src/core/rand.ts';

import type { OptimizeArgs, OptimizeReply, Stop } from '../../../src/core/tasks/index.ts';
export type { OptimizeArgs, Stop };

export const EXACT_MAX = 10;
export const LATE_WEIGHT = 1000;
/** nearest nodes each stop's moves try to put it next to */
const NEIGHBOURS = 10;
/** the search's time budget (after the matrix): a cap for a loaded machine, rarely reached idle */
const SEARCH_MS = 300;
/** perturbation rounds at most, and without improvement before stopping */
const MAX_ROUNDS = 5_000;
const STALL_ROUNDS = 500;
/** longest segment a perturbation moves */
const SEGMENT_MAX = 30;

/** The tour model: matrix over [start, stop 1…n, end] (end = index n+1 when the tour has one). */
export class Tour {
  readonly n: number;
  readonly N: number;
  /** index of the end node, or -1 for an open tour ending at its last stop */
  readonly end: number;
  constructor(readonly ms: Float64Array, n: number, hasEnd: boolean, readonly from: Float64Array, readonly to: Float64Array, readonly service: Float64Array) {
    this.n = n; this.N = n + (hasEnd ? 2 : 1); this.end = hasEnd ? n + 1 : -1;
  }

  /** Objective of visiting stops seq[0..len) (node ids 1..n) in order; Infinity when a leg is impossible. */
  cost(seq: ArrayLike<number>, len: number): number {
    const { ms, N, from, to, service } = this;
    let t = 0, late = 0, a = 0;
    for (let k = 0; k < len; k++) {
      const b = seq[k];
      const c = ms[a * N + b];
      if (c === Infinity) return Infinity;
      t += c;
      if (t < from[b]) t = from[b];
      if (t > to[b]) late += t - to[b];
      t += service[b];
      a = b;
    }
    if (this.end >= 0) { const c = ms[a * N + this.end]; if (c === Infinity) return Infinity; t += c; }
    return t + LATE_WEIGHT * late;
  }
}

/** Exact best order by depth-first branch and bound; `bound` is a known tour's cost. */
export function exact(tour: Tour, bound: number, boundSeq: number[]): number[] {
  const n = tour.n, seq = new Int32Array(n), used = new Uint8Array(n + 1);
  let best = bound, bestSeq = boundSeq.slice();
  const { ms, N, from, to, service } = tour;
  // Each stop not yet visited will be entered by some leg and served: a lower bound on what remains.
  const minIn = new Float64Array(n + 1);
  let rest = 0;
  for (let b = 1; b <= n; b++) {
    let m = Infinity;
    for (let a = 0; a <= n; a++) if (a !== b) m = Math.min(m, ms[a * N + b]);
    minIn[b] = m + service[b];
    rest += minIn[b];
  }
  const go = (k: number, a: number, t: number, late: number) => {
    if (t + rest + LATE_WEIGHT * late >= best) return; // every later leg only adds
    if (k === n) {
      let c = t + LATE_WEIGHT * late;
      if (tour.end >= 0) { const e = ms[a * N + tour.end]; if (e === Infinity) return; c += e; }
      if (c < best) { best = c; bestSeq = Array.from(seq); }
      return;
    }
    for (let b = 1; b <= n; b++) {
      if (used[b]) continue;
      const c = ms[a * N + b];
      if (c === Infinity) continue;
      let nt = t + c, nl = late;
      if (nt < from[b]) nt = from[b];
      if (nt > to[b]) nl += nt - to[b];
      nt += service[b];
      used[b] = 1; seq[k] = b; rest -= minIn[b];
      go(k + 1, b, nt, nl);
      used[b] = 0; rest += minIn[b];
    }
  };
  go(0, 0, 0, 0);
  return bestSeq;
}

const EPS = 1e-3;
/** stands in for an impossible leg inside the search, so deltas stay finite (the answer is rescored) */
const BIG = 1e12;

/**
 * The route under search, R[0..M) = start, stops…, end (an open tour ends at a virtual node every
 * stop reaches for free), with prefix arrays over it so that a move (the route rebuilt from pieces
 * of itself) is scored without rebuilding it: drive F/B (forward and reversed legs) and service S
 * give the score of a tour without time windows in O(pieces); with windows, the departure time and
 * lateness at each position let the score walk only the changed pieces and the suffix until its
 * schedule meets the old one again (same departure) or no window is left after it.
 */
export class Search {
  readonly W: number;
  readonly E: number;
  readonly c: Float64Array;
  readonly from: Float64Array; readonly to: Float64Array; readonly service: Float64Array;
  readonly hasWindows: boolean;
  M = 0;
  R: Int32Array; F: Float64Array; B: Float64Array; S: Float64Array; dep: Float64Array; late: Float64Array;
  lastWin = 0;
  cur = 0;
  private tmp: Int32Array;
  constructor(tour: Tour) {
    const n = tour.n, W = n + 2, N = tour.N;
    this.W = W; this.E = n + 1;
    this.c = new Float64Array(W * W);
    for (let a = 0; a < N; a++) for (let b = 0; b < N; b++) { const v = tour.ms[a * N + b]; this.c[a * W + b] = v === Infinity ? BIG : v; }
    if (tour.end < 0) for (let a = 0; a < W; a++) { this.c[a * W + n + 1] = 0; this.c[(n + 1) * W + a] = BIG; }
    this.from = new Float64Array(W); this.to = new Float64Array(W).fill(Infinity); this.service = new Float64Array(W);
    let win = false;
    for (let v = 1; v <= n; v++) {
      this.from[v] = tour.from[v]; this.to[v] = tour.to[v]; this.service[v] = tour.service[v];
      if (tour.from[v] > 0 || tour.to[v] < Infinity) win = true;
    }
    this.hasWindows = win;
    this.R = new Int32Array(W); this.tmp = new Int32Array(W);
    this.F = new Float64Array(W); this.B = new Float64Array(W); this.S = new Float64Array(W);
    this.dep = new Float64Array(W); this.late = new Float64Array(W);
  }

  refresh(): void {
    const { R, F, B, S, dep, late, c, W, from, to, service } = this;
    let lastWin = 0;
    for (let k = 1; k < this.M; k++) {
      const a = R[k - 1], b = R[k];
      F[k] = F[k - 1] + c[a * W + b]; B[k] = B[k - 1] + c[b * W + a]; S[k] = S[k - 1] + service[b];
      let t = dep[k - 1] + c[a * W + b], l = late[k - 1];
      if (t < from[b]) t = from[b];
      if (t > to[b]) { l += t - to[b]; }
      if (from[b] > 0 || to[b] < Infinity) lastWin = k;
      dep[k] = t + service[b]; late[k] = l;
    }
    this.lastWin = lastWin;
    this.cur = dep[this.M - 1] + LATE_WEIGHT * late[this.M - 1];
  }

  /** Score of the rest once node `prev` is left at time t with lateness l so far and the old route resumes at position y. */
  private suffix(t: number, l: number, prev: number, y: number, limit: number): number {
    const { R, c, W, from, to, service, dep, late, F, S, M } = this;
    let k = y, v = R[y];
    t += c[prev * W + v];
    for (;;) {
      if (t < from[v]) t = from[v];
      if (t > to[v]) l += t - to[v];
      t += service[v];
      if (t === dep[k]) return dep[M - 1] + LATE_WEIGHT * (l + late[M - 1] - late[k]);
      if (k >= this.lastWin) return t + (F[M - 1] - F[k]) + (S[M - 1] - S[k]) + LATE_WEIGHT * l;
      if (t + LATE_WEIGHT * l >= limit) return Infinity; // every later leg only adds
      k++; const u = v; v = R[k]; t += c[u * W + v];
    }
  }

  /**
   * Score of R[0..x], then the pieces (pairs a, b of positions: a ≤ b forward, a > b reversed), then
   * R[y..M). Infinity when the walk shows it cannot beat `limit`.
   */
  score(x: number, pc: Int32Array, np: number, y: number, limit: number): number {
    const { R, c, W, F, B, M } = this;
    if (!this.hasWindows) {
      let d = F[x], prev = R[x];
      for (let q = 0; q < np; q += 2) {
        const a = pc[q], b = pc[q + 1];
        d += c[prev * W + R[a]] + (a <= b ? F[b] - F[a] : B[a] - B[b]);
        prev = R[b];
      }
      return d + c[prev * W + R[y]] + F[M - 1] - F[y] + this.S[M - 1];
    }
    const { from, to, service } = this;
    let t = this.dep[x], l = this.late[x], prev = R[x];
    for (let q = 0; q < np; q += 2) {
      const a = pc[q], b = pc[q + 1], st = a <= b ? 1 : -1;
      for (let k = a; ; k += st) {
        const v = R[k];
        t += c[prev * W + v];
        if (t < from[v]) t = from[v];
        if (t > to[v]) l += t - to[v];
        t += service[v];
        prev = v;
        if (k === b) break;
      }
      if (t + LATE_WEIGHT * l >= limit) return Infinity;
    }
    return this.suffix(t, l, prev, y, limit);
  }

  /** Score with node v (not on the route) inserted after position p. */
  insertCost(v: number, p: number, limit: number): number {
    const { R, c, W, M } = this;
    const a = R[p], b = R[p + 1];
    if (!this.hasWindows) return this.F[M - 1] + this.S[M - 1] + this.service[v] + c[a * W + v] + c[v * W + b] - c[a * W + b];
    let t = this.dep[p] + c[a * W + v], l = this.late[p];
    if (t < this.from[v]) t = this.from[v];
    if (t > this.to[v]) l += t - this.to[v];
    return this.suffix(t + this.service[v], l, v, p + 1, limit);
  }

  /** Rebuild the route from the pieces (as `score` reads them). */
  apply(x: number, pc: Int32Array, np: number, y: number): void {
    const { R, tmp, M } = this;
    let j = 0;
    for (let k = 0; k <= x; k++) tmp[j++] = R[k];
    for (let q = 0; q < np; q += 2) {
      const a = pc[q], b = pc[q + 1];
      if (a <= b) for (let k = a; k <= b; k++) tmp[j++] = R[k];
      else for (let k = a; k >= b; k--) tmp[j++] = R[k];
    }
    for (let k = y; k < M; k++) tmp[j++] = R[k];
    this.tmp = R; this.R = tmp;
    this.refresh();
  }
}

/**
 * Cheapest insertion: each stop in turn where it adds least; in turn farthest-first from the start,
 * or with windows by closing time first (then the stops without one, farthest-first).
 */
function construct(s: Search, tour: Tour, byWindow: boolean): void {
  const n = tour.n;
  const order = Array.from({ length: n }, (_, i) => i + 1)
    .sort((a, b) => (byWindow ? tour.to[a] - tour.to[b] || tour.from[a] - tour.from[b] : 0) || tour.ms[b] - tour.ms[a] || a - b);
  s.M = 2; s.R[0] = 0; s.R[1] = s.E;
  s.refresh();
  for (const v of order) {
    let bestP = 0, bestC = Infinity;
    for (let p = 0; p < s.M - 1; p++) {
      const c = s.insertCost(v, p, bestC);
      if (c < bestC) { bestC = c; bestP = p; }
    }
    s.R.copyWithin(bestP + 2, bestP + 1, s.M);
    s.R[bestP + 1] = v; s.M++;
    s.refresh();
  }
}

/** For each stop, the NEIGHBOURS nearest nodes (other stops, start, end) by the round trip between them. */
function neighbours(s: Search, n: number): Int32Array[] {
  const { c, W } = s, K = Math.min(NEIGHBOURS, n + 1);
  const out: Int32Array[] = [new Int32Array(0)];
  const bd = new Float64Array(K);
  for (let u = 1; u <= n; u++) {
    const bv = new Int32Array(K);
    let size = 0;
    for (let v = 0; v <= n + 1; v++) {
      if (v === u) continue;
      const d = c[u * W + v] + c[v * W + u];
      if (size === K && d >= bd[K - 1]) continue;
      let k = size < K ? size++ : K - 1;
      for (; k > 0 && bd[k - 1] > d; k--) { bd[k] = bd[k - 1]; bv[k] = bv[k - 1]; }
      bd[k] = d; bv[k] = v;
    }
    out.push(bv.subarray(0, size));
  }
  return out;
}

/**
 * Local search with neighbour lists and don't-look bits: a stop in the queue tries every 2-opt
 * reversal and or-opt move (1–3 stops, either way round) that puts it next to one of its
 * neighbours, applies the best that improves, and queues the stops at the changed junctions.
 */
class Local {
  private queue: Int32Array; private head = 0; private size = 0;
  private queued: Uint8Array;
  private pos: Int32Array;
  private pc = new Int32Array(4); private best = new Int32Array(4);
  constructor(private s: Search, private nb: Int32Array[], private n: number) {
    this.queue = new Int32Array(n); this.queued = new Uint8Array(n + 2); this.pos = new Int32Array(n + 2);
  }
  private bestC = 0; private bx = -1; private by = -1; private bnp = 0;
  private tryMove(x: number, np: number, y: number): void {
    const c = this.s.score(x, this.pc, np, y, this.bestC);
    if (c < this.bestC) { this.bestC = c; this.bx = x; this.by = y; this.bnp = np; this.best.set(this.pc); }
  }
  push(v: number): void {
    if (v < 1 || v > this.n || this.queued[v]) return;
    this.queued[v] = 1; this.queue[(this.head + this.size++) % this.n] = v;
  }
  run(deadline: number): void {
    const s = this.s, pos = this.pos, pc = this.pc, best = this.best, M = s.M, n = this.n;
    let steps = 0;
    for (let k = 0; k < M; k++) pos[s.R[k]] = k;
    while (this.size > 0) {
      if ((++steps & 255) === 0 && performance.now() > deadline) return;
      const u = this.queue[this.head]; this.head = (this.head + 1) % n; this.size--; this.queued[u] = 0;
      const i = pos[u];
      this.bestC = s.cur - EPS; this.bx = -1;
      for (const v of this.nb[u]) {
        const j = pos[v];
        // 2-opt: reverse a stretch so that u and v become adjacent
        if (i < j) {
          if (j <= n && i + 1 < j) { pc[0] = j; pc[1] = i + 1; this.tryMove(i, 2, j + 1); }
          if (i < j - 1) { pc[0] = j - 1; pc[1] = i; this.tryMove(i - 1, 2, j); }
        } else {
          if (j + 1 < i) { pc[0] = i; pc[1] = j + 1; this.tryMove(j, 2, i + 1); }
          if (j >= 1 && j < i - 1) { pc[0] = i - 1; pc[1] = j; this.tryMove(j - 1, 2, i); }
        }
        // or-opt: a stretch of 1–3 stops starting or ending at u moved next to v
        for (let L = 1; L <= 3; L++) {
          for (let side = 0; side < 2; side++) {
            if (L === 1 && side === 1) break;
            const a = side === 0 ? i : i - L + 1, e = a + L - 1;
            if (a < 1 || e > n) continue;
            for (let p = j - 1; p <= j; p++) {
              if (p < 0 || p > M - 2 || (p >= a - 1 && p <= e)) continue;
              for (let rev = 0; rev < (L === 1 ? 1 : 2); rev++) {
                const sa = rev ? e : a, sb = rev ? a : e;
                if (p < a - 1) { pc[0] = sa; pc[1] = sb; pc[2] = p + 1; pc[3] = a - 1; this.tryMove(p, 4, e + 1); }
                else { pc[0] = e + 1; pc[1] = p; pc[2] = sa; pc[3] = sb; this.tryMove(a - 1, 4, p + 1); }
              }
            }
          }
        }
      }
      const { bx, by, bnp } = this;
      if (bx < 0) continue;
      const R = s.R;
      this.push(R[bx]); this.push(R[by]); this.push(u);
      for (let q = 0; q < bnp; q++) this.push(R[best[q]]);
      s.apply(bx, best, bnp, by);
      for (let k = 0; k < M; k++) pos[s.R[k]] = k;
    }
  }
}

export interface SolveOptions { ms?: number; rounds?: number; stall?: number }

/** Best order found for the tour (node ids 1..n). */
export function solveTour(tour: Tour, seed = 1, o: SolveOptions = {}): { seq: number[]; cost: number; method: string; rounds: number } {
  const n = tour.n;
  if (n === 0) return { seq: [], cost: tour.cost([], 0), method: 'trivial', rounds: 0 };
  const deadline = performance.now() + (o.ms ?? SEARCH_MS);
  const s = new Search(tour);
  construct(s, tour, false);
  if (s.hasWindows) {
    const R = s.R.slice(), c = s.cur;
    construct(s, tour, true);
    if (c < s.cur) { s.R.set(R); s.refresh(); }
  }
  const ls = new Local(s, neighbours(s, n), n);
  for (let k = 1; k <= n; k++) ls.push(s.R[k]);
  ls.run(deadline);
  let bestR = s.R.slice(), bestC = s.cur, round = 0;
  if (n >= 8) {
    // iterated local search: a segment exchange (double bridge: A B C D → A C B D) near a random
    // place, then local search from the changed junctions only; kept when no worse
    const r = rng(seed), maxRounds = o.rounds ?? MAX_ROUNDS, stall = o.stall ?? STALL_ROUNDS;
    const pc = new Int32Array(4), lmax = Math.max(1, Math.min(SEGMENT_MAX, Math.floor(n / 3)));
    let last = 0;
    for (round = 1; round <= maxRounds && round - last <= stall; round++) {
      if ((round & 15) === 0 && performance.now() > deadline) break;
      const l1 = 1 + Math.floor(r() * lmax), l2 = 1 + Math.floor(r() * lmax);
      const i = 1 + Math.floor(r() * (n - l1 - l2 + 1));
      pc[0] = i + l1; pc[1] = i + l1 + l2 - 1; pc[2] = i; pc[3] = i + l1 - 1;
      const R = s.R;
      for (const k of [i - 1, i, i + l1 - 1, i + l1, i + l1 + l2 - 1, i + l1 + l2]) ls.push(R[k]);
      s.apply(i - 1, pc, 4, i + l1 + l2);
      ls.run(deadline);
      if (s.cur < bestC - EPS) { bestC = s.cur; bestR.set(s.R); last = round; }
      else if (s.cur <= bestC + EPS) bestR.set(s.R);
      else { s.R.set(bestR); s.refresh(); }
    }
  }
  const seq = Array.from(bestR.subarray(1, n + 1));
  if (n <= EXACT_MAX) {
    const ex = exact(tour, tour.cost(seq, n) + 1e-6, seq);
    return { seq: ex, cost: tour.cost(ex, n), method: 'exact', rounds: round };
  }
  return { seq, cost: tour.cost(seq, n), method: 'insertion+local-search', rounds: round };
}

const r1 = (x: number) => Math.round(x * 10) / 10;

export function optimizeTask(args: OptimizeArgs): OptimizeReply {
  if (!Array.isArray(args.stops) || args.stops.length === 0) throw new TaskError(400, 'invalid_parameter', "Parameter 'stops' must list at least one stop.");
  const start = checkPoint(args.start, 'start');
  const roundTrip = args.end ? false : args.round_trip ?? true;
  const end = args.end ? checkPoint(args.end, 'end') : roundTrip ? start : null;
  const stops = args.stops.map((s, i) => {
    const p = checkPoint([s?.lat, s?.lng], 'stops', i);
    const w = s.time_window;
    if (w !== undefined && !(Array.isArray(w) && w.length === 2 && w.every((x) => typeof x === 'number' && x >= 0) && w[0] <= w[1]))
      throw new TaskError(400, 'invalid_parameter', `Parameter 'stops[${i}].time_window' must be [from_s, to_s] with 0 ≤ from_s ≤ to_s.`);
    if (s.service_s !== undefined && !(typeof s.service_s === 'number' && s.service_s >= 0)) throw new TaskError(400, 'invalid_parameter', `Parameter 'stops[${i}].service_s' must be a number ≥ 0.`);
    return p;
  });
  const n = stops.length;
  const pts = [start, ...stops, ...(end ? [end] : [])];
  const m = matrixCosts({ sources: pts, destinations: pts, mode: args.mode, radius: args.radius });
  for (let i = 0; i < pts.length; i++) if (!m.src[i]) {
    const name = i === 0 ? 'start' : i <= n ? `stops[${i - 1}]` : 'end';
    throw new TaskError(400, 'no_road_nearby', `No ${m.graph.profile} road within the radius of '${name}'.`);
  }
  const N = pts.length;
  const from = new Float64Array(N), to = new Float64Array(N).fill(Infinity), service = new Float64Array(N);
  args.stops.forEach((s, i) => {
    if (s.time_window) { from[i + 1] = s.time_window[0] * 1000; to[i + 1] = s.time_window[1] * 1000; }
    service[i + 1] = (s.service_s ?? 0) * 1000;
  });
  const tour = new Tour(m.ms, n, !!end, from, to, service);
  // A stop the start cannot reach, or that cannot reach the end, makes every order impossible: name it.
  for (let i = 1; i <= n; i++) {
    if (m.ms[i] === Infinity) throw new TaskError(400, 'no_route', `No ${m.graph.profile} route from 'start' to 'stops[${i - 1}]'.`);
    if (end && m.ms[i * N + N - 1] === Infinity) throw new TaskError(400, 'no_route', `No ${m.graph.profile} route from 'stops[${i - 1}]' to '${roundTrip ? 'start' : 'end'}'.`);
  }
  const sol = solveTour(tour);
  if (sol.cost === Infinity) throw new TaskError(400, 'no_route', 'No order of the stops can be driven: some stops cannot reach one another.');
  // the schedule of the chosen order
  const outStops: OptimizeReply['stops'] = [], legs: OptimizeReply['legs'] = [], unmet: OptimizeReply['unmet_time_windows'] = [];
  let t = 0, a = 0, drive = 0, dist = 0;
  const nodeName = (x: number) => (x === 0 ? 'start' : x === N - 1 && end ? 'end' : x - 1);
  const addLeg = (x: number, y: number) => {
    const c = m.ms[x * N + y], d = m.metres[x * N + y];
    drive += c; dist += d;
    legs.push({ from: nodeName(x), to: nodeName(y), distance_m: r1(d), duration_s: r1(c / 1000) });
    return c;
  };
  for (const b of sol.seq) {
    t += addLeg(a, b);
    const arrival = t;
    if (t < from[b]) t = from[b];
    const late = t > to[b] ? t - to[b] : 0;
    const s = args.stops[b - 1];
    const startS = t;
    t += service[b];
    outStops.push({
      index: b - 1, ...(s.id !== undefined ? { id: s.id } : {}), lat: s.lat, lng: s.lng,
      arrival_s: r1(arrival / 1000), start_s: r1(startS / 1000), departure_s: r1(t / 1000), late_s: r1(late / 1000),
      ...(s.time_window ? { time_window: s.time_window } : {}),
    });
    if (late > 0) unmet.push({ index: b - 1, ...(s.id !== undefined ? { id: s.id } : {}), late_s: r1(late / 1000) });
    a = b;
  }
  if (end) t += addLeg(a, N - 1);
  return {
    order: sol.seq.map((b) => b - 1),
    stops: outStops, legs,
    distance_m: r1(dist), duration_s: r1(drive / 1000), total_time_s: r1(t / 1000),
    unmet_time_windows: unmet, round_trip: roundTrip,
    method: sol.method, mode: m.graph.profile, extract: m.graph.extract,
  };
}
