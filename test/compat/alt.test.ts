// The alt-platform compat layer, checked with the platform's own Node client
// (@googlemaps/google-maps-services-js) pointed at our server through each call's `url`, on the
// real data: gazetteer (Nairobi, Accra, Algiers, Sikonge) and the Sikonge, Algiers and Accra road
// extracts. Every answer is validated against the route's declared response schema.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Client, Status } from '@googlemaps/google-maps-services-js';
import { buildGazetteer } from '../../graph-build/gazetteer/index.ts';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, REPO, SHARED_DATA, type TestServer } from '../helpers/server.ts';
import { routes as compatRoutes } from '../../src/api/compat/alt/index.ts';
import { ajv } from '../../src/http/operation.ts';
import { haversine } from '../../src/core/geometry.ts';
import { decode } from '../../src/api/compat/alt/polyline.ts';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { buildTestTiles } from '../maps/fixture.ts';

const client = new Client({});
let db: TestDb;
let s: TestServer;
let key: string;
let base: string;

/** The URL of one compat endpoint on our server. */
const url = (name: string) => `${base}/api/v1/compat/alt/${name}`;

const validators = new Map<string, ReturnType<typeof ajv.compile>>();
/** Validates an answer against the declared 2xx schema of its route. */
function conforms(name: string, body: unknown) {
  let v = validators.get(name);
  if (!v) {
    const r = compatRoutes.find((x) => x.path === `/compat/alt/${name}`)!;
    validators.set(name, (v = ajv.compile(r.decl!.responses[200].schema!)));
  }
  const okay = v(body);
  expect(okay, JSON.stringify(v.errors)).toBe(true);
}

/** The client rejects non-OK answers: the response it carries. */
async function failure(p: Promise<unknown>): Promise<{ status: number; data: any; headers: any }> {
  try {
    await p;
  } catch (e: any) {
    if (e?.response) return { status: e.response.status, data: e.response.data, headers: e.response.headers };
    throw e;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  db = freshPglite();
  const built = join(db.dataDir, 'built');
  const sources = JSON.parse(readFileSync(join(REPO, 'data/sources.json'), 'utf8'));
  await buildGazetteer({ sharedDataDir: SHARED_DATA, out: built, sources: sources.gazetteer, roads: sources.roads, progress: false });
  for (const [name, file] of [
    ['tanzania-sw', 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf'],
    ['algiers-east', 'algiers-east-streets-osmnx-2025.osm.pbf'],
    ['accra', 'accra-trotro-route-streets-2017.osm.pbf'],
  ]) await buildRoadExtract({ input: join(SHARED_DATA, file), name, out: built });
  await buildTestTiles(built);
  // Admission control off (POOL_MAX_WAIT_MS=0): on the shared machine the pool's wait estimate can
  // exceed its budget and answer 503; these tests check answers, not admission.
  s = await startTestServer(db, { SKIP_BUILD: '1', POOL_MAX_WAIT_MS: '0' });
  base = s.url;
  key = await s.key({ plan: 'enterprise' });
}, 600_000); // builds the gazetteer, three road extracts and the tiles on a shared 2-core machine
afterAll(async () => {
  await s?.close();
  await db?.drop();
});

describe('geocode with the official client', () => {
  it('geocodes Nairobi with a country component', async () => {
    const r = await client.geocode({ params: { address: 'Nairobi', components: { country: 'KE' }, key }, url: url('geocode') });
    expect(r.status).toBe(200);
    expect(r.data.status).toBe(Status.OK);
    conforms('geocode', r.data);
    const top = r.data.results[0];
    expect(top.place_id).toBe('svc:gn.184745');
    expect(haversine(top.geometry.location.lat, top.geometry.location.lng, -1.2864, 36.8172)).toBeLessThan(5000);
    expect(top.types).toContain('locality');
    expect(top.address_components.find((c) => c.types.includes('country' as any))?.short_name).toBe('KE');
    expect(top.address_components.find((c) => c.types.includes('administrative_area_level_1' as any))?.long_name).toBe('Nairobi'); // Natural Earth's province
    const vp = top.geometry.viewport;
    expect(vp.northeast.lat).toBeGreaterThan(top.geometry.location.lat);
    expect(vp.southwest.lng).toBeLessThan(top.geometry.location.lng);
    for (const x of r.data.results) expect(x.address_components.at(-1)?.short_name).toBe('KE');
  });

  it('filters by locality and marks partial matches', async () => {
    const r = await client.geocode({ params: { address: 'Nairobi Hospital', components: { locality: 'Nairobi' }, key }, url: url('geocode') });
    conforms('geocode', r.data);
    expect(r.data.results.length).toBeGreaterThan(0);
    for (const x of r.data.results) expect(x.formatted_address).toMatch(/Nairobi/);
    const p = await client.geocode({ params: { address: 'Sikonge Zzyzzyq', key }, url: url('geocode') });
    expect(p.data.status).toBe(Status.OK);
    expect(p.data.results[0].place_id).toBe('svc:gn.149929');
    expect(p.data.results[0].partial_match).toBe(true);
  });

  it('accepts place_id back and answers the same place', async () => {
    const r = await client.geocode({ params: { place_id: 'svc:gn.2306104', key } as any, url: url('geocode') });
    expect(r.data.results).toHaveLength(1);
    expect(r.data.results[0].formatted_address).toMatch(/^Accra, Greater Accra, Ghana$/);
  });

  it('reverse geocodes a street in Algiers, nearest first', async () => {
    const r = await client.reverseGeocode({ params: { latlng: { lat: 36.7213, lng: 3.1812 }, key }, url: url('geocode') });
    expect(r.data.status).toBe(Status.OK);
    conforms('geocode', r.data);
    const [street, ...rest] = r.data.results;
    expect(street.types).toEqual(['route']);
    expect(street.formatted_address).toMatch(/, Alger, Algeria$/);
    expect(street.address_components.map((c) => c.types[0])).toEqual(['route', 'locality', 'administrative_area_level_1', 'country']);
    expect(rest.at(-1)?.types).toContain('country');
    const only = await client.reverseGeocode({ params: { latlng: '36.7213,3.1812', result_type: ['country' as any], key }, url: url('geocode') });
    expect(only.data.results.map((x) => x.place_id)).toEqual(['svc:ne0.dza']);
  });

  it('answers ZERO_RESULTS for nowhere and fails like the platform on bad input', async () => {
    const z = await client.geocode({ params: { address: 'Qqxyzzy Wbvvkq', key }, url: url('geocode') });
    expect(z.status).toBe(200);
    expect(z.data.status).toBe(Status.ZERO_RESULTS);
    expect(z.data.results).toEqual([]);
    const e = await failure(client.geocode({ params: { key } as any, url: url('geocode') }));
    expect(e.status).toBe(400);
    expect(e.data.status).toBe('INVALID_REQUEST');
    expect(e.data.error_message).toMatch(/address/);
    expect(e.data.results).toEqual([]);
    const ll = await failure(client.reverseGeocode({ params: { latlng: '95,10', key }, url: url('geocode') }));
    expect(ll.data.status).toBe('INVALID_REQUEST');
    expect(ll.data.error_message).toMatch(/latlng/);
    const nf = await failure(client.geocode({ params: { place_id: 'svc:gn.1', key } as any, url: url('geocode') }));
    expect(nf.status).toBe(404);
    expect(nf.data.status).toBe('NOT_FOUND');
    const comp = await failure(client.geocode({ params: { components: 'planet:mars', key } as any, url: url('geocode') }));
    expect(comp.data.status).toBe('INVALID_REQUEST');
  });
});

describe('keys and auth failures in the platform shape', () => {
  it('takes the key as ?key= and as a Bearer header', async () => {
    const h = await s.get('/v1/compat/alt/geocode?address=Accra', key);
    expect(((await h.json()) as any).status).toBe('OK');
    // The platform's own path below /compat/alt: only the base URL changes.
    const p = await client.geocode({ params: { address: 'Accra', key }, url: `${base}/api/v1/compat/alt/maps/api/geocode/json` });
    expect(p.data.results[0].place_id).toBe('svc:gn.2306104');
  });

  it('never writes a key given in the URL to the request log', async () => {
    const db2 = freshPglite();
    const s2 = await startTestServer(db2, { SKIP_BUILD: '1', LOG_REQUESTS: '1' });
    const written: string[] = [];
    const write = process.stdout.write;
    (process.stdout as any).write = (chunk: any, ...rest: any[]) => { written.push(String(chunk)); return (write as any).call(process.stdout, chunk, ...rest); };
    try {
      const k = await s2.key({});
      await fetch(`${s2.url}/api/v1/compat/alt/geocode?address=Accra&key=${k}`);
      await fetch(`${s2.url}/api/v1/compat/alt/geocode?address=Accra&key=svc_live_notakey123`);
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      (process.stdout as any).write = write;
      await s2.close();
      await db2.drop();
    }
    const log = written.join('');
    expect(log).toContain('/api/v1/compat/alt/geocode');
    expect(log).not.toContain('svc_live_');
    expect(log).not.toContain('key=');
  });

  it('401 REQUEST_DENIED without a key or with an unknown one', async () => {
    for (const k of [undefined, 'svc_live_nope']) {
      const e = await failure(client.geocode({ params: { address: 'Accra', key: k } as any, url: url('geocode') }));
      expect(e.status).toBe(401);
      expect(e.data.status).toBe('REQUEST_DENIED');
      expect(e.data.results).toEqual([]);
      expect(e.data.error_message).toBeTruthy();
    }
  });

  it('403 REQUEST_DENIED for a key without the scope', async () => {
    const geoOnly = await s.key({ scopes: ['geo'] });
    const e = await failure(client.directions({ params: { origin: '-5.6333,32.7667', destination: '-5.80,32.90', key: geoOnly }, url: url('directions') }));
    expect(e.status).toBe(403);
    expect(e.data.status).toBe('REQUEST_DENIED');
    expect(e.data.routes).toEqual([]);
    expect((await client.geocode({ params: { address: 'Accra', key: geoOnly }, url: url('geocode') })).data.status).toBe('OK');
  });

  it('429 OVER_QUERY_LIMIT with Retry-After once the plan quota is spent', async () => {
    const k = await s.key({ plan: 'free' });
    expect((await client.geocode({ params: { address: 'Accra', key: k }, url: url('geocode') })).data.status).toBe('OK');
    const usage: any = await (await s.get('/api/v1/usage', k)).json();
    await s.app.ctx.quota.flush();
    await s.app.ctx.store.query('UPDATE key_usage SET count = 1000 WHERE key_id = $1', [usage.usage.key_id]);
    (s.app.ctx.quota as any).counters.delete(usage.usage.key_id);
    const e = await failure(client.geocode({ params: { address: 'Accra', key: k }, url: url('geocode'), retry: false } as any));
    expect(e.status).toBe(429);
    expect(e.data.status).toBe('OVER_QUERY_LIMIT');
    expect(Number(e.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('places with the official client', () => {
  it('pages through nearby places in Nairobi with real page tokens', async () => {
    const loc = { lat: -1.2864, lng: 36.8172 };
    const p1 = await client.placesNearby({ params: { location: loc, radius: 3000, key }, url: url('nearbysearch') });
    expect(p1.data.status).toBe(Status.OK);
    conforms('nearbysearch', p1.data);
    expect(p1.data.results).toHaveLength(20);
    expect(p1.data.next_page_token).toBeTruthy();
    const p2 = await client.placesNearby({ params: { pagetoken: p1.data.next_page_token, key } as any, url: url('nearbysearch') });
    expect(p2.data.status).toBe(Status.OK);
    conforms('nearbysearch', p2.data);
    expect(p2.data.results.length).toBeGreaterThan(0);
    const ids1 = new Set(p1.data.results.map((x) => x.place_id));
    for (const x of p2.data.results) expect(ids1.has(x.place_id)).toBe(false);
    // One ordering across pages: nearest first, within the radius.
    const d = [...p1.data.results, ...p2.data.results].map((x) => haversine(loc.lat, loc.lng, x.geometry!.location.lat, x.geometry!.location.lng));
    for (let i = 1; i < d.length; i++) expect(d[i]).toBeGreaterThanOrEqual(d[i - 1] - 1);
    expect(Math.max(...d)).toBeLessThanOrEqual(3000);
    // A token is bound to its key and cannot be forged.
    const other = await s.key({});
    const stolen = await failure(client.placesNearby({ params: { pagetoken: p1.data.next_page_token, key: other } as any, url: url('nearbysearch') }));
    expect(stolen.data.status).toBe('INVALID_REQUEST');
    const forged = p1.data.next_page_token!.replace(/^./, (c) => (c === 'e' ? 'f' : 'e'));
    expect((await failure(client.placesNearby({ params: { pagetoken: forged, key } as any, url: url('nearbysearch') }))).data.status).toBe('INVALID_REQUEST');
  });

  it('filters by the platform types and keywords, and validates like the platform', async () => {
    const r = await client.placesNearby({ params: { location: '-1.2864,36.8172', radius: 5000, type: 'hospital', key }, url: url('nearbysearch') });
    expect(r.data.status).toBe('OK');
    for (const x of r.data.results) expect(x.types).toContain('hospital');
    const kw = await client.placesNearby({ params: { location: '5.556,-0.1969', rankby: 'distance' as any, keyword: 'Children', key }, url: url('nearbysearch') });
    expect(kw.data.status).toBe('OK');
    for (const x of kw.data.results) expect(x.name).toMatch(/children/i);
    const none = await client.placesNearby({ params: { location: '5.556,-0.1969', radius: 1000, type: 'casino', key }, url: url('nearbysearch') });
    expect(none.data.status).toBe('ZERO_RESULTS');
    const big = await failure(client.placesNearby({ params: { location: '5.556,-0.1969', radius: 50001, key }, url: url('nearbysearch') }));
    expect(big.data.status).toBe('INVALID_REQUEST');
    expect(big.data.error_message).toMatch(/radius/);
    const both = await failure(client.placesNearby({ params: { location: '5.556,-0.1969', radius: 100, rankby: 'distance' as any, type: 'hospital', key }, url: url('nearbysearch') }));
    expect(both.data.status).toBe('INVALID_REQUEST');
  });

  it('autocompletes Accra while typing, with matched substrings and terms', async () => {
    const r = await client.placeAutocomplete({ params: { input: 'Accr', components: ['country:gh'], origin: '5.6037,-0.1870', key } as any, url: url('autocomplete') });
    expect(r.data.status).toBe('OK');
    conforms('autocomplete', r.data);
    const p = r.data.predictions[0];
    expect(p.place_id).toBe('svc:gn.2306104');
    expect(p.structured_formatting.main_text).toBe('Accra');
    expect(p.matched_substrings[0]).toEqual({ offset: 0, length: 4 });
    expect(p.terms.map((t) => t.value)).toEqual(['Accra', 'Greater Accra', 'Ghana']);
    expect((p as any).distance_meters).toBeGreaterThan(1000);
    for (const x of r.data.predictions) expect(x.description).toMatch(/Ghana$/);
    const cities = await client.placeAutocomplete({ params: { input: 'Sikon', types: '(cities)' as any, key }, url: url('autocomplete') });
    expect(cities.data.predictions[0].place_id).toBe('svc:gn.149929');
    for (const x of cities.data.predictions) expect(x.types).toContain('locality');
    const e = await failure(client.placeAutocomplete({ params: { key } as any, url: url('autocomplete') }));
    expect(e.data.status).toBe('INVALID_REQUEST');
    expect(e.data.predictions).toEqual([]);
  });

  it('gives place details for an id from autocomplete, NOT_FOUND for an unknown one', async () => {
    const r = await client.placeDetails({ params: { place_id: 'svc:gn.2507480', key }, url: url('placedetails') });
    expect(r.data.status).toBe('OK');
    conforms('placedetails', r.data);
    expect(r.data.result.name).toBe('Algiers');
    expect(r.data.result.address_components?.at(-1)?.short_name).toBe('DZ');
    const f = await client.placeDetails({ params: { place_id: 'svc:gn.2507480', fields: ['name', 'geometry'], key }, url: url('placedetails') });
    expect(Object.keys(f.data.result).sort()).toEqual(['geometry', 'name']);
    const e = await failure(client.placeDetails({ params: { place_id: 'svc:gn.999999999', key }, url: url('placedetails') }));
    expect(e.status).toBe(404);
    expect(e.data.status).toBe('NOT_FOUND');
  });
});

describe('directions with the official client', () => {
  it('drives from Sikonge town to a village, with legs, polyline and bounds', async () => {
    const r = await client.directions({ params: { origin: 'place_id:svc:gn.149929', destination: { lat: -5.8, lng: 32.9 }, key }, url: url('directions') });
    expect(r.data.status).toBe('OK');
    conforms('directions', r.data);
    const route = r.data.routes[0];
    expect(route.legs).toHaveLength(1);
    const leg = route.legs[0];
    expect(leg.distance.value).toBeGreaterThan(15000);
    expect(leg.distance.text).toMatch(/^\d+(\.\d)? km$/);
    expect(leg.duration.value).toBeGreaterThan(leg.distance.value / 40);
    expect(leg.start_address).toBe('Sikonge, Tabora, Tanzania');
    const pts = decode(route.overview_polyline.points);
    expect(pts.length).toBeGreaterThan(10);
    expect(haversine(pts[0][0], pts[0][1], leg.start_location.lat, leg.start_location.lng)).toBeLessThan(5);
    expect(haversine(pts.at(-1)![0], pts.at(-1)![1], -5.8, 32.9)).toBeLessThan(5000);
    for (const [lat, lng] of pts) {
      expect(lat).toBeLessThanOrEqual(route.bounds.northeast.lat + 1e-5);
      expect(lng).toBeGreaterThanOrEqual(route.bounds.southwest.lng - 1e-5);
    }
    expect(r.data.geocoded_waypoints[0].place_id).toBe('svc:gn.149929');
    // Steps: instructions, maneuvers and polylines that add up to the leg and join end to start.
    expect(leg.steps.length).toBeGreaterThan(1);
    expect(leg.steps[0].html_instructions).toMatch(/^Head /);
    expect(leg.steps.slice(1).some((st) => /^turn-|^straight$|^roundabout-|^fork-|^keep-|^ramp-/.test((st as any).maneuver ?? ''))).toBe(true);
    const sum = leg.steps.reduce((a, st) => a + st.distance.value, 0);
    expect(Math.abs(sum - leg.distance.value)).toBeLessThan(leg.steps.length + 1);
    for (let i = 1; i < leg.steps.length; i++) {
      const a = leg.steps[i - 1].end_location, b = leg.steps[i].start_location;
      expect(haversine(a.lat, a.lng, b.lat, b.lng)).toBeLessThan(1);
    }
    for (const st of leg.steps) {
      expect(st.travel_mode).toBe('DRIVING');
      expect(decode(st.polyline.points).length).toBeGreaterThan(1);
    }
    expect(route.summary).toBeTruthy();
  });

  it('gives alternatives when asked, and instructions in French', async () => {
    const r = await client.directions({ params: { origin: '5.55,-0.205', destination: '5.556,-0.18', alternatives: true, language: 'fr' as any, key }, url: url('directions') });
    expect(r.data.status).toBe('OK');
    conforms('directions', r.data);
    expect(r.data.routes.length).toBeGreaterThan(1);
    const [best, alt] = r.data.routes;
    expect(alt.overview_polyline.points).not.toBe(best.overview_polyline.points);
    expect(alt.legs[0].duration.value).toBeGreaterThanOrEqual(best.legs[0].duration.value);
    expect(best.legs[0].steps[0].html_instructions).toMatch(/^Se diriger/);
    const one = await client.directions({ params: { origin: '5.55,-0.205', destination: '5.556,-0.18', key }, url: url('directions') });
    expect(one.data.routes).toHaveLength(1);
    expect(one.data.routes[0].overview_polyline.points).toBe(best.overview_polyline.points);
  });

  it('routes through waypoints in Algiers: stopovers make legs, via points do not', async () => {
    const o = '36.7213,3.1812', d = '36.7300,3.2000', w = '36.7200,3.1900';
    const stop = await client.directions({ params: { origin: o, destination: d, waypoints: [w], mode: 'walking' as any, units: 'imperial' as any, key }, url: url('directions') });
    expect(stop.data.status).toBe('OK');
    conforms('directions', stop.data);
    const legs = stop.data.routes[0].legs;
    expect(legs).toHaveLength(2);
    expect(legs[0].distance.text).toMatch(/ (mi|ft)$/);
    expect(stop.data.routes[0].warnings.join(' ')).toMatch(/Walking/);
    const via = await client.directions({ params: { origin: o, destination: d, waypoints: [`via:${w}`], mode: 'walking' as any, key }, url: url('directions') });
    const vlegs = via.data.routes[0].legs;
    expect(vlegs).toHaveLength(1);
    expect((vlegs[0] as any).via_waypoint).toHaveLength(1);
    expect(vlegs[0].distance.value).toBe(legs[0].distance.value + legs[1].distance.value);
    expect(via.data.routes[0].overview_polyline.points).toBe(stop.data.routes[0].overview_polyline.points);
  });

  it('reorders stopovers with optimize:true (waypoint_order) and drives less than the given order', async () => {
    const params = { origin: '-5.6333,32.7667', destination: '-5.80,32.90', waypoints: ['-5.78,32.89', '-5.66,32.80'], key };
    const why = (e: any) => { throw new Error(`${e?.response?.status} ${JSON.stringify(e?.response?.data ?? String(e)).slice(0, 400)}`); };
    const given = await client.directions({ params, url: url('directions') }).catch(why);
    const best = await client.directions({ params: { ...params, optimize: true }, url: url('directions') }).catch(why);
    expect(best.data.status).toBe('OK');
    conforms('directions', best.data);
    const total = (r: typeof given) => r.data.routes[0].legs.reduce((a, l) => a + l.distance.value, 0);
    expect(given.data.routes[0].waypoint_order).toEqual([0, 1]);
    expect(best.data.routes[0].waypoint_order).toEqual([1, 0]);
    expect(best.data.routes[0].legs).toHaveLength(3);
    expect(total(best)).toBeLessThan(total(given));
    // the first stop of the optimised trip is the waypoint near the origin
    const first = best.data.routes[0].legs[0].end_location;
    expect(haversine(first.lat, first.lng, -5.66, 32.8)).toBeLessThan(5000);
    expect(best.data.geocoded_waypoints).toHaveLength(4);
  });

  it('answers ZERO_RESULTS for transit and for places no extract joins; NOT_FOUND for an unknown address', async () => {
    const t = await client.directions({ params: { origin: 'Accra', destination: 'Tema', mode: 'transit' as any, key }, url: url('directions') });
    expect(t.data.status).toBe('ZERO_RESULTS');
    expect(t.data.routes).toEqual([]);
    expect((t.data as any).error_message).toMatch(/[Tt]ransit/);
    const far = await client.directions({ params: { origin: 'Accra', destination: 'Sikonge', key }, url: url('directions') });
    expect(far.data.status).toBe('ZERO_RESULTS');
    const nf = await failure(client.directions({ params: { origin: 'Accra', destination: 'Qqxyzzy Wbvvkq', key }, url: url('directions') }));
    expect(nf.status).toBe(404);
    expect(nf.data.status).toBe('NOT_FOUND');
    expect(nf.data.geocoded_waypoints.map((g: any) => g.geocoder_status)).toEqual(['OK', 'ZERO_RESULTS']);
    const bad = await failure(client.directions({ params: { origin: 'Accra', key } as any, url: url('directions') }));
    expect(bad.data.status).toBe('INVALID_REQUEST');
    expect(bad.data.error_message).toMatch(/destination/);
  });
});

describe('distance matrix with the official client', () => {
  it('answers origins × destinations in Accra with element statuses', async () => {
    const r = await client.distancematrix({
      params: { origins: ['5.5560,-0.1969', 'place_id:svc:gn.2306104'], destinations: ['5.6037,-0.1870', '5.5800,-0.2200', 'Sikonge'], key },
      url: url('distancematrix'),
    });
    expect(r.data.status).toBe('OK');
    conforms('distancematrix', r.data);
    expect(r.data.rows).toHaveLength(2);
    expect(r.data.origin_addresses[1]).toBe('Accra, Greater Accra, Ghana');
    for (const row of r.data.rows) {
      expect(row.elements).toHaveLength(3);
      expect(row.elements[0].status).toBe('OK');
      expect(row.elements[0].distance.value).toBeGreaterThan(haversine(5.556, -0.1969, 5.6037, -0.187) * 0.9);
      expect(row.elements[2].status).toBe('ZERO_RESULTS'); // Sikonge: another extract
    }
    const e = await failure(client.distancematrix({ params: { origins: Array(26).fill('5.55,-0.19'), destinations: ['5.56,-0.2'], key }, url: url('distancematrix') }));
    expect(e.data.status).toBe('INVALID_REQUEST');
  });
});

describe('static maps with the platform grammar', () => {
  const get = (q: string) => fetch(`${url('staticmap')}?${q}&key=${key}`);
  async function pixels(r: Response) {
    expect(r.status, r.status === 200 ? '' : await r.clone().text()).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    const img = await loadImage(Buffer.from(await r.arrayBuffer()));
    const c = createCanvas(img.width, img.height);
    c.getContext('2d').drawImage(img, 0, 0);
    return { w: img.width, h: img.height, data: c.getContext('2d').getImageData(0, 0, img.width, img.height).data };
  }
  /** Strongly red pixels in a box just above the image centre (where a pin at the centre is drawn). */
  function redAboveCentre(p: { w: number; h: number; data: Uint8ClampedArray }) {
    let n = 0;
    for (let y = Math.floor(p.h / 2) - 40; y < p.h / 2; y++) for (let x = Math.floor(p.w / 2) - 15; x < p.w / 2 + 15; x++) {
      const i = (y * p.w + x) * 4;
      if (p.data[i] > 180 && p.data[i + 1] < 90 && p.data[i + 2] < 90) n++;
    }
    return n;
  }

  it('renders a PNG centred on an address with a red marker, the same as by coordinates', async () => {
    const byName = await get('center=Sikonge&zoom=12&size=400x300&markers=color:red|label:S|-5.63333,32.76667');
    const bytes = Buffer.from(await byName.clone().arrayBuffer());
    const p = await pixels(byName);
    expect([p.w, p.h]).toEqual([400, 300]);
    expect(redAboveCentre(p)).toBeGreaterThan(30);
    const byCoords = Buffer.from(await (await get('center=-5.63333,32.76667&zoom=12&size=400x300&markers=color:red|label:S|-5.63333,32.76667')).arrayBuffer());
    expect(byCoords.equals(bytes)).toBe(true);
    const plain = await pixels(await get('center=-5.63333,32.76667&zoom=12&size=400x300'));
    expect(redAboveCentre(plain)).toBeLessThan(5);
    const retina = await pixels(await get('center=Sikonge&zoom=12&size=400x300&scale=2'));
    expect([retina.w, retina.h]).toEqual([800, 600]);
  });

  it('fits markers given as addresses and an encoded path when there is no center', async () => {
    const path = 'enc:' + (await client.directions({ params: { origin: '-5.6333,32.7667', destination: '-5.80,32.90', key }, url: url('directions') })).data.routes[0].overview_polyline.points;
    const p = await pixels(await get(`size=300x300&markers=color:blue|Sikonge&path=color:0xff0000ff|weight:4|${encodeURIComponent(path)}`));
    expect([p.w, p.h]).toEqual([300, 300]);
  });

  it('fails like the platform on bad input, with the JSON envelope', async () => {
    for (const q of ['center=Sikonge&zoom=12&size=2000x300', 'center=Sikonge&zoom=12&size=400x300&maptype=satellite', 'size=400x300', 'center=Qqxyzzy%20Wbvvkq&zoom=3&size=100x100']) {
      const r = await get(q);
      expect(r.status, q).toBe(400);
      expect(((await r.json()) as any).status).toBe('INVALID_REQUEST');
    }
  });
});

describe('capability', () => {
  it('google_compat follows whether every endpoint works in this build', async () => {
    const doc: any = await (await s.get('/api/v1/capabilities')).json();
    const ops = ['geocode', 'reverse', 'suggest', 'places_nearby', 'places_search', 'place_by_id', 'route', 'route_matrix', 'route_optimize', 'staticmap'] as const;
    expect(doc.capabilities.google_compat).toBe(ops.every((o) => s.app.ctx.pool.has(o)));
    expect(doc.recipes.migrate_alt).toContain('compat/alt/directions');
  });
});
