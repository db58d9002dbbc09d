// `npm run bench -- maps [--rounds 3] [--seconds 5] [--renders 40]`: tile set build time and size;
// static map render time for 600×400 in-process (one worker's cost: p50 wall and CPU, images/s
// per thread); over HTTP with wrk against the real server (2 workers): tile req/s, static map
// req/s and p50. Prints JSON and writes bench/results/maps.json. The machine is shared: wrk and
// the server run on the same 2 cores, and other engineers' processes run beside them.
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { buildTiles } from '../graph-build/tiles/index.ts';
import { loadDataset } from '../src/data/catalog.ts';
import { rendererFor } from '../workers/render/index.ts';
import { PmArchive } from '../src/core/maps/pmtiles.ts';
import { wholeFile } from '../src/core/format/index.ts';
import { tileIdToZxy } from 'pmtiles';
import type { StaticMapSpec } from '../src/core/maps/staticmap.ts';
import { REPO, startServerProcess } from './lib/server-process.ts';
import { runWrk, type WrkResult } from './lib/wrk.ts';

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[s.length >> 1] : NaN; };
const r1 = (x: number) => Math.round(x * 10) / 10;

/** 600×400 views over every part of the data: road extracts at street zooms, cities and the continent. */
const VIEWS: [number, number, number][] = [
  [-5.6333, 32.7667, 13], [36.75, 3.1, 13], [5.56, -0.2, 13], [11.59, 43.14, 12], [-1.3, 31.8, 12],
  [-1.2864, 36.8172, 10], [6.45, 3.4, 9], [-6.8, 39.28, 8], [2, 20, 3], [9, 8, 5],
];

export async function main(args: string[]) {
  const { values } = parseArgs({ args, options: { rounds: { type: 'string', default: '3' }, seconds: { type: 'string', default: '5' }, renders: { type: 'string', default: '40' } } });
  const rounds = Number(values.rounds), seconds = Number(values.seconds), renders = Number(values.renders);
  const work = mkdtempSync(join(tmpdir(), 'svc-bench-maps-'));
  const built = join(work, 'built');
  const sources = JSON.parse(readFileSync(join(REPO, 'data/sources.json'), 'utf8'));
  const c0 = process.cpuUsage();
  const b = await buildTiles({ sharedDataDir: join(REPO, '..', 'shared', 'data'), out: built, sources: { ...sources.gazetteer, ...sources.tiles }, roads: sources.roads, progress: false });
  const bc = process.cpuUsage(c0);
  const ds = loadDataset(join(built, 'tiles'))!;

  // In-process render: what one worker spends per image (tiles decoded once and kept, as in a worker).
  const r = rendererFor(ds);
  const specs: StaticMapSpec[] = VIEWS.map(([lat, lng, zoom]) => ({ center: [lat, lng], zoom, width: 600, height: 400, scale: 1, theme: 'day', markers: [{ lat, lng }], paths: [] }));
  for (const s of specs) r.png(s);
  const wall: number[] = [], cpu: number[] = [];
  let bytes = 0;
  for (let i = 0; i < renders; i++) {
    const s = specs[i % specs.length];
    const c = process.cpuUsage(), t = performance.now();
    bytes += r.png(i % 2 ? { ...s, theme: 'dark' } : s).byteLength;
    wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  const render = {
    size: '600x400', n: renders, p50_ms: r1(median(wall)), p50_cpu_ms: r1(median(cpu)), mean_ms: r1(wall.reduce((a, x) => a + x, 0) / wall.length),
    images_per_s_one_thread: r1(1000 / (cpu.reduce((a, x) => a + x, 0) / cpu.length)), mean_png_bytes: Math.round(bytes / renders),
  };

  // Over HTTP: the real server in a child process, tiles only (no road graphs or gazetteer).
  const dataDir = join(work, 'data');
  mkdirSync(dataDir, { recursive: true });
  // POOL_MAX_WAIT_MS: the pool sheds past 50 ms of estimated queue wait by default, which a few
  // renders in flight reach on a loaded machine; the figure wanted here is throughput, not shedding.
  const env = { SKIP_BUILD: '1', WORKERS: '2', BURST_RPS: '0', POOL_MAX_WAIT_MS: '10000', DATA_DIR: dataDir, BUILT_DIR: built, DATABASE_URL: '', LOG_LEVEL: 'warn' };
  const svc = await startServerProcess(env, 9322);
  let http: Record<string, unknown>;
  try {
    const cli = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'create', '--project', 'bench', '--plan', 'enterprise'], { cwd: REPO, env: { ...process.env, ...env }, encoding: 'utf8' });
    const key = cli.trim().split('\n').pop()!;
    const headers = { Authorization: `Bearer ${key}`, 'Accept-Encoding': 'gzip' };
    // Every tile of the archive at z8, z12 and z14, in archive order (what a map view mixes).
    const a = new PmArchive(wholeFile(ds.files['tiles.pmtiles'], 'tiles.pmtiles'));
    const byZoom = new Map<number, string[]>();
    for (const id of a.tileIds()) {
      const [z, x, y] = tileIdToZxy(id);
      const l = byZoom.get(z) ?? [];
      l.push(`/tiles/tiles/${z}/${x}/${y}.pbf`);
      byZoom.set(z, l);
    }
    // Up to 1000 tiles each of z8, z12 and z14, spread over the archive.
    const tilePaths = [8, 12, 14].flatMap((z) => { const l = byZoom.get(z) ?? []; const step = Math.max(1, Math.floor(l.length / 1000)); return l.filter((_, i) => i % step === 0).slice(0, 1000); });
    const staticPaths = VIEWS.flatMap(([lat, lng, zoom]) => [0, 1].map((dx) => `/api/v1/staticmap?center=${(lat + dx * 0.001).toFixed(4)},${lng}&zoom=${zoom}&size=600x400`));
    for (const p of [tilePaths[0], staticPaths[0]]) {
      const res = await fetch(svc.base + p, { headers });
      if (res.status !== 200) throw new Error(`${p} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    }
    const runs: Record<string, WrkResult[]> = { tiles: [], staticmap: [] };
    for (let k = 0; k < rounds; k++) {
      runs.tiles.push(await runWrk({ baseUrl: svc.base, paths: tilePaths, headers, threads: 1, connections: 64, durationS: seconds }));
      runs.staticmap.push(await runWrk({ baseUrl: svc.base, paths: staticPaths, headers, threads: 1, connections: 4, durationS: seconds }));
    }
    const s = (rs: WrkResult[]) => ({ req_s: median(rs.map((x) => x.req_s)), p50_ms: median(rs.map((x) => x.p50_ms)), p99_ms: median(rs.map((x) => x.p99_ms)), non2xx: rs.reduce((acc, x) => acc + x.non2xx, 0), rounds: rs.map((x) => x.req_s) });
    http = { workers: 2, seconds, tile_paths: tilePaths.length, tiles: { wrk: '1 thread, 64 connections', ...s(runs.tiles) }, staticmap_600x400: { wrk: '1 thread, 4 connections', ...s(runs.staticmap) } };
  } finally {
    await svc.stop();
  }
  const out = {
    bench: 'maps', at: new Date().toISOString(), machine: { cpus: cpus().length, loadavg_at_end: loadavg().map(r1), shared: 'the 2 cores are shared with other engineers\' builds and tests; wrk runs on the same cores' },
    build: { tiles: b.tiles, bytes: b.bytes, seconds: r1(b.seconds), cpu_seconds: r1((bc.user + bc.system) / 1e6) },
    render_in_process: render,
    http,
  };
  mkdirSync(join(REPO, 'bench/results'), { recursive: true });
  writeFileSync(join(REPO, 'bench/results/maps.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(JSON.stringify(out, null, 2));
  rmSync(work, { recursive: true, force: true });
}
