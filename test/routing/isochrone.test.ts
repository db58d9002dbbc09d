// Issue 11 §4: isochrones, checked against /route by sampling: road vertices inside a contour are
// reached within its time by /route, vertices clearly outside (3 cells away from every edge of it)
// are not, and the vertices /route reaches within the time lie inside (≥ 99%, ≥ 99%, ≥ 95%). Also
// holes, distance contours and errors, and the HTTP route.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { rng } from '../../bench/lib/rand.ts';
import { mainComponentPoints } from '../../bench/matrix.ts';
import { E7 } from '../../src/core/format/route.ts';
import { loadedGraphs } from '../../workers/routing/graphs.ts';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { tempDir, loadInto, task, SHARED_DATA } from './helpers.ts';

function inRing(x: number, y: number, ring: number[][]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
/** Inside a MultiPolygon: inside an outer ring and in none of its holes. */
const inMulti = (lng: number, lat: number, mp: number[][][][]) => mp.some((poly) => inRing(lng, lat, poly[0]) && !poly.slice(1).some((h) => inRing(lng, lat, h)));

const CASES = [
  { name: 'algiers-east', file: 'algiers-east-streets-osmnx-2025.osm.pbf', from: [36.7402, 3.0903] as [number, number], minutes: [4, 8] },
  { name: 'accra', file: 'accra-trotro-route-streets-2017.osm.pbf', from: [5.5560, -0.1969] as [number, number], minutes: [5, 10] },
  { name: 'tanzania-sw', file: 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf', from: [-5.6333, 32.7667] as [number, number], minutes: [20, 45] },
];

describe('route_isochrone task', () => {
  const tmp = tempDir();
  beforeAll(async () => {
    for (const c of CASES) await buildRoadExtract({ input: join(SHARED_DATA, c.file), name: c.name, out: tmp.dir, profiles: ['driving'] });
    loadInto(tmp.dir, CASES.map((c) => c.name));
  }, 120_000);
  afterAll(() => tmp.remove());

  for (const c of CASES) {
    it(`${c.name}: vertices inside are reached in time by /route, vertices clearly outside are not, vertices reached in time are inside`, () => {
      // from: a point on the big component, so /route (radius 50 m: every sampled vertex is on a road) and the isochrone start alike
      const from = mainComponentPoints(loadedGraphs().find((x) => x.extract === c.name)!.g, 1, 77)[0];
      const iso = task('route_isochrone', { from, minutes: c.minutes, radius: 50 });
      expect(iso.status, iso.message).toBeUndefined();
      expect(iso.type).toBe('FeatureCollection');
      expect(iso.features.map((f: any) => f.properties.minutes)).toEqual([...c.minutes].sort((a, b) => b - a));
      const g = loadedGraphs().find((x) => x.extract === c.name)!.g;
      const cellDeg = iso.cell_m / 111_195;
      const r = rng(5);
      for (const f of iso.features) {
        const T = f.properties.minutes * 60, mp = f.geometry.coordinates;
        expect(mp.length).toBeGreaterThan(0);
        // bbox of the contour, grown, to sample vertices near it
        const xs = mp.flatMap((p: any) => p[0].map((q: number[]) => q[0])), ys = mp.flatMap((p: any) => p[0].map((q: number[]) => q[1]));
        const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
        let inside = 0, insideOk = 0, outside = 0, outsideOk = 0, reached = 0, covered = 0;
        for (let k = 0; k < 60000 && (inside < 150 || outside < 150 || reached < 150); k++) {
          const p = Math.floor(r() * g.shapeLat.length);
          const lat = g.shapeLat[p] / E7, lng = g.shapeLon[p] / E7;
          if (lng < x0 - (x1 - x0) || lng > x1 + (x1 - x0) || lat < y0 - (y1 - y0) || lat > y1 + (y1 - y0)) continue;
          const rt = task('route', { from, to: [lat, lng], radius: 50 }); // the vertex is on a road: no far candidates
          const t = rt.status ? Infinity : rt.route.duration_s;
          const ins = inMulti(lng, lat, mp);
          if (t <= T && reached < 150) { reached++; if (ins) covered++; }
          if (ins) { if (inside >= 150) continue; inside++; if (t <= T) insideOk++; continue; }
          const d = 3 * cellDeg, kx = Math.cos(lat * Math.PI / 180);
          const clear = [[d, 0], [-d, 0], [0, d], [0, -d], [d, d], [-d, -d], [d, -d], [-d, d]].every(([dy, dx]) => !inMulti(lng + dx / kx, lat + dy, mp));
          if (!clear || outside >= 150) continue;
          outside++; if (t > T) outsideOk++;
        }
        expect(inside).toBeGreaterThan(20);
        expect(outside).toBeGreaterThan(20);
        expect(reached).toBeGreaterThan(20);
        // No boundary tolerance: the contour passes between every sampled road point reached within
        // its time and every one that is not (tri-contour.ts); measured 100%, 100% and 99.3–100%.
        expect(insideOk / inside).toBeGreaterThanOrEqual(0.99);
        expect(outsideOk / outside).toBeGreaterThanOrEqual(0.99);
        expect(covered / reached).toBeGreaterThanOrEqual(0.95);
      }
    }, 120_000);
  }

  it('meters contours and errors', () => {
    const iso = task('route_isochrone', { from: CASES[0].from, meters: [1000, 3000], radius: 5000 });
    expect(iso.features[0].properties).toMatchObject({ meters: 3000, metric: 'distance' });
    // the contours' count and range are checked before the task (the HTTP test below)
    expect(task('route_isochrone', { from: [0, 0], minutes: [5] }).code).toBe('out_of_coverage');
  });
});

describe('GET /route/isochrone', () => {
  let db: TestDb; let s: TestServer; let key: string;
  beforeAll(async () => {
    db = freshPglite();
    await buildRoadExtract({ input: join(SHARED_DATA, CASES[2].file), name: CASES[2].name, out: join(db.dataDir, 'built'), profiles: ['driving'] });
    s = await startTestServer(db);
    key = await s.key({ plan: 'enterprise' });
  }, 60_000);
  afterAll(async () => { await s?.close(); await db?.drop(); });

  it('answers GeoJSON and the documented errors', async () => {
    const r = await s.get('/api/v1/route/isochrone?from=-5.6333,32.7667&minutes=10,20&radius=5000', key);
    const d = await r.json() as any;
    expect(r.status, JSON.stringify(d).slice(0, 300)).toBe(200);
    expect(d.features).toHaveLength(2);
    expect(d.features[0].geometry.type).toBe('MultiPolygon');
    expect((await s.get('/api/v1/route/isochrone?from=-5.6333,32.7667', key)).status).toBe(400);
    expect((await s.get('/api/v1/route/isochrone?from=-5.6333,32.7667&minutes=5&meters=100', key)).status).toBe(400);
    expect((await s.get('/api/v1/route/isochrone?from=-5.6333,32.7667&minutes=5&mode=truck', key)).status).toBe(501);
    // ISOCHRONE_LIMITS are checked once, by the declaration: count, > 0, at most the maximum
    for (const q of ['minutes=5,10,15,20,25', 'minutes=0', 'minutes=121', 'meters=100001']) {
      const e = await s.get(`/api/v1/route/isochrone?from=-5.6333,32.7667&${q}`, key);
      expect(e.status, q).toBe(400);
      expect(((await e.json()) as any).error.message, q).toMatch(/minutes|meters/);
    }
  });
});
