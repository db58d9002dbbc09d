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
// leg equals /route's answer for it. Method: up to EXACT_MAX stops, exact (depth-first branch and
// bound over orders, bounded by the heuristic's tour); above, cheapest insertion then local search
// (or-opt moves of 1–3 consecutive stops, 2-opt reversals, first improvement, every move evaluated
// on the whole tour so windows and asymmetric costs are exact), then double-bridge perturbations
// kept when they improve, for PERTURB_ROUNDS rounds or PERTURB_MS.
import { TaskError } from '../../src/core/task.ts';
import { matrixCosts } from './matrix.ts';
import { checkPoint } from './candidates.ts';
import { rng } from '../../src/core/rand.ts';

export interface Stop { lat: number; lng: number; id?: string; service_s?: number; time_window?: [number, number] }
export interface OptimizeArgs { start: [number, number]; end?: [number, number]; round_trip?: boolean; stops: Stop[]; mode?: string; radius?: number }

export const EXACT_MAX = 10;
export const LATE_WEIGHT = 1000;
const PERTURB_ROUNDS = 60;
const PERTURB_MS = 300;
/** the first local search's own cap (200 stops: one or-opt sweep is ~24M steps) */
const LOCAL_MS = 500;

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

/** Cheapest insertion: each stop in turn (farthest-first from the start) where it adds least. */
function construct(tour: Tour): number[] {
  const n = tour.n;
  const order = Array.from({ length: n }, (_, i) => i + 1).sort((a, b) => tour.ms[b] - tour.ms[a] || a - b);
  const seq: number[] = [];
  const buf = new Int32Array(n);
  for (const s of order) {
    let bestPos = seq.length, bestCost = Infinity;
    for (let p = 0; p <= seq.length; p++) {
      for (let k = 0, j = 0; k <= seq.length; k++) { if (k === p) buf[j++] = s; if (k < seq.length) buf[j++] = seq[k]; }
      const c = tour.cost(buf, seq.length + 1);
      if (c < bestCost) { bestCost = c; bestPos = p; }
    }
    seq.splice(bestPos, 0, s);
  }
  return seq;
}

/**
 * Or-opt and 2-opt: every move of a sweep is tried and applied at once when it improves (the sweep
 * goes on from there), sweeps repeat until one improves nothing or the deadline passes.
 */
function localSearch(tour: Tour, seq: Int32Array, deadline: number): number {
  const n = seq.length, buf = new Int32Array(n);
  let cur = tour.cost(seq, n);
  let improved = true;
  while (improved && performance.now() < deadline) {
    improved = false;
    // or-opt: move seq[i..i+len) to before position p (in the sequence without the segment)
    for (let len = 1; len <= 3; len++) {
      for (let i = 0; i + len <= n; i++) {
        for (let p = 0; p <= n - len; p++) {
          if (p === i) continue;
          let j = 0;
          for (let k = 0; k < n; k++) {
            if (k >= i && k < i + len) continue;
            if (j === p) for (let x = 0; x < len; x++) buf[j++] = seq[i + x];
            buf[j++] = seq[k];
          }
          if (j < n) for (let x = 0; x < len; x++) buf[j++] = seq[i + x];
          const c = tour.cost(buf, n);
          if (c < cur - 1e-9) { seq.set(buf); cur = c; improved = true; }
        }
      }
      if (performance.now() > deadline) return cur;
    }
    // 2-opt: reverse seq[i..j]
    for (let i = 0; i < n - 1; i++) {
      for (let j = i + 1; j < n; j++) {
        buf.set(seq);
        for (let a = i, b = j; a < b; a++, b--) { const t = buf[a]; buf[a] = buf[b]; buf[b] = t; }
        const c = tour.cost(buf, n);
        if (c < cur - 1e-9) { seq.set(buf); cur = c; improved = true; }
      }
    }
  }
  return cur;
}

/** Best order found for the tour (node ids 1..n). */
export function solveTour(tour: Tour, seed = 1, o: { rounds?: number; perturbMs?: number; localMs?: number } = {}): { seq: number[]; cost: number; method: string } {
  const n = tour.n;
  if (n === 0) return { seq: [], cost: tour.cost([], 0), method: 'trivial' };
  const t0 = performance.now();
  let seq = Int32Array.from(construct(tour));
  let best = localSearch(tour, seq, t0 + (o.localMs ?? LOCAL_MS));
  if (n <= EXACT_MAX) {
    const ex = exact(tour, best + 1e-6, Array.from(seq));
    return { seq: ex, cost: tour.cost(ex, n), method: 'exact' };
  }
  const r = rng(seed);
  const deadline = performance.now() + (o.perturbMs ?? PERTURB_MS);
  for (let round = 0; round < (o.rounds ?? PERTURB_ROUNDS) && performance.now() < deadline && n >= 8; round++) {
    // double bridge: A B C D → A C B D
    const cuts = [1 + Math.floor(r() * (n - 3)), 0, 0].map((x) => x);
    cuts[1] = cuts[0] + 1 + Math.floor(r() * (n - cuts[0] - 2));
    cuts[2] = cuts[1] + 1 + Math.floor(r() * (n - cuts[1] - 1));
    const [a, b, c] = cuts;
    const cand = Int32Array.from([...seq.subarray(0, a), ...seq.subarray(b, c), ...seq.subarray(a, b), ...seq.subarray(c)]);
    const cc = localSearch(tour, cand, deadline);
    if (cc < best - 1e-9) { best = cc; seq = cand; }
  }
  return { seq: Array.from(seq), cost: best, method: 'insertion+local-search' };
}


const r1 = (x: number) => Math.round(x * 10) / 10;

export function optimizeTask(args: OptimizeArgs) {
  if (!Array.isArray(args.stops) || args.stops.length === 0) throw new TaskError(400, 'invalid_parameter', "Parameter 'stops' must list at least one stop.");
  const start = checkPoint(args.start, 'start');
  const roundTrip = args.end ? false : args.round_trip ?? true;
  const end = args.end ? checkPoint(args.end, 'end') : roundTrip ? start : null;
  const stops = args.stops.map((s, i) => {
    const p = checkPoint([s?.lat, s?.lng], `stops[${i}]`);
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
  const outStops: unknown[] = [], legs: unknown[] = [], unmet: unknown[] = [];
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
