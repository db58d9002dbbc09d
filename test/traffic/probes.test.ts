// Probes end to end on eastern Algiers: traces contributed over HTTP (and a live device's pings)
// are stored, map-matched in a worker, turned into per-edge speeds, and change /route and /traffic.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, SHARED_DATA, type TestServer } from '../helpers/server.ts';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { trafficService } from '../../src/traffic/service.ts';
import { haversine } from '../../src/core/geometry.ts';

const json = (r: Response): Promise<any> => r.json();
const FROM = '36.715,3.16', TO = '36.735,3.21';

/** Points along a line at `mps` metres a second, one every `dt` seconds, from `t0`. */
function drive(line: [number, number][], mps: number, dt: number, t0: number) {
  const out: { lat: number; lng: number; ts: number }[] = [];
  let along = 0, next = 0, i = 0;
  const seg = (k: number) => haversine(line[k][1], line[k][0], line[k + 1][1], line[k + 1][0]);
  while (i < line.length - 1) {
    const len = seg(i);
    while (next <= along + len) {
      const f = len > 0 ? (next - along) / len : 0;
      out.push({ lng: line[i][0] + f * (line[i + 1][0] - line[i][0]), lat: line[i][1] + f * (line[i + 1][1] - line[i][1]), ts: t0 + (next / mps) * 1000 });
      next += mps * dt;
    }
    along += len;
    i++;
  }
  return out;
}

describe('traffic from probes', () => {
  let db: TestDb, s: TestServer, key: string, testKey: string;
  beforeAll(async () => {
    db = freshPglite();
    await buildRoadExtract({ input: join(SHARED_DATA, 'algiers-east-streets-osmnx-2025.osm.pbf'), name: 'algiers-east', out: join(db.dataDir, 'built'), profiles: ['driving'] });
    s = await startTestServer(db, { TRAFFIC_PROCESS_MS: '3600000', TRAFFIC_PUBLISH_MS: '3600000' });
    key = await s.key();
    testKey = await s.key({ test: true });
  });
  afterAll(async () => { await s?.close(); await db?.drop(); });

  const route = async (extra = '') => (await json(await s.get(`/api/v1/route?from=${FROM}&to=${TO}${extra}`, key))).route;

  it('capabilities traffic and traffic_contribute are on once matching and a driving graph are loaded', async () => {
    const c = await json(await s.get('/api/v1/capabilities'));
    expect(c.capabilities.traffic).toBe(true);
    expect(c.capabilities.traffic_contribute).toBe(true);
  });

  it('three slow traces along the best route: matched, published, and traffic=live takes another way', async () => {
    const plain = await route();
    // 4 m/s over the 7.4 km route takes ~31 minutes: the last 15 are in the live window.
    const t0 = Date.now() - 33 * 60_000;
    const slow = (n: number) => ({ trace_id: `veh-${n}`, points: drive(plain.geometry.coordinates, 4, 5, t0 + n * 1000).map((p) => ({ lat: p.lat, lng: p.lng, ts: new Date(p.ts).toISOString() })) });
    // A test key is validated the same way and never stored.
    const sandbox = await s.post('/api/v1/traffic/contribute', { probes: [slow(9)] }, testKey);
    expect(sandbox.status, JSON.stringify(await sandbox.clone().json())).toBe(202);
    expect((await json(sandbox)).stored).toBe(false);
    const r = await s.post('/api/v1/traffic/contribute', { probes: [slow(1), slow(2), slow(3)] }, key);
    const body = await json(r);
    expect(r.status, JSON.stringify(body)).toBe(202);
    expect(body).toMatchObject({ traces: 3, stored: true });
    const svc = trafficService(s.app.ctx)!;
    const tick = await svc.processor.tick();
    expect(tick.traces).toBe(3);
    expect(tick.samples).toBeGreaterThan(10);
    // The stored probes are done: a second round finds nothing new.
    expect((await svc.processor.tick()).traces).toBe(0);
    await svc.publisher.publish();
    const live = await route('&traffic=live');
    expect(live.traffic.applied).toBe(true);
    expect(live.duration_s).toBeGreaterThan(plain.duration_s);
    expect(live.geometry.coordinates).not.toEqual(plain.geometry.coordinates);
    // /traffic shows the segments at about the probes' speed (4 m/s = 14.4 km/h).
    const t = await json(await s.get('/api/v1/traffic?bbox=3.15,36.70,3.22,36.74', key));
    expect(t.features.length).toBeGreaterThan(5);
    const speeds = t.features.map((f: any) => f.properties.speed_kph).sort((a: number, b: number) => a - b);
    expect(speeds[Math.floor(speeds.length / 2)]).toBeGreaterThan(11);
    expect(speeds[Math.floor(speeds.length / 2)]).toBeLessThan(18);
    expect(t.features.every((f: any) => f.properties.samples >= 3)).toBe(true);
    expect(JSON.stringify(t)).not.toMatch(/veh-/);
  });

  it('a live device\'s pings become probes once a minute has passed after their time, under a hashed device id', async () => {
    const svc = trafficService(s.app.ctx)!;
    const before = (await s.app.ctx.store.pool.query('SELECT count(*)::int AS n FROM traffic_samples')).rows[0].n;
    const t0 = Date.now() - 55_000;
    const pings = drive((await route()).geometry.coordinates, 8, 5, t0).slice(0, 40).map((p) => ({ device: 'truck-7', lat: p.lat, lng: p.lng, ts: new Date(p.ts).toISOString() }));
    const r = await s.post('/api/v1/track/ping', { pings }, key);
    expect(r.status).toBe(202);
    // Before their window has closed (a minute after the last ping) nothing is read...
    expect((await svc.processor.tick()).traces).toBe(0);
    // ...after it, the device's trail is one trace.
    svc.processor.now = () => Date.now() + 5 * 60_000;
    const tick = await svc.processor.tick();
    expect(tick.traces).toBeGreaterThanOrEqual(1);
    const after = (await s.app.ctx.store.pool.query('SELECT count(*)::int AS n FROM traffic_samples')).rows[0].n;
    expect(after).toBeGreaterThan(before);
    const devices = (await s.app.ctx.store.pool.query('SELECT DISTINCT device FROM traffic_samples')).rows.map((x: any) => x.device);
    expect(devices.join(' ')).not.toContain('truck-7');
  });

  it('rejects bad probes with 400 naming the field', async () => {
    const bad = [
      [{ probes: [] }, 'probes'],
      [{ probes: [{ trace_id: 'a', points: [{ lat: 1, lng: 2, ts: '2026-01-01T00:00:00Z' }] }] }, 'points'],
      [{ probes: [{ trace_id: 'a', points: [{ lat: 91, lng: 2, ts: '2026-01-01T00:00:00Z' }, { lat: 1, lng: 2, ts: '2026-01-01T00:00:05Z' }] }] }, 'lat'],
      [{ probes: [{ trace_id: 'a', points: [{ lat: 1, lng: 2, ts: '2099-01-01T00:00:00Z' }, { lat: 1, lng: 2, ts: '2099-01-01T00:00:05Z' }] }] }, 'ts'],
    ] as const;
    for (const [b, field] of bad) {
      const r = await s.post('/api/v1/traffic/contribute', b, key);
      expect(r.status, JSON.stringify(b)).toBe(400);
      expect((await json(r)).error.message).toContain(field);
    }
  });
});
