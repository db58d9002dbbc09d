// npm run bench -- mmap [--built data/built] [--routes 1000] [--workers 2] [--rounds 2] [--parts one,two]
//
// What mapping the built files (BUILT_MMAP=1, the default) changes against reading them into
// memory (BUILT_MMAP=0), on the real server (src/main.ts, SKIP_BUILD=1) over the built folder:
// time from spawn to /healthz and the catalog's load time (engine_ready load_s); RSS and PSS
// (/proc/<pid>/smaps_rollup: anonymous and file-backed) after start and after N routes between
// random road nodes of every road extract; then two servers at once on the same files, each
// routed, with each one's RSS and PSS (PSS splits a shared page between the processes that map
// it). Modes alternate, `--rounds` times; every figure is printed as one JSON line, and all of them
// are written to bench/results/mmap.json (`--out` another file). `--parts one` or
// `two` runs only the one-server or the two-server measurements.
import { readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startServerProcess, REPO, type ServerProcess } from './lib/server-process.ts';
import { readShared } from '../src/core/format/container.ts';
import { openGraph } from '../src/core/format/route.ts';
import { rng } from './lib/rand.ts';
import { memory } from './lib/proc-memory.ts';


/** Random pairs of road nodes of each extract's driving graph, as lat,lng strings. */
function pairs(built: string, n: number): [string, string][] {
  const rand = rng(36);
  const graphs = readdirSync(built).filter((d) => existsSync(join(built, d, 'driving.route.bin')))
    .map((d) => openGraph(readShared(join(built, d, 'driving.route.bin')), d));
  const at = (g: (typeof graphs)[number]) => {
    const i = Math.floor(rand() * g.nodeLat.length);
    return `${g.nodeLat[i] / 1e7},${g.nodeLon[i] / 1e7}`;
  };
  return Array.from({ length: n }, (_, k) => { const g = graphs[k % graphs.length]; return [at(g), at(g)] as [string, string]; });
}

async function route(s: ServerProcess, ps: [string, string][], concurrency = 16): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < ps.length) {
      const [a, b] = ps[next++];
      // A connection the server closed (a request slower than its idle timeout on a loaded machine) counts as status 0.
      const status = await fetch(`${s.base}/api/v1/route?from=${a}&to=${b}&radius=5000`, { headers: { authorization: `Bearer ${s.keys!.live}` } })
        .then(async (r) => { await r.arrayBuffer(); return r.status; }, () => 0);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  }));
  return statuses;
}

async function start(mode: 'mapped' | 'read', built: string, workers: number, port: number) {
  const t0 = performance.now();
  const s = await startServerProcess({ BUILT_DIR: built, SKIP_BUILD: '1', BUILT_MMAP: mode === 'mapped' ? '1' : '0', WORKERS: String(workers) }, port);
  const start_s = Math.round(performance.now() - t0) / 1000;
  // The first-start banner follows /healthz; on a loaded machine by more than the helper waits.
  for (let i = 0; i < 100 && !s.keys; i++) {
    const live = /live key:\s+(svc_live_\w+)/.exec(s.output())?.[1];
    if (live) s.keys = { test: '', live };
    else await new Promise((r) => setTimeout(r, 100));
  }
  if (!s.keys) throw new Error(`no key printed: the data folder was not fresh\n${s.output()}`);
  return { s, start_s };
}

/** The engine_ready log line's catalog load time and mapped megabytes. */
function ready(s: ServerProcess): { load_s: number; mb: number; mapped_mb: number } | null {
  const line = s.output().split('\n').find((l) => l.includes('"engine_ready"'));
  if (!line) return null;
  const { load_s, mb, mapped_mb } = JSON.parse(line);
  return { load_s, mb, mapped_mb };
}

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { built: { type: 'string' }, routes: { type: 'string' }, workers: { type: 'string' }, rounds: { type: 'string' }, parts: { type: 'string' }, out: { type: 'string' } } });
  const lines: unknown[] = [];
  const say = (x: unknown) => { lines.push(x); console.log(JSON.stringify(x)); };
  const parts = (values.parts ?? 'one,two').split(',');
  const built = resolve(values.built ?? join(REPO, 'data', 'built'));
  const n = Number(values.routes ?? 1000), workers = Number(values.workers ?? 2), rounds = Number(values.rounds ?? 2);
  const ps = pairs(built, n);
  // A port range of this run's own, so a server left over from another run never answers for it.
  const port = 20000 + (process.pid % 2000) * 8;
  const bytes = readdirSync(built).flatMap((d) => existsSync(join(built, d, 'manifest.json')) ? JSON.parse(readFileSync(join(built, d, 'manifest.json'), 'utf8')).files.map((f: { bytes?: number }) => f.bytes ?? 0) : []).reduce((a: number, b: number) => a + b, 0);
  say({ built, built_mb: Math.round(bytes / 1e5) / 10, routes: n, workers, rounds });
  for (let round = 0; round < rounds; round++) {
    if (parts.includes('one')) for (const mode of (round % 2 ? ['mapped', 'read'] : ['read', 'mapped']) as ('mapped' | 'read')[]) {
      const { s, start_s } = await start(mode, built, workers, port + round * 4);
      const idle = memory(s.child.pid!);
      const statuses = await route(s, ps);
      await new Promise((r) => setTimeout(r, 500));
      const after = memory(s.child.pid!);
      say({ round, mode, start_s, engine: ready(s), idle, after_routes: after, statuses });
      await s.stop();
    }
    if (parts.includes('two')) for (const mode of ['read', 'mapped'] as const) {
      const a = await start(mode, built, workers, port + 1 + round * 4);
      const b = await start(mode, built, workers, port + 2 + round * 4);
      await Promise.all([route(a.s, ps), route(b.s, ps)]);
      await new Promise((r) => setTimeout(r, 500));
      const ma = memory(a.s.child.pid!), mb = memory(b.s.child.pid!);
      say({ round, mode, two_servers: [ma, mb], rss_sum_mb: Math.round((ma.rss_mb + mb.rss_mb) * 10) / 10, pss_sum_mb: Math.round((ma.pss_mb + mb.pss_mb) * 10) / 10 });
      await Promise.all([a.s.stop(), b.s.stop()]);
    }
  }
  writeFileSync(resolve(values.out ?? join(REPO, 'bench', 'results', 'mmap.json')), JSON.stringify({ at: new Date().toISOString(), argv, lines }, null, 1) + '\n');
}
