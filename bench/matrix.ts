// npm run bench -- matrix [--rounds 5] [--cache DIR] [--osrm-cache DIR] [--no-http] [--no-synthetic]
//
// Issue 11 §2. Prints one JSON object and writes bench/results/matrix.json.
//  1. Compute, one thread, in process (the worker's task: snapping, bucket searches, JSON text):
//     100×100 and 1,000×1,000 on Tanzania SW (driving) and on the 1M-node SYNTHETIC grid (built
//     once into --cache, the same file `bench -- scale --cache` writes).
//  2. HTTP, Tanzania SW: POST /api/v1/route/matrix on the real server with 2 worker threads
//     (1,000×1,000 split over both) against osrm-routed (CH, 2 threads) GET /table/v1/driving on the
//     same extract and the same points, rounds alternated (ours, OSRM, ours, …), p50 per side, ratio.
// Points are random positions on roads of the largest strongly connected component (every cell
// routable, as a dispatcher's stops usually are). The machine has 2 cores and was shared with
// other engineers' work when measured: figures move between runs.
import { mkdirSync, writeFileSync, readFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { tmpdir, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRoadExtract } from '../graph-build/roads.ts';
import { openGraph, E7, ROUTE_FORMAT_VERSION, type GraphViews } from '../src/core/format/route.ts';
import { readShared } from '../src/core/format/index.ts';
import { LoadedGraph, setLoadedGraphs } from '../workers/routing/graphs.ts';
import { matrixTask, matrixCosts } from '../workers/routing/matrix.ts';
import { runChild } from './lib/child.ts';
import { startServerProcess } from './lib/server-process.ts';
import { osrmAvailable, prepareOsrm, startOsrm } from './lib/osrm.ts';
import { rng } from './lib/rand.ts';
import { median, round } from './lib/stats.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHARED = resolve(HERE, '..', '..', 'shared', 'data');
const TZ = { name: 'tanzania-sw', file: 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf' };
const SIZES = [100, 1000];

/** n random points on roads of the largest SCC. */
export function mainComponentPoints(g: GraphViews, n: number, seed: number): [number, number][] {
  const r = rng(seed), main = g.meta.main_component, out: [number, number][] = [];
  const segs = g.segPt.length;
  while (out.length < n) {
    const i = Math.floor(r() * segs);
    if (g.edgeComp[g.segEdge[i]] !== main) continue;
    const p = g.segPt[i], t = r();
    out.push([(g.shapeLat[p] + t * (g.shapeLat[p + 1] - g.shapeLat[p])) / E7, (g.shapeLon[p] + t * (g.shapeLon[p + 1] - g.shapeLon[p])) / E7]);
  }
  return out;
}

function computeRounds(lg: LoadedGraph, rounds: number, seed: number) {
  setLoadedGraphs([lg]);
  const pts = mainComponentPoints(lg.g, 2000, seed);
  const out: Record<string, unknown> = {};
  const times: Record<number, number[]> = { 100: [], 1000: [] };
  let state: Record<number, number> = {};
  matrixTask({ sources: pts.slice(0, 100), destinations: pts.slice(100, 200) }); // warm-up (JIT)
  for (let k = 0; k < rounds; k++) {
    for (const n of SIZES) {
      const t0 = performance.now();
      const t = matrixTask({ sources: pts.slice(0, n), destinations: pts.slice(1000, 1000 + n) });
      times[n].push(performance.now() - t0);
      if (!t.bytes.length) throw new Error('empty');
    }
  }
  for (const n of SIZES) {
    const c = matrixCosts({ sources: pts.slice(0, n), destinations: pts.slice(1000, 1000 + n) });
    let inf = 0; for (const v of c.ms) if (v === Infinity) inf++;
    state[n] = c.stateBytes;
    out[`${n}x${n}`] = { p50_ms: round(median(times[n]), 1), rounds_ms: times[n].map((x) => round(x, 1)), unreachable_cells: inf, query_state_kb: round(c.stateBytes / 1024, 0) };
  }
  return out;
}

async function timeFetch(fn: () => Promise<Response>): Promise<number> {
  const t0 = performance.now();
  const r = await fn();
  const body = await r.arrayBuffer();
  if (!r.ok) throw new Error(`HTTP ${r.status}: ${Buffer.from(body).toString().slice(0, 300)}`);
  return performance.now() - t0;
}

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { rounds: { type: 'string' }, cache: { type: 'string' }, 'osrm-cache': { type: 'string' }, 'no-http': { type: 'boolean' }, 'no-synthetic': { type: 'boolean' } } });
  const rounds = Number(values.rounds ?? 5);
  const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-matrix-'));
  const result: Record<string, any> = {
    bench: 'matrix', at: new Date().toISOString(), machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
    note: 'Points on roads of the largest SCC. compute = the worker task in one thread (snap + bucket searches + JSON text). http = POST over the real server (2 worker threads) vs osrm-routed /table (CH, 2 threads), alternated rounds. Shared 2-core machine.',
  };
  try {
    const built = join(tmp, 'built');
    await buildRoadExtract({ input: join(SHARED, TZ.file), name: TZ.name, out: built, profiles: ['driving'] });
    const file = join(built, TZ.name, 'driving.route.bin');
    const g = openGraph(readShared(file), file);
    result.tanzania_sw = { nodes: g.meta.nodes, compute_1_thread: computeRounds(new LoadedGraph(TZ.name, 'driving', g), rounds, 7) };
    process.stderr.write(`matrix: tanzania compute ${JSON.stringify(result.tanzania_sw)}\n`);

    if (!values['no-synthetic']) {
      const cache = resolve(values.cache ?? join(tmp, 'cache'));
      const n = 1_000_000;
      const base = join(cache, `synthetic-${n}-seed1-v${ROUTE_FORMAT_VERSION}`);
      if (!existsSync(`${base}.json`)) {
        mkdirSync(cache, { recursive: true });
        process.stderr.write('matrix: building the 1M-node synthetic grid (cached for next time)…\n');
        await runChild(join(HERE, 'lib', 'build-child.ts'), ['synthetic', String(n), '1', '10', '1', cache], { nodeArgs: ['--max-old-space-size=8192'] });
      }
      const sg = openGraph(readShared(`${base}.route.bin`), `${base}.route.bin`);
      result.synthetic_1m = { synthetic: true, nodes: sg.meta.nodes, compute_1_thread: computeRounds(new LoadedGraph('synthetic', 'driving', sg), rounds, 9) };
      process.stderr.write(`matrix: synthetic compute ${JSON.stringify(result.synthetic_1m)}\n`);
    }

    if (!values['no-http']) {
      const pts = mainComponentPoints(g, 2000, 13);
      const server = await startServerProcess({ WORKERS: '2', BUILT_DIR: built, SKIP_BUILD: '1', LOG_LEVEL: 'silent' }, 18900 + Math.floor(Math.random() * 500));
      const osrm = osrmAvailable() ? await startOsrm(prepareOsrm(join(SHARED, TZ.file), resolve(values['osrm-cache'] ?? join(tmpdir(), 'svc-osrm-cache'))), 5970, 2) : null;
      try {
        const key = server.keys!.live;
        const http: Record<string, any> = {};
        for (const n of SIZES) {
          const S = pts.slice(0, n), D = pts.slice(1000, 1000 + n);
          const body = JSON.stringify({ sources: S, destinations: D });
          const coords = [...S, ...D].map(([la, lo]) => `${lo},${la}`).join(';');
          const idx = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i).join(';');
          const osrmUrl = osrm ? `${osrm.url}/table/v1/driving/${coords}?sources=${idx(0, n)}&destinations=${idx(n, 2 * n)}&annotations=duration,distance` : '';
          const ours = () => fetch(`${server.base}/api/v1/route/matrix`, { method: 'POST', body, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
          await timeFetch(ours); if (osrm) await timeFetch(() => fetch(osrmUrl)); // warm-up
          const a: number[] = [], b: number[] = [];
          for (let k = 0; k < rounds; k++) {
            a.push(await timeFetch(ours));
            if (osrm) b.push(await timeFetch(() => fetch(osrmUrl)));
          }
          http[`${n}x${n}`] = {
            ours_p50_ms: round(median(a), 1), ours_rounds_ms: a.map((x) => round(x, 1)),
            ...(osrm ? { osrm_table_p50_ms: round(median(b), 1), osrm_rounds_ms: b.map((x) => round(x, 1)), osrm_over_ours: round(median(b) / median(a), 2) } : { osrm: 'not available' }),
          };
          process.stderr.write(`matrix: http ${n} ${JSON.stringify(http[`${n}x${n}`])}\n`);
        }
        result.tanzania_sw.http_2_workers = http;
      } finally {
        await server.stop();
        await osrm?.stop();
      }
    }
  } finally { rmSync(tmp, { recursive: true, force: true }); }
  mkdirSync(join(HERE, 'results'), { recursive: true });
  writeFileSync(join(HERE, 'results', 'matrix.json'), JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result));
}
