// The gazetteer end to end on the real data in ../shared/data: build into a temp dir,
// answer in-process (the worker's own code over the shared buffers), measure accuracy
// on queries generated from the data, then the HTTP endpoints on a real server.
import type { WorkerModule } from '../../src/core/task.ts';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGazetteer } from '../../graph-build/gazetteer/index.ts';
import { stableHash } from '../../graph-build/gazetteer/model.ts';
import { loadDataset } from '../../src/data/catalog.ts';
import type { Manifest } from '../../src/core/format/index.ts';
import { geo, load } from '../../workers/geo/index.ts';
import type { Gazetteer } from '../../workers/geo/store.ts';
import { TaskError } from '../../src/core/task.ts';
import { nameKey } from '../../src/core/text/normalize.ts';
import { generateQueries, accuracy } from './queries.ts';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, REPO, SHARED_DATA, type TestServer } from '../helpers/server.ts';

/** By name, as the worker looks them up (the suite also sends arguments the types refuse). */
const T: WorkerModule['tasks'] = geo.tasks;
const live = { sandbox: false };
const test = { sandbox: true };
const call = (op: string, a: any, ctx = live): any => T[op](a, ctx);
const ids = (r: any) => r.results.map((x: any) => x.id);

let db: TestDb;
let built: string;
let manifest: Manifest;
let g: Gazetteer;

beforeAll(async () => {
  db = freshPglite();
  built = join(db.dataDir, 'built');
  const sources = JSON.parse(readFileSync(join(REPO, 'data/sources.json'), 'utf8'));
  manifest = await buildGazetteer({ sharedDataDir: SHARED_DATA, out: built, sources: sources.gazetteer, roads: sources.roads, progress: false });
  g = load([loadDataset(join(built, 'gazetteer'))!])!;
});
afterAll(async () => {
  await db?.drop();
});

describe('gazetteer build', () => {
  it('writes three containers and the manifest last, with counts, sources and licences', () => {
    expect(manifest.dataset).toBe('gazetteer');
    expect(manifest.files.map((f) => f.file).sort()).toEqual(['features.bin', 'spatial.bin', 'text.bin']);
    const c = manifest.counts as Record<string, number>;
    expect(c.country).toBe(56);
    expect(c.place).toBeGreaterThan(10_000);
    expect(c.health).toBeGreaterThan(100_000);
    expect(c.transit).toBeGreaterThan(6000);
    expect(c.quake).toBe(112);
    expect(c.street).toBeGreaterThan(500);
    expect((manifest.health as any).who_merged_into_osm).toBeGreaterThan(1000);
    expect((manifest.gtfs as any).Kigali).toEqual({ stops: 143, routes: 13 });
    expect((manifest.sources as any[]).find((s) => s.key === 'healthsites').licence).toBe('ODbL 1.0');
  });

  it('derives ids from source ids (stable across rebuilds of the same data) and keeps them unique', () => {
    expect(g.find('gn.2332459')).toBeGreaterThanOrEqual(0); // Lagos, GeoNames 2332459
    expect(g.name(g.find('gn.2332459'))).toBe('Lagos');
    expect(g.find('osm.w777520286')).toBeGreaterThanOrEqual(0); // first healthsites row (a way)
    expect(g.find(`who.${stableHash('Angola', 'Bengo', 'Hospital Dos Dembos', 'Hospital', '-8.50255', '14.586184')}`)).toBeGreaterThanOrEqual(0);
    expect(g.find('gtfs.nairobi.0001RLW')).toBeGreaterThanOrEqual(0);
    expect(g.find('usgs.ISCGEM849400')).toBeGreaterThanOrEqual(0);
    const codes = Array.from(g.codeOrder, (i) => g.code(i));
    for (let k = 1; k < codes.length; k++) expect(codes[k] > codes[k - 1]).toBe(true);
  });

  it('stores each name\'s address-parser key, the same one the parser computes from the text', () => {
    let wrong = 0, plain = 0;
    for (let n = 0; n < g.nameFeat.length; n++) {
      const name = g.altName(n);
      if (g.lexKey(n) !== nameKey(name)) wrong++;
      if (/^[\x20-\x7e]*$/.test(name)) plain++;
    }
    expect(wrong).toBe(0);
    // both of nameKey's paths are exercised: plain ASCII names and the rest (accents, Arabic script)
    expect(plain).toBeGreaterThan(1000);
    expect(g.nameFeat.length - plain).toBeGreaterThan(1000);
    expect(nameKey('  Saint-Louis  du Sénégal ')).toBe('saintlouis du senegal');
    expect(nameKey("N'Djamena - Centre")).toBe('ndjamena centre');
  });
});

describe('geocode quality on queries generated from the data', () => {
  it('finds the expected feature: ≥95% top-1 exact, ≥85% top-1 with one typo', () => {
    const qs = generateQueries(g);
    expect(qs.length).toBeGreaterThanOrEqual(100);
    const { byKind, misses } = accuracy(qs, (q) => ids(call('geocode', { q: q.q, country: q.country, limit: 5 })));
    console.log('geocode accuracy', JSON.stringify(byKind));
    if (misses.length) console.log('misses', JSON.stringify(misses.slice(0, 5).map((m) => [m.q.kind, m.q.q, m.q.name])));
    expect(byKind.exact.top1).toBeGreaterThanOrEqual(0.95);
    expect(byKind.alternate.top5).toBeGreaterThanOrEqual(0.9);
    expect(byKind.typo1.top1).toBeGreaterThanOrEqual(0.85);
    expect(byKind.typo2.top5).toBeGreaterThanOrEqual(0.75);
    expect(byKind['exact+country'].top1).toBeGreaterThanOrEqual(0.95);
    expect(byKind['typo1+country'].top1).toBeGreaterThanOrEqual(0.85);
  });
});

describe('typo lookup: neighbour lists and the probing fallback', () => {
  it('stores for each dictionary word exactly what probing the deletion table finds', async () => {
    const { Fuzzy } = await import('../../src/core/text/fuzzy.ts');
    expect(g.nbStart).not.toBeNull();
    const fz = new Fuzzy(g, new Int32Array(g.tokens.length));
    for (let t = 0; t < g.tokens.length; t += 37) {
      const n = fz.near(g.tokens[t], true);
      expect(Array.from(g.nbTok!.subarray(g.nbStart![t], g.nbStart![t + 1])), g.tokens[t]).toEqual(Array.from(fz.tok.subarray(0, n)));
    }
  });
  it('stores the name records a v1 build would derive', async () => {
    const { buildNameRecords } = await import('../../src/core/text/records.ts');
    const d = buildNameRecords(g.nameFeat, g.nameTokStart, g.nameToks, g.ctxStart, g.ctxToks, (f) => g.importance[f]);
    expect(Array.from(g.recStart)).toEqual(Array.from(d.recStart));
    expect(Buffer.from(g.rec.buffer, g.rec.byteOffset, g.rec.byteLength).equals(Buffer.from(d.rec.buffer))).toBe(true);
  });
  it('answers the same without them (a v1 build), and survives odd words', async () => {
    const { TextSearch } = await import('../../workers/geo/text.ts');
    const v1 = new TextSearch(Object.assign(Object.create(Object.getPrototypeOf(g)), g, { nbStart: null, nbTok: null }));
    const v2 = new TextSearch(g);
    const cc = new Map(g.meta.countries.map((c: { code: string }, i: number) => [c.code, i]));
    for (const q of generateQueries(g, 5)) {
      const filter = { country: q.country ? (cc.get(q.country) as number) : -1, cats: null };
      expect(v2.search(q.q, filter, { limit: 5 }), q.q).toEqual(v1.search(q.q, filter, { limit: 5 }));
    }
    expect(call('geocode', { q: 'constructor hasOwnProperty' }).results).toBeInstanceOf(Array);
  });
});

describe('geocode, suggest and places in the worker', () => {
  it('answers SPEC §2 fields plus type, score and source, best first', () => {
    const r = call('geocode', { q: 'Nairobi' });
    expect(r.results[0]).toMatchObject({ id: 'svc:gn.184745', name: 'Nairobi', country_code: 'KE', type: 'city', source: 'geonames' });
    expect(typeof r.results[0].lat).toBe('number');
    expect(r.results[0].address).toMatch(/Kenya$/);
    expect(r.results.length).toBeLessThanOrEqual(5);
    const scores = r.results.map((x: any) => x.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });
  it('is word-order free, typo tolerant and reads abbreviations and address context', () => {
    expect(ids(call('geocode', { q: 'salaam dar es' }))[0]).toBe('svc:gn.160263');
    expect(ids(call('geocode', { q: 'Ouagadogou' }))[0]).toBe('svc:gn.2357048');
    expect(ids(call('geocode', { q: 'Ouagadugu' }))[0]).toBe('svc:gn.2357048');
    expect(call('geocode', { q: 'Ikeja, Lagos, Nigeria' }).results[0].name).toBe('Ikeja');
  });
  it('filters by country and ranks by distance to focus', () => {
    // Mbale is a town in Uganda (76,493) and one in Kenya (60,000).
    const all = call('geocode', { q: 'Mbale', limit: 20 }).results;
    const inKe = call('geocode', { q: 'Mbale', country: 'KE', limit: 20 }).results;
    // Non-empty, or `.every` would hold for nothing; and the unfiltered list has others the filter removed.
    expect(inKe.length).toBeGreaterThan(0);
    expect(inKe.every((x: any) => x.country_code === 'KE')).toBe(true);
    expect(all.some((x: any) => x.country_code !== 'KE')).toBe(true);
    // A name held by features in two countries: focus on the less important one brings it first.
    const second = all.find((x: any) => x.country_code !== all[0].country_code && x.name === all[0].name);
    expect(second).toBeDefined();
    expect(call('geocode', { q: 'Mbale', focus: [second.lat, second.lng] }).results[0].id).toBe(second.id);
    // …and focus on the first keeps it first: the order follows the focus, not the query.
    expect(call('geocode', { q: 'Mbale', focus: [all[0].lat, all[0].lng] }).results[0].id).toBe(all[0].id);
    expect(call('geocode', { q: 'Mbale', country: 'ZZ' }).results).toEqual([]);
  });
  it('returns an empty list, not an error, when nothing matches', () => {
    expect(call('geocode', { q: 'qqqxqqq zzzvzzz' })).toEqual({ results: [] });
  });
  it('suggests per keystroke: prefixes and a typo in a partial word', () => {
    expect(call('suggest', { q: 'nair' }).suggestions[0].id).toBe('svc:gn.184745');
    expect(call('suggest', { q: 'nairbo' }).suggestions[0].id).toBe('svc:gn.184745');
    expect(call('suggest', { q: 'kins', country: 'CD' }).suggestions[0].name).toBe('Kinshasa');
    expect(call('suggest', { q: 'dar es sal' }).suggestions[0].id).toBe('svc:gn.160263');
  });
  it('returns a place by id with sources and licences, 404 for an unknown id', () => {
    const r = call('place_by_id', { id: 'svc:gn.2332459' }).result;
    expect(r).toMatchObject({ id: 'svc:gn.2332459', name: 'Lagos', country_code: 'NG', admin1: 'Lagos' });
    expect(r.licences.map((l: any) => l.key)).toContain('geonames');
    expect(() => call('place_by_id', { id: 'svc:gn.0' })).toThrow(TaskError);
  });
  it('searches places by text within a category and radius', () => {
    const r = call('places_search', { q: 'hospital', category: 'hospital', lat: -1.2921, lng: 36.8219, radius: 5000, limit: 10 });
    expect(r.results.length).toBeGreaterThan(0);
    for (const x of r.results) { expect(x.type).toBe('hospital'); expect(x.distance_m).toBeLessThanOrEqual(5000); }
  });
});

describe('reverse, nearby and the layers', () => {
  it('reverse: nearest named street, locality, admin-1 and country, nearest first', () => {
    const rr = call('reverse', { lat: 5.5560, lng: -0.1969 }); // central Accra
    expect(rr.admin1_boundaries).toMatch(/Natural Earth/);
    const r = rr.results;
    expect(r.map((x: any) => x.type)).toEqual(['street', 'city', 'admin1', 'country']);
    expect(r[0].distance_m).toBeLessThanOrEqual(250);
    expect(r[1].name).toBe('Accra');
    expect(r[2]).toMatchObject({ name: 'Greater Accra', method: 'point_in_polygon', boundaries: 'natural_earth_2012' });
    // Feature addresses carry the polygon's admin-1 too.
    expect(r[0].address).toContain('Greater Accra');
    expect(r[3].country_code).toBe('GH');
    for (let k = 1; k < 2; k++) expect(r[k].distance_m).toBeGreaterThanOrEqual(0);
  });
  it('nearby: sorted by distance with distance_m, within the radius, by category', () => {
    const ph = g.layers.health[0] + Array.from({ length: 5000 }, (_, i) => i).find((i) => g.category(g.layers.health[0] + i) === 'pharmacy')!;
    const r = call('places_nearby', { lat: g.lat[ph], lng: g.lng[ph], category: 'pharmacy', radius: 3000, limit: 20 }).results;
    expect(r[0].id).toBe(`svc:${g.code(ph)}`);
    expect(r[0].distance_m).toBe(0);
    const d = r.map((x: any) => x.distance_m);
    expect([...d].sort((a, b) => a - b)).toEqual(d);
    expect(r.every((x: any) => x.type === 'pharmacy' && x.distance_m <= 3000)).toBe(true);
    expect(() => call('places_nearby', { lat: 0, lng: 0, category: 'spaceport' })).toThrow(/category/);
    expect(call('places_nearby', { lat: 0, lng: -20, radius: 1000 }).results).toEqual([]); // Atlantic
  });
  it('health (deduplicated), transit with routes, earthquakes with filters', () => {
    const h = call('health_nearby', { lat: -1.2921, lng: 36.8219, radius: 2000, limit: 50 }).results;
    expect(h.length).toBeGreaterThan(0);
    const t = call('transit_nearby', { lat: -1.2833, lng: 36.8167, radius: 500 }).results;
    expect(t[0].type).toBe('bus_stop');
    expect(t[0].routes.length).toBeGreaterThan(0);
    const all = call('earthquakes_nearby', { lat: -1.5, lng: 29.5, radius_km: 500, limit: 100 }).results;
    const big = call('earthquakes_nearby', { lat: -1.5, lng: 29.5, radius_km: 500, min_magnitude: 6, since: '1990-01-01', limit: 100 }).results;
    expect(all.length).toBeGreaterThan(big.length);
    expect(big.every((q: any) => q.magnitude >= 6 && q.time >= '1990')).toBe(true);
  });
  it('waterways: distance to the river line, inside a lake', () => {
    const nile = call('waterways_nearby', { lat: 15.6, lng: 32.5, radius: 20000 }).results;
    expect(nile[0].type).toBe('river');
    expect(nile[0].distance_m).toBeLessThan(5000);
    const lake = call('waterways_nearby', { lat: -1.0, lng: 33.0, radius: 5000 }).results; // Lake Victoria
    expect(lake[0]).toMatchObject({ type: 'lake', inside: true, distance_m: 0 });
  });
  it('boundaries: country by point-in-polygon, admin-1 labelled as derived, honest at sea', () => {
    const b = call('boundaries_at', { lat: -1.2921, lng: 36.8219 });
    expect(b.country.country_code).toBe('KE');
    expect(b.admin1).toMatchObject({ name: 'Nairobi', method: 'point_in_polygon', code: 'KEN-1196', type: 'admin1' });
    expect(b.note).toMatch(/Natural Earth 10m .*2012-2013.*Kenya as its 8 pre-2013 provinces/);
    // Natural Earth's Kenya is its 8 old provinces: Nakuru lies in Rift Valley, Kisumu in Nyanza, Mombasa in Coast.
    expect(call('boundaries_at', { lat: -0.3031, lng: 36.08 }).admin1.name).toBe('Rift Valley');
    expect(call('boundaries_at', { lat: -0.0917, lng: 34.768 }).admin1.name).toBe('Nyanza');
    expect(call('boundaries_at', { lat: -4.0435, lng: 39.6682 }).admin1.name).toBe('Coast');
    // Every unit is a feature: its id resolves, and geocode finds it by name.
    expect(call('place_by_id', { id: b.admin1.id }).result.layer).toBe('admin1');
    expect(call('geocode', { q: 'Rift Valley', country: 'KE' }).results[0]).toMatchObject({ type: 'admin1', name: 'Rift Valley' });
    expect(call('boundaries_at', { lat: 6.45, lng: 3.40 }).country.country_code).toBe('NG'); // Lagos Island, off the 1:50m coast
    expect(call('boundaries_at', { lat: 0, lng: -20 }).country).toBeNull();
  });
  it('sandbox answers only from the Lagos State box and says so', () => {
    expect(call('geocode', { q: 'Nairobi' }, test)).toEqual({ results: [], sandbox: true });
    const r = call('geocode', { q: 'Ikeja' }, test);
    expect(r.sandbox).toBe(true);
    expect(r.results[0].name).toBe('Ikeja');
    expect(call('places_nearby', { lat: -1.2921, lng: 36.8219, radius: 5000 }, test).results).toEqual([]);
  });
});

describe('geo endpoints over HTTP', () => {
  let s: TestServer;
  let key: string;
  let testKey: string;
  beforeAll(async () => {
    s = await startTestServer(db, { BUILT_DIR: built });
    key = await s.key({ plan: 'enterprise' });
    testKey = await s.key({ plan: 'enterprise', test: true });
  });
  afterAll(async () => { await s?.close(); });
  const get = async (p: string, k = key) => { const r = await s.get(p, k); return { status: r.status, body: (await r.json()) as any }; };

  it('declares the capabilities the loaded data supports', async () => {
    const c = (await get('/api/v1/capabilities', '')).body.capabilities;
    for (const cap of ['geocode', 'reverse', 'suggest', 'places_nearby', 'place_by_id', 'places_search', 'health_nearby', 'transit_nearby', 'earthquakes_nearby', 'waterways', 'boundaries_at']) {
      expect(c[cap], cap).toBe(true);
    }
    expect(c.markets).toBe(false);
    expect(c.businesses_search).toBe(false);
  });
  it('gives a new stop the country prefix of the polygon that holds its pin', async () => {
    const post = async (body: unknown) => (await (await s.post('/api/v1/stops', body, key)).json()) as any;
    expect((await post({ lat: -1.2864, lng: 36.8172 })).stop.delivery_code).toMatch(/^KE-/); // Nairobi
    expect((await post({ lat: 6.4541, lng: 3.3947 })).stop.delivery_code).toMatch(/^NG-/); // Lagos Island, on the generalised coast
    expect((await post({ lat: 48.85, lng: 2.35 })).stop.delivery_code).toMatch(/^ZZ-/); // Paris: no African country
    expect((await post({ lat: -1.2864, lng: 36.8172, country: 'TZ' })).stop.delivery_code).toMatch(/^TZ-/); // the caller's word wins
  });
  it('geocodes with q or address, components=country:CC, attribution', async () => {
    const a = await get('/api/v1/geocode?address=Mombasa&components=country:KE&limit=2');
    expect(a.status).toBe(200);
    expect(a.body.results[0].name).toBe('Mombasa');
    expect(a.body.results.length).toBeLessThanOrEqual(2);
    expect(a.body.attribution).toBeTruthy();
    expect((await get('/v1/geocode?q=Kigali')).body.results[0].country_code).toBe('RW');
  });
  it('400 names the parameter; unknown id 404; no match 200 with an empty list', async () => {
    const cases: [string, RegExp][] = [
      ['/api/v1/geocode', /'q'/], ['/api/v1/geocode?q=Accra&limit=0', /'limit'/], ['/api/v1/geocode?q=Accra&limit=21', /'limit'/],
      ['/api/v1/geocode?q=Accra&country=Kenya', /'country'/], ['/api/v1/reverse?lat=95&lng=3', /'lat'/], ['/api/v1/reverse?latlng=abc', /'latlng'/],
      ['/api/v1/places/nearby?lat=6.45&lng=3.4&category=spaceport', /'category'/], ['/api/v1/places/nearby?location=6.45,3.4&type=unicorn', /'type'/],
      ['/api/v1/places/nearby?lat=6.45&lng=3.4&radius=60000', /'radius'/], ['/api/v1/earthquakes/nearby?lat=0&lng=30&since=yesterday', /'since'/],
      ['/api/v1/search/suggest', /'q'/],
    ];
    for (const [p, re] of cases) {
      const r = await get(p);
      expect(r.status, p).toBe(400);
      expect(r.body.error.message, p).toMatch(re);
    }
    expect((await get('/api/v1/places/svc:gn.0')).status).toBe(404);
    const none = await get('/api/v1/geocode?q=qqqxqqq');
    expect(none.status).toBe(200);
    expect(none.body.results).toEqual([]);
  });
  it('serves every layer', async () => {
    expect((await get('/api/v1/reverse?latlng=5.556,-0.1969')).body.results[0].type).toBe('street');
    expect((await get('/api/v1/search/suggest?input=accr')).body.suggestions[0].name).toBe('Accra');
    expect((await get('/api/v1/places/nearby?location=-1.2921,36.8219&type=hospital&radius=3000')).body.results[0].type).toBe('hospital');
    expect((await get('/api/v1/places/search?q=Jomo%20Kenyatta&category=airport')).body.results[0].type).toBe('airport');
    expect((await get('/api/v1/places/svc:gn.2332459')).body.result.name).toBe('Lagos');
    expect((await get('/api/v1/health/nearby?lat=-1.2921&lng=36.8219&category=pharmacy&radius=3000')).status).toBe(200);
    expect((await get('/api/v1/transit/nearby?lat=5.55&lng=-0.2&radius=2000')).body.results[0].routes).toBeDefined();
    expect((await get('/api/v1/earthquakes/nearby?lat=-1.5&lng=29.5&radius_km=300&min_magnitude=5.5')).body.results.length).toBeGreaterThan(0);
    expect((await get('/api/v1/waterways/nearby?lat=15.6&lng=32.5&radius=20000')).body.results[0].type).toBe('river');
    expect((await get('/api/v1/boundaries/at?lat=-1.95&lng=30.06')).body.country.country_code).toBe('RW');
  });
  it('answers test keys from the Lagos sandbox', async () => {
    const r = await get('/api/v1/geocode?q=Nairobi', testKey);
    expect(r.body).toMatchObject({ results: [], sandbox: true });
    const l = await get('/api/v1/geocode?q=Lekki', testKey);
    expect(l.body.sandbox).toBe(true);
    for (const x of l.body.results) expect(x.lat).toBeGreaterThan(6.3);
  });
});
