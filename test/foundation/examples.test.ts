// Every operation's declared example works: with every dataset loaded (the gazetteer, tiles, POIs,
// road extracts, traffic state and a weather upstream replaying a recorded answer), the first
// example of every operation that needs a key answers 2xx to a full key, in the shape its
// declaration gives. The auth matrix in api.test.ts runs without data and checks refusals.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BACKENDS, freshDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, REPO, type TestServer } from '../helpers/server.ts';
import { resolveExample, type Sendable } from '../helpers/examples.ts';
import { linkEverything } from '../helpers/built.ts';
import { allRoutes } from '../../src/api/index.ts';
import { weatherUpstream } from '../../src/weather/service.ts';
import type { RouteDef } from '../../src/http/types.ts';

/**
 * Operations whose example cannot answer 2xx in this build, each with the exact answer expected
 * and why. Everything not named here must answer 2xx.
 */
const NOT_2XX: Record<string, { status: number; code: string; why: string }> = {};

const RECORDED = readFileSync(join(REPO, 'test/fixtures/open-meteo-forecast-2026-03-02.json'), 'utf8');
/** Inside the recording (2026-03-02 10:30 at UTC+1), so the forecast has a current hour and days. */
const RECORDED_NOW = Date.parse('2026-03-02T09:30:00Z');

const label = (r: RouteDef) => `${r.method} ${r.path}`;
const keyed = (routes: RouteDef[]) => routes.filter((r) => r.scope !== null && !r.path.startsWith('/_test'));

describe.each(BACKENDS)('every operation answers its example with all data loaded (%s)', (backend) => {
  let db: TestDb;
  let s: TestServer;
  let full: string;
  let testKey: string;
  let upstream: Server;
  const send = (x: Sendable) => s.request(x.method, x.path, x.body, full);

  beforeAll(async () => {
    upstream = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(RECORDED));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    db = await freshDb(backend);
    await linkEverything(join(db.dataDir, 'built'));
    // Admission and burst limits off: this suite checks answers, and the shared machine is slow.
    s = await startTestServer(db, {
      WEATHER_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, POOL_MAX_WAIT_MS: '0', BURST_RPS: '0',
    });
    weatherUpstream(s.app.ctx).now = () => RECORDED_NOW;
    full = await s.key({ plan: 'enterprise' });
    testKey = await s.key({ plan: 'enterprise', test: true });
  }, 300_000);
  afterAll(async () => {
    await s?.close();
    await db?.drop();
    upstream?.closeAllConnections();
    upstream?.close();
  });

  it('the operations below are every keyed operation the server registered', () => {
    expect(keyed(s.app.ctx.routes).map(label)).toEqual(keyed(allRoutes).map(label));
    for (const name of Object.keys(NOT_2XX)) expect(keyed(allRoutes).map(label), `allow-listed ${name}`).toContain(name);
  });

  it.each(keyed(allRoutes).map((r) => [label(r), r] as const))('%s', async (name, r) => {
    expect(r.decl.examples.length, `${name} declares no example`).toBeGreaterThan(0);
    // Through s.request, so the answer is checked against the operation's declared response schema.
    // An example marked testKey is for an operation that refuses live keys (the sandbox clock).
    const via = r.decl.examples[0]?.testKey ? (x: Sendable) => s.request(x.method, x.path, x.body, testKey) : send;
    const res = await via(await resolveExample(s.app.ctx.routes, r, 0, via));
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = Buffer.from(bytes).toString('utf8');
    const exception = NOT_2XX[name];
    if (exception) {
      expect(res.status, `${name}: ${text.slice(0, 300)}`).toBe(exception.status);
      expect(JSON.parse(text).error.code).toBe(exception.code);
    } else {
      expect(Math.floor(res.status / 100), `${name} example answers ${res.status}: ${text.slice(0, 300)}`).toBe(2);
      // Images, tiles and pages have no schema to match: an empty one is still no answer.
      if (res.status !== 204) expect(bytes.length, `${name} answers an empty body`).toBeGreaterThan(0);
      if (r.ready) expect(r.ready(s.app.ctx), `${name} answered but does not report itself ready`).toBe(true);
    }
  });
});
