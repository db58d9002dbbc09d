// `npm run bench -- compat-alt [--built DIR] [--seconds 3] [--rounds 3]`: what the alt-platform
// layer costs over the native endpoints it reshapes, on the same server and data:
//   geocode:    GET /api/v1/geocode?q=…            vs /compat/alt/geocode?address=…  (+ one detail per result)
//   directions: GET /api/v1/route?from&to (Sikonge) vs /compat/alt/directions (+ steps, polylines, reverse of both ends)
// alternated A B A B over rounds; medians of req/s and p50. Needs the gazetteer and the
// tanzania-sw extract built in --built (default data/built).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { wrk, median, type WrkResult } from './lib/wrk.ts';
import { startServerProcess, REPO } from './lib/server-process.ts';

const NAMES = ['Nairobi', 'Accra', 'Algiers', 'Sikonge', 'Dar es Salaam', 'Kigali', 'Tabora', 'Kumasi'];
const TRIPS: [string, string][] = [['-5.6333,32.7667', '-5.80,32.90'], ['-5.70,32.80', '-5.65,32.85'], ['-5.6333,32.7667', '-5.78,32.89']];

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { built: { type: 'string' }, seconds: { type: 'string', default: '3' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '16' } } });
  const seconds = Number(values.seconds), rounds = Number(values.rounds), connections = Number(values.connections);
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-compat-'));
  const env = { SKIP_BUILD: '1', WORKERS: '2', BURST_RPS: '0', LOG_REQUESTS: '0', DATA_DIR: dataDir, BUILT_DIR: resolve(values.built ?? join(REPO, 'data/built')), DATABASE_URL: '' };
  const svc = await startServerProcess(env, 9311);
  const cli = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'create', '--project', 'bench', '--plan', 'enterprise'], { cwd: REPO, env: { ...process.env, ...env }, encoding: 'utf8' });
  const key = cli.trim().split('\n').pop()!;
  const headers = { Authorization: `Bearer ${key}` };
  const sides = {
    geocode_native: NAMES.map((n) => `/api/v1/geocode?q=${encodeURIComponent(n)}`),
    geocode_compat: NAMES.map((n) => `/api/v1/compat/alt/geocode?address=${encodeURIComponent(n)}`),
    route_native: TRIPS.map(([a, b]) => `/api/v1/route?from=${a}&to=${b}&radius=5000`),
    directions_compat: TRIPS.map(([a, b]) => `/api/v1/compat/alt/directions?origin=${a}&destination=${b}`),
  };
  const runs: Record<string, WrkResult[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  try {
    for (let i = 0; i < rounds; i++) {
      for (const [k, paths] of Object.entries(sides)) runs[k].push(wrk({ base: svc.base, paths, headers, seconds, connections }));
    }
  } finally {
    await svc.stop();
  }
  const summary = (rs: WrkResult[]) => ({ req_s: median(rs.map((r) => r.req_s)), p50_ms: median(rs.map((r) => r.p50_ms)), p99_ms: median(rs.map((r) => r.p99_ms)), non_2xx: rs.reduce((a, r) => a + r.non_2xx, 0), rounds: rs.map((r) => r.req_s) });
  const s = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, summary(v)]));
  const ratio = (a: string, b: string) => Math.round((s[a].req_s / s[b].req_s) * 1000) / 1000;
  const out = {
    bench: 'compat-alt',
    date: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version },
    note: 'wrk (1 thread) shares the 2 cores with the server, and the machine was shared with other engineers\' jobs; medians of alternated rounds',
    seconds, rounds, connections, workers: 2,
    ...s,
    ratio_geocode_compat_vs_native: ratio('geocode_compat', 'geocode_native'),
    ratio_directions_compat_vs_route: ratio('directions_compat', 'route_native'),
  };
  mkdirSync(join(REPO, 'bench/results'), { recursive: true });
  writeFileSync(join(REPO, 'bench/results/compat-alt.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(JSON.stringify(out, null, 2));
}
