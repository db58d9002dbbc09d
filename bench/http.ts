// `npm run bench -- http [--seconds 5] [--rounds 3]`: req/s, p50, p99 of
//   raw:  a bare uWS handler (the ceiling on this machine),
//   auth: GET /api/v1/ping with a key (auth + quota + logging, no pool),
//   pool: GET /api/v1/ping?pool=1 with a key (plus a worker-pool round trip),
// alternated A B C A B C over several rounds; medians and the pool/raw ratio.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { wrk, median, type WrkResult } from './lib/wrk.ts';
import { startServerProcess, REPO } from './lib/server-process.ts';
import { cpus } from 'node:os';

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '32' } } });
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  const connections = Number(values.connections);

  const raw = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'bench/lib/raw-uws.ts'), '9301'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((r) => raw.stdout!.once('data', () => r()));
  // BURST_RPS=0 turns the per-key burst limit off: we measure the server, not the limiter.
  // The embedded database keeps the run self-contained; the hot path does not touch it.
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-http-'));
  const env = { SKIP_BUILD: '1', WORKERS: '2', BURST_RPS: '0', DATA_DIR: dataDir, DATABASE_URL: '' };
  const svc = await startServerProcess(env, 9302);
  // An Enterprise key (no monthly quota), made with the keys CLI while the server runs.
  const cli = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'create', '--project', 'bench', '--plan', 'enterprise'], {
    cwd: REPO, env: { ...process.env, ...env }, encoding: 'utf8',
  });
  const key = cli.trim().split('\n').pop()!;
  const auth = { Authorization: `Bearer ${key}` };
  const runs: Record<string, WrkResult[]> = { raw: [], auth: [], pool: [] };
  try {
    for (let i = 0; i < rounds; i++) {
      runs.raw.push(wrk({ base: 'http://127.0.0.1:9301', paths: ['/'], seconds, connections }));
      runs.auth.push(wrk({ base: svc.base, paths: ['/api/v1/ping'], headers: auth, seconds, connections }));
      runs.pool.push(wrk({ base: svc.base, paths: ['/api/v1/ping?pool=1'], headers: auth, seconds, connections }));
    }
  } finally {
    raw.kill();
    await svc.stop();
  }
  const summary = (rs: WrkResult[]) => ({
    req_s: median(rs.map((r) => r.req_s)),
    p50_ms: median(rs.map((r) => r.p50_ms)),
    p99_ms: median(rs.map((r) => r.p99_ms)),
    non_2xx: rs.reduce((a, r) => a + r.non_2xx, 0),
    rounds: rs.map((r) => r.req_s),
  });
  const out = {
    bench: 'http',
    date: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version },
    note: 'wrk (1 thread) shares the 2 cores with the server; medians of alternated rounds',
    seconds, rounds, connections, workers: 2,
    raw_uws: summary(runs.raw),
    auth_trivial: summary(runs.auth),
    auth_pool_round_trip: summary(runs.pool),
    ratio_pool_vs_raw: 0,
    ratio_auth_vs_raw: 0,
  };
  out.ratio_pool_vs_raw = Math.round((out.auth_pool_round_trip.req_s / out.raw_uws.req_s) * 1000) / 1000;
  out.ratio_auth_vs_raw = Math.round((out.auth_trivial.req_s / out.raw_uws.req_s) * 1000) / 1000;
  mkdirSync(join(REPO, 'bench/results'), { recursive: true });
  writeFileSync(join(REPO, 'bench/results/http.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(JSON.stringify(out, null, 2));
}
