// Traffic benchmark (issue 16): probe ingest and matching throughput, time from a probe to its
// effect on /route, and the cost of a traffic-aware route against a plain one.
//
//   npm run bench -- traffic [--rounds 3] [--traces 30]
//
// Runs the server in this process on eastern Algiers (driving) with the default timers
// (probes processed every second, speeds published every two) and an embedded database, or
// DATABASE_URL. The load generator shares the 2 cores and this event loop with the server.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../src/core/config.ts';
import { startServer } from '../src/app.ts';
import { createKey } from '../src/auth/keys.ts';
import { buildRoadExtract } from '../graph-build/roads.ts';
import { trafficService } from '../src/traffic/service.ts';
import { haversine } from '../src/core/geometry.ts';

const REPO = resolve(import.meta.dirname, '..');
const SHARED = resolve(REPO, '..', 'shared', 'data');
const arg = (args: string[], name: string, def: number) => { const i = args.indexOf(`--${name}`); return i >= 0 ? Number(args[i + 1]) : def; };
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const r2 = (x: number) => Math.round(x * 100) / 100;

/** Points along a line at `mps`, one every `dt` s, starting at `t0` (epoch ms). */
function drive(line: [number, number][], mps: number, dt: number, t0: number) {
  const out: { lat: number; lng: number; ts: number }[] = [];
  let along = 0, next = 0;
  for (let i = 0; i + 1 < line.length; i++) {
    const len = haversine(line[i][1], line[i][0], line[i + 1][1], line[i + 1][0]);
    while (next <= along + len) {
      const f = len > 0 ? (next - along) / len : 0;
      out.push({ lng: line[i][0] + f * (line[i + 1][0] - line[i][0]), lat: line[i][1] + f * (line[i + 1][1] - line[i][1]), ts: Math.round(t0 + (next / mps) * 1000) });
      next += mps * dt;
    }
    along += len;
  }
  return out;
}

export async function main(args: string[]) {
  const rounds = arg(args, 'rounds', 3), nTraces = arg(args, 'traces', 30);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-traffic-'));
  const built = join(dir, 'built');
  await buildRoadExtract({ input: join(SHARED, 'algiers-east-streets-osmnx-2025.osm.pbf'), name: 'algiers-east', out: built, profiles: ['driving'] });
  process.env.LOG_LEVEL = 'silent';
  const config = loadConfig({ ...process.env, POOL_MAX_WAIT_MS: '0', PORT: '0', HOST: '127.0.0.1', WORKERS: '2', DATA_DIR: dir, BUILT_DIR: built, LOG_REQUESTS: '0', SKIP_BUILD: '1' });
  const app = await startServer(config);
  const base = `http://127.0.0.1:${app.port}`;
  const { key } = await createKey(app.ctx.store, { project: 'bench', plan: 'enterprise', test: false });
  const H = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const get = async (p: string) => (await fetch(base + p, { headers: H })).json() as Promise<any>;
  const svc = trafficService(app.ctx)!;
  const pairs = [['36.715,3.16', '36.735,3.21'], ['36.72,3.17', '36.74,3.20'], ['36.705,3.165', '36.725,3.215'], ['36.721,3.183', '36.738,3.205']];
  const lines: [number, number][][] = [];
  for (const [a, b] of pairs) lines.push((await get(`/api/v1/route?from=${a}&to=${b}`)).route.geometry.coordinates);

  // 1. Ingest and matching: nTraces traces of the four routes at 8 m/s, one point every 5 s.
  const ingest: number[] = [], matching: number[] = [];
  let points = 0;
  for (let r = 0; r < rounds; r++) {
    const t0 = Date.now() - 40 * 60_000;
    const probes = Array.from({ length: nTraces }, (_, i) => ({ trace_id: `b${r}-${i}`, points: drive(lines[i % lines.length], 8, 5, t0 + i * 1000) }));
    points = probes.reduce((s, p) => s + p.points.length, 0);
    const chunks: typeof probes[] = [];
    for (let i = 0, n = 0, c: typeof probes = []; i < probes.length; i++) {
      if (n + probes[i].points.length > 10_000) { chunks.push(c); c = []; n = 0; }
      c.push(probes[i]); n += probes[i].points.length;
      if (i === probes.length - 1) chunks.push(c);
    }
    let t = performance.now();
    for (const c of chunks) {
      const res = await fetch(base + '/api/v1/traffic/contribute', { method: 'POST', headers: H, body: JSON.stringify({ probes: c }) });
      if (res.status !== 202) throw new Error(`contribute answered ${res.status}: ${await res.text()}`);
    }
    ingest.push(points / ((performance.now() - t) / 1000));
    // Matched when no stored probe is left unprocessed (the server's own timer takes turns with these rounds).
    t = performance.now();
    for (;;) {
      await svc.step();
      const left = (await app.ctx.store.pool.query('SELECT count(*)::int AS n FROM traffic_probes WHERE processed_at IS NULL')).rows[0].n;
      if (left === 0) break;
    }
    matching.push(points / ((performance.now() - t) / 1000));
  }

  // 2. Probe to effect: three slow traces on a fresh stretch; the server's own timers do the rest.
  const [a, b] = pairs[0];
  const before = (await get(`/api/v1/route?from=${a}&to=${b}&traffic=live`)).route;
  await app.ctx.store.pool.query('DELETE FROM traffic_samples');
  await svc.publisher.publish();
  // 4 m/s over the 7.4 km route takes ~31 minutes: the last 15 are in the live window.
  const t0 = Date.now() - 33 * 60_000;
  const slow = [1, 2, 3].map((i) => ({ trace_id: `slow-${i}`, points: drive(lines[0], 4, 5, t0 + i * 1000).filter((p) => p.ts <= Date.now()) }));
  const tPost = performance.now();
  await fetch(base + '/api/v1/traffic/contribute', { method: 'POST', headers: H, body: JSON.stringify({ probes: slow }) });
  let effectMs = NaN;
  const seen: Record<string, unknown> = { samples: 0, probesLeft: -1 };
  for (let i = 0; i < 300; i++) {
    if (i % 20 === 19) {
      seen.samples = (await app.ctx.store.pool.query('SELECT count(*)::int AS n FROM traffic_samples')).rows[0].n;
      seen.probesLeft = (await app.ctx.store.pool.query('SELECT count(*)::int AS n FROM traffic_probes WHERE processed_at IS NULL')).rows[0].n;
    }
    const r = (await get(`/api/v1/route?from=${a}&to=${b}&traffic=live`)).route;
    seen.last = r ? { traffic: r.traffic, duration_s: r.duration_s, before_s: before.duration_s } : null;
    if (r?.traffic?.applied && r.duration_s !== before.duration_s) { effectMs = performance.now() - tPost; break; }
    await new Promise((res) => setTimeout(res, 50));
  }

  // 3. Query cost: /route with and without traffic=live, alternating, 200 each per round.
  const plain: number[] = [], live: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const [side, out] of [['', plain], ['&traffic=live', live]] as const) {
      for (let i = 0; i < 200; i++) {
        const [p, q] = pairs[i % pairs.length];
        const t = performance.now();
        const d = await get(`/api/v1/route?from=${p}&to=${q}${side}`);
        if (!d.route) throw new Error(`route answered ${JSON.stringify(d).slice(0, 200)}`);
        out.push(performance.now() - t);
      }
    }
  }
  await app.close();
  rmSync(dir, { recursive: true, force: true });

  const result = {
    bench: 'traffic', extract: 'algiers-east (driving)', when: new Date().toISOString(), rounds,
    note: 'server in this process with 2 workers and embedded PGlite (or DATABASE_URL); the load generator shares the 2 cores and the event loop',
    ingest_points_per_s: { median: Math.round(median(ingest)), rounds: ingest.map(Math.round), points_per_round: points },
    matched_points_per_s: { median: Math.round(median(matching)), rounds: matching.map(Math.round) },
    probe_to_route_ms: Number.isFinite(effectMs) ? Math.round(effectMs) : { not_seen: seen },
    route_ms: { plain: { p50: r2(median(plain)), p99: r2(pct(plain, 0.99)) }, traffic_live: { p50: r2(median(live)), p99: r2(pct(live, 0.99)) }, ratio_p50: r2(median(live) / median(plain)) },
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(join(REPO, 'bench', 'results'), { recursive: true });
  writeFileSync(join(REPO, 'bench', 'results', 'traffic.json'), JSON.stringify(result, null, 2) + '\n');
}
