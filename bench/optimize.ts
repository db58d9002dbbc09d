// npm run bench -- optimize [--rounds 5] [--long-ms 4000] [--no-http]
//
// Issue 11 §3: trip optimisation of 100 and 200 stops on Tanzania SW (random positions on roads of
// the largest SCC, round trip from the first). Prints one JSON object and writes
// bench/results/optimize.json.
//  1. In process, one thread, rounds alternated over the sizes, after one warm-up call whose time
//     is reported apart (`first_call_ms`, a fresh worker's JIT): p50 of the whole worker task
//     (`task_ms`: snapping, matrix, search, schedule) and of its parts on the same stops: the
//     matrix (`matrix_ms`), the search alone (`search_ms`, solveTour on that matrix) and the answer's
//     JSON text (`json_ms`). Also without and with time windows (60% of the stops, 5–20 minute
//     windows spread over the tour's first hours).
//  2. Quality: the default answer's objective against the best of three long runs (seeds 7, 8, 9,
//     --long-ms each, no stall or round limit): `gap_pct`.
//  3. HTTP: POST /api/v1/route/optimize on the real server (2 worker threads), p50 over the rounds.
import { mkdirSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { tmpdir, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRoadExtract } from '../graph-build/roads.ts';
import { openGraph } from '../src/core/format/route.ts';
import { readShared } from '../src/core/format/index.ts';
import { LoadedGraph, setLoadedGraphs } from '../workers/routing/graphs.ts';
import { matrixCosts } from '../workers/routing/matrix/task.ts';
import { optimizeTask, solveTour, Tour, LATE_WEIGHT, type Stop } from '../workers/routing/optimize/optimize.ts';
import { mainComponentPoints } from './matrix.ts';
import { startServerProcess } from './lib/server-process.ts';
import { rng } from './lib/rand.ts';
import { median, round } from './lib/stats.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHARED = resolve(HERE, '..', '..', 'shared', 'data');
const TZ = { name: 'tanzania-sw', file: 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf' };
const SIZES = [100, 200];

interface Inst { start: [number, number]; stops: Stop[] }

/**
 * n stops without windows, and the same with windows on 60% of them: 2 h long, opening 0–3 h before
 * the stop's arrival in the answer without windows shifted by up to ±3 h (a feasible order exists
 * near it, but not that one).
 */
function instances(pts: [number, number][]): Record<string, Inst> {
  const out: Record<string, Inst> = {};
  for (const n of SIZES) {
    const r = rng(n);
    const stops = pts.slice(1, n + 1).map(([lat, lng]) => ({ lat, lng, service_s: 60 + Math.floor(r() * 240) }));
    out[`${n}`] = { start: pts[0], stops };
    const free = optimizeTask(out[`${n}`]);
    const arrival = new Map<number, number>(free.stops.map((x: any) => [x.index, x.arrival_s]));
    out[`${n}_windows`] = {
      start: pts[0],
      stops: stops.map((s, i) => {
        if (r() >= 0.6) return s;
        const a = Math.max(0, Math.round(arrival.get(i)! + (r() - 0.5) * 6 * 3600 - r() * 3 * 3600));
        return { ...s, time_window: [a, a + 7200] as [number, number] };
      }),
    };
  }
  return out;
}

/** The instance's tour model over the matrix, as optimizeTask builds it. */
function tourOf(inst: Inst): Tour {
  const P = [inst.start, ...inst.stops.map((s) => [s.lat, s.lng] as [number, number]), inst.start];
  const m = matrixCosts({ sources: P, destinations: P });
  const N = P.length, from = new Float64Array(N), to = new Float64Array(N).fill(Infinity), service = new Float64Array(N);
  inst.stops.forEach((s, i) => {
    service[i + 1] = (s.service_s ?? 0) * 1000;
    if (s.time_window) { from[i + 1] = s.time_window[0] * 1000; to[i + 1] = s.time_window[1] * 1000; }
  });
  return new Tour(m.ms, inst.stops.length, true, from, to, service);
}

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { rounds: { type: 'string' }, 'long-ms': { type: 'string' }, 'no-http': { type: 'boolean' } } });
  const rounds = Number(values.rounds ?? 5), longMs = Number(values['long-ms'] ?? 4000);
  const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-optimize-'));
  const result: Record<string, any> = {
    bench: 'optimize', at: new Date().toISOString(), machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version, loadavg_at_start: loadavg().map((x) => round(x, 1)) },
    note: 'Tanzania SW, stops on roads of the largest SCC, round trip. task = the worker task in one thread (matrix + search + schedule); search = solveTour alone on the same matrix. Quality: objective (ms, lateness x 1000 first) vs the best of 3 long runs. Shared 2-core machine: indicative only.',
  };
  try {
    const built = join(tmp, 'built');
    await buildRoadExtract({ input: join(SHARED, TZ.file), name: TZ.name, out: built, profiles: ['driving'] });
    const file = join(built, TZ.name, 'driving.route.bin');
    const g = openGraph(readShared(file), file);
    setLoadedGraphs([new LoadedGraph(TZ.name, 'driving', g)]);
    const insts = instances(mainComponentPoints(g, 201, 21));
    const names = Object.keys(insts);
    const tours = Object.fromEntries(names.map((k) => [k, tourOf(insts[k])]));
    const t: Record<string, { task: number[]; matrix: number[]; search: number[]; json: number[]; searchRounds: number[] }> = {};
    const first: Record<string, number> = {};
    for (const k of names) {
      t[k] = { task: [], matrix: [], search: [], json: [], searchRounds: [] };
      const t0 = performance.now(); optimizeTask(insts[k]); first[k] = performance.now() - t0;
    }
    const answers: Record<string, any> = {};
    for (let r = 0; r < rounds; r++) {
      for (const k of names) {
        const inst = insts[k];
        const P = [inst.start, ...inst.stops.map((s) => [s.lat, s.lng] as [number, number]), inst.start];
        let t0 = performance.now();
        matrixCosts({ sources: P, destinations: P });
        t[k].matrix.push(performance.now() - t0);
        t0 = performance.now();
        const sol = solveTour(tours[k]);
        t[k].search.push(performance.now() - t0);
        t[k].searchRounds.push(sol.rounds);
        t0 = performance.now();
        const a = optimizeTask(inst);
        t[k].task.push(performance.now() - t0);
        t0 = performance.now();
        JSON.stringify(a);
        t[k].json.push(performance.now() - t0);
        answers[k] = a;
      }
      process.stderr.write(`optimize: round ${r + 1}/${rounds}\n`);
    }
    const out: Record<string, any> = {};
    for (const k of names) {
      const tour = tours[k], n = tour.n;
      const mine = tour.cost(Int32Array.from(answers[k].order.map((i: number) => i + 1)), n);
      const longs = [7, 8, 9].map((seed) => solveTour(tour, seed, { rounds: 1e9, stall: 1e9, ms: longMs }));
      const best = Math.min(...longs.map((x) => x.cost));
      const p = (xs: number[]) => round(median(xs), 1);
      out[k] = {
        stops: n, windows: k.endsWith('windows'),
        task_ms_p50: p(t[k].task), task_rounds_ms: t[k].task.map((x) => round(x, 1)), first_call_ms: round(first[k], 1),
        matrix_ms_p50: p(t[k].matrix), search_ms_p50: p(t[k].search), json_ms_p50: round(median(t[k].json), 2),
        search_ils_rounds: t[k].searchRounds,
        objective: mine, late_s: round(answers[k].stops.reduce((s: number, x: any) => s + x.late_s, 0), 1),
        long_runs: longs.map((x) => ({ objective: x.cost, ils_rounds: x.rounds })), long_ms: longMs,
        gap_pct: round((mine / best - 1) * 100, 2),
        lateness_weight: LATE_WEIGHT,
      };
      process.stderr.write(`optimize: ${k} ${JSON.stringify(out[k])}\n`);
    }
    result.in_process = out;

    if (!values['no-http']) {
      const server = await startServerProcess({ WORKERS: '2', BUILT_DIR: built, SKIP_BUILD: '1', LOG_LEVEL: 'silent' }, 19400 + Math.floor(Math.random() * 500));
      try {
        const key = server.keys!.live;
        const http: Record<string, any> = {};
        const post = async (body: string) => {
          const t0 = performance.now();
          const r = await fetch(`${server.base}/api/v1/route/optimize`, { method: 'POST', body, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
          const text = await r.text();
          if (!r.ok) throw new Error(`HTTP ${r.status}: ${text.slice(0, 300)}`);
          return performance.now() - t0;
        };
        const bodies = Object.fromEntries(names.map((k) => [k, JSON.stringify(insts[k])]));
        const firsts: Record<string, number[]> = {};
        // two calls each first: each of the 2 worker threads compiles the optimiser once
        for (const k of names) firsts[k] = [await post(bodies[k]), await post(bodies[k])];
        const times: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
        for (let r = 0; r < rounds; r++) for (const k of names) times[k].push(await post(bodies[k]));
        for (const k of names) http[k] = { p50_ms: round(median(times[k]), 1), rounds_ms: times[k].map((x) => round(x, 1)), first_two_calls_ms: firsts[k].map((x) => round(x, 1)) };
        result.http_2_workers = http;
        process.stderr.write(`optimize: http ${JSON.stringify(http)}\n`);
      } finally { await server.stop(); }
    }
    result.machine.loadavg_at_end = loadavg().map((x) => round(x, 1));
  } finally { rmSync(tmp, { recursive: true, force: true }); }
  mkdirSync(join(HERE, 'results'), { recursive: true });
  writeFileSync(join(HERE, 'results', 'optimize.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result));
}
