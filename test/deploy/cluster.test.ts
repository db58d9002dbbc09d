// The deployment as operators run it: the real nginx (deploy/nginx.conf.template) in front of two
// server processes on one PostgreSQL, started by `npm run cluster` (deploy/cluster.ts).
// Hostile framing gets an HTTP answer; auth, quota, signed URLs, page tokens and webhooks behave
// as one service whichever node answers; a kill -9 and a rolling restart under load lose no
// acknowledged write and fail no idempotent request.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HAS_PG, freshPostgres, type TestDb } from '../helpers/db.ts';
import { HAS_NGINX, startCluster, type ClusterProcess } from '../../bench/lib/cluster-process.ts';
import { startLoad, windowStats, lostWrites, failed, type Sample } from '../../bench/lib/cluster-load.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { Store } from '../../src/store/index.ts';
import { createKey } from '../../src/auth/keys.ts';
import { PageTokens } from '../../src/api/compat/alt/pagetoken.ts';

if (!HAS_NGINX) console.warn('test/deploy/cluster.test.ts skipped: nginx is not installed (apt-get install nginx; .ci/run installs it)');
if (!HAS_PG) console.warn('test/deploy/cluster.test.ts skipped: several nodes need PostgreSQL (set DATABASE_URL)');

const PAGE_TOKEN_SECRET = 'cluster-test-page-token-secret';

/** Raw bytes to nginx; resolves with everything it answered before closing (or after 3 s). */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let out = '';
    s.on('data', (d) => { out += d; });
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(out));
    s.write(bytes);
    setTimeout(() => s.end(), 3000);
  });
}
const statuses = (out: string) => [...out.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));

describe.skipIf(!HAS_NGINX || !HAS_PG)('nginx in front of two nodes on one PostgreSQL', () => {
  let db: TestDb;
  let store: Store;
  let cluster: ClusterProcess;
  let rx: Receiver;
  const dirs: string[] = [];
  let live: string, liveId: string;
  const port = () => cluster.state.port;
  const node = (i: number) => `http://127.0.0.1:${cluster.state.nodes[i].port}`;
  const get = (base: string, path: string, key?: string) => fetch(base + path, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  const post = (path: string, key: string, body: unknown) =>
    fetch(cluster.base + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    db = await freshPostgres();
    const tmp = mkdtempSync(join(tmpdir(), 'svc-cluster-test-'));
    dirs.push(tmp);
    // A throwaway self-signed certificate for the TLS server block.
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
      '-keyout', join(tmp, 'key.pem'), '-out', join(tmp, 'cert.pem')], { stdio: 'ignore' });
    cluster = await startCluster({
      nodes: 2,
      tls: { cert: join(tmp, 'cert.pem'), key: join(tmp, 'key.pem') },
      env: {
        DATABASE_URL: db.url!, SKIP_BUILD: '1', BUILT_DIR: mkdtempSync(join(tmp, 'built-')), DATA_DIR: tmp, WORKERS: '1',
        BURST_RPS: '0', LOG_REQUESTS: '0', WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_BACKOFF_SCALE: '0.001', PAGE_TOKEN_SECRET,
      },
    });
    store = await Store.open({ databaseUrl: db.url, dbDir: join(tmp, 'db') });
    ({ key: live, row: { id: liveId } } = await createKey(store, { project: 'cluster', plan: 'enterprise', test: false }));
    rx = await startReceiver();
  }, 240_000);

  afterAll(async () => {
    const code = await cluster?.stop();
    expect(code).toBe(0);
    await rx?.close();
    await store?.close();
    await db?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }, 60_000);

  it('answers every hostile framing case over HTTP: 2xx, or 4xx from nginx itself, never a silent close', async () => {
    const H = 'Host: svc.test\r\n';
    const cases: [string, string, number][] = [
      ['HTTP/1.0', 'GET /healthz HTTP/1.0\r\n\r\n', 1],
      ['two pipelined requests in one write', `GET /healthz HTTP/1.1\r\n${H}\r\nGET /readyz HTTP/1.1\r\n${H}Connection: close\r\n\r\n`, 2],
      ['two Content-Lengths', `POST /api/v1/track/ping HTTP/1.1\r\n${H}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}x`, 1],
      ['Transfer-Encoding and Content-Length', `POST /api/v1/track/ping HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n`, 1],
      ['60 header lines', `GET /healthz HTTP/1.1\r\n${H}${Array.from({ length: 60 }, (_, i) => `X-Extra-${i}: ${i}\r\n`).join('')}Connection: close\r\n\r\n`, 1],
      ['obs-fold', `GET /healthz HTTP/1.1\r\n${H}X-Folded: one\r\n two\r\nConnection: close\r\n\r\n`, 1],
      ['NUL in a header', `GET /healthz HTTP/1.1\r\n${H}X-Nul: a\0b\r\nConnection: close\r\n\r\n`, 1],
      ['absolute-form target', `GET http://svc.test/healthz HTTP/1.1\r\n${H}Connection: close\r\n\r\n`, 1],
      ['lower-case method', `get /healthz HTTP/1.1\r\n${H}Connection: close\r\n\r\n`, 1],
    ];
    const seen: Record<string, number[]> = {};
    for (const [name, bytes, answers] of cases) {
      const out = await raw(port(), bytes);
      const st = statuses(out);
      seen[name] = st;
      expect(st.length, `${name}: ${JSON.stringify(out.slice(0, 200))}`).toBe(answers);
      for (const s of st) {
        expect(s >= 200 && s < 300 || s >= 400 && s < 500, `${name}: ${s}`).toBe(true);
        // A 4xx here is nginx refusing the head: no node saw it (a node's answers carry X-Attribution).
        if (s >= 400) expect(out, name).not.toMatch(/X-Attribution/i);
      }
    }
    // The rest of the hostile-client probe (docs/hardening.md): also answered, 2xx or 4xx.
    const more: [string, string, number][] = [
      ['HTTP/1.0 without Host', 'GET /healthz HTTP/1.0\r\n\r\n', 200],
      ['HTTP/1.1 without Host', 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n', 400],
      ['TRACE', `TRACE /healthz HTTP/1.1\r\n${H}Connection: close\r\n\r\n`, 405],
      ['5 kB header value', `GET /healthz HTTP/1.1\r\n${H}X-Long: ${'a'.repeat(5000)}\r\nConnection: close\r\n\r\n`, 200],
      ['5 kB request line', `GET /healthz?${'a'.repeat(5000)} HTTP/1.1\r\n${H}Connection: close\r\n\r\n`, 200],
      ['a request smuggled after two Content-Lengths', `POST /api/v1/track/ping HTTP/1.1\r\n${H}Content-Length: 2\r\nContent-Length: 40\r\n\r\n{}GET /api/v1/ping HTTP/1.1\r\n${H}\r\n`, 400],
    ];
    for (const [name, bytes, status] of more) {
      const st = statuses(await raw(port(), bytes));
      expect(st, name).toEqual([status]);
    }
    // What the nodes could not answer at all now gets through whole.
    expect(seen['HTTP/1.0']).toEqual([200]);
    expect(seen['two pipelined requests in one write']).toEqual([200, 200]);
    expect(seen['60 header lines']).toEqual([200]);
    expect(seen['absolute-form target']).toEqual([200]);
  }, 60_000);

  it('serves HTTPS with the configured certificate, and the nodes report ready', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      https.get({ host: '127.0.0.1', port: cluster.state.tls_port!, path: '/readyz', rejectUnauthorized: false }, (res) => {
        let b = '';
        res.on('data', (d) => { b += d; });
        res.on('end', () => (res.statusCode === 200 ? resolve(b) : reject(new Error(`status ${res.statusCode}`))));
      }).on('error', reject);
    });
    expect(JSON.parse(body)).toMatchObject({ status: 'ready', reasons: [] });
    for (const i of [0, 1]) expect((await get(node(i), '/readyz')).status).toBe(200);
  });

  it('checks keys and scopes through nginx', async () => {
    const none = await get(cluster.base, '/api/v1/ping');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect((await get(cluster.base, '/api/v1/ping', 'svc_live_' + 'x'.repeat(40))).status).toBe(401);
    const { key: geoOnly } = await createKey(store, { project: 'cluster', plan: 'developer', test: false, scopes: ['geo'] });
    const r = await post('/api/v1/track/ping', geoOnly, { device: 'scope-1', lat: 6.4, lng: 3.4, ts: '2026-01-01T00:00:00Z' });
    expect(r.status).toBe(403);
    expect(((await r.json()) as any).error.code).toBe('forbidden');
  });

  it('shares a Free quota across the nodes behind nginx: 1,000 answers, then 429 with Retry-After', async () => {
    const { key } = await createKey(store, { project: 'cluster-free', plan: 'free', test: false });
    let ok = 0, refused = 0;
    while (refused < 20) {
      const wave = await Promise.all(Array.from({ length: 20 }, () => get(cluster.base, '/api/v1/ping', key)));
      for (const r of wave) {
        if (r.status === 200) ok++;
        else {
          expect(r.status).toBe(429);
          expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
          expect(((await r.json()) as any).error.code).toBe('quota_exceeded');
          refused++;
        }
      }
      expect(ok).toBeLessThanOrEqual(1000);
    }
    expect(ok).toBe(1000);
    // Both nodes answered this key (round robin), so the count really was shared.
    const log = readFileSync(join(cluster.state.prefix, 'access.log'), 'utf8');
    const upstreams = new Set(log.split('\n').filter((l) => l.includes('/api/v1/ping')).map((l) => JSON.parse(l).upstream));
    expect(upstreams).toEqual(new Set(cluster.state.nodes.map((n) => `127.0.0.1:${n.port}`)));
  }, 120_000);

  it('counts the burst limit per node: with two nodes a key gets up to twice its burst before 429 rate_limited', async () => {
    const { key } = await createKey(store, { project: 'cluster-burst', plan: 'developer', test: false, burstRps: 5 });
    const rs = await Promise.all(Array.from({ length: 20 }, () => get(cluster.base, '/api/v1/ping', key)));
    const admitted = rs.filter((r) => r.status === 200).length;
    for (const r of rs.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(429);
      expect(((await r.json()) as any).error.code).toBe('rate_limited');
    }
    // Each node's bucket holds 5 (plus what refills while the burst is in flight): more than one
    // node's worth, never more than both nodes' worth.
    expect(admitted).toBeGreaterThan(5);
    expect(admitted).toBeLessThanOrEqual(11);
  });

  it('accepts a signed static-map URL and a page token on a node other than the one that issued them', async () => {
    const j: any = await (await get(cluster.base, '/api/v1/staticmap?center=-6.8,39.28&zoom=12&size=64x64&format=json', live)).json();
    const signed = new URL(j.url, cluster.base);
    const path = signed.pathname + signed.search;
    for (const i of [0, 1]) {
      expect((await get(node(i), path)).status, `node ${i + 1}`).not.toBe(403);
      const tampered = path.replace(/sig=[^&]+/, 'sig=' + 'A'.repeat(43));
      expect((await get(node(i), tampered)).status).toBe(403);
    }
    // A page token signed with the shared PAGE_TOKEN_SECRET opens on both nodes; one signed with another secret on neither.
    const state = { q: { lat: -6.8, lng: 39.28, radius: 1000, category: null, keyword: null, unknownType: 'zzz' }, o: 20 };
    const good = new PageTokens(PAGE_TOKEN_SECRET).issue(state, liveId);
    const bad = new PageTokens('another-secret').issue(state, liveId);
    for (const i of [0, 1]) {
      const ok: any = await (await get(node(i), `/api/v1/compat/alt/nearbysearch?pagetoken=${good}`, live)).json();
      expect(ok.status, `node ${i + 1}`).toBe('ZERO_RESULTS');
      const no: any = await (await get(node(i), `/api/v1/compat/alt/nearbysearch?pagetoken=${bad}`, live)).json();
      expect(no.status).toBe('INVALID_REQUEST');
    }
  });

  it('delivers each webhook event exactly once although both nodes send', async () => {
    const w: any = await (await post('/api/v1/webhooks', live, { url: rx.url, events: ['trip_outcome.recorded'] })).json();
    expect(w.webhook.id).toBeTruthy();
    const N = 40;
    for (let i = 0; i < N; i += 8) {
      const rs = await Promise.all(Array.from({ length: 8 }, (_, j) => post('/api/v1/integrations/logistics-partner/trip-outcome', live,
        { trip_id: `trip-${i + j}`, outcome: 'delivered', pins: [{ lat: 6.4, lng: 3.4, found: true }] })));
      for (const r of rs) expect(r.status).toBe(200);
    }
    await rx.waitFor((got) => got.length >= N, 30_000);
    await new Promise((r) => setTimeout(r, 2500)); // both dispatchers poll every second: time for a duplicate to show
    const ids = rx.got.map((g) => g.headers['svc-event-id']);
    expect(ids.length).toBe(N);
    expect(new Set(ids).size).toBe(N);
    const attempts = await store.query(`SELECT count(*)::int AS n FROM webhook_attempts`);
    expect(attempts.rows[0].n).toBe(N);
  }, 90_000);

  /** Reads back which of the load's pings are stored. */
  async function storedPings(prefix: string): Promise<Set<string>> {
    const r = await store.query(`SELECT device, ts FROM pings WHERE device LIKE $1`, [`${prefix}-%`]);
    return new Set(r.rows.map((x: any) => `${x.device}|${new Date(x.ts).toISOString()}`));
  }

  function report(name: string, samples: Sample[], from: number, to: number) {
    const all = windowStats(samples, 0, Infinity), during = windowStats(samples, from, to);
    const bad = samples.filter(failed);
    if (bad.length) console.log(`${name}: failures from ${bad[0].t - from} to ${bad.at(-1)!.t - from} ms after the event started\n${cluster.output().split('\n').filter((l) => /\[(error|warn)\]|cluster:/.test(l)).slice(-30).join('\n')}`);
    console.log(`${name}: ${all.requests} requests; during the event (${((to - from) / 1000).toFixed(1)} s) ${during.requests}, p50 ${during.p50_ms} ms, p99 ${during.p99_ms} ms, failed reads ${during.failed_reads}, failed writes ${during.failed_writes} ${JSON.stringify(during.errors)}`);
  }

  it('kill -9 of one node under load: no request fails, no acknowledged write is lost', async () => {
    const load = startLoad({ base: cluster.base, key: live, clients: 6, durationMs: 60_000, device: 'kill9' });
    await new Promise((r) => setTimeout(r, 1500));
    const back = cluster.nextReady(120_000);
    const t0 = Date.now();
    cluster.killNode(0);
    await back; // the launcher starts it again and sees it ready
    const t1 = Date.now();
    await new Promise((r) => setTimeout(r, 1000));
    load.stop();
    const samples = await load.done;
    report('kill -9', samples, t0, t1);
    // Reads in flight on the killed node are retried on the other; so are pings (idempotent on
    // (device, ts), the one POST nginx may resend): nothing fails.
    expect(samples.filter(failed)).toEqual([]);
    expect(samples.filter((s) => s.kind === 'write' && s.status === 202).length).toBeGreaterThan(20);
    expect(lostWrites(samples, await storedPings('kill9'))).toEqual([]);
  }, 180_000);

  it('rolling restart of both nodes under load: nothing fails, nothing acknowledged is lost', async () => {
    const load = startLoad({ base: cluster.base, key: live, clients: 6, durationMs: 120_000, device: 'rolling' });
    await new Promise((r) => setTimeout(r, 1500));
    const t0 = Date.now();
    const pidsBefore = cluster.state.nodes.map((n) => n.pid);
    const after = await cluster.rollingRestart();
    const t1 = Date.now();
    await new Promise((r) => setTimeout(r, 1000));
    load.stop();
    const samples = await load.done;
    report('rolling restart', samples, t0, t1);
    for (const [i, n] of after.nodes.entries()) expect(n.pid).not.toBe(pidsBefore[i]);
    expect(samples.filter(failed)).toEqual([]);
    expect(samples.filter((s) => s.kind === 'write' && s.status === 202).length).toBeGreaterThan(20);
    expect(lostWrites(samples, await storedPings('rolling'))).toEqual([]);
  }, 240_000);
});
