// Issue 11 §5: map matching. Traces generated from real routes on the default extracts (a fix every
// 5–30 s, Gaussian noise σ = 20 m, 3% outliers moved 150–400 m) must recover ≥ 95% of the true
// route's length; a trace across a gap with no road is split; the HTTP route, and a device's trail
// matched through GET /track/{device}?matched=1.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { mainComponentPoints } from '../../bench/matrix.ts';
import { traceFromRoute, recovered } from '../../bench/lib/traces.ts';
import { loadedGraphs } from '../../workers/routing/graphs.ts';
import { matchTrace } from '../../workers/routing/match/match.ts';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { tempDir, loadInto, task, SHARED_DATA } from './helpers.ts';

const EXTRACTS = [
  { name: 'tanzania-sw', file: 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf' },
  { name: 'algiers-east', file: 'algiers-east-streets-osmnx-2025.osm.pbf' },
  { name: 'accra', file: 'accra-trotro-route-streets-2017.osm.pbf' },
  { name: 'kagera', file: 'tanzania-kagera-mini-2022-roads.osm.pbf' },
];

describe('route_match task on real extracts', () => {
  const tmp = tempDir();
  beforeAll(async () => {
    for (const e of EXTRACTS) await buildRoadExtract({ input: join(SHARED_DATA, e.file), name: e.name, out: tmp.dir, profiles: ['driving'] });
    loadInto(tmp.dir, EXTRACTS.map((e) => e.name));
  }, 120_000);
  afterAll(() => tmp.remove());

  for (const e of EXTRACTS) {
    it(`${e.name}: ≥ 95% of the true route length recovered at σ = 20 m with outliers`, () => {
      const g = loadedGraphs().find((x) => x.extract === e.name)!.g;
      const pts = mainComponentPoints(g, 60, 17);
      let total = 0, got = 0, traces = 0, matchedLen = 0;
      for (let k = 0; k + 1 < pts.length && traces < 8; k += 2) {
        const r = task('route', { from: pts[k], to: pts[k + 1] });
        if (r.status || r.route.distance_m < 1000) continue;
        const tr = traceFromRoute(r.route.geometry.coordinates, r.route.duration_s, r.route.distance_m, 20, 0.03, k);
        if (tr.points.length > 2000) continue;
        const m = task('route_match', { points: tr.points });
        expect(m.status, m.message).toBeUndefined();
        expect(m.points).toHaveLength(tr.points.length);
        const rc = recovered(tr.truth, m.matchings.map((x: any) => x.geometry.coordinates));
        total += tr.length_m; got += rc * tr.length_m; traces++;
        matchedLen += m.matchings.reduce((a: number, x: any) => a + x.distance_m, 0);
      }
      expect(traces).toBeGreaterThanOrEqual(4);
      expect(got / total).toBeGreaterThanOrEqual(0.95);
      // and no detours: the matched length stays close to the true one (recall alone could be met by a tangle)
      expect(matchedLen / total).toBeGreaterThan(0.9);
      expect(matchedLen / total).toBeLessThan(1.15); // measured 1.00–1.11; a matcher ignoring the model: 1.5–3.4
    }, 60_000);
  }

  it('splits a trace where no road joins two parts, and leaves fixes off every road unmatched', () => {
    const g = loadedGraphs().find((x) => x.extract === 'accra')!;
    const p = mainComponentPoints(g.g, 4, 3);
    const r = task('route', { from: p[0], to: p[1] });
    const tr = traceFromRoute(r.route.geometry.coordinates, r.route.duration_s, r.route.distance_m, 5, 0, 1);
    // 40 minutes later the device is 30 km out at sea (no road), then back on the road
    const sea = { lat: 5.3, lng: -0.05, ts: tr.points[tr.points.length - 1].ts + 2400 };
    const r2 = task('route', { from: p[2], to: p[3] });
    const tr2 = traceFromRoute(r2.route.geometry.coordinates, r2.route.duration_s, r2.route.distance_m, 5, 0, 2);
    const points = [...tr.points, sea, ...tr2.points.map((x) => ({ ...x, ts: x.ts + 10_000 }))];
    const m = task('route_match', { points });
    expect(m.points[tr.points.length]).toBeNull();
    expect(m.matchings.length).toBeGreaterThanOrEqual(2);
    expect(m.confidence).toBeGreaterThan(0.5);
    // the matcher's per-edge output (for traffic): edges of a piece join end to start
    const mm = matchTrace(g, tr.points).matchings[0];
    for (let i = 1; i < mm.edges.length; i++) {
      const e0 = mm.edges[i - 1], e1 = mm.edges[i];
      const end0 = e0 > 0 ? g.g.edgeV[e0 - 1] : g.g.edgeU[-e0 - 1], start1 = e1 > 0 ? g.g.edgeU[e1 - 1] : g.g.edgeV[-e1 - 1];
      expect(start1).toBe(end0);
    }
  });

  it('rejects a fix off the globe with 400 naming it', () => {
    expect(task('route_match', { points: [{ lat: 5.6, lng: -0.2 }, { lat: 95, lng: 0 }] }).message).toMatch(/points\[1\]/);
  });
});

describe('POST /route/match and GET /track/{device}?matched=1', () => {
  let db: TestDb; let s: TestServer; let key: string;
  beforeAll(async () => {
    db = freshPglite();
    await buildRoadExtract({ input: join(SHARED_DATA, EXTRACTS[0].file), name: EXTRACTS[0].name, out: join(db.dataDir, 'built'), profiles: ['driving'] });
    s = await startTestServer(db);
    key = await s.key({ plan: 'enterprise' });
    loadInto(join(db.dataDir, 'built'), ['tanzania-sw']);
  }, 120_000);
  afterAll(async () => { await s?.close(); await db?.drop(); });

  it('matches a posted trace and a stored trail', async () => {
    const r = task('route', { from: [-5.6333, 32.7667], to: [-5.70, 32.80], radius: 5000 });
    const tr = traceFromRoute(r.route.geometry.coordinates, r.route.duration_s, r.route.distance_m, 15, 0, 5);
    const a = await s.post('/api/v1/route/match', { points: tr.points }, key);
    const m = await a.json() as any;
    expect(a.status, JSON.stringify(m).slice(0, 300)).toBe(200);
    expect(m.matchings.length).toBe(1);
    expect(Math.abs(m.matchings[0].distance_m - r.route.distance_m) / r.route.distance_m).toBeLessThan(0.1);
    expect(m.attribution).toBeTruthy();
    // the same fixes as a device's pings
    const pings = tr.points.map((p) => ({ lat: p.lat, lng: p.lng, ts: new Date(p.ts * 1000).toISOString(), accuracy_m: 15 }));
    expect((await s.post('/api/v1/track/ping', { device: 'van-7', pings }, key)).status).toBe(202);
    const b = await s.get('/api/v1/track/van-7?matched=1', key);
    const t = await b.json() as any;
    expect(b.status, JSON.stringify(t).slice(0, 300)).toBe(200);
    expect(t.device).toBe('van-7');
    expect(t.page.count).toBe(tr.points.length);
    expect(t.matchings[0].distance_m).toBeCloseTo(m.matchings[0].distance_m, -1);
    const none = await s.get('/api/v1/track/nobody?matched=1', key);
    expect((await none.json() as any).matched).toBeNull();
    // the trace's limits (src/core/limits.ts) are checked once, where the request arrives
    const refused = async (body: unknown) => { const r = await s.post('/api/v1/route/match', body, key); expect(r.status).toBe(400); return ((await r.json()) as any).error.message as string; };
    expect(await refused({ points: [{ lat: 1, lng: 2 }] })).toMatch(/points/);
    expect(await refused({ points: Array.from({ length: 2001 }, () => ({ lat: 5.6, lng: -0.2 })) })).toMatch(/2000/);
    expect(await refused({ points: [{ lat: 5.6, lng: -0.2 }, { lat: 5.6, lng: -0.2, accuracy_m: 1001 }] })).toMatch(/points\[1\]\.accuracy_m.*1000/);
    expect(await refused({ points: [{ lat: 5.6, lng: -0.2, ts: 'soon' }, { lat: 5.6, lng: -0.2 }] })).toMatch(/points\[0\]\.ts/);
  });
});
