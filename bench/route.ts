// npm run bench -- route --input <file.osm.pbf> [--name <extract>] [--pairs 1000] [--rounds 3] [--no-http] [--http-seconds 10]
// npm run bench -- route --all        (issue 3 §9 correctness on every real extract and profile, 1,000 pairs each)
// npm run bench -- route --osrm-pairs [--pairs 500]   (issue 11 §1: no false no_route against osrm-routed, = bench osrm-pairs)
// npm run bench -- route [--osrm …]   (issue 12 §4: side by side with osrm-routed, bench/route-osrm.ts)
//
// Prints one JSON object and writes bench/results/route-<extract>.json (issue 3 §10).
// Timings: one thread, process.hrtime per query, A B A B alternation over --rounds rounds, medians quoted.
// The machine has 2 cores shared with the load generator (wrk) during the HTTP part.
import { mkdirSync, writeFileSync, readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, dirname, basename, resolve } from 'node:path';
import { tmpdir, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import createGraph from 'ngraph.graph';
import * as ngraphPathNs from 'ngraph.path';
import * as gpfNs from 'geojson-path-finder';
import { readShared } from '../src/core/format/index.ts';
import { openGraph, E7, type GraphViews } from '../src/core/format/route.ts';
import { ChQuery } from '../workers/routing/search/ch-query.ts';
import { DijkstraQuery } from '../workers/routing/search/dijkstra.ts';
import { between } from '../workers/routing/search/path-search.ts';
import { leg } from '../workers/routing/search/legs.ts';
import { JsonCoordSink } from '../workers/routing/answers/coords.ts';
import { snap, loadIndex, type Snap } from '../workers/routing/locate/snap.ts';
import { haversine } from '../src/core/geometry.ts';
import { runChild } from './lib/child.ts';
import { MALLOC_ENV } from '../src/core/malloc.ts';
import { runWrk, type WrkResult } from './lib/wrk.ts';
import { checkGraph, randomPoints } from './lib/check.ts';
import { percentile, median, round } from './lib/stats.ts';
import { rng } from './lib/rand.ts';

// Both peers ship CommonJS: unwrap the default export the way Node's ESM loader hands it over.
const ngraphPath: any = (ngraphPathNs as any).default ?? ngraphPathNs;
const PathFinder: any = (gpfNs as any).default?.default ?? (gpfNs as any).default;

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = join(HERE, 'results');
const SHARED = resolve(HERE, '..', '..', 'shared', 'data');

export async function main(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      input: { type: 'string' }, name: { type: 'string' }, pairs: { type: 'string' }, rounds: { type: 'string' },
      'no-http': { type: 'boolean' }, 'http-seconds': { type: 'string' }, all: { type: 'boolean' }, profile: { type: 'string' },
      osrm: { type: 'boolean' }, seconds: { type: 'string' }, 'osrm-cache': { type: 'string' }, variants: { type: 'string' }, 'osrm-pairs': { type: 'boolean' },
    },
  });
  mkdirSync(RESULTS, { recursive: true });
  if (values.all) return correctnessAll(Number(values.pairs ?? 1000));
  // issue 11 §1: every pair osrm-routed (car) routes on every default extract is routed by us
  if (values['osrm-pairs']) return (await import('./osrm-pairs.ts')).main(values.pairs ? ['--pairs', values.pairs] : []);
  // issue 12 §4: side by side with osrm-routed (bench/route-osrm.ts)
  if (!values.input || argv.includes('--osrm')) return (await import('./route-osrm.ts')).main(argv);
  if (!values.input) throw new Error('usage: npm run bench -- route --input <file.osm.pbf> [--name x] [--pairs 1000] [--rounds 3] [--no-http]');
  const input = resolve(values.input);
  const name = values.name ?? extractName(input);
  const profile = values.profile ?? 'driving';
  const nPairs = Number(values.pairs ?? 1000), rounds = Math.max(1, Number(values.rounds ?? 3));
  const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-route-'));
  const built = join(tmp, 'built');
  try {
    // 1. build in a fresh process: its own time and peak RSS
    const b = await runChild(join(HERE, 'lib', 'build-child.ts'), ['pbf', input, name, built]);
    const file = join(built, name, `${profile}.route.bin`);
    const g = openGraph(readShared(file), file, true);
    const index = loadIndex(g);

    // 2. random pairs of points on the network, snapped once (snapping is not part of the query timing)
    const pts = randomPoints(g, nPairs * 2, 20251122);
    const snaps: [Snap, Snap][] = [];
    for (let i = 0; i < nPairs; i++) snaps.push([snap(g, index, pts[2 * i][0], pts[2 * i][1], 1000)!, snap(g, index, pts[2 * i + 1][0], pts[2 * i + 1][1], 1000)!]);
    const ch = new ChQuery(g), dj = new DijkstraQuery(g);

    // search only: phantom sources/targets + bidirectional search, no unpacking, no geometry
    const searchOnly = (q: ChQuery | DijkstraQuery, s: Snap, t: Snap) => {
      q.reset();
      const fs = g.edgeFlags[s.edge], ft = g.edgeFlags[t.edge], ws = g.edgeW[s.edge], wt = g.edgeW[t.edge];
      if (fs & 1) q.addSource(g.edgeV[s.edge], Math.round((1 - s.frac) * ws));
      if (fs & 2) q.addSource(g.edgeU[s.edge], Math.round(s.frac * ws));
      if (ft & 1) q.addTarget(g.edgeU[t.edge], Math.round(t.frac * wt));
      if (ft & 2) q.addTarget(g.edgeV[t.edge], Math.round((1 - t.frac) * wt));
      return q.run();
    };
    const timeSide = (fn: (s: Snap, t: Snap) => unknown) => {
      const t = new Float64Array(nPairs);
      for (let i = 0; i < nPairs; i++) {
        const t0 = process.hrtime.bigint();
        fn(snaps[i][0], snaps[i][1]);
        t[i] = Number(process.hrtime.bigint() - t0) / 1000;
      }
      return t.sort();
    };
    // warm-up (JIT) on both sides
    timeSide((s, t) => searchOnly(ch, s, t)); timeSide((s, t) => searchOnly(dj, s, t));
    const chR: number[] = [], chP99: number[] = [], djR: number[] = [], legR: number[] = [], geoR: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const a = timeSide((s, t) => searchOnly(ch, s, t));
      chR.push(percentile(a, 50)); chP99.push(percentile(a, 99));
      djR.push(percentile(timeSide((s, t) => searchOnly(dj, s, t)), 50));
      legR.push(percentile(timeSide((s, t) => leg(g, ch, s, t)), 50));
      geoR.push(percentile(timeSide((s, t) => { const c = new JsonCoordSink(); leg(g, ch, s, t, c); c.text(); }), 50));
    }
    let mismatches = 0, settled = 0, routed = 0;
    const routable: [Snap, Snap][] = [];
    for (const [s, t] of snaps) {
      const c = searchOnly(ch, s, t);
      settled += ch.settled;
      const d = searchOnly(dj, s, t);
      if (c !== d) mismatches++;
      if (c !== Infinity) { routed++; routable.push([s, t]); }
    }

    // 3. peers on the same graph and weights, node-to-node on random node pairs (peers cannot start mid-edge)
    const peer = peers(g, nPairs, rounds, ch);

    // 4. HTTP (wrk, full geometry, 2 workers) and RSS with 1 and 4 workers
    let http: (WrkResult & { rounds: number[] }) | null = null, httpNote: string | null = null;
    // HTTP load uses the routable pairs only: every request is a full route with geometry, not a cheap 400
    const pairsLatLng = routable.map(([s, t]) => [[s.lat, s.lng], [t.lat, t.lng]] as [[number, number], [number, number]]);
    if (!values['no-http']) {
      try { http = await httpBench(tmp, built, pairsLatLng, rounds, Number(values['http-seconds'] ?? 10)); }
      catch (e) { httpNote = `HTTP benchmark failed: ${(e as Error).message.slice(0, 300)}`; }
    } else httpNote = 'skipped (--no-http)';
    const pairsFile = join(tmp, 'pairs.json');
    writeFileSync(pairsFile, JSON.stringify(pairsLatLng.slice(0, 400)));
    let rss1: number | null = null, rss4: number | null = null;
    try {
      rss1 = (await runChild(join(HERE, 'lib', 'rss-child.ts'), [built, '1', pairsFile], { env: { ...MALLOC_ENV } })).rss_mb;
      rss4 = (await runChild(join(HERE, 'lib', 'rss-child.ts'), [built, '4', pairsFile], { env: { ...MALLOC_ENV } })).rss_mb;
    } catch (e) { httpNote = `${httpNote ?? ''} RSS measurement failed: ${(e as Error).message.slice(0, 200)}`.trim(); }

    const m = b.manifest;
    const out = {
      bench: 'route', extract: name, source: basename(input), profile,
      nodes: g.meta.nodes, edges: g.meta.edges, shortcuts: g.meta.shortcuts,
      osm_nodes: m.source?.osm_nodes, build_s: b.build_s, build_cpu_s: b.build_cpu_s, build_peak_rss_mb: b.build_peak_rss_mb,
      ch_query_p50_us: round(median(chR), 2), ch_query_p99_us: round(median(chP99), 2),
      ch_leg_p50_us: round(median(legR), 2), ch_route_geometry_p50_us: round(median(geoR), 2),
      dijkstra_p50_us: round(median(djR), 1), speedup: round(median(djR) / median(chR), 1),
      settled_avg: round(settled / nPairs, 1), mismatches, pairs: nPairs, routed_pairs: routed,
      http_req_s: http?.req_s ?? null, http_p50_ms: http?.p50_ms ?? null, http_p99_ms: http?.p99_ms ?? null,
      http_detail: http, http_note: httpNote,
      rss_1_worker_mb: rss1, rss_4_workers_mb: rss4, rss_ratio: rss1 && rss4 ? round(rss4 / rss1, 2) : null,
      peer,
      method: {
        rounds, ch_query: 'one thread, no geometry: phantom start/end on the snapped edges + bidirectional CH with stall-on-demand; median over rounds of the per-round p50/p99',
        ch_leg: 'same plus shortcut unpacking and distance', ch_route_geometry: 'same plus the geometry written as its JSON text (the coordinates array the answer carries; the rest of the body is not included)',
        dijkstra: 'plain Dijkstra on the uncontracted (compressed) graph, same phantoms, alternated with CH each round',
        http: 'wrk -t1 -c32, GET /api/v1/route with full geometry over the routable pairs among the same ones, 2 workers; wrk shares the 2 cores with the server; median of rounds',
      },
      machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
      at: new Date().toISOString(),
    };
    writeFileSync(join(RESULTS, `route-${name}.json`), JSON.stringify(out, null, 2) + '\n');
    console.log(JSON.stringify(out));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The extract's name in data/sources.json when the file is a default source, else the file's base name. */
function extractName(input: string): string {
  const file = basename(input);
  try {
    const src = JSON.parse(readFileSync(join(HERE, '..', 'data', 'sources.json'), 'utf8'));
    const hit = (src.roads as { name: string; input: string }[]).find((r) => basename(r.input) === file);
    if (hit) return hit.name;
  } catch { /* no sources manifest: fall through */ }
  return file.replace(/\.osm\.pbf$/, '');
}

/** ngraph.path (NBA*) and geojson-path-finder over the same compressed graph and the same weights. */
function peers(g: GraphViews, nPairs: number, rounds: number, ch: ChQuery) {
  const n = g.meta.nodes, rand = rng(99);
  // distinct endpoints: for a == b ngraph.path returns a path through a neighbour instead of an empty one
  const pairs = Array.from({ length: nPairs }, () => {
    const a = Math.floor(rand() * n);
    let b = Math.floor(rand() * n);
    while (n > 1 && b === a) b = Math.floor(rand() * n);
    return [a, b] as [number, number];
  });
  // ours, node-to-node, for the same pairs
  const ours = (a: number, b: number) => between(ch, a, b);
  // ngraph: one link per allowed direction, weight in ms; admissible heuristic = straight line at the top speed
  let t0 = performance.now();
  const ng = createGraph({ multigraph: true });
  for (let v = 0; v < n; v++) ng.addNode(v, { lat: g.nodeLat[v] / E7, lng: g.nodeLon[v] / E7 });
  let maxSpeed = 0; // m per ms
  for (let e = 0; e < g.edgeU.length; e++) {
    if (g.edgeU[e] === g.edgeV[e]) continue;
    const sp = g.edgeDist[e] / g.edgeW[e];
    if (sp > maxSpeed) maxSpeed = sp;
    if (g.edgeFlags[e] & 1) ng.addLink(g.edgeU[e], g.edgeV[e], { w: g.edgeW[e] });
    if (g.edgeFlags[e] & 2) ng.addLink(g.edgeV[e], g.edgeU[e], { w: g.edgeW[e] });
  }
  const finder = ngraphPath.nba(ng as any, {
    oriented: true,
    distance: (_a: any, _b: any, link: any) => link.data.w,
    heuristic: (a: any, b: any) => haversine(a.data.lat, a.data.lng, b.data.lat, b.data.lng) / maxSpeed * 0.999,
  } as any);
  const ngBuild = (performance.now() - t0) / 1000;
  // geojson-path-finder: one LineString per compressed edge with its shape; per-segment weight = share of the edge's ms
  t0 = performance.now();
  const features: any[] = [];
  for (let e = 0; e < g.edgeU.length; e++) {
    const coords: number[][] = [];
    for (let p = g.edgeShape[e]; p < g.edgeShape[e + 1]; p++) coords.push([g.shapeLon[p] / E7, g.shapeLat[p] / E7]);
    features.push({ type: 'Feature', properties: { w: g.edgeW[e], d: g.edgeDist[e], f: g.edgeFlags[e] }, geometry: { type: 'LineString', coordinates: coords } });
  }
  const gpf = new PathFinder({ type: 'FeatureCollection', features } as any, {
    tolerance: 1e-7,
    weight: (a: number[], b: number[], p: any) => {
      const share = p.d > 0 ? (p.w * haversine(a[1], a[0], b[1], b[0])) / p.d : p.w;
      const w = Math.max(share, 1e-9);
      return { forward: p.f & 1 ? w : 0, backward: p.f & 2 ? w : 0 };
    },
  } as any);
  const gpfBuild = (performance.now() - t0) / 1000;
  const pt = (v: number) => ({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [g.nodeLon[v] / E7, g.nodeLat[v] / E7] } });

  const ngCost = (a: number, b: number) => {
    const p = finder.find(a, b) as any[];
    if (!p || p.length === 0) return a === b ? 0 : Infinity;
    let c = 0;
    // ngraph returns nodes target→source; sum the cheapest link between consecutive nodes
    for (let i = p.length - 1; i > 0; i--) {
      let best = Infinity;
      ng.forEachLinkedNode(p[i].id, (other: any, link: any) => { if (other.id === p[i - 1].id && link.fromId === p[i].id && link.data.w < best) best = link.data.w; }, true);
      c += best;
    }
    return c;
  };
  const time = (fn: (a: number, b: number) => unknown) => {
    const t = new Float64Array(nPairs);
    for (let i = 0; i < nPairs; i++) { const s = process.hrtime.bigint(); fn(pairs[i][0], pairs[i][1]); t[i] = Number(process.hrtime.bigint() - s) / 1000; }
    return percentile(t.sort(), 50);
  };
  const oursR: number[] = [], ngR: number[] = [], gpfR: number[] = [];
  for (let r = 0; r < rounds; r++) {
    oursR.push(time(ours));
    ngR.push(time((a, b) => finder.find(a, b)));
    gpfR.push(time((a, b) => gpf.findPath(pt(a) as any, pt(b) as any)));
  }
  // agreement: exact for ngraph (same integer weights); 0.1% for geojson-path-finder (float per-segment shares)
  let ngAgree = 0, gpfAgree = 0, reachable = 0;
  for (const [a, b] of pairs) {
    const c = ours(a, b);
    if (c !== Infinity) reachable++;
    if (ngCost(a, b) === c) ngAgree++;
    const p = gpf.findPath(pt(a) as any, pt(b) as any);
    const w = p ? p.weight : a === b ? 0 : Infinity;
    if ((w === Infinity && c === Infinity) || Math.abs(w - c) <= Math.max(1, c * 0.001)) gpfAgree++;
  }
  const o = median(oursR);
  return {
    pairs: nPairs, reachable_pairs: reachable, query: 'node-to-node between random graph nodes, one thread, cost only',
    ours_ch_p50_us: round(o, 2),
    'ngraph.path': { version: '1.6.1', algorithm: 'NBA* (bidirectional A*), straight-line heuristic at the top speed', build_s: round(ngBuild, 3), query_p50_us: round(median(ngR), 1), ratio_vs_ch: round(median(ngR) / o, 0), cost_agreement: ngAgree },
    'geojson-path-finder': { version: '2.1.0', algorithm: 'Dijkstra on its compacted topology', build_s: round(gpfBuild, 3), query_p50_us: round(median(gpfR), 1), ratio_vs_ch: round(median(gpfR) / o, 0), cost_agreement_0_1pct: gpfAgree },
  };
}

async function httpBench(tmp: string, built: string, pairs: [[number, number], [number, number]][], rounds: number, seconds: number) {
  const { loadConfig } = await import('../src/core/config.ts');
  const { startServer } = await import('../src/app.ts');
  const { createKey } = await import('../src/auth/keys.ts');
  process.env.LOG_LEVEL = 'silent';
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', WORKERS: '2', DATA_DIR: join(tmp, 'data'), BUILT_DIR: built, LOG_REQUESTS: '0', BURST_RPS: '0', SKIP_BUILD: '1' });
  const app = await startServer(config);
  try {
    const { key } = await createKey(app.ctx.store, { project: 'bench', plan: 'enterprise', test: false });
    const paths = pairs.map(([a, b]) => `/api/v1/route?from=${a[0].toFixed(6)},${a[1].toFixed(6)}&to=${b[0].toFixed(6)},${b[1].toFixed(6)}`);
    const base = `http://127.0.0.1:${app.port}`;
    const probe = await fetch(base + paths[0], { headers: { authorization: `Bearer ${key}` } });
    if (probe.status !== 200 && probe.status !== 400) throw new Error(`probe answered ${probe.status}: ${(await probe.text()).slice(0, 200)}`);
    const runs: WrkResult[] = [];
    await runWrk({ baseUrl: base, paths, headers: { authorization: `Bearer ${key}` }, threads: 1, connections: 32, durationS: 2 }); // warm-up
    for (let r = 0; r < rounds; r++) runs.push(await runWrk({ baseUrl: base, paths, headers: { authorization: `Bearer ${key}` }, threads: 1, connections: 32, durationS: seconds }));
    const mid = [...runs].sort((a, b) => a.req_s - b.req_s)[runs.length >> 1];
    return { ...mid, rounds: runs.map((x) => x.req_s) };
  } finally {
    await app.close();
  }
}

/** Issue 3 §9 on every real extract and profile; writes bench/results/route-correctness.json. */
async function correctnessAll(pairs: number) {
  const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-check-'));
  try {
    const files = readdirSync(SHARED).filter((f) => f.endsWith('.osm.pbf')).sort();
    const { buildRoadExtract } = await import('../graph-build/roads.ts');
    const rows: any[] = [];
    for (const f of files) {
      const name = f.replace(/\.osm\.pbf$/, '');
      const m = await buildRoadExtract({ input: join(SHARED, f), name, out: tmp });
      for (const file of m.files) {
        const path = join(tmp, name, file.file);
        const g = openGraph(readShared(path), path, true);
        const t0 = performance.now();
        const r = checkGraph(g, pairs, 12345);
        rows.push({ extract: f, profile: file.profile, nodes: g.meta.nodes, ...r, seconds: round((performance.now() - t0) / 1000, 2) });
        process.stderr.write(`${f} ${file.profile}: ${r.cost_mismatches} cost mismatches, ${r.discontinuities} discontinuities, ${r.length_mismatches} length mismatches (${r.routed} routed)\n`);
      }
    }
    const out = {
      bench: 'route-correctness', pairs_per_graph: pairs,
      checks: 'CH cost == plain Dijkstra on the uncontracted graph (exact, integer ms); unpacked path continuous and geometry starts/ends at the snapped points; geometry length within 0.5% of distance_m',
      all_ok: rows.every((r) => r.cost_mismatches === 0 && r.discontinuities === 0 && r.length_mismatches === 0),
      graphs: rows, at: new Date().toISOString(),
    };
    writeFileSync(join(RESULTS, 'route-correctness.json'), JSON.stringify(out, null, 2) + '\n');
    console.log(JSON.stringify(out));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
