// Traffic on a hand-built network: a fast direct road and a slower detour. Congestion published on
// the direct road makes traffic=live take the detour; when it clears, the direct road is back.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { buildRoadNetwork } from '../../graph-build/roads.ts';
import { openGraph } from '../../src/core/format/route.ts';
import { loadIndex, snap } from '../../workers/routing/locate/snap.ts';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { trafficService } from '../../src/traffic/service.ts';
import { network } from '../routing/helpers.ts';

// 0.001° ≈ 111 m, around (0, 30):  D(2,0) ------ E(2,4)   residential detour
//                                   |              |
//                                   A(0,0) ====== B(0,4)   primary road
const P = (y: number, x: number): [number, number] => [y * 0.001, 30 + x * 0.001];
const net = network({ A: P(0, 0), B: P(0, 4), D: P(2, 0), E: P(2, 4) }, [
  [['A', 'B'], { highway: 'primary' }],
  [['A', 'D', 'E', 'B'], { highway: 'residential' }],
]);
const json = (r: Response): Promise<any> => r.json();

describe('traffic on a fixture', () => {
  let db: TestDb, s: TestServer, key: string, direct: number;
  beforeAll(async () => {
    db = freshPglite();
    const out = join(db.dataDir, 'built');
    buildRoadNetwork(net, { name: 'fixture', out, profiles: ['driving'] });
    const buf = readFileSync(join(out, 'fixture', 'driving.route.bin'));
    const g = openGraph(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength), 'driving.route.bin');
    direct = snap(g, loadIndex(g), 0, 30.002, 20)!.edge;
    s = await startTestServer(db, { TRAFFIC_PROCESS_MS: '3600000', TRAFFIC_PUBLISH_MS: '3600000' });
    key = await s.key();
  });
  afterAll(async () => { await s?.close(); await db?.drop(); });

  const route = async (extra = '') => {
    const r = await s.get(`/api/v1/route?from=0,30&to=0,30.004${extra}`, key);
    const d = await json(r);
    expect(r.status, JSON.stringify(d)).toBe(200);
    return d.route;
  };
  const viaDetour = (rt: any) => rt.geometry.coordinates.some(([, lat]: number[]) => lat > 0.0015);

  it('takes the detour while the direct road is congested, and the direct road again once it clears', async () => {
    const plain = await route();
    expect(viaDetour(plain)).toBe(false);
    const t0 = Date.now();
    for (const dir of [0, 1]) for (const device of ['a', 'b', 'c']) {
      await s.app.ctx.store.pool.query(
        'INSERT INTO traffic_samples (extract, profile, edge, dir, ts, speed_kph, device) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        ['fixture', 'driving', direct, dir, new Date(t0 - 60_000), 4, device]);
    }
    const pub = trafficService(s.app.ctx)!.publisher;
    pub.now = () => t0;
    await pub.publish();
    const jammed = await route('&traffic=live');
    expect(jammed.traffic).toMatchObject({ mode: 'live', applied: true, edges_with_data: 2 });
    expect(viaDetour(jammed)).toBe(true);
    expect(jammed.duration_s).toBeGreaterThan(plain.duration_s);
    // Without traffic the answer does not change.
    expect(viaDetour(await route())).toBe(false);
    // The matrix takes traffic the same way: its cell equals the traffic-aware route.
    const m = async (extra: string) => json(await s.get(`/api/v1/route/matrix?sources=0,30&destinations=0,30.004${extra}`, key));
    const mLive = await m('&traffic=live');
    expect(mLive.durations_s[0][0]).toBe(jammed.duration_s);
    expect(mLive.distances_m[0][0]).toBe(jammed.distance_m);
    expect(mLive.traffic).toMatchObject({ mode: 'live', applied: true });
    expect((await m('')).durations_s[0][0]).toBe(plain.duration_s);
    pub.now = () => t0 + 16 * 60_000;
    await pub.publish();
    const cleared = await route('&traffic=live');
    expect(cleared.traffic.applied).toBe(false);
    expect(viaDetour(cleared)).toBe(false);
  });
});
