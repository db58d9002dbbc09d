// GET /pickup-points end to end on the ride fixture (near Nairobi: Kenya drives on the left, found
// from the gazetteer's country polygons): the road point on each street near the rider with the
// heading that keeps the rider on the car's kerb side, the other side under right-hand traffic,
// oneway streets driven their way, named GTFS stops nearby, and walking distances.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildTestGazetteer } from '../maps/fixture.ts';
import { buildRideNetwork, FIX } from './fixture.ts';

describe('pickup points on the rider\'s side of the road', () => {
  let db: TestDb;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    db = freshPglite();
    const built = join(db.dataDir, 'built');
    buildRideNetwork(built);
    await buildTestGazetteer(built);
    s = await startTestServer(db);
    key = await s.key({ plan: 'enterprise' });
  }, 600_000);
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });
  const get = async (p: string) => { const r = await s.get(p, key); return { status: r.status, body: await r.json() as any }; };
  const at = (lat: number, lng: number, extra = '') => get(`/api/v1/pickup-points?lat=${lat}&lng=${lng}&radius=100${extra}`);
  const lane = (b: any) => b.points.find((p: any) => p.road === 'Mbagathi Lane');
  const close = (b: any) => b.points.find((p: any) => p.road === 'Oneway Close');
  // ~22 m north or south of a street (0.0002° of latitude)
  const north = (lat: number) => lat + 0.0002, south = (lat: number) => lat - 0.0002;

  it('Kenya keeps left: a rider north of a two-way street is picked up by a car heading east', async () => {
    const r = await at(north(FIX.lane.lat), 36.805);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ country_code: 'KE', driving_side: 'left', driving_side_rule: 'KE drives on the left', extract: 'ride-fixture' });
    const p = lane(r.body);
    expect(p).toMatchObject({ oneway: false, approach: 'curb', heading_deg: 90, rider_side: 'left', curb_side: true });
    expect(p.lat).toBeCloseTo(FIX.lane.lat, 6);
    expect(p.distance_m).toBeGreaterThan(20);
    expect(p.distance_m).toBeLessThan(25);
    // south of it, the car comes the other way
    expect(lane((await at(south(FIX.lane.lat), 36.805)).body)).toMatchObject({ heading_deg: 270, rider_side: 'left', curb_side: true });
  });

  it('right-hand traffic puts the car on the other carriageway', async () => {
    const r = await at(north(FIX.lane.lat), 36.805, '&driving_side=right');
    expect(r.body).toMatchObject({ driving_side: 'right', driving_side_rule: 'given (driving_side)' });
    expect(lane(r.body)).toMatchObject({ approach: 'curb', heading_deg: 270, rider_side: 'right', curb_side: true });
  });

  it('a oneway street is driven its way; whether the rider is then on the kerb side is reported', async () => {
    const n = close((await at(north(FIX.close.lat), 36.805)).body);
    expect(n).toMatchObject({ oneway: true, approach: 'oneway', heading_deg: 90, rider_side: 'left', curb_side: true });
    const sth = close((await at(south(FIX.close.lat), 36.805)).body);
    expect(sth).toMatchObject({ oneway: true, approach: 'oneway', heading_deg: 90, rider_side: 'right', curb_side: false });
  });

  it('walking distance to each point, and nothing when no road is near', async () => {
    const p = lane((await at(north(FIX.lane.lat), 36.805)).body);
    expect(p.walk_m).toBeGreaterThanOrEqual(20);
    expect(p.walk_m).toBeLessThan(30);
    expect(p.walk_s).toBeGreaterThan(10);
    const none = await get('/api/v1/pickup-points?lat=-1.3000&lng=36.8375&radius=50');
    expect(none.status).toBe(200);
    expect(none.body.points).toEqual([]);
    expect(none.body.notes.join(' ')).toMatch(/No drivable road within 50 m/);
    expect((await get('/api/v1/pickup-points?lat=-1.29&lng=36.80&radius=5000')).status).toBe(400);
    expect((await get('/api/v1/pickup-points?lat=-1.29&lng=36.80&driving_side=middle')).status).toBe(400);
    expect((await get('/api/v1/pickup-points?lat=5.556&lng=-0.197')).body.error.code).toBe('out_of_coverage');
  });

  it('named spots: the GTFS stops of the gazetteer near a rider, with their routes', async () => {
    // The fixture's West Street lies in central Nairobi, among the Digital Matatus stops.
    const r = await get('/api/v1/pickup-points?lat=-1.2850&lng=36.8150&radius=500');
    expect(r.status).toBe(200);
    expect(r.body.notes.join(' ')).toMatch(/No POI build is loaded/);
    expect(r.body.spots.length).toBeGreaterThan(0);
    // the nearest: Serena stage, 386 m away, on the 4W, 5, 7C… matatu routes
    expect(r.body.spots[0]).toMatchObject({ id: 'svc:gtfs.nairobi.0610SER', name: 'Serena', kind: 'transit_stop' });
    expect(r.body.spots[0].routes.map((x: any) => x.short_name)).toContain('4W');
    for (const sp of r.body.spots) {
      expect(sp.kind).toBe('transit_stop');
      expect(sp.distance_m).toBeLessThanOrEqual(500);
      // walked along the fixture's streets, never shorter than the straight line
      expect(sp.walk_m).toBeGreaterThanOrEqual(sp.distance_m);
    }
  });
});
