// Addresses end to end on the real data: the parser with a small lexicon written here, then the
// gazetteer (admin-1 polygons included) and the Accra road extract built into a temp dir, the
// address tasks in-process, and the HTTP endpoints (parse, geocode fallback, verify,
// autocomplete, stops/{id}/dispatchable) on a real server.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGazetteer } from '../../graph-build/gazetteer/index.ts';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { loadDataset } from '../../src/data/catalog.ts';
import { geo, load } from '../../workers/geo/index.ts';
import { address } from '../../workers/geo/address/tasks.ts';
import { parseAddress, type Lexicon } from '../../workers/geo/address/parse.ts';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, REPO, SHARED_DATA, type TestServer } from '../helpers/server.ts';

/** A lexicon of a few places, so the rules are tested apart from the gazetteer. */
const LEX: Lexicon = {
  country: (k) => ({ kenya: 'KE', senegal: 'SN', nigeria: 'NG', 'مصر': 'EG', mozambique: 'MZ' } as Record<string, string>)[k] ?? null,
  countryName: (cc) => ({ KE: 'Kenya', SN: 'Senegal', NG: 'Nigeria', EG: 'Egypt', MZ: 'Mozambique' } as Record<string, string>)[cc] ?? null,
  admin1: (k, cc) => (k === 'lagos' && (!cc || cc === 'NG') ? { name: 'Lagos', country: 'NG', f: -1 } : null),
  locality: (k, cc) => {
    const m: Record<string, [string, string]> = { nairobi: ['Nairobi', 'KE'], dakar: ['Dakar', 'SN'], ikeja: ['Ikeja', 'NG'], lagos: ['Lagos', 'NG'], 'القاهرة': ['القاهرة', 'EG'], maputo: ['Maputo', 'MZ'], westlands: ['Westlands', 'KE'] };
    const r = m[k];
    return r && (!cc || cc === r[1]) ? { name: r[0], country: r[1], f: -1 } : null;
  },
  street: () => false,
};
const P = (q: string, cc?: string) => parseAddress(q, LEX, cc ?? null).components;

describe('address parser (rules, small lexicon)', () => {
  it('reads plots, relations to streets and landmarks, localities and countries', () => {
    expect(P('Plot 12, off Ngong Road, Nairobi')).toEqual({ plot: '12', relation: 'off', relation_to: 'street', street: 'Ngong Road', locality: 'Nairobi', country: 'KE' });
    expect(P('Plot 12 off Ngong Rd Nairobi Kenya')).toMatchObject({ plot: '12', relation: 'off', street: 'Ngong Rd', locality: 'Nairobi', country: 'KE' });
    expect(P('Shop 4, opposite the market, Moi Avenue, Nairobi')).toMatchObject({ unit: 'Shop 4', relation: 'opposite', relation_to: 'landmark', landmark: 'market', street: 'Moi Avenue' });
    expect(P('12 Kenyatta Avenue, Westlands, Nairobi')).toMatchObject({ house_number: '12', street: 'Kenyatta Avenue', sublocality: 'Westlands', locality: 'Nairobi' });
    expect(P('behind Total petrol station, Nairobi')).toMatchObject({ relation: 'behind', landmark: 'Total petrol station' });
  });
  it('reads PO boxes and country-aware postcodes', () => {
    expect(P('P.O. Box 123-00100, Nairobi')).toMatchObject({ po_box: '123', postcode: '00100', locality: 'Nairobi', country: 'KE' });
    expect(P('BP 1234 Dakar')).toMatchObject({ po_box: '1234', locality: 'Dakar', country: 'SN' });
    expect(P('Caixa Postal 567, Maputo')).toMatchObject({ po_box: '567', locality: 'Maputo' });
    expect(P('ص.ب ١٢٣، القاهرة')).toMatchObject({ po_box: '123', locality: 'القاهرة', country: 'EG' });
    expect(P('Nairobi 00100')).toMatchObject({ locality: 'Nairobi', postcode: '00100' });
    expect(P('12 Allen Avenue, Ikeja, Lagos 100271')).toMatchObject({ house_number: '12', street: 'Allen Avenue', locality: 'Ikeja', admin1: 'Lagos', postcode: '100271', country: 'NG' });
    // A 5-digit number is no Nigerian postcode.
    expect(P('Ikeja, Lagos 10027').postcode).toBeUndefined();
  });
  it("reads Dakar's grid, French, Portuguese and Arabic", () => {
    expect(P('Rue 10 x 11, Dakar')).toMatchObject({ street: 'Rue 10', cross_street: 'Rue 11', locality: 'Dakar' });
    expect(P('en face de la mairie, Quartier Plateau, Dakar')).toMatchObject({ relation: 'opposite', landmark: 'mairie', sublocality: 'Quartier Plateau' });
    expect(P('derrière la pharmacie, Dakar')).toMatchObject({ relation: 'behind', landmark: 'pharmacie' });
    expect(P('Rua da Missão 45, perto do mercado, Maputo')).toMatchObject({ street: 'Rua da Missão', house_number: '45', relation: 'near', landmark: 'mercado' });
    expect(P('شارع التحرير، بالقرب من المسجد، القاهرة')).toMatchObject({ street: 'شارع التحرير', relation: 'near', landmark: 'المسجد', locality: 'القاهرة', country: 'EG' });
    expect(P('Lekki Phase 1, Lagos State')).toMatchObject({ estate: 'Lekki Phase 1', admin1: 'Lagos' });
  });
  it('gives a normalised text and a confidence that falls with what it cannot place', () => {
    const a = parseAddress('Plot 12, off Ngong Rd, Nairobi', LEX);
    expect(a.normalized).toBe('Plot 12, off Ngong Road, Nairobi, Kenya');
    const b = parseAddress('zzz qqq, www', LEX);
    expect(b.confidence).toBeLessThan(a.confidence);
  });
});

describe('addresses on the real data', () => {
  let db: TestDb;
  let s: TestServer;
  let key: string;
  const G: any = geo.tasks, A: any = address.tasks;
  const live = { sandbox: false };
  beforeAll(async () => {
    db = freshPglite();
    const built = join(db.dataDir, 'built');
    const sources = JSON.parse(readFileSync(join(REPO, 'data/sources.json'), 'utf8'));
    await buildGazetteer({ sharedDataDir: SHARED_DATA, out: built, sources: sources.gazetteer, roads: sources.roads, progress: false });
    await buildRoadExtract({ input: join(SHARED_DATA, 'accra-trotro-route-streets-2017.osm.pbf'), name: 'accra', out: built, profiles: ['driving'] });
    load([loadDataset(join(built, 'gazetteer'))!]);
    s = await startTestServer(db);
    key = await s.key({ plan: 'enterprise' });
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });
  const get = async (p: string) => { const r = await s.get(p, key); return { status: r.status, body: await r.json() as any }; };
  const post = async (p: string, b: unknown) => { const r = await s.post(p, b, key); return { status: r.status, body: await r.json() as any }; };

  it('parses the held-out labelled set (350 addresses from the real data) with ≥95% per-component precision and recall', () => {
    const set = JSON.parse(readFileSync(join(REPO, 'test/fixtures/addresses/labelled-holdout.json'), 'utf8'));
    const key = (s: string) => s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[\u0660-\u0669]/g, (c) => String(c.charCodeAt(0) - 0x660)).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    let tp = 0, fp = 0, fn = 0;
    for (const it of set.addresses) {
      const got = A.address_parse({ q: it.text }, live).components;
      for (const k of new Set([...Object.keys(it.labels), ...Object.keys(got).filter((x) => x !== 'relation_to' && x !== 'unparsed')])) {
        const w = it.labels[k], v = typeof got[k] === 'string' ? got[k] : undefined;
        if (w !== undefined && v !== undefined && key(w) === key(v)) tp++;
        else { if (v !== undefined) fp++; if (w !== undefined) fn++; }
      }
    }
    expect(set.addresses.length).toBeGreaterThanOrEqual(300);
    expect(tp / (tp + fp)).toBeGreaterThanOrEqual(0.95);
    expect(tp / (tp + fn)).toBeGreaterThanOrEqual(0.95);
  });

  it('parse resolves places in the gazetteer', () => {
    const r = A.address_parse({ q: 'Rue 10 x 11, Médina, Dakar' }, live);
    expect(r.components).toMatchObject({ street: 'Rue 10', cross_street: 'Rue 11', locality: 'Dakar', country: 'SN' });
    expect(r.resolved.locality.name).toBe('Dakar');
    expect(A.address_parse({ q: 'House 5, Lekki Phase 1, Lagos State' }, live).components).toMatchObject({ house_number: '5', estate: 'Lekki Phase 1', admin1: 'Lagos', country: 'NG' });
  });

  it('geocode falls back to the most precise part it can match, and says so', () => {
    const a = G.geocode({ q: 'Plot 12, off Ngong Road, Nairobi', limit: 5 }, live);
    expect(a.results.length).toBe(1);
    expect(a.results[0]).toMatchObject({ name: 'Nairobi', country_code: 'KE', match_level: 'locality', partial_match: true });
    expect(a.parsed).toMatchObject({ plot: '12', street: 'Ngong Road', relation: 'off' });
    const b = G.geocode({ q: 'Shop 4, Ring Road Central, Accra' }, live);
    expect(b.results[0]).toMatchObject({ name: 'Ring Road Central', type: 'street', match_level: 'street', partial_match: true });
    const c = G.geocode({ q: 'شارع النصر، بالقرب من المسجد، الجزائر' }, live);
    expect(c.results[0]).toMatchObject({ type: 'street', match_level: 'street', country_code: 'DZ' });
    // A query matched whole keeps the plain answer.
    expect(G.geocode({ q: 'Nairobi' }, live).match_level).toBeUndefined();
    expect(G.geocode({ q: 'Nairobi' }, live).results[0].name).toBe('Nairobi');
    // The sandbox never falls back outside its box.
    expect(G.geocode({ q: 'Plot 12, off Ngong Road, Nairobi' }, { sandbox: true }).results).toEqual([]);
  });

  it('verify: confirmed, inferred and unknown components, issues with distances', () => {
    const v = A.address_verify({ address: 'Shop 4, Ring Road Central, Accra', lat: 5.5735, lng: -0.1925 }, live);
    expect(v.verdict.granularity).toBe('street');
    expect(v.components.street.status).toBe('confirmed');
    expect(v.components.locality.status).toBe('confirmed');
    expect(v.components.admin1).toMatchObject({ value: 'Greater Accra', status: 'inferred' });
    expect(v.components.unit.status).toBe('unknown');
    expect(v.issues).toEqual([]);
    expect(v.pin).toMatchObject({ measured_to: 'street_line', consistent: true });
    expect(v.pin.distance_m).toBeLessThan(300);
    const far = A.address_verify({ address: 'Plot 12, off Ngong Road, Nairobi', lat: -4.0435, lng: 39.6682 }, live); // a Mombasa pin
    const codes = far.issues.map((i: any) => i.code);
    expect(codes).toContain('unknown_street');
    expect(codes).toContain('pin_far_from_address');
    expect(far.issues.find((i: any) => i.code === 'pin_far_from_address').distance_m).toBeGreaterThan(400_000);
    expect(far.verdict.granularity).toBe('locality');
    const sea = A.address_verify({ components: { street: 'Ngong Road' }, lat: 0, lng: -20 }, live);
    expect(sea.issues.map((i: any) => i.code)).toEqual(expect.arrayContaining(['missing_locality', 'outside_coverage']));
  });

  it('autocomplete keeps the typed premise and relation and suggests streets with their locality', () => {
    const r = A.address_autocomplete({ q: 'Plot 12, off Ring Road Ce', limit: 5 }, live);
    expect(r.suggestions.length).toBeGreaterThan(0);
    expect(r.suggestions[0]).toMatchObject({ kind: 'street', name: 'Ring Road Central' });
    expect(r.suggestions[0].description).toMatch(/^Plot 12, off Ring Road Central, .*Ghana$/);
    expect(r.suggestions[0].components).toMatchObject({ relation: 'off', street: 'Ring Road Central', country: 'GH' });
    const l = A.address_autocomplete({ q: 'Nairo' }, live);
    expect(l.suggestions[0]).toMatchObject({ kind: 'locality', name: 'Nairobi' });
  });

  it('HTTP: parse, verify with a dispatchable block, autocomplete; 400s name the parameter', async () => {
    const p = await get('/api/v1/address/parse?q=BP%201234%20Dakar');
    expect(p.status).toBe(200);
    expect(p.body.components).toMatchObject({ po_box: '1234', locality: 'Dakar', country: 'SN' });
    expect(p.body.attribution).toBeTruthy();
    const g = await get('/api/v1/geocode?q=Plot%2012%2C%20off%20Ngong%20Road%2C%20Nairobi');
    expect(g.body.results[0]).toMatchObject({ name: 'Nairobi', partial_match: true, match_level: 'locality' });
    const v = await post('/api/v1/address/verify', { address: 'Ring Road Central, Accra', lat: 5.5735, lng: -0.1925 });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expect(v.body.dispatchable).toMatchObject({ dispatchable: true, reasons: [], checks: { inside_coverage: true, reachable: true, extract: 'accra' } });
    const off = await post('/api/v1/address/verify', { address: 'Nairobi', lat: -1.2921, lng: 36.8219 });
    expect(off.body.dispatchable.dispatchable).toBe(false);
    expect(off.body.dispatchable.reasons[0].code).toBe('outside_coverage');
    const ac = await get('/api/v1/address/autocomplete?q=near%20Korle&country=GH&sessiontoken=abc');
    expect(ac.status).toBe(200);
    expect(ac.body.sessiontoken).toBe('abc');
    expect(ac.body.suggestions.every((x: any) => x.components.country === 'GH')).toBe(true);
    expect((await get('/api/v1/address/parse')).body.error.message).toMatch(/'q'/);
    expect((await post('/api/v1/address/verify', { country: 'KE' })).status).toBe(400);
    expect((await post('/api/v1/address/verify', { address: 'x', lat: 5 })).body.error.message).toMatch(/lng/);
    expect((await get('/api/v1/address/autocomplete?q=a&limit=11')).body.error.message).toMatch(/'limit'/);
  });

  it('stops/{id}/dispatchable: pin confirmation, roads, coverage; 404 when unknown', async () => {
    const st = (await post('/api/v1/stops', { lat: 5.5735, lng: -0.1925, address: 'Ring Road Central, Accra' })).body.stop;
    const a = await get(`/api/v1/stops/${st.id}/dispatchable`);
    expect(a.status).toBe(200);
    expect(a.body.dispatchable.dispatchable).toBe(false);
    expect(a.body.dispatchable.reasons.map((r: any) => r.code)).toEqual(['pin_not_confirmed']);
    await post('/api/v1/stops/confirm', { stop_id: st.id, lat: 5.5736, lng: -0.1924 });
    const b = await get(`/api/v1/stops/${st.id}/dispatchable`);
    expect(b.body.dispatchable).toMatchObject({ dispatchable: true, checks: { pin_confirmed: true, reachable: true } });
    expect(b.body.dispatchable.checks.nearest_road.distance_m).toBeLessThanOrEqual(200);
    // Inside the Accra extract's box, but over 1 km from any road it holds (the sea off Accra).
    const sea = (await post('/api/v1/stops', { lat: 5.526, lng: -0.20 })).body.stop;
    await post('/api/v1/stops/confirm', { stop_id: sea.id, lat: 5.526, lng: -0.20 });
    const c = await get(`/api/v1/stops/${sea.id}/dispatchable`);
    expect(c.body.dispatchable.reasons.map((r: any) => r.code)).toEqual(['no_road_nearby']);
    expect((await get('/api/v1/stops/stp_nope/dispatchable')).status).toBe(404);
    // Nairobi: no road extract of this build covers it.
    const ke = (await post('/api/v1/stops', { lat: -1.2921, lng: 36.8219 })).body.stop;
    await post('/api/v1/stops/confirm', { stop_id: ke.id, lat: -1.2921, lng: 36.8219 });
    expect((await get(`/api/v1/stops/${ke.id}/dispatchable`)).body.dispatchable.reasons.map((r: any) => r.code)).toEqual(['outside_coverage']);
  });

  it('capabilities: parse_freeform, address_verify, address_autocomplete and dispatchable are on', async () => {
    const c = (await get('/api/v1/capabilities')).body;
    for (const k of ['parse_freeform', 'address_verify', 'address_autocomplete', 'dispatchable', 'boundaries_at']) expect(c.capabilities[k], k).toBe(true);
    // No full-tag OSM extract is built here: the places capabilities are off and say how to get them.
    for (const k of ['businesses_search', 'markets', 'protected_areas']) {
      expect(c.capabilities[k], k).toBe(false);
      expect(c.notes[k]).toMatch(/graph-build -- pois --input/);
    }
    expect((await get('/api/v1/businesses/search?q=bank')).status).toBe(503);
  });
});
