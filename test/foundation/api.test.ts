// The foundation's contract over HTTP: auth matrix, limits, errors, attribution, capabilities.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { BACKENDS, freshDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { revokeKey } from '../../src/auth/keys.ts';
import { CAPABILITIES } from '../../src/capabilities.ts';
import { HttpError, type RouteDef } from '../../src/http/types.ts';
import { ATTRIBUTION, ATTRIBUTION_HEADER } from '../../src/core/attribution.ts';
import { exampleRequest, resolveExample, type Sendable } from '../helpers/examples.ts';

// Test-only routes that exercise the body and error paths of the core.
const testDecl = (status: number): RouteDef['decl'] => ({ summary: 'test only', responses: { [status]: { description: 'test', schema: { type: 'object' } } }, examples: [{}] });
const extra: RouteDef[] = [
  { method: 'POST', path: '/_test/echo', scope: 'any', decl: testDecl(201), handler: (req) => ({ status: 201, json: { echo: req.body ?? null } }) },
  { method: 'GET', path: '/_test/boom', scope: 'any', decl: testDecl(200), handler: () => { throw new Error('secret detail'); } },
  { method: 'GET', path: '/_test/bad', scope: 'any', decl: testDecl(200), handler: () => { throw new HttpError(400, 'invalid_parameter', "Parameter 'x' is bad."); } },
];

describe.each(BACKENDS)('foundation over HTTP (%s)', (backend) => {
  let db: TestDb;
  let s: TestServer;
  let full: string;

  beforeAll(async () => {
    db = await freshDb(backend);
    s = await startTestServer(db, { MAX_BODY_BYTES: '1024', ADMIN_TOKEN: 'adm1n-token' }, extra);
    full = await s.key({ plan: 'enterprise' });
  });
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });

  it('serves the capability document without a key, derived from what is loaded', async () => {
    const r = await s.get('/api/v1/capabilities');
    expect(r.status).toBe(200);
    const d: any = await r.json();
    expect(d.version).toBe('v1');
    expect(typeof d.product).toBe('string');
    expect(d.docs).toMatch(/^http/);
    expect(d.reference).toMatch(/^http/);
    expect(Object.keys(d.capabilities).sort()).toEqual([...CAPABILITIES].sort());
    expect(CAPABILITIES.length).toBe(42);
    for (const v of Object.values(d.capabilities)) expect(typeof v).toBe('boolean');
    expect(d.capabilities.route_truck).toBe(false);
    expect(d.notes.route_truck).toMatch(/501/);
    // No datasets are built in this suite, so nothing that needs data may claim to work.
    expect(d.capabilities.geocode).toBe(false);
    expect(d.capabilities.route_driving).toBe(false);
    for (const c of ['staticmap', 'map_embed', 'browser_map_sdk']) expect(d.capabilities[c], c).toBe(false); // no tile set built
    expect(Object.keys(d.recipes).sort()).toEqual(['fleet_ops', 'logistics', 'marketplace', 'migrate_alt', 'wallet', 'website_map']);
    expect(d.recipes.logistics).toEqual(['geocode', 'stops/confirm', 'track/ping', 'pod', 'disputes']);
    expect(d.attribution).toBe(ATTRIBUTION);
    // The /v1 prefix is the same API.
    expect(((await (await s.get('/v1/capabilities')).json()) as any).version).toBe('v1');
  });

  it('answers /healthz without a key', async () => {
    const r = await s.get('/healthz');
    const b: any = await r.json();
    expect(r.status).toBe(200);
    expect(b.status).toBe('ok');
    expect(b.workers).toBe(1);
    expect(b.database.reachable).toBe(true);
  });

  it('auth matrix over every registered route: 401 without/with bad/revoked key, 403 without scope, answered with it', async () => {
    const revoked = await s.key();
    await revokeKey(s.app.ctx.store, revoked);
    // Revocation reaches the in-memory key cache within its refresh window (under 1 s).
    await new Promise((r) => setTimeout(r, 1100));
    const noScope = await s.key({ scopes: ['payments'] });
    const testKey = await s.key({ test: true });
    const routes = s.app.ctx.routes.filter((r) => r.scope !== null && !r.path.startsWith('/_test'));
    expect(routes.length).toBeGreaterThan(0);
    // Through the helper, so every answer (refusals included) is checked against its declared schema.
    const send = (key: string | null) => (x: Sendable) => s.request(x.method, x.path, x.method === 'GET' ? undefined : x.body ?? {}, key);
    for (const r of routes) {
      const label = `${r.method} ${r.path}`;
      // Refused before anything else: the example's own placeholders need not be filled.
      const bare = exampleRequest(r, r.decl.examples[0] ?? {});
      expect((await send(null)(bare)).status, `${label} without key`).toBe(401);
      expect((await send('svc_live_short')(bare)).status, `${label} malformed key`).toBe(401);
      expect((await send('svc_live_' + 'A'.repeat(40))(bare)).status, `${label} unknown key`).toBe(401);
      expect((await send(revoked)(bare)).status, `${label} revoked key`).toBe(401);
      if (r.scope !== 'any') expect((await send(noScope)(bare)).status, `${label} key without scope`).toBe(403);
      // No dataset is built in this suite: an operation that needs none answers its example 2xx; one
      // whose data is missing refuses cleanly (e.g. 503), never 401, 403, 500 or 502. That every
      // example answers 2xx with all data loaded is examples.test.ts.
      // An example marked testKey is for an operation that refuses live keys (the sandbox clock).
      const k = r.decl.examples[0]?.testKey ? testKey : full;
      const ok = await send(k)(await resolveExample(s.app.ctx.routes, r, 0, send(k)));
      const why = `${label} example answers ${ok.status}: ${ok.status >= 300 ? await ok.clone().text() : ''}`;
      if (!r.ready || r.ready(s.app.ctx)) expect(Math.floor(ok.status / 100), why).toBe(2);
      else expect([401, 403, 500, 502], why).not.toContain(ok.status);
    }
  });

  it('a revoked key stops working within about a second', async () => {
    const k = await s.key();
    expect((await s.get('/api/v1/ping', k)).status).toBe(200);
    await revokeKey(s.app.ctx.store, k);
    await new Promise((r) => setTimeout(r, 1500));
    const r = await s.get('/api/v1/ping', k);
    expect(r.status).toBe(401);
    expect(((await r.json()) as any).error.message).toMatch(/revoked/);
  });

  it('a test key can reach the pool round trip', async () => {
    const k = await s.key({ test: true });
    const r = await s.get('/api/v1/ping?pool=1', k);
    expect(r.status).toBe(200);
    expect(((await r.json()) as any).ok).toBe(true);
  });

  it('monthly quota: 429 with Retry-After until the month ends', async () => {
    const k = await s.key({ plan: 'free' });
    expect((await s.get('/api/v1/ping', k)).status).toBe(200);
    const usage: any = await (await s.get('/api/v1/usage', k)).json();
    // Jump the persisted count to just under the Free limit (1000), then let the server reload it.
    await s.app.ctx.quota.flush();
    await s.app.ctx.store.query('UPDATE key_usage SET count = 998 WHERE key_id = $1', [usage.usage.key_id]);
    (s.app.ctx.quota as any).counters.delete(usage.usage.key_id);
    expect((await s.get('/api/v1/ping', k)).status).toBe(200); // 999
    expect((await s.get('/api/v1/ping', k)).status).toBe(200); // 1000
    const r = await s.get('/api/v1/ping', k);
    expect(r.status).toBe(429);
    const now = new Date();
    const toMonthEnd = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
    const ra = Number(r.headers.get('retry-after'));
    expect(Math.abs(ra - toMonthEnd)).toBeLessThan(60);
    const b: any = await r.json();
    expect(b.error.code).toBe('quota_exceeded');
    expect(b.attribution).toBe(ATTRIBUTION);
  });

  it('errors have one shape, name the problem and never leak internals', async () => {
    const cases: [Promise<Response>, number, string][] = [
      [s.get('/api/v1/nope', full), 404, 'not_found'],
      [fetch(s.url + '/api/v1/capabilities', { method: 'DELETE' }), 405, 'method_not_allowed'],
      [s.post('/api/v1/_test/echo', '{"a":', full), 400, 'invalid_json'],
      [s.post('/api/v1/_test/echo', { big: 'x'.repeat(2000) }, full), 413, 'payload_too_large'],
      [s.get('/api/v1/_test/bad', full), 400, 'invalid_parameter'],
      [s.get('/api/v1/_test/boom', full), 500, 'internal'],
    ];
    for (const [p, status, code] of cases) {
      const r = await p;
      expect(r.status).toBe(status);
      expect(r.headers.get('x-attribution')).toBe(ATTRIBUTION_HEADER);
      const b: any = await r.json();
      expect(b.error.code).toBe(code);
      expect(typeof b.error.message).toBe('string');
      expect(b.error.message).not.toMatch(/secret detail/);
      expect(b.attribution).toBe(ATTRIBUTION);
    }
    const ok = await s.post('/api/v1/_test/echo', { a: 1 }, full);
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as any).echo).toEqual({ a: 1 });
  });

  it('operator endpoints need ADMIN_TOKEN', async () => {
    expect((await s.get('/metrics')).status).toBe(401);
    expect((await s.get('/metrics', 'wrong')).status).toBe(401);
    const r = await fetch(s.url + '/metrics', { headers: { authorization: 'Bearer adm1n-token' } });
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text).toMatch(/svc_requests_total\{route="GET \/ping",status="200"\} \d+/);
    expect(text).toMatch(/svc_request_duration_seconds_bucket/);
    expect(text).toMatch(/svc_pool_queue_depth \d+/);
    // Routes outside /api/v1 are labelled as clients write them.
    expect(text).toMatch(/svc_requests_total\{route="GET \/healthz",status="200"\} \d+/);
    expect(text).toMatch(/svc_limit_rejections_total\{reason="quota_exceeded"\} [1-9]/);
  });
});

describe('burst limit', () => {
  let db: TestDb;
  let s: TestServer;
  beforeAll(async () => {
    db = await freshDb('pglite');
    s = await startTestServer(db, { BURST_RPS: '5' });
  });
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });

  it('answers 429 with Retry-After once a key exceeds its per-second burst', async () => {
    const k = await s.key();
    const statuses: number[] = [];
    let retry: string | null = null;
    for (let i = 0; i < 15; i++) {
      const r = await s.get('/api/v1/ping', k);
      statuses.push(r.status);
      if (r.status === 429) retry = r.headers.get('retry-after');
    }
    expect(statuses.filter((x) => x === 200).length).toBeGreaterThanOrEqual(5);
    expect(statuses).toContain(429);
    expect(Number(retry)).toBeGreaterThanOrEqual(1);
  });
});

describe('listening', () => {
  it('a second server on a port already served fails to start instead of sharing the port', async () => {
    const db1 = await freshDb('pglite'), db2 = await freshDb('pglite');
    // A fixed port, as in production: a socket bound to port 0 is never shared, so it would prove nothing.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const s1 = await startTestServer(db1, { PORT: String(port) });
    try {
      await expect(startTestServer(db2, { PORT: String(s1.app.port) })).rejects.toThrow(/cannot listen on 127\.0\.0\.1:\d+: the port is in use/);
      expect((await s1.get('/healthz')).status).toBe(200);
    } finally {
      await s1.close();
      await db1.drop();
      await db2.drop();
    }
  });
});
