// npm run bench -- overload [--seconds 15] [--connections 32] [--pairs 400] [--max-wait-ms 100]
//
// Overload on long routes (Tanzania SW, driving): the server runs as its own process with
// 2 workers and POOL_MAX_WAIT_MS = --max-wait-ms (100 here: with closed-loop clients, 4× the
// connections queues ~4× the work, which stays under the 1 s production default on this graph); wrk first measures capacity at --connections,
// then offers 4× the connections. Admitted (200) and shed (503) requests are told apart
// from the server's request log (server-side time from request head to answer), so the
// percentiles of admitted work are not flattered by fast 503s; wrk's own figures are kept
// beside them. Peak RSS is the server process's VmHWM. Writes bench/results/overload.json.
// The load generator shares the machine's 2 cores with the server: say so beside any figure.
import { mkdirSync, writeFileSync, mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createServer, type AddressInfo } from 'node:net';
import { readShared } from '../src/core/format/index.ts';
import { openGraph } from '../src/core/format/route.ts';
import { ChQuery } from '../workers/routing/search/ch-query.ts';
import { snap, loadIndex } from '../workers/routing/locate/snap.ts';
import { haversine } from '../src/core/geometry.ts';
import { runChild } from './lib/child.ts';
import { runWrk } from './lib/wrk.ts';
import { randomPoints } from './lib/check.ts';
import { percentile, round } from './lib/stats.ts';
import { startServerProcess } from './lib/server-process.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = join(HERE, 'results');
const INPUT = resolve(HERE, '..', '..', 'shared', 'data', 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf');

const freePort = () => new Promise<number>((ok) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as AddressInfo).port; s.close(() => ok(p)); });
});

/** VmRSS / VmHWM of a process, MB. */
function rssMb(pid: number): { rss: number; hwm: number } {
  const t = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(t)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), hwm: Math.round(kb('VmHWM') / 1024) };
}

interface Line { route: string; status: number; ms: number }

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { seconds: { type: 'string' }, connections: { type: 'string' }, pairs: { type: 'string' }, 'max-wait-ms': { type: 'string' } } });
  const maxWait = values['max-wait-ms'] ?? '100';
  const seconds = Number(values.seconds ?? 15), conns = Number(values.connections ?? 32), nPairs = Number(values.pairs ?? 400);
  mkdirSync(RESULTS, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-overload-'));
  const built = join(tmp, 'built');
  try {
    await runChild(join(HERE, 'lib', 'build-child.ts'), ['pbf', INPUT, 'tanzania-sw', built]);
    // Long routes: the longest third of 3× as many random routable pairs.
    const file = join(built, 'tanzania-sw', 'driving.route.bin');
    const g = openGraph(readShared(file), file, true);
    const index = loadIndex(g);
    const ch = new ChQuery(g);
    const pts = randomPoints(g, nPairs * 6, 20251124);
    const cand: { a: [number, number]; b: [number, number]; d: number }[] = [];
    for (let i = 0; i < nPairs * 3; i++) {
      const s = snap(g, index, pts[2 * i][0], pts[2 * i][1], 1000), t = snap(g, index, pts[2 * i + 1][0], pts[2 * i + 1][1], 1000);
      if (!s || !t) continue;
      ch.reset();
      const fs = g.edgeFlags[s.edge], ft = g.edgeFlags[t.edge], ws = g.edgeW[s.edge], wt = g.edgeW[t.edge];
      if (fs & 1) ch.addSource(g.edgeV[s.edge], Math.round((1 - s.frac) * ws));
      if (fs & 2) ch.addSource(g.edgeU[s.edge], Math.round(s.frac * ws));
      if (ft & 1) ch.addTarget(g.edgeU[t.edge], Math.round(t.frac * wt));
      if (ft & 2) ch.addTarget(g.edgeV[t.edge], Math.round((1 - t.frac) * wt));
      if (ch.run() === Infinity) continue;
      cand.push({ a: [s.lat, s.lng], b: [t.lat, t.lng], d: haversine(s.lat, s.lng, t.lat, t.lng) });
    }
    cand.sort((x, y) => y.d - x.d);
    const long = cand.slice(0, Math.max(1, Math.floor(cand.length / 3)));
    const paths = long.map(({ a, b }) => `/api/v1/route?from=${a[0].toFixed(6)},${a[1].toFixed(6)}&to=${b[0].toFixed(6)},${b[1].toFixed(6)}`);

    const dataDir = join(tmp, 'data');
    const port = await freePort();
    const srv = await startServerProcess({ WORKERS: '2', BUILT_DIR: built, SKIP_BUILD: '1', BURST_RPS: '0', LOG_REQUESTS: '1', DATA_DIR: dataDir, POOL_MAX_WAIT_MS: maxWait }, port);
    const lines: Line[] = [];
    let mark = 0;
    let buf = '';
    srv.child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      for (const l of parts) {
        if (!l.includes('"msg":"request"')) continue;
        const j = JSON.parse(l);
        lines.push({ route: j.route, status: j.status, ms: j.ms });
      }
    });
    try {
      const { Store } = await import('../src/store/index.ts');
      const { createKey } = await import('../src/auth/keys.ts');
      const store = await Store.open({ databaseUrl: null, dbDir: join(dataDir, 'db'), migrate: false });
      const { key } = await createKey(store, { project: 'bench', plan: 'enterprise', test: false });
      await store.close();
      const headers = { authorization: `Bearer ${key}` };
      const base = srv.base;
      const pid = srv.child.pid!;
      const probe = await fetch(base + paths[0], { headers });
      if (probe.status !== 200) throw new Error(`probe answered ${probe.status}: ${(await probe.text()).slice(0, 300)}`);
      const distKm = round(long.reduce((s, x) => s + x.d, 0) / long.length / 1000, 1);

      const phase = async (c: number) => {
        mark = lines.length;
        const w = await runWrk({ baseUrl: base, paths, headers, threads: 1, connections: c, durationS: seconds });
        await new Promise((r) => setTimeout(r, 300)); // the request log is written every 100 ms
        const mine = lines.slice(mark).filter((l) => l.route === 'GET /route');
        const ok = mine.filter((l) => l.status === 200).map((l) => l.ms).sort((x, y) => x - y);
        const shed = mine.filter((l) => l.status === 503).length;
        const other = mine.length - ok.length - shed;
        const rss = rssMb(pid);
        return {
          connections: c,
          admitted: ok.length, admitted_req_s: round(ok.length / w.duration_s, 0), shed, other_status: other,
          admitted_server_p50_ms: round(percentile(ok, 50), 2), admitted_server_p99_ms: round(percentile(ok, 99), 2), admitted_server_max_ms: round(ok[ok.length - 1] ?? NaN, 2),
          wrk: { req_s: w.req_s, p50_ms: w.p50_ms, p99_ms: w.p99_ms, non_2xx: w.non_2xx, socket_errors: w.socket_errors },
          rss_mb: rss.rss, peak_rss_mb: rss.hwm,
        };
      };
      await runWrk({ baseUrl: base, paths, headers, threads: 1, connections: conns, durationS: 3 }); // warm-up
      const capacity = await phase(conns);
      const overload = await phase(conns * 4);
      const alive = (await fetch(base + '/healthz')).status;
      const out = {
        bench: 'overload',
        machine: '2 cores shared with other engineers and with wrk (same machine)',
        extract: 'tanzania-sw-rural-roads-gostnets-2025 (driving)', routes: paths.length, mean_crow_km: distKm,
        server: { workers: 2, POOL_MAX_WAIT_MS: Number(maxWait), POOL_MAX_QUEUE: 4096 },
        capacity, overload,
        crashed: alive !== 200, healthz_after: alive,
        at: new Date().toISOString(),
      };
      writeFileSync(join(RESULTS, 'overload.json'), JSON.stringify(out, null, 2) + '\n');
      console.log(JSON.stringify(out));
    } finally {
      await srv.stop();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
