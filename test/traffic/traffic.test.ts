// Traffic over HTTP on a real extract (eastern Algiers): speeds published from samples reach
// /traffic and change the route that traffic=live picks; they expire with the 15-minute window.
// Probe ingest and matching end to end: test/traffic/probes.test.ts.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, SHARED_DATA, type TestServer } from '../helpers/server.ts';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { openGraph } from '../../src/core/format/route.ts';
import { loadIndex, snap } from '../../workers/routing/locate/snap.ts';
import { trafficService } from '../../src/traffic/service.ts';

const json = (r: Response): Promise<any> => r.json();
// Across El Harrach: a route with several reasonable alternatives.
const FROM = '36.715,3.16', TO = '36.735,3.21';

describe('traffic on eastern Algiers', () => {
  let db: TestDb, s: TestServer, key: string;
  let edgesOf: (coords: [number, number][]) => Set<number>;
  beforeAll(async () => {
    db = freshPglite();
    const out = join(db.dataDir, 'built');
    await buildRoadExtract({ input: join(SHARED_DATA, 'algiers-east-streets-osmnx-2025.osm.pbf'), name: 'algiers-east', out, profiles: ['driving'] });
    const buf = readFileSync(join(out, 'algiers-east', 'driving.route.bin'));
    const g = openGraph(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength), 'driving.route.bin');
    const index = loadIndex(g);
    // The base edges a route's geometry runs along: every interior coordinate snaps onto one.
    edgesOf = (coords) => {
      const out = new Set<number>();
      for (let i = 1; i + 1 < coords.length; i++) {
        const sn = snap(g, index, coords[i][1], coords[i][0], 5);
        if (sn) out.add(sn.edge);
      }
      return out;
    };
    s = await startTestServer(db, { TRAFFIC_PROCESS_MS: '3600000', TRAFFIC_PUBLISH_MS: '3600000' });
    key = await s.key();
  });
  afterAll(async () => { await s?.close(); await db?.drop(); });

  const route = async (extra = '') => {
    const r = await s.get(`/api/v1/route?from=${FROM}&to=${TO}${extra}`, key);
    const d = await json(r);
    expect(r.status, JSON.stringify(d)).toBe(200);
    return d.route;
  };

  /** Samples at `kph` on both directions of `edges` from the named devices at `tsMs`. */
  async function congest(edges: Set<number>, kph: number, devices: string[], tsMs: number) {
    const rows: unknown[][] = [];
    for (const e of edges) for (const dir of [0, 1]) for (const d of devices) rows.push(['algiers-east', 'driving', e, dir, new Date(tsMs), kph, d]);
    for (const r of rows) {
      await s.app.ctx.store.pool.query('INSERT INTO traffic_samples (extract, profile, edge, dir, ts, speed_kph, device) VALUES ($1,$2,$3,$4,$5,$6,$7)', r);
    }
  }

  it('with no probes: /traffic is empty and says why, and traffic=live routes as without traffic', async () => {
    const r = await s.get('/api/v1/traffic?bbox=3.14,36.70,3.22,36.75', key);
    const d = await json(r);
    expect(r.status, JSON.stringify(d)).toBe(200);
    expect(d.features).toEqual([]);
    expect(d.empty_reason).toMatch(/no probe data/i);
    const plain = await route();
    const live = await route('&traffic=live');
    expect(live.distance_m).toBe(plain.distance_m);
    expect(live.traffic).toMatchObject({ mode: 'live', applied: false });
  });

  it('congestion seen by 3 devices on the best route makes traffic=live take a detour, and it goes back when it clears', async () => {
    const plain = await route();
    const onRoute = edgesOf(plain.geometry.coordinates);
    expect(onRoute.size).toBeGreaterThan(3);
    const pub = trafficService(s.app.ctx)!.publisher;
    const t0 = Date.now();
    pub.now = () => t0;
    // Two devices are not enough to publish anything (privacy threshold).
    await congest(onRoute, 3, ['dev0', 'dev1'], t0 - 60_000);
    await pub.publish();
    expect((await route('&traffic=live')).traffic.applied).toBe(false);
    // A third device: published.
    await congest(onRoute, 3, ['dev2'], t0 - 30_000);
    const published = await pub.publish();
    expect(published.live).toBe(2 * onRoute.size);
    const live = await route('&traffic=live');
    expect(live.traffic.applied).toBe(true);
    expect(live.traffic.edges_with_data).toBe(2 * onRoute.size);
    const detour = edgesOf(live.geometry.coordinates);
    const shared = [...detour].filter((e) => onRoute.has(e)).length;
    expect(shared).toBeLessThan(onRoute.size);
    expect(live.duration_s).toBeGreaterThan(plain.duration_s);
    // /traffic shows the congested segments, without device ids.
    const t = await json(await s.get('/api/v1/traffic?bbox=3.15,36.70,3.22,36.74', key));
    expect(t.features.length).toBeGreaterThan(0);
    const f = t.features[0].properties;
    expect(f.speed_kph).toBe(3);
    expect(['heavy', 'standstill']).toContain(f.congestion);
    expect(f.samples).toBe(3);
    expect(JSON.stringify(t)).not.toContain('dev0');
    // 16 minutes later the samples are out of the live window: the route goes back.
    pub.now = () => t0 + 16 * 60_000;
    await pub.publish();
    const cleared = await route('&traffic=live');
    expect(cleared.traffic.applied).toBe(false);
    expect(cleared.distance_m).toBe(plain.distance_m);
  });

  it('rejects a bbox that is malformed or too large, and forecast without dow/hour', async () => {
    for (const q of ['bbox=1,2,3', 'bbox=3,2,1,4', 'bbox=0,0,2,2', 'bbox=3.1,36.7,3.2,36.8&mode=forecast', 'bbox=a,b,c,d']) {
      const r = await s.get(`/api/v1/traffic?${q}`, key);
      expect(r.status, q).toBe(400);
    }
  });
});
