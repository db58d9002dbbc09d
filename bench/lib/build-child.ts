// Child process for benchmarks: builds in isolation so build time and peak RSS are its own.
//   pbf <input> <name> <out>            → { build_s, build_peak_rss_mb, manifest }
//   synthetic <nodes> <seed> <queries> <dijkstra-queries> [cache-dir]
//                                       → build + CH / Dijkstra timings on a SYNTHETIC grid; with a cache
//                                         folder the built graph is stored there per (nodes, seed, route
//                                         format version) and reused, with the build figures of the run that built it
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { buildGraph } from '../../graph-build/contract/build.ts';
import { encode, writeAtomic } from '../../src/core/format/index.ts';
import { openGraph, ROUTE_KIND, ROUTE_FORMAT_VERSION } from '../../src/core/format/route.ts';
import { ChQuery } from '../../workers/routing/search/ch-query.ts';
import { DijkstraQuery } from '../../workers/routing/search/dijkstra.ts';
import { between } from '../../workers/routing/search/path-search.ts';
import { syntheticGrid } from './synthetic.ts';
import { rng } from './rand.ts';
import { percentile, round } from './stats.ts';
import { peakRssMb } from './child.ts';

/** CPU seconds (user + system) since c0: unlike wall time, barely moved by other load on the machine. */
const cpuS = (c0: NodeJS.CpuUsage) => { const d = process.cpuUsage(c0); return round((d.user + d.system) / 1e6, 2); };

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'pbf') {
  const [input, name, out] = rest;
  const t0 = performance.now(), c0 = process.cpuUsage();
  const manifest = await buildRoadExtract({ input, name, out });
  console.log(JSON.stringify({ build_s: round((performance.now() - t0) / 1000, 3), build_cpu_s: cpuS(c0), build_peak_rss_mb: peakRssMb(), manifest }));
} else if (mode === 'synthetic') {
  const nodes = Number(rest[0]), seed = Number(rest[1] ?? 1), queries = Number(rest[2] ?? 1000), djQueries = Number(rest[3] ?? 50);
  const cacheDir = rest[4];
  const cacheBase = cacheDir ? join(cacheDir, `synthetic-${nodes}-seed${seed}-v${ROUTE_FORMAT_VERSION}`) : null;
  let buf: ArrayBuffer, build: any;
  if (cacheBase && existsSync(`${cacheBase}.json`) && existsSync(`${cacheBase}.route.bin`)) {
    const b = readFileSync(`${cacheBase}.route.bin`);
    buf = b.byteOffset === 0 && b.buffer.byteLength === b.byteLength ? b.buffer as ArrayBuffer : b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
    openGraph(buf, `${cacheBase}.route.bin`, true); // checksum once: a cached file is only a file
    build = { ...JSON.parse(readFileSync(`${cacheBase}.json`, 'utf8')), cached: `${cacheBase}.route.bin` };
  } else {
    const rssBefore = peakRssMb();
    const t0 = performance.now(), c0 = process.cpuUsage();
    const segs = syntheticGrid(nodes, seed);
    const built = buildGraph(segs, 'driving');
    const bytes = encode(ROUTE_KIND, ROUTE_FORMAT_VERSION, built.sections, built.meta);
    build = {
      grid_side: segs.side, build_s: round((performance.now() - t0) / 1000, 2), build_cpu_s: cpuS(c0), build_seconds_detail: built.seconds,
      build_peak_rss_mb: peakRssMb(), rss_before_build_mb: rssBefore,
    };
    buf = bytes.buffer as ArrayBuffer;
    if (cacheBase) {
      writeAtomic(`${cacheBase}.route.bin`, bytes);
      writeFileSync(`${cacheBase}.json`, JSON.stringify(build) + '\n'); // written last: the pair is complete
    }
  }
  const g = openGraph(buf, 'synthetic');
  const n = g.ebEdge.length, rand = rng(seed + 1);
  const pairs = Array.from({ length: Math.max(queries, djQueries) }, () => [Math.floor(rand() * n), Math.floor(rand() * n)]);
  const ch = new ChQuery(g), dj = new DijkstraQuery(g);
  const time = (q: ChQuery | DijkstraQuery, k: number) => {
    const t = new Float64Array(k), costs = new Float64Array(k);
    let settled = 0;
    for (let i = 0; i < k; i++) {
      const [a, b] = pairs[i];
      const s = process.hrtime.bigint();
      costs[i] = between(q, a, b);
      t[i] = Number(process.hrtime.bigint() - s) / 1000;
      settled += q.settled;
    }
    return { t: t.slice().sort(), costs, settled: settled / k };
  };
  time(ch, Math.min(200, queries)); // warm-up (JIT)
  const rounds: { ch: number; dj: number }[] = [];
  let chRes = time(ch, queries), djRes = time(dj, djQueries);
  rounds.push({ ch: percentile(chRes.t, 50), dj: percentile(djRes.t, 50) });
  // A B A B: a second round of each side, then the median-of-rounds is reported
  for (let r = 1; r < 3; r++) {
    chRes = time(ch, queries);
    const d = time(dj, djQueries);
    rounds.push({ ch: percentile(chRes.t, 50), dj: percentile(d.t, 50) });
    djRes = d;
  }
  let mismatches = 0;
  for (let i = 0; i < djQueries; i++) if (chRes.costs[i] !== djRes.costs[i]) mismatches++;
  const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
  const chP50 = med(rounds.map((r) => r.ch)), djP50 = med(rounds.map((r) => r.dj));
  console.log(JSON.stringify({
    synthetic: true, target_nodes: nodes, nodes: g.meta.nodes, edges: g.meta.edges, shortcuts: g.meta.shortcuts, ...build,
    ch_query_p50_us: round(chP50, 1), ch_query_p99_us: round(percentile(chRes.t, 99), 1), ch_settled_avg: round(chRes.settled, 1),
    dijkstra_p50_us: round(djP50, 0), dijkstra_queries: djQueries, ch_queries: queries,
    speedup: round(djP50 / chP50, 0), mismatches, rounds,
  }));
} else {
  console.error('usage: build-child.ts pbf <input> <name> <out> | synthetic <nodes> <seed> <queries> <dijkstra-queries>');
  process.exit(2);
}
