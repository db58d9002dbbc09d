// GET /fleet/vehicles/nearest end to end: pings in, vehicles ranked by road ETA (a vehicle across a
// river is nearer in a straight line but ranks behind one down the rider's street), stale ones left
// out, the unreachable listed apart with their reason, max_eta_s and the counts.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { BACKENDS, freshDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildRideNetwork, FIX } from './fixture.ts';

describe.each(BACKENDS)('vehicles nearest a rider by road ETA (%s)', (backend) => {
  let db: TestDb;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    db = await freshDb(backend);
    buildRideNetwork(join(db.dataDir, 'built'));
    s = await startTestServer(db);
    key = await s.key({ plan: 'enterprise' });
    const now = Date.now(), iso = (ago: number) => new Date(now - ago * 1000).toISOString();
    const ping = (device: string, p: { lat: number; lng: number }, ago: number) => ({ device, lat: p.lat, lng: p.lng, ts: iso(ago) });
    const r = await s.post('/api/v1/track/ping', { pings: [
      ping('across-river', FIX.across, 20), ping('same-street', FIX.sameSide, 30), ping('island', FIX.island, 10),
      ping('in-a-field', FIX.field, 10), ping('up-north', FIX.outside, 10), ping('stale', FIX.rider, 3600), ping('mombasa', { lat: -4.0435, lng: 39.6682 }, 5),
    ] }, key);
    expect(r.status).toBe(202);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });
  const get = async (p: string) => { const r = await s.get(p, key); return { status: r.status, body: await r.json() as any }; };

  it('ranks by road ETA, not by straight line', async () => {
    const r = await get(`/api/v1/fleet/vehicles/nearest?lat=${FIX.rider.lat}&lng=${FIX.rider.lng}`);
    expect(r.status).toBe(200);
    const v = r.body.vehicles;
    expect(v.map((x: any) => x.device)).toEqual(['same-street', 'across-river']);
    // the river: nearer in a straight line, further by road
    expect(v[1].straight_m).toBeLessThan(v[0].straight_m);
    expect(v[1].eta_s).toBeGreaterThan(v[0].eta_s);
    expect(v[1].distance_m).toBeGreaterThan(6000);
    expect(v[0].distance_m).toBeGreaterThan(1600);
    expect(v[0].distance_m).toBeLessThan(1750);
    expect(v[0]).toMatchObject({ position: { lat: FIX.sameSide.lat, lng: FIX.sameSide.lng } });
    expect(v[0].age_s).toBeGreaterThanOrEqual(29);
    expect(r.body.ranking).toBe('road_eta');
    expect(r.body.extract).toBe('ride-fixture');
    expect(r.body.rider.snapped).toMatchObject({ lat: FIX.rider.lat, lng: FIX.rider.lng, distance_m: 0 });
  });

  it('lists the unreachable apart and counts what it left out', async () => {
    const r = await get(`/api/v1/fleet/vehicles/nearest?lat=${FIX.rider.lat}&lng=${FIX.rider.lng}`);
    const why = Object.fromEntries(r.body.unreachable.map((u: any) => [u.device, u.reason]));
    expect(why).toEqual({ island: 'no_route', 'in-a-field': 'no_road', 'up-north': 'out_of_coverage' });
    // Mombasa is ~440 km away: further than 1,800 s at 50 m/s, never routed
    expect(r.body.counts).toEqual({ fresh: 6, stale: 1, routed: 5, ranked: 2, beyond_max_eta: 0, unreachable: 3, beyond_reach: 1, not_routed: 0 });
  });

  it('max_eta_s, fresh_s and limit', async () => {
    const base = `/api/v1/fleet/vehicles/nearest?lat=${FIX.rider.lat}&lng=${FIX.rider.lng}`;
    const all = (await get(base)).body.vehicles;
    const cut = Math.ceil(all[0].eta_s) + 1;
    const r = await get(`${base}&max_eta_s=${cut}`);
    expect(r.body.vehicles.map((x: any) => x.device)).toEqual(['same-street']);
    expect(r.body.counts.beyond_max_eta).toBe(1);
    const stale = await get(`${base}&fresh_s=7200&limit=1`);
    expect(stale.body.vehicles.map((x: any) => x.device)).toEqual(['stale']); // at the rider's point
    expect(stale.body.counts).toMatchObject({ fresh: 7, stale: 0, ranked: 3 });
  });

  it('another project sees none of these vehicles; bad input is a 400', async () => {
    const other = await s.key({ project: 'other' });
    const r = await s.get(`/api/v1/fleet/vehicles/nearest?lat=${FIX.rider.lat}&lng=${FIX.rider.lng}`, other);
    const b = await r.json() as any;
    expect(b.vehicles).toEqual([]);
    expect(b.counts.fresh).toBe(0);
    expect((await get('/api/v1/fleet/vehicles/nearest?lat=95&lng=36.8')).status).toBe(400);
    expect((await get('/api/v1/fleet/vehicles/nearest?lat=-1.28')).status).toBe(400);
    expect((await get(`/api/v1/fleet/vehicles/nearest?lat=${FIX.rider.lat}&lng=${FIX.rider.lng}&max_eta_s=0`)).status).toBe(400);
    // a rider outside every road extract, or far from any road, with or without vehicles near
    for (const k of [key, other]) {
      const out = await s.get('/api/v1/fleet/vehicles/nearest?lat=5.5560&lng=-0.1969', k);
      expect(out.status).toBe(400);
      expect((await out.json() as any).error.code).toBe('out_of_coverage');
      const field = await s.get(`/api/v1/fleet/vehicles/nearest?lat=${FIX.field.lat}&lng=${FIX.field.lng}`, k);
      expect(field.status).toBe(400);
      expect((await field.json() as any).error.code).toBe('no_road');
    }
  });
});
