// GET /api/v1/route end to end: uWS front end → validation → worker pool → CH.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { SHARED_DATA } from './helpers.ts';

const json = (r: Response): Promise<any> => r.json();

describe('GET /route over HTTP', () => {
  let db: TestDb;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    db = freshPglite();
    await buildRoadExtract({ input: join(SHARED_DATA, 'djibouti-2022-08-roads-secondary-plus.osm.pbf'), name: 'djibouti', out: join(db.dataDir, 'built') });
    s = await startTestServer(db);
    key = await s.key({ plan: 'enterprise' });
  });
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });

  // Djibouti city to Tadjourah's road network
  const FROM = '11.5886,43.1456', TO = '11.7823,42.8846';

  it('answers a route with geometry, legs, snapped points and attribution', async () => {
    const r = await s.get(`/api/v1/route?from=${FROM}&to=${TO}&mode=car`, key);
    const d = await json(r);
    expect(r.status, JSON.stringify(d)).toBe(200);
    expect(d.route.mode).toBe('driving');
    expect(d.route.extract).toBe('djibouti');
    expect(d.route.distance_m).toBeGreaterThan(30000);
    expect(d.route.geometry.type).toBe('LineString');
    expect(d.route.geometry.coordinates.length).toBeGreaterThan(20);
    expect(d.route.legs).toHaveLength(1);
    expect(d.route.snapped.from).toHaveProperty('distance_m');
    expect(d.attribution).toBeTruthy();
  });

  it('accepts via points and mode aliases', async () => {
    // the via point lies on the route between the ends
    const direct = await json(await s.get(`/api/v1/route?from=${FROM}&to=${TO}&mode=car`, key));
    const c = direct.route.geometry.coordinates;
    const [vLng, vLat] = c[Math.floor(c.length / 2)];
    const r = await s.get(`/api/v1/route?from=${FROM}&to=${TO}&via=${vLat},${vLng}&mode=car&radius=5000`, key);
    const d = await json(r);
    expect(r.status, JSON.stringify(d)).toBe(200);
    expect(d.route.mode).toBe('driving');
    expect(d.route.legs).toHaveLength(2);
    expect(d.route.distance_m).toBeCloseTo(direct.route.distance_m, -1);
    // bicycle.lua keeps cyclists off trunk roads, which join Djibouti's two ends: the alias still
    // reaches the cycle graph, which says so
    const b = await s.get(`/api/v1/route?from=${FROM}&to=${TO}&mode=bicycle&radius=5000`, key);
    const e = await json(b);
    expect(b.status).toBe(400);
    expect(e.error.message).toMatch(/^No cycle route /);
  });

  it('answers requests batched together exactly as it answers each alone (tasks share scratch buffers)', async () => {
    // Requests read in one event-loop turn travel to a worker as one batch; a route's text is
    // written into a buffer the thread reuses, so every answer but the last must be copied out.
    const pts = ['11.5886,43.1456', '11.7823,42.8846', '11.60,43.05', '11.55,43.10', '11.52,42.95', '11.70,42.90'];
    const paths: string[] = [];
    for (const a of pts) for (const b of pts) if (a !== b) paths.push(`/api/v1/route?from=${a}&to=${b}&radius=5000${paths.length % 3 === 0 ? '&steps=true' : ''}`);
    const alone: string[] = [];
    for (const p of paths) alone.push(await (await s.get(p, key)).text());
    const together = await Promise.all(paths.map(async (p) => (await s.get(p, key)).text()));
    expect(together).toEqual(alone);
    // mostly distinct routes (a few points lie off the network and share their error answer)
    expect(new Set(alone.filter((t) => t.includes('"geometry"'))).size).toBeGreaterThanOrEqual(20);
  });

  it('answers the documented errors', async () => {
    const bad = await s.get(`/api/v1/route?from=abc&to=${TO}`, key);
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.message).toMatch(/'from'/);
    const missing = await s.get(`/api/v1/route?from=${FROM}`, key);
    expect(missing.status).toBe(400);
    expect((await json(missing)).error.message).toMatch(/'to'/);
    for (const m of ['truck', 'hgv', 'transit']) expect((await s.get(`/api/v1/route?from=${FROM}&to=${TO}&mode=${m}`, key)).status).toBe(501);
    const far = await s.get(`/api/v1/route?from=0,0&to=1,1`, key);
    expect(far.status).toBe(400);
    expect((await json(far)).error.code).toBe('out_of_coverage');
    const nearby = await s.get(`/api/v1/route?from=11.30,42.60&to=${TO}&radius=100`, key);
    expect(nearby.status).toBe(400);
    expect((await json(nearby)).error.code).toBe('no_road_nearby');
    const radius = await s.get(`/api/v1/route?from=${FROM}&to=${TO}&radius=20000`, key);
    expect(radius.status).toBe(400);
    expect((await json(radius)).error.message).toMatch(/'radius'/);
  });
});
