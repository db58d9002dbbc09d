// npm run bench -- memory [--cache DIR] [--nodes 4000000] [--workers 3] [--extract tanzania-sw]
//                         [--tasks route,matrix_100,matrix_1000,match,isochrone] [--no-synthetic] [--root DIR] [--out DIR]
//                         [--glibc-default]
// Extra RSS per busy worker (issue 11 §6). For each graph (the SYNTHETIC grid of --nodes, built
// once into --cache as `bench -- scale --cache` does, and the built real extract) and each task
// kind, the engine is started in a fresh process with 1 and with --workers workers, every worker is
// given the same load of that task kind (bench/lib/memory-child.ts), and the process RSS is read
// idle (engine up), at once after the load (per_busy_worker_now: before the workers' idle collection,
// workers/collect.ts) and 0.3 s after it. Per busy worker = (RSS with N − RSS with 1) / (N − 1): the
// graph files are shared, so this is what each thread adds (its engine code, V8 heap, query state);
// idle per worker is the same difference before any task, so busy − idle is what the work added;
// per_busy_worker_released is busy measured again once workers have given back a large matrix's
// arrays (RELEASE_MS after their last one, workers/routing/matrix/task.ts).
// Loads per worker: route 100 routes; matrix_100 3 matrices of 100 × 100; matrix_1000 one of
// 1,000 × 1,000 whole on each thread, its rows sent ahead in blocks as the server asks for any matrix
// above SPLIT_CELLS (src/pool/matrix-dispatch.ts; the server also splits it over the threads); match 3 traces of ~40 km (a fix every 5–30 s, σ 10 m) driven on a random walk;
// isochrone 5 isochrones of 10 minutes (a search on the uncontracted graph, as traffic routes run).
// The engine runs with the allocator setting `npm start` gives the server (src/core/malloc.ts);
// --glibc-default runs it with glibc's adaptive default instead (to show what the setting saves).
// --root runs the child of another checkout (the code before a change) over the same loads; across a
// route format version, run the other checkout's own bench instead (files and cache are per version).
import { mkdirSync, writeFileSync, symlinkSync, mkdtempSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { runChild } from './lib/child.ts';
import { syntheticGraph, syntheticBuilt, loadGraphFile } from './lib/synthetic-built.ts';
import { E7, type GraphViews } from '../src/core/format/route.ts';
import { traceFromRoute } from './lib/traces.ts';
import { haversine } from '../src/core/geometry.ts';
import { rng } from '../src/core/rand.ts';
import { MALLOC_ENV } from '../src/core/malloc.ts';
import { SPLIT_CELLS } from '../src/pool/matrix-dispatch.ts';
import { loadConfig } from '../src/core/config.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');

/** Random [lat, lng] of nodes on the graph's big components (so routes exist). */
function points(g: GraphViews, k: number, rand: () => number): [number, number][] {
  const big = new Set(g.meta.big_components ?? [g.meta.main_component]), out: [number, number][] = [];
  while (out.length < k) {
    const e = Math.floor(rand() * g.edgeU.length);
    if (!big.has(g.edgeComp[e])) continue;
    const v = g.edgeU[e];
    out.push([g.nodeLat[v] / E7, g.nodeLon[v] / E7]);
  }
  return out;
}

/** A drive of about `metres` on a random walk (allowed directions, no U-turn unless at a dead end), as [lng, lat] shape points. */
function walk(g: GraphViews, metres: number, rand: () => number): { coords: [number, number][]; dist: number } {
  const big = new Set(g.meta.big_components ?? [g.meta.main_component]);
  let e0 = Math.floor(rand() * g.edgeU.length);
  while (!big.has(g.edgeComp[e0]) || !(g.edgeFlags[e0] & 1)) e0 = Math.floor(rand() * g.edgeU.length);
  const coords: [number, number][] = [];
  let x = g.edgeU[e0], prev = -1, dist = 0;
  const drive = (e: number, fwd: boolean) => {
    const a = g.edgeShape[e], b = g.edgeShape[e + 1];
    for (let p = fwd ? a : b - 1; fwd ? p < b : p >= a; p += fwd ? 1 : -1) {
      const c: [number, number] = [g.shapeLon[p] / E7, g.shapeLat[p] / E7], l = coords[coords.length - 1];
      if (l) { if (l[0] === c[0] && l[1] === c[1]) continue; dist += haversine(l[1], l[0], c[1], c[0]); }
      coords.push(c);
    }
  };
  for (let steps = 0; dist < metres && steps < 100000; steps++) {
    const opts: [number, boolean, number][] = [];
    for (let k = g.adjFirst[x]; k < g.adjFirst[x + 1]; k++) {
      const s = g.adjEdge[k], e = Math.abs(s) - 1, atU = s > 0;
      if (!(g.edgeFlags[e] & (atU ? 1 : 2))) continue;
      opts.push([e, atU, atU ? g.edgeV[e] : g.edgeU[e]]);
    }
    if (!opts.length) break;
    const ahead = opts.filter((o) => o[0] !== prev);
    const [e, fwd, y] = (ahead.length ? ahead : opts)[Math.floor(rand() * (ahead.length ? ahead.length : opts.length))];
    drive(e, fwd); prev = e; x = y;
  }
  return { coords, dist };
}

function loads(g: GraphViews, seed: number): Record<string, { op: string; per_worker: unknown[] }> {
  const rand = rng(seed);
  const route = Array.from({ length: 100 }, () => { const [a, b] = points(g, 2, rand); return { from: a, to: b, mode: 'driving' }; });
  // as the server sends them: a matrix above SPLIT_CELLS sends its rows ahead in blocks (stream)
  const matrix = (n: number, k: number) => Array.from({ length: k }, () => ({ sources: points(g, n, rand), destinations: points(g, n, rand), mode: 'driving', ...(n * n > SPLIT_CELLS ? { stream: true } : {}) }));
  const match = Array.from({ length: 3 }, (_, i) => {
    const w = walk(g, 40_000, rand);
    const t = traceFromRoute(w.coords, w.dist / 13.9, w.dist, 10, 0.03, seed + i);
    return { points: t.points.slice(0, 2000), mode: 'driving' };
  });
  return {
    route: { op: 'route', per_worker: route },
    matrix_100: { op: 'route_matrix', per_worker: matrix(100, 3) },
    matrix_1000: { op: 'route_matrix', per_worker: matrix(1000, 1) },
    match: { op: 'route_match', per_worker: match },
    isochrone: { op: 'route_isochrone', per_worker: points(g, 5, rand).map((from) => ({ from, minutes: [10], mode: 'driving' })) },
  };
}

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: {
    cache: { type: 'string' }, nodes: { type: 'string' }, workers: { type: 'string' }, extract: { type: 'string' },
    tasks: { type: 'string' }, 'no-synthetic': { type: 'boolean' }, root: { type: 'string' }, out: { type: 'string' },
    'glibc-default': { type: 'boolean' },
  } });
  const nodes = Number(values.nodes ?? 4_000_000), N = Number(values.workers ?? 3);
  const tasks = (values.tasks ?? 'route,matrix_100,matrix_1000,match,isochrone').split(',');
  const root = resolve(values.root ?? ROOT);
  const child = join(root, 'bench', 'lib', 'memory-child.ts');
  const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-memory-'));
  const graphs: { name: string; builtDir: string; file: string; synthetic: boolean }[] = [];
  if (!values['no-synthetic']) {
    const base = await syntheticGraph(resolve(values.cache ?? join(tmpdir(), 'svc-scale-cache')), nodes, 'memory');
    syntheticBuilt(base, loadGraphFile(`${base}.route.bin`), join(tmp, 'synthetic'), `synthetic-${nodes}`);
    graphs.push({ name: `synthetic-${nodes}`, builtDir: join(tmp, 'synthetic'), file: `${base}.route.bin`, synthetic: true });
  }
  const extract = values.extract ?? 'tanzania-sw';
  if (extract !== 'none') {
    const src = join(ROOT, 'data', 'built', extract);
    mkdirSync(join(tmp, 'real'), { recursive: true });
    symlinkSync(src, join(tmp, 'real', extract));
    graphs.push({ name: extract, builtDir: join(tmp, 'real'), file: join(src, 'driving.route.bin'), synthetic: false });
  }
  const malloc: Record<string, string> = values['glibc-default'] ? {} : { ...MALLOC_ENV };
  if (values['glibc-default']) delete process.env.MALLOC_MMAP_THRESHOLD_;
  const results: any[] = [];
  try {
    for (const gr of graphs) {
      const g = loadGraphFile(gr.file);
      const ls = loads(g, 7);
      for (const task of tasks) {
        const lf = join(tmp, `${gr.name}-${task}.json`);
        writeFileSync(lf, JSON.stringify(ls[task]));
        const runs: any = {};
        for (const w of [1, N]) {
          process.stderr.write(`memory: ${gr.name} ${task} × ${w} workers…\n`);
          runs[w] = await runChild(child, [gr.builtDir, String(w), lf], { nodeArgs: ['--expose-gc'], env: malloc });
          process.stderr.write(`memory: ${JSON.stringify(runs[w])}\n`);
        }
        const a = runs[1], b = runs[N], r1 = (x: number) => Math.round(x * 10) / 10;
        results.push({
          graph: gr.name, synthetic: gr.synthetic, nodes: g.meta.nodes, task,
          per_busy_worker_mb: r1((b.busy_rss_mb - a.busy_rss_mb) / (N - 1)),
          // the same read at once after the load, before the workers' idle collection (workers/collect.ts IDLE_MS)
          per_busy_worker_now_mb: b.busy_now_rss_mb === undefined ? null : r1((b.busy_now_rss_mb - a.busy_now_rss_mb) / (N - 1)),
          per_idle_worker_mb: r1((b.idle_rss_mb - a.idle_rss_mb) / (N - 1)),
          work_added_per_worker_mb: r1((b.busy_rss_mb - a.busy_rss_mb - (b.idle_rss_mb - a.idle_rss_mb)) / (N - 1)),
          // the same ~1.5 s later, once workers have given back a large matrix's arrays
          per_busy_worker_released_mb: r1((b.released_rss_mb - a.released_rss_mb) / (N - 1)),
          runs: [a, b],
        });
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const out = {
    bench: 'memory', workers: N, root, malloc_mmap_threshold: malloc.MALLOC_MMAP_THRESHOLD_ ?? 'glibc default (adaptive)', worker_young_mb: loadConfig().workerYoungMb, note: 'RSS of the whole process (engine + N worker threads) in fresh processes; per busy worker = (RSS with N workers − RSS with 1) / (N − 1) after every worker ran the same load. The synthetic graph is SYNTHETIC (bench/lib/synthetic.ts).',
    machine: { cpus: cpus().length, node: process.version }, at: new Date().toISOString(), results,
  };
  const dir = values.out ?? join(HERE, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'memory.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(JSON.stringify(out));
}
