// Traffic per road segment: rural edges run for kilometres between junctions, and a vehicle that
// drives part of one has seen traffic on that part. Three vehicles crawl the first 4.5 km of the
// Sikonge route (README's example) at 20 km/h and stop: /route?traffic=live must slow that stretch by
// what the crawl implies (4.5 km at 20 km/h instead of the profile's time for them), not only the
// two short edges (1.4 km) they happened to drive whole.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { linkRoads } from '../helpers/built.ts';
import { trafficService } from '../../src/traffic/service.ts';
import { haversine } from '../../src/core/geometry.ts';

const json = (r: Response): Promise<any> => r.json();
const FROM = '-5.6333,32.7667', TO = '-5.80,32.90';
const CRAWL_M = 4500, CRAWL_MPS = 20 / 3.6;

/** Points along a [lng, lat] line for its first `upTo` metres at `mps`, one every `dt` seconds from `t0`. */
function drive(line: [number, number][], upTo: number, mps: number, dt: number, t0: number) {
  const out: { lat: number; lng: number; ts: number }[] = [];
  let along = 0, next = 0;
  for (let i = 0; i + 1 < line.length && next <= upTo; i++) {
    const len = haversine(line[i][1], line[i][0], line[i + 1][1], line[i + 1][0]);
    while (next <= along + len && next <= upTo) {
      const f = len > 0 ? (next - along) / len : 0;
      out.push({ lng: line[i][0] + f * (line[i + 1][0] - line[i][0]), lat: line[i][1] + f * (line[i + 1][1] - line[i][1]), ts: t0 + (next / mps) * 1000 });
      next += mps * dt;
    }
    along += len;
  }
  return out;
}

/** The [lat, lng] `at` metres along a [lng, lat] line. */
function pointAt(line: [number, number][], at: number): string {
  let along = 0;
  for (let i = 0; i + 1 < line.length; i++) {
    const len = haversine(line[i][1], line[i][0], line[i + 1][1], line[i + 1][0]);
    if (along + len >= at) {
      const f = (at - along) / len;
      return `${line[i][1] + f * (line[i + 1][1] - line[i][1])},${line[i][0] + f * (line[i + 1][0] - line[i][0])}`;
    }
    along += len;
  }
  throw new Error('line too short');
}

describe('traffic per road segment (Sikonge, tanzania-sw)', () => {
  let db: TestDb, s: TestServer, key: string;
  beforeAll(async () => {
    db = freshPglite();
    await linkRoads(join(db.dataDir, 'built'), ['tanzania-sw']);
    s = await startTestServer(db, { TRAFFIC_PROCESS_MS: '3600000', TRAFFIC_PUBLISH_MS: '3600000' });
    key = await s.key();
  }, 300_000);
  afterAll(async () => { await s?.close(); await db?.drop(); });

  const route = async (from: string, to: string, extra = '') => {
    const r = await s.get(`/api/v1/route?from=${from}&to=${to}&radius=5000${extra}`, key);
    const d = await json(r);
    expect(r.status, JSON.stringify(d)).toBe(200);
    return d.route;
  };

  it('three vehicles crawling the first 4.5 km at 20 km/h slow the route by what they drove', async () => {
    const plain = await route(FROM, TO);
    const line: [number, number][] = plain.geometry.coordinates;
    expect(plain.distance_m).toBeGreaterThan(3 * CRAWL_M);
    // the profile's time for the stretch they crawl: the route from the same start to where they stopped
    const stretch = await route(FROM, pointAt(line, CRAWL_M));
    expect(Math.abs(stretch.distance_m - CRAWL_M)).toBeLessThan(50);
    const implied = CRAWL_M / CRAWL_MPS - stretch.duration_s;
    expect(implied).toBeGreaterThan(300);

    const t0 = Date.now() - 14 * 60_000; // the 13.5 minutes of crawl end inside the 15-minute live window
    const crawl = (n: number) => ({ trace_id: `crawl-${n}`, points: drive(line, CRAWL_M, CRAWL_MPS, 5, t0 + n * 1000).map((p) => ({ lat: p.lat, lng: p.lng, ts: new Date(p.ts).toISOString() })) });
    const r = await s.post('/api/v1/traffic/contribute', { probes: [crawl(1), crawl(2), crawl(3)] }, key);
    expect(r.status, JSON.stringify(await r.clone().json())).toBe(202);
    const svc = trafficService(s.app.ctx)!;
    expect((await svc.processor.tick()).traces).toBe(3);
    await svc.publisher.publish();

    // The stretch they crawled takes what the crawl took: 4.5 km at 20 km/h (810 s) where the profile
    // says ~490 s, within 5% (the ends of the crawl are interpolated between pings). With only the
    // edges driven whole it took 568 s; with the part of an edge costed pro rata of its time, 695 s.
    const crawled = await route(FROM, pointAt(line, CRAWL_M), '&traffic=live');
    expect(crawled.traffic.applied).toBe(true);
    expect(crawled.distance_m).toBe(stretch.distance_m);
    expect(crawled.duration_s - stretch.duration_s).toBeGreaterThan(0.95 * implied);
    expect(crawled.duration_s - stretch.duration_s).toBeLessThan(1.05 * implied);
    // The whole route: slower by what the crawl implies, unless a detour costs less (here one does).
    const live = await route(FROM, TO, '&traffic=live');
    expect(live.traffic.applied).toBe(true);
    expect(live.duration_s).toBeGreaterThan(plain.duration_s);
    expect(live.duration_s).toBeLessThan(plain.duration_s + 1.1 * implied);
    if (live.distance_m === plain.distance_m) expect(live.duration_s).toBeGreaterThan(plain.duration_s + 0.9 * implied);

    // /traffic: the published segments cover the stretch they drove, not just the edges driven whole
    const [lng0, lat0] = line[0];
    const t = await json(await s.get(`/api/v1/traffic?bbox=${lng0 - 0.1},${lat0 - 0.1},${lng0 + 0.1},${lat0 + 0.1}`, key));
    const covered = t.features.reduce((a: number, f: any) => a + f.properties.length_m, 0);
    expect(covered).toBeGreaterThan(CRAWL_M);
    expect(t.features.every((f: any) => f.properties.samples >= 3)).toBe(true);
  });
});
