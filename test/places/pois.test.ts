// Places from OpenStreetMap: the build on a small .osm fixture written here (a multipolygon with a
// hole split over several ways, a market area, shops) and on the real Monaco full-tag extract
// (../shared/data; not African: tests only), the worker tasks, and the HTTP endpoints.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPois } from '../../graph-build/pois/index.ts';
import { assembleRings } from '../../graph-build/osm/rings.ts';
import { loadDataset } from '../../src/data/catalog.ts';
import { pois } from '../../workers/pois/index.ts';
import { TaskError } from '../../src/core/task.ts';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, SHARED_DATA, type TestServer } from '../helpers/server.ts';

const T: any = pois.tasks;
const live = { sandbox: false };

// A 0.02° square reserve (outer ring in two ways, one reversed) with a 0.004° hole; a market
// square; shops. Coordinates near Nairobi.
const node = (id: number, lat: number, lon: number, tags: Record<string, string> = {}) =>
  `<node id="${id}" lat="${lat}" lon="${lon}">${Object.entries(tags).map(([k, v]) => `<tag k="${k}" v="${v}"/>`).join('')}</node>`;
const FIXTURE = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
${node(1, -1.30, 36.80)}${node(2, -1.30, 36.82)}${node(3, -1.28, 36.82)}${node(4, -1.28, 36.80)}
${node(5, -1.292, 36.808)}${node(6, -1.292, 36.812)}${node(7, -1.288, 36.812)}${node(8, -1.288, 36.808)}
${node(10, -1.2860, 36.8330)}${node(11, -1.2860, 36.8340)}${node(12, -1.2850, 36.8340)}${node(13, -1.2850, 36.8330)}
${node(20, -1.2900, 36.8300, { shop: 'supermarket', name: 'Naivas Moi Avenue', 'addr:street': 'Moi Avenue', 'addr:city': 'Nairobi' })}
${node(21, -1.2905, 36.8305, { amenity: 'bank', name: 'Equity Bank Tom Mboya' })}
${node(22, -1.2910, 36.8310, { amenity: 'fuel' })}
${node(23, -1.2915, 36.8315, { amenity: 'bench' })}
<way id="100"><nd ref="1"/><nd ref="2"/><nd ref="3"/></way>
<way id="101"><nd ref="1"/><nd ref="4"/><nd ref="3"/></way>
<way id="102"><nd ref="5"/><nd ref="6"/><nd ref="7"/><nd ref="8"/><nd ref="5"/></way>
<way id="200"><nd ref="10"/><nd ref="11"/><nd ref="12"/><nd ref="13"/><nd ref="10"/><tag k="amenity" v="marketplace"/><tag k="name" v="Toi Market"/></way>
<relation id="300"><member type="way" ref="100" role="outer"/><member type="way" ref="101" role="outer"/><member type="way" ref="102" role="inner"/>
<tag k="type" v="multipolygon"/><tag k="boundary" v="protected_area"/><tag k="name" v="Test Forest Reserve"/><tag k="protect_class" v="4"/></relation>
<relation id="301"><member type="way" ref="100" role=""/><tag k="type" v="route"/><tag k="route" v="bus"/></relation>
</osm>`;

describe('places build and tasks on a small OSM fixture', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-pois-'));
    writeFileSync(join(dir, 'fixture.osm'), FIXTURE);
    const m = await buildPois({ input: join(dir, 'fixture.osm'), name: 'pois-fixture', out: dir, progress: false });
    expect(m.counts).toEqual({ business: 3, market: 1, protected_area: 1 });
    pois.init([loadDataset(join(dir, 'pois-fixture'))!]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('joins member ways into closed rings, whatever their direction', () => {
    expect(assembleRings([[1, 2, 3], [1, 4, 3]])).toEqual([[1, 2, 3, 4, 1]]);
    expect(assembleRings([[1, 2], [3, 4]])).toEqual([]); // never closes
  });
  it('protected areas: inside the outer ring, not in the hole, distance to the boundary', () => {
    expect(T.protected_at({ lat: -1.295, lng: 36.803 }, live).results.map((r: any) => r.name)).toEqual(['Test Forest Reserve']);
    expect(T.protected_at({ lat: -1.290, lng: 36.810 }, live).results).toEqual([]); // in the hole
    expect(T.protected_at({ lat: -1.27, lng: 36.81 }, live).results).toEqual([]);
    const near = T.protected_nearby({ lat: -1.27, lng: 36.81, radius: 5000 }, live).results;
    expect(near[0]).toMatchObject({ name: 'Test Forest Reserve', inside: false, category: 'protected_area', tags: { protect_class: '4' } });
    expect(near[0].distance_m).toBeGreaterThan(1000);
    expect(near[0].distance_m).toBeLessThan(1200); // 0.01° of latitude
    expect(near[0].area_m2).toBeGreaterThan(4.5e6);
  });
  it('markets with their area; 404 for an unknown id', () => {
    const all = T.markets_list({}, live).results;
    expect(all.map((m: any) => m.name)).toEqual(['Toi Market']);
    const m = T.market_by_id({ id: all[0].id }, live).market;
    expect(m.geometry.coordinates[0]).toHaveLength(5);
    expect(m.osm).toEqual({ type: 'way', id: 200 });
    expect(() => T.market_by_id({ id: 'svc:poi.w999' }, live)).toThrow(TaskError);
  });
  it('businesses by name, category or group, and distance; benches are not businesses', () => {
    expect(T.businesses_search({ q: 'naivas' }, live).results[0]).toMatchObject({ name: 'Naivas Moi Avenue', category: 'supermarket', address: 'Moi Avenue, Nairobi' });
    expect(T.businesses_search({ category: 'bank' }, live).results.map((r: any) => r.name)).toEqual(['Equity Bank Tom Mboya']);
    expect(T.businesses_search({ category: 'shop' }, live).results).toHaveLength(1);
    const near = T.businesses_search({ lat: -1.2900, lng: 36.8300, radius: 500 }, live).results;
    expect(near.map((r: any) => r.category)).toEqual(['supermarket', 'bank', 'fuel']);
    expect(near.map((r: any) => r.distance_m)).toEqual([...near.map((r: any) => r.distance_m)].sort((a: number, b: number) => a - b));
  });
});

describe('places from the Monaco full-tag extract over HTTP', () => {
  let db: TestDb;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    db = freshPglite();
    await buildPois({ input: join(SHARED_DATA, 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf'), name: 'pois-monaco', out: join(db.dataDir, 'built'), progress: false });
    s = await startTestServer(db);
    key = await s.key({ plan: 'enterprise' });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });
  const get = async (p: string) => { const r = await s.get(p, key); return { status: r.status, body: await r.json() as any }; };

  it('serves businesses, the market and the reserve; capabilities on', async () => {
    const c = (await get('/api/v1/capabilities')).body;
    for (const k of ['businesses_search', 'markets', 'protected_areas']) expect(c.capabilities[k], k).toBe(true);
    const b = await get('/api/v1/businesses/search?q=pizza&limit=20');
    expect(b.status).toBe(200);
    expect(b.body.results.length).toBeGreaterThanOrEqual(3);
    expect(b.body.results.every((r: any) => /pizz/i.test(r.name))).toBe(true);
    const r = await get('/api/v1/businesses/search?category=restaurant&location=43.7384,7.4246&radius=500');
    expect(r.body.results.length).toBeGreaterThan(0);
    expect(r.body.results.every((x: any) => x.category === 'restaurant' && x.distance_m <= 500)).toBe(true);
    expect((await get('/api/v1/markets/svc:poi.n268113781')).body.market).toMatchObject({ type: 'market', osm: { type: 'node', id: 268113781 } });
    expect((await get('/api/v1/markets/svc:poi.n1')).status).toBe(404);
    const at = await get('/api/v1/protected-areas/at?lat=43.7365&lng=7.3698'); // inside the (rough) outline
    expect(at.body.results.map((x: any) => x.name)).toEqual(['Parc de la Grande Corniche']);
    const nb = await get('/api/v1/protected-areas/nearby?lat=43.74&lng=7.42&radius=20000');
    expect(nb.body.results[0]).toMatchObject({ name: 'Parc de la Grande Corniche', inside: false });
    expect((await get('/api/v1/businesses/search')).status).toBe(400);
    expect((await get('/api/v1/protected-areas/at?lat=95&lng=7')).body.error.message).toMatch(/'lat'/);
    expect((await get('/api/v1/businesses/search?lat=43.7')).status).toBe(400);
  });
});
