// `npm run bench -- geocode-ab --old <checkout> [--rounds 4] [--seconds 10] [--out name.json] [--ping] [--new-env K=V] [--cpu-prof DIR] [--warmup 10]`:
// the geocode wrk probe against two checkouts in alternated rounds (A = this checkout, B = --old, a
// `git worktree add` of an older commit with its own `npm ci`; each checkout serves the gazetteer
// it built, linked as <checkout>/.tmp/built-gaz/gazetteer so no road graph loads): the same fixed query mix (the generated queries of bench -- geocode, in order),
// wrk 2 threads × 8 connections each, 2 workers, only 200 answers counted (a round with any other
// status fails). Reports req/s per round, medians and the ratio new/old; the machine is shared, so
// the ratio of alternated rounds is the figure, not the absolute req/s; the server process's CPU
// time per answered request (all its threads, from /proc) is read around each round as well.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MALLOC_ENV } from '../src/core/malloc.ts';
import { loadDataset } from '../src/data/catalog.ts';
import { load } from '../workers/geo/index.ts';
import { generateQueries } from '../test/geo/queries.ts';
import { REPO } from './lib/server-process.ts';
import { runWrk, median, type WrkResult } from './lib/wrk.ts';

interface Server { base: string; key: string; pid: number; stop(): Promise<void> }

/** CPU seconds (user + system) the server process has used, all its threads (HTTP thread and workers). */
function cpuSeconds(pid: number, thread?: number): number {
  const f = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

/** Starts `npm start`'s command in `cwd` (gazetteer only, no road graphs) and makes an enterprise key with that checkout's CLI. */
async function start(cwd: string, port: number, extra: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Server> {
  const env = {
    ...MALLOC_ENV, ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-geo-ab-')),
    BUILT_DIR: join(cwd, '.tmp/built-gaz'), SKIP_BUILD: '1', WORKERS: '2', BURST_RPS: '0', DATABASE_URL: '', LOG_LEVEL: 'warn', LOG_REQUESTS: '0', ...extra,
  };
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const base = `http://127.0.0.1:${port}`;
  for (const t0 = Date.now(); ;) {
    if (child.exitCode !== null) throw new Error(`server in ${cwd} exited early:\n${out}`);
    try { if ((await fetch(base + '/healthz')).ok) break; } catch { /* not up yet */ }
    if (Date.now() - t0 > 300_000) throw new Error(`server in ${cwd} did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const cli = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'create', '--project', 'bench', '--plan', 'enterprise'], { cwd, env, encoding: 'utf8' });
  return {
    base, key: cli.trim().split('\n').pop()!, pid: child.pid!,
    stop: () => new Promise<void>((res) => { if (child.exitCode !== null) return res(); child.once('exit', () => res()); child.kill('SIGTERM'); }),
  };
}

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { old: { type: 'string' }, rounds: { type: 'string', default: '4' }, seconds: { type: 'string', default: '10' }, out: { type: 'string', default: 'geocode-ab.json' }, ping: { type: 'boolean', default: false }, 'cpu-prof': { type: 'string' }, warmup: { type: 'string', default: '10' }, 'new-env': { type: 'string', multiple: true, default: [] } } });
  if (!values.old) throw new Error('--old <checkout of the older commit> is required');
  const old = resolve(values.old);
  const rounds = Number(values.rounds), seconds = Number(values.seconds);
  // The fixed mix: bench -- geocode's generated queries over this checkout's gazetteer.
  const g = load([loadDataset(join(REPO, '.tmp/built-gaz/gazetteer'))!])!;
  // --ping: the same probe on GET /api/v1/ping?pool=1 (auth, quota, a worker round trip, no task work),
  // to tell the HTTP and pool path's share from the geocode task's.
  const paths = values.ping ? ['/api/v1/ping?pool=1'] : generateQueries(g).map((q) => `/api/v1/geocode?q=${encodeURIComponent(q.q)}${q.country ? `&country=${q.country}` : ''}`);
  const load0 = loadavg();
  // --new-env K=V: settings for the new server only (e.g. the same checkout as --old with one setting changed).
  const newEnv = Object.fromEntries(values['new-env']!.map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  // --cpu-prof DIR: V8 CPU profiles of each server's threads, in DIR/new and DIR/old (written when it stops).
  const prof = (k: string) => (values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${resolve(values['cpu-prof'], k)}`] : []);
  const servers = { new: await start(REPO, 9400 + Math.floor(Math.random() * 500), newEnv, prof('new')), old: await start(old, 9900 + Math.floor(Math.random() * 90), {}, prof('old')) };
  const runs: Record<'new' | 'old', WrkResult[]> = { new: [], old: [] };
  // Server CPU per answered request: robust to other processes on a shared machine, unlike req/s.
  const cpu: Record<'new' | 'old', number[]> = { new: [], old: [] };
  // …and of its main (HTTP) thread alone, whose thread id is the process id.
  const cpuMain: Record<'new' | 'old', number[]> = { new: [], old: [] };
  try {
    for (const s of Object.values(servers)) {
      const r = await fetch(s.base + paths[0], { headers: { Authorization: `Bearer ${s.key}` } });
      if (r.status !== 200) throw new Error(`${s.base} answered ${r.status}`);
      // Warm-up, not counted: the JIT, and an embedded database's own start (its WebAssembly is
      // compiled to the optimising tier in the background for several seconds after the first start).
      await runWrk({ baseUrl: s.base, paths, headers: { Authorization: `Bearer ${s.key}` }, threads: 2, connections: 16, durationS: Number(values.warmup) });
    }
    for (let i = 0; i < rounds; i++) {
      const order = (i % 2 ? ['old', 'new'] : ['new', 'old']) as ('new' | 'old')[];
      for (const k of order) {
        const s = servers[k];
        const c0 = cpuSeconds(s.pid), m0 = cpuSeconds(s.pid, s.pid);
        const r = await runWrk({ baseUrl: s.base, paths, headers: { Authorization: `Bearer ${s.key}` }, threads: 2, connections: 16, durationS: seconds });
        cpu[k].push(Math.round(((cpuSeconds(s.pid) - c0) / r.requests) * 1e7) / 10);
        cpuMain[k].push(Math.round(((cpuSeconds(s.pid, s.pid) - m0) / r.requests) * 1e7) / 10);
        if (r.non_2xx || r.socket_errors) throw new Error(`${k}: ${r.non_2xx} non-2xx, ${r.socket_errors} socket errors`);
        runs[k].push(r);
        console.error(`round ${i + 1} ${k}: ${r.req_s} req/s, p50 ${r.p50_ms} ms, server CPU ${cpu[k][cpu[k].length - 1]} us a request (HTTP thread ${cpuMain[k][cpuMain[k].length - 1]})`);
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
  const s = (rs: WrkResult[], c: number[], m: number[]) => ({
    req_s: median(rs.map((x) => x.req_s)), p50_ms: median(rs.map((x) => x.p50_ms)), p99_ms: median(rs.map((x) => x.p99_ms)), rounds: rs.map((x) => x.req_s),
    server_cpu_us_per_request: median(c), server_cpu_rounds: c, http_thread_cpu_us_per_request: median(m), http_thread_cpu_rounds: m,
  });
  const pairs = runs.new.map((r, i) => Math.round((r.req_s / runs.old[i].req_s) * 1000) / 1000);
  const out = {
    bench: 'geocode-ab', date: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version },
    load_average_1_5_15: { start: load0.map((x) => Math.round(x * 100) / 100), end: loadavg().map((x) => Math.round(x * 100) / 100) },
    probe: `wrk 2 threads x 16 connections (8 each), ${seconds} s a round, ${values.ping ? 'GET /api/v1/ping?pool=1' : `${paths.length} geocode paths cycled in order`}, 2 workers, gazetteer only; rounds alternated (new old, old new, …)`,
    new: { checkout: REPO, env: newEnv, ...s(runs.new, cpu.new, cpuMain.new) }, old: { checkout: old, ...s(runs.old, cpu.old, cpuMain.old) },
    ratio_new_over_old_per_pair: pairs, ratio_new_over_old_median: median(pairs),
    cpu_ratio_old_over_new_per_pair: cpu.new.map((c, i) => Math.round((cpu.old[i] / c) * 1000) / 1000),
  };
  mkdirSync(join(REPO, 'bench/results'), { recursive: true });
  writeFileSync(join(REPO, 'bench/results', values.out!), JSON.stringify(out, null, 2) + '\n');
  console.log(JSON.stringify(out, null, 2));
}
