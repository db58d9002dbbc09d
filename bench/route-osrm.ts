// npm run bench -- route [--osrm] [--input <pbf>] [--pairs 1000] [--rounds 3] [--seconds 10] [--osrm-cache DIR]
//   (bench/route.ts hands over here when no --input is given, or with --osrm)
//
// Issue 12 §4: our GET /api/v1/route against osrm-routed (../shared/tools/osrm, CH, car.lua) on the
// same extract (default Tanzania SW) and the same 1,000 random road-vertex pairs (shape points of our
// driving graph, seeded), full GeoJSON geometry, only pairs both answer with 200 (code Ok). wrk
// 2 threads × 8 connections, rounds alternated ours / OSRM for each variant:
//   plain          /api/v1/route?from&to                vs /route/v1/driving/…?overview=full&geometries=geojson
//   steps          + steps=true (lang en)                vs + steps=true
//   alternatives   + alternatives=1                      vs + alternatives=true (OSRM: one)
// Our server runs as a child process (2 workers, as `npm start`), osrm-routed with 2 threads; wrk,
// both servers and this script share the machine's cores: say so next to every figure.
// Also recorded: our server's CPU per request (all its threads, /proc), and the steps cost of our
// throughput three ways (see stepsCost()).
// Writes bench/results/route-vs-osrm.json (route-vs-osrm-<extract>.json with --input).
import { mkdirSync, writeFileSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { tmpdir, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { buildRoadExtract } from '../graph-build/roads.ts';
import { readShared } from '../src/core/format/index.ts';
import { openGraph, E7 } from '../src/core/format/route.ts';
import { rng } from './lib/rand.ts';
import { median, round } from './lib/stats.ts';
import { wrk, type WrkResult } from './lib/wrk.ts';
import { startServerProcess, REPO } from './lib/server-process.ts';
import { osrmAvailable, prepareOsrm, startOsrm, OSRM_DIR } from './lib/osrm.ts';
import { withCpuSync } from './lib/proc-cpu.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHARED = resolve(REPO, '..', 'shared', 'data');

const VARIANTS = {
  plain: { ours: '', osrm: '' },
  steps: { ours: '&steps=true&lang=en', osrm: '&steps=true' },
  alternatives: { ours: '&alternatives=1', osrm: '&alternatives=true' },
} as const;
type Variant = keyof typeof VARIANTS;

/**
 * osrm-routed closes a kept-alive connection after a fixed number of requests; a request that
 * fetch sent on it just then fails with "other side closed" and is sent again.
 */
async function fetchRetry(url: string, init?: RequestInit): Promise<Response> {
  try { return await fetch(url, init); } catch { return fetch(url, init); }
}

export async function main(argv: string[]) {
  const { values } = parseArgs({
    args: argv, options: {
      osrm: { type: 'boolean' }, input: { type: 'string' }, pairs: { type: 'string' }, rounds: { type: 'string' }, seconds: { type: 'string' },
      'osrm-cache': { type: 'string' }, variants: { type: 'string' },
    },
  });
  if (!osrmAvailable()) throw new Error(`no OSRM build at ${OSRM_DIR} (set OSRM_DIR)`);
  const pbf = resolve(values.input ?? join(SHARED, 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf'));
  const nPairs = Number(values.pairs ?? 1000), rounds = Number(values.rounds ?? 3), seconds = Number(values.seconds ?? 10);
  const variants = (values.variants ?? 'plain,steps,alternatives').split(',') as Variant[];
  const cache = resolve(values['osrm-cache'] ?? join(tmpdir(), 'svc-osrm-cache'));
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-vs-osrm-'));
  const built = join(dataDir, 'built');
  await buildRoadExtract({ input: pbf, name: 'bench', out: built, profiles: ['driving'] });
  const file = join(built, 'bench', 'driving.route.bin');
  const g = openGraph(readShared(file), file);
  const rand = rng(20251124);
  const vertex = (): [number, number] => { const p = Math.floor(rand() * g.shapeLat.length); return [g.shapeLat[p] / E7, g.shapeLon[p] / E7]; };

  // BURST_RPS=0 and POOL_MAX_WAIT_MS=0: we measure the server, not its limiter or its load shedding
  // (at the default 50 ms of estimated queue wait, 8 connections of alternatives were shed with 503s).
  const env = { SKIP_BUILD: '1', WORKERS: '2', BURST_RPS: '0', POOL_MAX_WAIT_MS: '0', DATA_DIR: dataDir, BUILT_DIR: built, DATABASE_URL: '' };
  const svc = await startServerProcess(env, 9312);
  const osrm = await startOsrm(prepareOsrm(pbf, cache, 2), 9313, 2);
  try {
    const cli = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'create', '--project', 'bench', '--plan', 'enterprise'], { cwd: REPO, env: { ...process.env, ...env }, encoding: 'utf8' });
    const auth = { Authorization: `Bearer ${cli.trim().split('\n').pop()!}` };
    // 1,000 pairs both answer with 200 (drawn until there are enough; the misses are counted)
    const pairs: [[number, number], [number, number]][] = [];
    let drawn = 0, oursRefused = 0, osrmRefused = 0;
    while (pairs.length < nPairs && drawn < nPairs * 5) {
      drawn++;
      const a = vertex(), b = vertex();
      const [o, s] = await Promise.all([
        fetchRetry(`${svc.base}${oursPath(a, b, '')}`, { headers: auth }),
        fetchRetry(`${osrm.url}${osrmPath(a, b, '')}`),
      ]);
      await o.arrayBuffer(); await s.arrayBuffer();
      if (o.status !== 200) oursRefused++;
      if (s.status !== 200) osrmRefused++;
      if (o.status === 200 && s.status === 200) pairs.push([a, b]);
    }
    // every variant of every pair answers 200 on both sides (wrk counts non-2xx; checked again below)
    const runs: Record<string, { ours: WrkResult[]; osrm: WrkResult[]; oursCpuUs: (number | null)[] }> = {};
    for (const v of variants) runs[v] = { ours: [], osrm: [], oursCpuUs: [] };
    const ourPaths = (v: Variant) => pairs.map(([a, b]) => oursPath(a, b, VARIANTS[v].ours));
    const osrmPaths = (v: Variant) => pairs.map(([a, b]) => osrmPath(a, b, VARIANTS[v].osrm));
    const load = { threads: 2, connections: 8 };
    // warm-up both (JIT, page cache), not recorded: every variant, or the first round of steps
    // measured our guidance code while it was still being compiled (3,720 req/s against 4,615-4,752)
    for (const v of variants) {
      wrk({ base: svc.base, paths: ourPaths(v), headers: auth, seconds: 2, ...load });
      wrk({ base: osrm.url, paths: osrmPaths(v), seconds: 2, ...load });
    }
    for (let r = 0; r < rounds; r++) {
      for (const v of variants) {
        // alternate which side goes first, so drift on a shared machine does not favour one
        const first = r % 2 === 0;
        const a = () => {
          const [w, cpu] = withCpuSync(svc.child.pid, () => wrk({ base: svc.base, paths: ourPaths(v), headers: auth, seconds, ...load }));
          runs[v].ours.push(w);
          runs[v].oursCpuUs.push(cpu === null || !w.requests ? null : round((cpu * 1000) / w.requests, 1));
        };
        const b = () => runs[v].osrm.push(wrk({ base: osrm.url, paths: osrmPaths(v), seconds, ...load }));
        if (first) { a(); b(); } else { b(); a(); }
        process.stderr.write(`round ${r + 1} ${v}: ours ${runs[v].ours.at(-1)!.req_s} req/s (server CPU ${runs[v].oursCpuUs.at(-1)} µs/request), osrm ${runs[v].osrm.at(-1)!.req_s} req/s\n`);
      }
    }
    // answer sizes (one sample pair per variant), for the record
    const sizes: Record<string, { ours_bytes: number; osrm_bytes: number }> = {};
    for (const v of variants) {
      let ob = 0, sb = 0;
      for (const [a, b] of pairs.slice(0, 50)) {
        ob += await bytes(svc.base + oursPath(a, b, VARIANTS[v].ours), auth);
        sb += await bytes(osrm.url + osrmPath(a, b, VARIANTS[v].osrm), {});
      }
      sizes[v] = { ours_bytes: Math.round(ob / 50), osrm_bytes: Math.round(sb / 50) };
    }
    const summary = (rs: WrkResult[]) => ({ req_s: median(rs.map((x) => x.req_s)), p50_ms: median(rs.map((x) => x.p50_ms)), p99_ms: median(rs.map((x) => x.p99_ms)), non_2xx: rs.reduce((t, x) => t + x.non_2xx, 0), rounds: rs.map((x) => x.req_s) });
    const results: Record<string, unknown> = {};
    for (const v of variants) {
      const o = summary(runs[v].ours), s = summary(runs[v].osrm);
      const cpu = runs[v].oursCpuUs.filter((x): x is number => x !== null);
      results[v] = { ours: { ...o, server_cpu_us_per_request: cpu.length ? median(cpu) : null, server_cpu_rounds_us: runs[v].oursCpuUs }, osrm: s, ratio: round(o.req_s / s.req_s, 2), mean_answer: sizes[v], ours_query: VARIANTS[v].ours || '(none)', osrm_query: `overview=full&geometries=geojson${VARIANTS[v].osrm}` };
    }
    const plain = (results.plain as any)?.ours?.req_s;
    const out = {
      bench: 'route-vs-osrm',
      date: new Date().toISOString(),
      machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version, note: 'wrk, our server (2 workers) and osrm-routed (2 threads) share these cores; other engineers\' jobs were running on the machine too' },
      osrm: readFileSync(join(OSRM_DIR, 'README.txt'), 'utf8').split('\n')[0] + ', CH, profiles/car.lua',
      extract: pbf.split('/').pop(), pairs: pairs.length, drawn, ours_refused: oursRefused, osrm_refused: osrmRefused,
      load: 'wrk 2 threads x 8 connections', seconds, rounds,
      results,
      steps_cost_of_our_throughput: plain && (results.steps as any) ? round(1 - (results.steps as any).ours.req_s / plain, 3) : null,
      ...stepsCost(runs),
    };
    mkdirSync(join(HERE, 'results'), { recursive: true });
    const stem = values.input ? `-${pbf.split('/').pop()!.split(/[-.]/)[0]}` : '';
    writeFileSync(join(HERE, 'results', `route-vs-osrm${stem}.json`), JSON.stringify(out, null, 2) + '\n');
    console.log(JSON.stringify(out, null, 2));
  } finally {
    await osrm.stop();
    await svc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The steps cost two more ways, beside 1 − median(steps) / median(plain): per round (plain and steps
 * of one round run a minute apart at most, so drift on a shared machine moves both), and from our
 * server's CPU per request (every thread, /proc) — what the cost would be with the cores to itself,
 * without wrk's share of reading the larger bodies.
 */
function stepsCost(runs: Record<string, { ours: WrkResult[]; oursCpuUs: (number | null)[] }>) {
  if (!runs.plain || !runs.steps) return {};
  const perRound = runs.plain.ours.map((p, r) => 1 - runs.steps.ours[r].req_s / p.req_s);
  const cpu = runs.plain.oursCpuUs.map((p, r) => { const s = runs.steps.oursCpuUs[r]; return p === null || s === null ? null : 1 - p / s; })
    .filter((x): x is number => x !== null);
  return {
    steps_cost_per_round: perRound.map((x) => round(x, 3)),
    steps_cost_median_of_rounds: round(median(perRound), 3),
    steps_cost_of_server_cpu_per_round: cpu.map((x) => round(x, 3)),
    steps_cost_of_server_cpu: cpu.length ? round(median(cpu), 3) : null,
  };
}

/** Body size of one answer; one retry, since osrm-routed closes a keep-alive connection after 512 requests. */
async function bytes(url: string, headers: Record<string, string>): Promise<number> {
  try { return (await (await fetch(url, { headers })).arrayBuffer()).byteLength; }
  catch { return (await (await fetch(url, { headers: { ...headers, connection: 'close' } })).arrayBuffer()).byteLength; }
}

const f6 = (x: number) => x.toFixed(6);
function oursPath(a: [number, number], b: [number, number], extra: string) {
  return `/api/v1/route?from=${f6(a[0])},${f6(a[1])}&to=${f6(b[0])},${f6(b[1])}${extra}`;
}
function osrmPath(a: [number, number], b: [number, number], extra: string) {
  return `/route/v1/driving/${f6(a[1])},${f6(a[0])};${f6(b[1])},${f6(b[0])}?overview=full&geometries=geojson${extra}`;
}
