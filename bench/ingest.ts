// Ping ingest and trail-read benchmark on real PostgreSQL (issue 5 §10).
//
//   DATABASE_URL=postgres://… npm run bench -- ingest [--seconds 8] [--rounds 3]
//
// Starts the real server (node --import tsx src/main.ts, SKIP_BUILD=1) on a fresh
// database and drives it over HTTP from this process with keep-alive connections:
//   batched  — clients POST {"pings":[100]} back to back;
//   single   — clients POST one ping each;
//   peer     — the same ingest statement sent straight through `pg` from this process,
//              one per batch (no HTTP, no group commit): what the HTTP path is compared to.
// Sides alternate (A B C A B C …) for --rounds rounds; medians are reported. Then a
// device gets 10,000 pings and GET /track/{device}?trail=1&limit=10000 is timed.
// The load generator shares the machine's 2 cores with the server and PostgreSQL.
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Store } from '../src/store/index.ts';
import { insertBatches, type Ping } from '../src/store/pings.ts';
import { REPO, freshDatabase, makeKey, startChild } from './crash.ts';
import { numArg } from './lib/args.ts';

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const r1 = (x: number) => Math.round(x * 10) / 10;
// Phones report about six decimals of a degree (0.1 m); the bench sends what devices send.
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

class Client {
  private agent: http.Agent;
  constructor(private base: URL, private key: string, sockets: number) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  }
  request(method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
    return new Promise((res, rej) => {
      const req = http.request({
        host: this.base.hostname, port: this.base.port, method, path, agent: this.agent,
        headers: { authorization: `Bearer ${this.key}`, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
      }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c) => chunks.push(c));
        r.on('end', () => res({ status: r.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        r.on('error', rej);
      });
      req.on('error', rej);
      if (body) req.write(body);
      req.end();
    });
  }
  close() { this.agent.destroy(); }
}

let tsBase = Date.now() - 48 * 3600_000;
const makePings = (device: string, n: number): Ping[] => {
  const out: Ping[] = [];
  for (let i = 0; i < n; i++) out.push({ device, ts: tsBase++, lat: r6(6.4 + Math.random() * 0.1), lng: r6(3.3 + Math.random() * 0.1), speed_mps: r1(Math.random() * 20), heading_deg: Math.round(Math.random() * 359), accuracy_m: r1(3 + Math.random() * 10) });
  return out;
};
const wire = (p: Ping[]) => JSON.stringify({ pings: p.map(({ device, ts, lat, lng, speed_mps, heading_deg, accuracy_m }) => ({ device, ts, lat, lng, speed_mps, heading_deg, accuracy_m })) });

/** Run `clients` loops for `seconds`; each loop sends batches of `size`; returns acked pings/s. */
async function drive(seconds: number, clients: number, size: number, send: (device: string, pings: Ping[]) => Promise<boolean>, tag: string) {
  const end = performance.now() + seconds * 1000;
  let acked = 0, failed = 0, requests = 0;
  const lat: number[] = [];
  await Promise.all(Array.from({ length: clients }, async (_, c) => {
    const device = `${tag}-${c}`;
    while (performance.now() < end) {
      const pings = makePings(device, size);
      const t = performance.now();
      const ok = await send(device, pings);
      lat.push(performance.now() - t);
      requests++;
      if (ok) acked += size; else failed++;
    }
  }));
  return { pings_per_s: Math.round(acked / seconds), requests_per_s: Math.round(requests / seconds), failed, latency_ms_p50: r1(median(lat)), latency_ms_p99: r1(pct(lat, 0.99)) };
}

export async function main(args: string[]) {
  const seconds = numArg(args, 'seconds', 8);
  const rounds = numArg(args, 'rounds', 3);
  const batchClients = numArg(args, 'batch-clients', 8);
  const singleClients = numArg(args, 'single-clients', 32);
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is required: this benchmark runs on real PostgreSQL');
  const db = await freshDatabase(process.env.DATABASE_URL, 'svc_ingest');
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-ingest-'));
  const say = (s: string) => process.stderr.write(s + '\n');
  try {
    const key = await makeKey(db.url, dataDir);
    const child = await startChild({ DATABASE_URL: db.url, DATA_DIR: dataDir });
    const http1 = new Client(new URL(child.url), key, Math.max(batchClients, singleClients));
    const peerStore = await Store.open({ databaseUrl: db.url, dbDir: join(dataDir, 'db'), migrate: false, max: 10 });
    const owner = { project: 'bench', sandbox: false };
    const overHttp = async (_d: string, pings: Ping[]) => {
      const r = await http1.request('POST', '/api/v1/track/ping', wire(pings));
      return r.status === 202;
    };
    const direct = async (_d: string, pings: Ping[]) => (await insertBatches(peerStore, [{ o: owner, pings }]))[0] === pings.length;

    const loadStart = loadavg();
    // Warm-up: JIT, connection pools, first pages of the indexes.
    await drive(2, batchClients, 100, overHttp, 'warm');
    await drive(1, singleClients, 1, overHttp, 'warm1');
    const results: Record<string, any[]> = { batched_100: [], single: [], peer_direct_sql_100: [] };
    for (let r = 0; r < rounds; r++) {
      results.batched_100.push(await drive(seconds, batchClients, 100, overHttp, `b${r}`));
      say(`round ${r} batched: ${JSON.stringify(results.batched_100.at(-1))}`);
      results.single.push(await drive(seconds, singleClients, 1, overHttp, `s${r}`));
      say(`round ${r} single: ${JSON.stringify(results.single.at(-1))}`);
      results.peer_direct_sql_100.push(await drive(seconds, batchClients, 100, direct, `p${r}`));
      say(`round ${r} peer: ${JSON.stringify(results.peer_direct_sql_100.at(-1))}`);
    }

    // Trail read: one device with exactly 10,000 pings.
    const dev = 'trail-10k';
    for (let i = 0; i < 100; i++) {
      const r = await http1.request('POST', '/api/v1/track/ping', wire(makePings(dev, 100)));
      if (r.status !== 202) throw new Error(`seeding failed: ${r.status} ${r.body}`);
    }
    const path = `/api/v1/track/${dev}?trail=1&limit=10000`;
    const first = await http1.request('GET', path);
    const n = JSON.parse(first.body).trail.length;
    if (n !== 10_000) throw new Error(`trail has ${n} points, expected 10000`);
    for (let i = 0; i < 20; i++) await http1.request('GET', path);
    // Repeated reads of an unchanged trail: served from the trail cache after one
    // primary-key check of the device's ping count.
    const reads: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      const r = await http1.request('GET', path);
      reads.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`trail read ${r.status}`);
    }
    // Uncached: before each timed read, one ping older than all others is stored. It
    // bumps the device's ping count (so the cache misses) but is not among the latest
    // 10,000, so every timed read returns the same 10,000 points straight from PostgreSQL.
    const cold: number[] = [];
    const oldest = Date.parse(JSON.parse(first.body).trail[0].ts);
    for (let i = 0; i < 300; i++) {
      const w = await http1.request('POST', '/api/v1/track/ping', JSON.stringify({ device: dev, lat: 6.4, lng: 3.3, ts: oldest - 1000 - i }));
      if (w.status !== 202) throw new Error(`ping ${w.status}`);
      const t = performance.now();
      const r = await http1.request('GET', path);
      cold.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`uncached trail read ${r.status}`);
      if (i === 299 && JSON.parse(r.body).trail.length !== 10_000) throw new Error('uncached read did not return 10,000 points');
    }
    const geo: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      await http1.request('GET', path + '&format=geojson');
      geo.push(performance.now() - t);
    }

    const loadEnd = loadavg();
    const settings = await peerStore.query("SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'server_version')");
    const med = (k: string, f: string) => median(results[k].map((x) => x[f]));
    const out = {
      bench: 'ingest',
      when: new Date().toISOString(),
      command: `DATABASE_URL=… npm run bench -- ingest${args.length ? ' ' + args.join(' ') : ''}`,
      machine: `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}); load generator, server and PostgreSQL share them`,
      load_average: { start: loadStart.map(r1), end: loadEnd.map(r1), note: '1/5/15-minute load averages: other work on the shared machine shows here' },
      postgres: Object.fromEntries(settings.rows.map((r) => [r.name, r.setting])),
      method: `${rounds} rounds of ${seconds} s per side, sides alternated (batched, single, peer), medians; HTTP keep-alive from this process to the real server (1 process, WORKERS=1); every counted ping was answered 202 after COMMIT`,
      batched_100: { clients: batchClients, pings_per_s: med('batched_100', 'pings_per_s'), requests_per_s: med('batched_100', 'requests_per_s'), latency_ms_p50: med('batched_100', 'latency_ms_p50'), latency_ms_p99: med('batched_100', 'latency_ms_p99'), rounds: results.batched_100 },
      single: { clients: singleClients, pings_per_s: med('single', 'pings_per_s'), latency_ms_p50: med('single', 'latency_ms_p50'), latency_ms_p99: med('single', 'latency_ms_p99'), rounds: results.single },
      peer_direct_sql_100: { clients: batchClients, pings_per_s: med('peer_direct_sql_100', 'pings_per_s'), note: 'the same INSERT … unnest … ON CONFLICT statement through pg, one statement per batch, no HTTP and no group commit', rounds: results.peer_direct_sql_100 },
      http_vs_direct_ratio: Math.round((med('batched_100', 'pings_per_s') / med('peer_direct_sql_100', 'pings_per_s')) * 100) / 100,
      trail_read_10k: { points: n, bytes: Buffer.byteLength(first.body), reads: reads.length, p50_ms: r1(median(reads)), p90_ms: r1(pct(reads, 0.9)), p99_ms: r1(pct(reads, 0.99)), note: 'repeated reads of an unchanged trail (trail cache, validated by one primary-key lookup per request)' },
      trail_read_10k_uncached: { reads: cold.length, p50_ms: r1(median(cold)), p90_ms: r1(pct(cold, 0.9)), p99_ms: r1(pct(cold, 0.99)), note: 'cache miss on every read (the ping count changed): 10,001 rows of pre-rendered JSON from PostgreSQL joined into the response' },
      trail_read_10k_geojson: { reads: geo.length, p50_ms: r1(median(geo)), note: 'not cached; built with JSON.stringify' },
      targets: { batched_pings_per_s: 10_000, trail_read_p50_ms: 10 },
      meets_targets: { batched: med('batched_100', 'pings_per_s') >= 10_000, trail_read: median(reads) <= 10, trail_read_uncached: median(cold) <= 10 },
    };
    http1.close();
    await peerStore.close();
    child.proc.kill('SIGTERM');
    await child.exited;
    const json = JSON.stringify(out, null, 2);
    process.stdout.write(json + '\n');
    const dir = join(REPO, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'ingest.json'), json + '\n');
  } finally {
    await db.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}
