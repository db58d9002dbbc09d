// Hotels: lodging of the real Monaco full-tag extract (../shared/data; not African: tests only)
// built by graph-build/pois, over HTTP on /hotels, /places/search, /places/nearby and /places/{id};
// and the capability off, with its reason, when no POI build is loaded.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { linkPois } from '../helpers/built.ts';
import { readManifest } from '../../src/core/format/manifest.ts';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { buildPois } from '../../graph-build/pois/index.ts';
import { loadDataset } from '../../src/data/catalog.ts';
import { pois as places } from '../../workers/pois/index.ts';

// Lodging tagged the ways OSM mappers tag it (Nairobi coordinates): every field, free-text stars,
// contact:* spellings, a guest house with nothing but a name, and a tourism value that is not lodging.
const node = (id: number, lat: number, lon: number, tags: Record<string, string>) =>
  `<node id="${id}" lat="${lat}" lon="${lon}">${Object.entries(tags).map(([k, v]) => `<tag k="${k}" v="${v}"/>`).join('')}</node>`;
const FIXTURE = `<?xml version="1.0" encoding="UTF-8"?><osm version="0.6">
${node(1, -1.2833, 36.8167, { tourism: 'hotel', name: 'Stanley Hotel', stars: '5S', rooms: '217', beds: '400', check_in: '14:00', check_out: '11:00', 'contact:phone': '+254 20 2757000', 'contact:website': 'https://example.com/stanley', email: 'stay@example.com' })}
${node(2, -1.2900, 36.8200, { tourism: 'guest_house', name: 'Kahawa Guest House' })}
${node(3, -1.2950, 36.8250, { tourism: 'hostel', name: 'Backpackers Nest', stars: '2', check_in: '12:00-22:00' })}
${node(4, -1.2960, 36.8260, { tourism: 'museum', name: 'Nairobi Gallery' })}
</osm>`;

describe('lodging fields from the tags (fixture)', () => {
  const T: any = places.tasks;
  const live = { sandbox: false };
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-hotels-'));
    writeFileSync(join(dir, 'f.osm'), FIXTURE);
    const m = await buildPois({ input: join(dir, 'f.osm'), name: 'pois-f', out: dir, progress: false });
    expect(m.lodging).toBe(3);
    places.init([loadDataset(join(dir, 'pois-f'))!]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stars, rooms, beds, phone, website, e-mail, check-in and check-out; null where not tagged', () => {
    const [stanley] = T.hotels_search({ q: 'stanley' }, live).results;
    expect(stanley.lodging).toEqual({
      stars: 5, stars_tag: '5S', rooms: 217, beds: 400, phone: '+254 20 2757000', website: 'https://example.com/stanley',
      email: 'stay@example.com', check_in: '14:00', check_out: '11:00', internet_access: null,
    });
    const [kahawa] = T.hotels_search({ q: 'kahawa' }, live).results;
    expect(kahawa).toMatchObject({ category: 'guest_house', lodging: { stars: null, rooms: null, phone: null, website: null, check_in: null, check_out: null } });
  });

  it('a museum is not lodging; categories and min_stars filter', () => {
    expect(T.hotels_search({}, live).results.map((h: any) => h.name).sort()).toEqual(['Backpackers Nest', 'Kahawa Guest House', 'Stanley Hotel']);
    expect(T.hotels_search({ category: 'hostel' }, live).results.map((h: any) => h.name)).toEqual(['Backpackers Nest']);
    expect(T.hotels_search({ min_stars: 3 }, live).results.map((h: any) => h.name)).toEqual(['Stanley Hotel']);
    // the museum, 150 m away, is not listed; the guest house is 786 m away
    const near = T.hotels_search({ lat: -1.2950, lng: 36.8250, radius: 900 }, live).results;
    expect(near.map((h: any) => h.name)).toEqual(['Backpackers Nest', 'Kahawa Guest House']);
  });
});

describe('hotels from the Monaco full-tag extract', () => {
  let db: TestDb;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    db = freshPglite();
    await linkPois(join(db.dataDir, 'built'));
    s = await startTestServer(db);
    key = await s.key({ plan: 'enterprise' });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });
  const get = async (p: string) => { const r = await s.get(p, key); return { status: r.status, body: await r.json() as any }; };

  it('the build counts lodging and the capability is on', async () => {
    // 37 tourism=hotel and 1 tourism=apartment in the extract (counted with the OSM reader)
    expect(readManifest(join(db.dataDir, 'built', 'pois-monaco'))!.lodging).toBe(38);
    expect((await get('/api/v1/capabilities')).body.capabilities.hotels).toBe(true);
  });

  it('GET /hotels by distance, with the OSM fields where tagged', async () => {
    const r = await get('/api/v1/hotels?lat=43.7384&lng=7.4246&radius=3000&limit=50');
    expect(r.status).toBe(200);
    const res = r.body.results;
    expect(res.length).toBeGreaterThan(5);
    expect(res.every((h: any) => ['hotel', 'apartment'].includes(h.category) && h.distance_m <= 3000)).toBe(true);
    expect(res.map((h: any) => h.distance_m)).toEqual([...res.map((h: any) => h.distance_m)].sort((a: number, b: number) => a - b));
    for (const h of res) expect(Object.keys(h.lodging)).toEqual(expect.arrayContaining(['stars', 'rooms', 'phone', 'website', 'check_in', 'check_out']));
  });

  it('stars, phone and website come from the tags; min_stars filters', async () => {
    const eza = (await get('/api/v1/hotels?q=chevre%20d%27or')).body.results[0];
    expect(eza).toMatchObject({ name: "La Chèvre d'Or", category: 'hotel', osm: { type: 'node', id: 1395868622 }, lodging: { stars: 5, stars_tag: '5', rooms: null } });
    const victoria = (await get('/api/v1/hotels?q=victoria')).body.results.find((h: any) => h.osm.id === 936937358);
    expect(victoria.lodging).toMatchObject({ phone: '+33 4 93 35 65 90', website: 'www.hotel-victoria.fr', internet_access: 'wlan', stars: null });
    const four = (await get('/api/v1/hotels?min_stars=4&limit=50')).body.results;
    expect(four.length).toBeGreaterThanOrEqual(2);
    expect(four.every((h: any) => h.lodging.stars >= 4)).toBe(true);
    expect((await get('/api/v1/hotels?category=apartment&limit=50')).body.results.map((h: any) => h.category)).toEqual(['apartment']);
  });

  it('lodging on /places/search, /places/nearby and /places/{id}', async () => {
    const near = await get('/api/v1/places/nearby?lat=43.7384&lng=7.4246&radius=3000&category=hotel');
    expect(near.status).toBe(200);
    expect(near.body.results.length).toBeGreaterThan(0);
    expect(near.body.results.every((h: any) => h.category === 'hotel' && h.lodging)).toBe(true);
    const search = await get('/api/v1/places/search?q=chevre&type=lodging');
    expect(search.body.results[0].name).toBe("La Chèvre d'Or");
    const one = await get(`/api/v1/places/${encodeURIComponent(search.body.results[0].id)}`);
    expect(one.status).toBe(200);
    expect(one.body.result).toMatchObject({ id: 'svc:poi.n1395868622', lodging: { stars: 5 } });
    expect((await get('/api/v1/places/svc:poi.n1')).status).toBe(404);
    expect((await get('/api/v1/places/search?q=chevre&type=lodging&country=MC')).status).toBe(400);
    expect((await get('/api/v1/hotels?category=castle')).status).toBe(400);
    expect((await get('/api/v1/hotels?lat=43.7')).status).toBe(400);
  });
});

describe('hotels without a POI build', () => {
  let db: TestDb;
  let s: TestServer;
  beforeAll(async () => { db = freshPglite(); s = await startTestServer(db); }, 60_000);
  afterAll(async () => { await s?.close(); await db?.drop(); });

  it('the capability is off with the build command, and /hotels answers 503', async () => {
    const c = await (await s.get('/api/v1/capabilities')).json() as any;
    expect(c.capabilities.hotels).toBe(false);
    expect(c.notes.hotels).toMatch(/graph-build -- pois/);
    const key = await s.key();
    const r = await s.get('/api/v1/hotels?q=hilton', key);
    expect(r.status).toBe(503);
  });
});
