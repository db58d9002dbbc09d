// npm run bench -- cluster [--seconds 60] [--clients 16] [--event-at 20] [--nodes 2]
//
// Two events on nginx in front of --nodes server processes on one PostgreSQL (deploy/cluster.ts,
// a fresh database on DATABASE_URL's server, WORKERS=1 per node, no datasets: the load is the
// service's own path, not routing), each under --seconds of steady load from --clients clients
// (longer when the event ends late: the load goes on 10 s past it):
//   kill9    kill -9 of node 1 at --event-at s (the launcher starts it again);
//   rolling  a rolling restart of every node from --event-at s (SIGUSR2 to the launcher).
// The load (bench/lib/cluster-load.ts) mixes GET /ping, GET /ping?pool=1 (a worker-pool task)
// and POST /track/ping (one new timestamp each, answered 202 only after commit); every request is
// timed, so p50/p99 are given before, during and after each event. A request fails when it gets
// a connection error or an answer other than 2xx and 429; a write is lost when it was answered
// 202 and its row is not in the database afterwards. The load generator is Node's http client
// rather than wrk because wrk's Lua has no clock to place each request around the events.
// Writes bench/results/cluster.json. The load generator, nginx and the nodes share the machine.
import { mkdirSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir, loadavg } from 'node:os';
import { numArg } from './lib/args.ts';
import { HAS_NGINX, startCluster, type ClusterProcess } from './lib/cluster-process.ts';
import { startLoad, windowStats, lostWrites, type Sample } from './lib/cluster-load.ts';
import { freshPostgres } from '../test/helpers/db.ts';
import { Store } from '../src/store/index.ts';
import { createKey } from '../src/auth/keys.ts';

const RESULTS = join(import.meta.dirname, 'results');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function main(args: string[]) {
  if (!HAS_NGINX) throw new Error('nginx is not installed (apt-get install nginx)');
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL must name a PostgreSQL server (a fresh database is made on it)');
  const seconds = numArg(args, 'seconds', 60), clients = numArg(args, 'clients', 16), eventAt = numArg(args, 'event-at', 20), nodes = numArg(args, 'nodes', 2);
  const out: Record<string, unknown> = {
    bench: 'cluster', at: new Date().toISOString(), seconds, clients, event_at_s: eventAt, nodes, load_average_at_start: loadavg()[0],
  };
  for (const event of ['kill9', 'rolling'] as const) {
    out[event] = await run(event, { seconds, clients, eventAt, nodes });
    console.log(event, JSON.stringify(out[event], null, 1));
  }
  out.load_average_at_end = loadavg()[0];
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'cluster.json'), JSON.stringify(out, null, 2) + '\n');
  console.log('wrote bench/results/cluster.json');
}

async function run(event: 'kill9' | 'rolling', o: { seconds: number; clients: number; eventAt: number; nodes: number }) {
  const db = await freshPostgres();
  const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-cluster-'));
  let cluster: ClusterProcess | null = null;
  let store: Store | null = null;
  try {
    cluster = await startCluster({
      nodes: o.nodes,
      env: { DATABASE_URL: db.url!, SKIP_BUILD: '1', BUILT_DIR: mkdtempSync(join(tmp, 'built-')), DATA_DIR: tmp, WORKERS: '1', BURST_RPS: '0', LOG_REQUESTS: '0' },
    });
    store = await Store.open({ databaseUrl: db.url, dbDir: join(tmp, 'db') });
    const { key } = await createKey(store, { project: 'bench', plan: 'enterprise', test: false });
    const load = startLoad({ base: cluster.base, key, clients: o.clients, durationMs: Infinity, device: event });
    const start = Date.now();
    await sleep(o.eventAt * 1000);
    const t0 = Date.now();
    if (event === 'kill9') {
      const back = cluster.nextReady(300_000);
      cluster.killNode(0);
      await back;
    } else await cluster.rollingRestart(600_000);
    const t1 = Date.now();
    // The load runs its --seconds, and at least 10 s past the event, for an 'after' window.
    await sleep(Math.max(0, Math.max(start + o.seconds * 1000, t1 + 10_000) - Date.now()));
    load.stop();
    const samples: Sample[] = await load.done;
    const end = Date.now();
    const r = await store.query(`SELECT device, ts FROM pings WHERE device LIKE $1`, [`${event}-%`]);
    const stored = new Set(r.rows.map((x: any) => `${x.device}|${new Date(x.ts).toISOString()}`));
    const acked = samples.filter((s) => s.kind === 'write' && s.status === 202).length;
    return {
      event: event === 'kill9' ? 'kill -9 of node 1, started again by the launcher' : 'rolling restart of every node (SIGTERM, start, /readyz, next)',
      event_seconds: Math.round((t1 - t0) / 100) / 10,
      requests: samples.length,
      requests_per_s: Math.round(samples.length / ((end - start) / 1000)),
      acked_writes: acked,
      lost_writes: lostWrites(samples, stored).length,
      before: windowStats(samples, start, t0),
      during: windowStats(samples, t0, t1),
      after: windowStats(samples, t1, Infinity),
      all: windowStats(samples, 0, Infinity),
    };
  } finally {
    await cluster?.stop();
    await store?.close();
    await db.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
