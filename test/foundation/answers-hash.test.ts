// Answers stay byte-identical through refactors: a fixed sample of requests on the real road
// extracts (routes with steps, alternatives and polylines, matrices, isochrones, map matching,
// optimisation, the OSRM-compatible and alt-platform layers) and on the test gazetteer and POI build
// (geocode, reverse, nearby) is sent to a real server, and the SHA-256 of each answer's status and
// body bytes is compared with the hash recorded below. A refactor that is meant to change no
// behaviour must leave every hash equal.
//
// When a change is meant to alter answers (a new graph build, a new field), print fresh hashes with
//   PRINT_ANSWER_HASHES=1 npx vitest run test/foundation/answers-hash.test.ts
// and replace RECORDED with the printed table, saying in the commit why the answers moved.
// ANSWER_DUMP_DIR=/some/dir also writes each answer there (one file per request) to diff two runs.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { linkPois, linkRoads } from '../helpers/built.ts';
import { buildTestGazetteer } from '../maps/fixture.ts';

interface Req { name: string; method: 'GET' | 'POST'; path: string; body?: unknown }

const SIKONGE_STOPS = {
  start: [-5.6333, 32.7667],
  stops: [
    { lat: -5.7, lng: 32.8, id: 'a' },
    { lat: -5.8, lng: 32.9, id: 'b', time_window: [0, 7200] },
    { lat: -5.65, lng: 32.85, id: 'c', service_s: 300 },
    { lat: -5.72, lng: 32.74, id: 'd' },
  ],
  radius: 5000,
};

const SIKONGE_FIXES = [
  { lat: -5.63345, lng: 32.7665, ts: 1700000000 },
  { lat: -5.6415, lng: 32.7772, ts: 1700000120 },
  { lat: -5.6727, lng: 32.8024, ts: 1700000420 },
  { lat: -5.69755, lng: 32.8123, ts: 1700000650 },
];

/** n points on a fixed grid over central Accra (lat, lng), to 4 decimals. */
function accraGrid(n: number): [number, number][] {
  const side = Math.ceil(Math.sqrt(n));
  return Array.from({ length: n }, (_, i) => [
    Math.round((5.54 + (0.08 * Math.floor(i / side)) / side) * 1e4) / 1e4,
    Math.round((-0.25 + (0.09 * (i % side)) / side) * 1e4) / 1e4,
  ]);
}

/** The sample: every routing task and its serialisers, plus the lookups that share the worker pool. */
const REQUESTS: Req[] = [
  // /route: plain, via, every mode, steps in several languages, alternatives, polyline geometry, radius misses
  { name: 'route sikonge', method: 'GET', path: '/api/v1/route?from=-5.6333,32.7667&to=-5.80,32.90&radius=5000' },
  { name: 'route sikonge steps sw', method: 'GET', path: '/api/v1/route?from=-5.6333,32.7667&to=-5.80,32.90&radius=5000&steps=true&lang=sw' },
  { name: 'route sikonge walk via', method: 'GET', path: '/api/v1/route?from=-5.6333,32.7667&to=-5.70,32.80&via=-5.66,32.78&mode=walk&radius=5000' },
  { name: 'route sikonge cycle', method: 'GET', path: '/api/v1/route?from=-5.6333,32.7667&to=-5.70,32.80&mode=cycle&radius=5000&steps=true&lang=en' },
  { name: 'route accra steps alternatives', method: 'GET', path: '/api/v1/route?from=5.5500,-0.2050&to=5.5560,-0.1800&steps=true&lang=en&alternatives=2' },
  { name: 'route accra polyline', method: 'GET', path: '/api/v1/route?from=5.5500,-0.2050&to=5.5560,-0.1800&geometry=polyline' },
  { name: 'route algiers steps fr', method: 'GET', path: '/api/v1/route?from=36.7650,3.0540&to=36.7585,3.0600&steps=true&lang=fr' },
  { name: 'route algiers steps ar', method: 'GET', path: '/api/v1/route?from=36.7650,3.0540&to=36.7585,3.0600&steps=true&lang=ar' },
  { name: 'route algiers traffic forecast', method: 'GET', path: '/api/v1/route?from=36.7215,3.1812&to=36.735,3.21&traffic=forecast&depart_at=2026-01-15T08:00:00Z' },
  { name: 'route no coverage', method: 'GET', path: '/api/v1/route?from=0.5,10.5&to=0.6,10.6' },
  { name: 'route truck 501', method: 'GET', path: '/api/v1/route?from=-5.6333,32.7667&to=-5.80,32.90&mode=truck' },
  // matrices, GET and POST, one with an unroutable point
  { name: 'matrix get sikonge', method: 'GET', path: '/api/v1/route/matrix?sources=-5.6333,32.7667;-5.80,32.90&destinations=-5.70,32.80;-5.6333,32.7667&radius=5000' },
  {
    name: 'matrix post accra 4x3', method: 'POST', path: '/api/v1/route/matrix',
    body: { sources: [[5.55, -0.205], [5.556, -0.18], { lat: 5.5735, lng: -0.1925 }, [5.6037, -0.187]], destinations: [[5.58, -0.22], [5.556, -0.1969], [5.545, -0.21]] },
  },
  // large enough to be computed on both threads meeting in shared memory, and split by rows and sent in pieces
  { name: 'matrix post accra 60x60 meeting', method: 'POST', path: '/api/v1/route/matrix', body: { sources: accraGrid(60) } },
  { name: 'matrix post accra 210x200 split', method: 'POST', path: '/api/v1/route/matrix', body: { sources: accraGrid(210), destinations: accraGrid(200) } },
  { name: 'matrix post walk sikonge', method: 'POST', path: '/api/v1/route/matrix', body: { sources: [[-5.6333, 32.7667], [-5.8, 32.9]], destinations: [[-5.7, 32.8]], mode: 'walk', radius: 5000 } },
  // isochrones
  { name: 'isochrone sikonge', method: 'GET', path: '/api/v1/route/isochrone?from=-5.6333,32.7667&minutes=10,20&radius=5000' },
  { name: 'isochrone algiers walk', method: 'GET', path: '/api/v1/route/isochrone?from=36.7215,3.1812&minutes=5,15&mode=walk' },
  // map matching and optimisation
  { name: 'match sikonge', method: 'POST', path: '/api/v1/route/match', body: { points: SIKONGE_FIXES } },
  { name: 'optimize sikonge', method: 'POST', path: '/api/v1/route/optimize', body: SIKONGE_STOPS },
  // the OSRM-compatible layer
  { name: 'osrm route sikonge geojson', method: 'GET', path: '/osrm/route/v1/driving/32.7667,-5.6333;32.90,-5.80?overview=full&geometries=geojson' },
  { name: 'osrm route accra steps alternatives', method: 'GET', path: '/osrm/route/v1/driving/-0.205,5.55;-0.18,5.556?steps=true&alternatives=true' },
  { name: 'osrm route accra annotations polyline6', method: 'GET', path: '/osrm/route/v1/driving/-0.205,5.55;-0.195,5.552;-0.18,5.556?annotations=true&geometries=polyline6&overview=full' },
  { name: 'osrm table sikonge', method: 'GET', path: '/osrm/table/v1/driving/32.7667,-5.6333;32.90,-5.80;32.80,-5.70?annotations=duration,distance' },
  { name: 'osrm table accra sources', method: 'GET', path: '/osrm/table/v1/foot/-0.205,5.55;-0.18,5.556;-0.1925,5.5735?sources=0&destinations=1;2' },
  { name: 'osrm trip sikonge', method: 'GET', path: '/osrm/trip/v1/driving/32.7667,-5.6333;32.90,-5.80;32.80,-5.70;32.85,-5.65?overview=false' },
  { name: 'osrm match accra', method: 'GET', path: '/osrm/match/v1/driving/-0.2050,5.5500;-0.2040,5.5501;-0.2030,5.5503?overview=full&geometries=geojson' },
  { name: 'osrm nearest sikonge', method: 'GET', path: '/osrm/nearest/v1/driving/32.7667,-5.6333?number=3' },
  // the alt-platform layer over the same tasks
  { name: 'alt directions sikonge', method: 'GET', path: '/api/v1/compat/alt/directions?origin=-5.6333,32.7667&destination=-5.80,32.90' },
  { name: 'alt distancematrix accra', method: 'GET', path: '/api/v1/compat/alt/distancematrix?origins=5.5560,-0.1969&destinations=5.6037,-0.1870|5.5800,-0.2200' },
  // lookups
  { name: 'geocode nairobi', method: 'GET', path: '/api/v1/geocode?q=Nairobi&limit=3' },
  { name: 'geocode mombasa components', method: 'GET', path: '/api/v1/geocode?address=Mombasa&components=country:KE' },
  { name: 'reverse accra', method: 'GET', path: '/api/v1/reverse?latlng=5.556,-0.1969' },
  { name: 'suggest nair', method: 'GET', path: '/api/v1/search/suggest?input=nair' },
  { name: 'places nearby nairobi', method: 'GET', path: '/api/v1/places/nearby?location=-1.2921,36.8219&type=hospital&radius=3000' },
  { name: 'transit nearby accra', method: 'GET', path: '/api/v1/transit/nearby?lat=5.55&lng=-0.2&radius=2000' },
  { name: 'boundaries kigali', method: 'GET', path: '/api/v1/boundaries/at?lat=-1.95&lng=30.06' },
  { name: 'businesses monaco', method: 'GET', path: '/api/v1/businesses/search?category=restaurant&lat=43.7384&lng=7.4246&radius=500' },
  { name: 'markets monaco', method: 'GET', path: '/api/v1/markets?lat=43.7426&lng=7.4262&radius=1000' },
];

/** SHA-256 (first 16 hex digits) of "<status>\n<body bytes>", recorded on the edge-based graph (turn restrictions and OSRM's turn costs, routability weights, guidance as OSRM). */
const RECORDED: Record<string, string> = {
  'route sikonge': '7218ab9833918409',
  'route sikonge steps sw': '820e8aa5b0d159bf',
  'route sikonge walk via': 'f01d1a90bed3e4ea',
  'route sikonge cycle': '7266724565db1e05',
  'route accra steps alternatives': 'e5ddc281fc6bddf5',
  'route accra polyline': '5e2eb2a1d0d7a6b0',
  'route algiers steps fr': '914125f31287a113',
  'route algiers steps ar': '69d036196d8842ed',
  'route algiers traffic forecast': '6a11cf6f9c3e9c52',
  'route no coverage': '97f29dc10a709469',
  'route truck 501': 'ff0611c25eb8d1c0',
  'matrix get sikonge': 'b1d45d3885106621',
  'matrix post accra 4x3': 'de85940578a6e784',
  'matrix post accra 60x60 meeting': 'd8547b6d801e41dc',
  'matrix post accra 210x200 split': '7f898c12cb6bbf4c',
  'matrix post walk sikonge': '9f4db1fc44579f1f',
  'isochrone sikonge': 'eab70ab5eb46b9fe',
  'isochrone algiers walk': 'a33be3026379339b',
  'match sikonge': 'aa74bb30cb02378c',
  'optimize sikonge': 'e3ef66262891bbdc',
  'osrm route sikonge geojson': '3755dddadb134035',
  'osrm route accra steps alternatives': '413660eb58486925',
  'osrm route accra annotations polyline6': '00b3308a5653541f',
  'osrm table sikonge': '93425aef176c8698',
  'osrm table accra sources': '64da08c76a12fd71',
  'osrm trip sikonge': 'f16f543430518bb8',
  'osrm match accra': 'ac15d0bd4a438654',
  'osrm nearest sikonge': 'b4ed87b12038917f',
  'alt directions sikonge': 'fb8d2c0e3f888f1c',
  'alt distancematrix accra': 'dee4c92862fafc25',
  'geocode nairobi': 'fef9ed8a0a87a13c',
  'geocode mombasa components': '6559b919f81bb1d1',
  'reverse accra': 'a71d0e8a5d2b1a1f',
  'suggest nair': '501078a9cf57db6e',
  'places nearby nairobi': '05c26c7c0cce5d3b',
  'transit nearby accra': 'ca1939ffd1d48adf',
  'boundaries kigali': '8bf2d28bd9aa9b36',
  'businesses monaco': '74c5bd197436427e',
  'markets monaco': '529a09a27832827e',
};

const hashOf = (status: number, body: Uint8Array) =>
  createHash('sha256').update(`${status}\n`).update(body).digest('hex').slice(0, 16);

describe('answers on the real extracts are byte-identical to the recorded ones', () => {
  let db: TestDb;
  let s: TestServer;
  let key: string;
  const fresh: Record<string, string> = {};

  beforeAll(async () => {
    db = freshPglite();
    // The datasets the sample reads; no tile set (none of these answers draws a map).
    const built = join(db.dataDir, 'built');
    await buildTestGazetteer(built);
    await linkPois(built);
    await linkRoads(built, ['tanzania-sw', 'accra', 'algiers-east']);
    // Two threads, so large matrices take their split and meeting paths. Admission and burst
    // limits off: the answers are what is checked, on a slow shared machine.
    s = await startTestServer(db, { WORKERS: '2', POOL_MAX_WAIT_MS: '0', BURST_RPS: '0' });
    key = await s.key({ plan: 'enterprise' });
  }, 600_000);
  afterAll(async () => {
    if (process.env.PRINT_ANSWER_HASHES) {
      console.log(`const RECORDED: Record<string, string> = {\n${REQUESTS.map((r) => `  '${r.name}': '${fresh[r.name]}',`).join('\n')}\n};`);
    }
    await s?.close();
    await db?.drop();
  });

  it('names each request once', () => {
    expect(new Set(REQUESTS.map((r) => r.name)).size).toBe(REQUESTS.length);
  });

  for (const r of REQUESTS) {
    it(r.name, async () => {
      const res = r.method === 'GET' ? await s.get(r.path, key) : await s.post(r.path, r.body, key);
      const body = new Uint8Array(await res.arrayBuffer());
      fresh[r.name] = hashOf(res.status, body);
      const dump = process.env.ANSWER_DUMP_DIR;
      if (dump) {
        mkdirSync(dump, { recursive: true });
        writeFileSync(join(dump, `${r.name.replace(/\W+/g, '-')}.${res.status}`), body);
      }
      // The request twice gives the same bytes: nothing in the sample depends on time or order.
      const again = r.method === 'GET' ? await s.get(r.path, key) : await s.post(r.path, r.body, key);
      expect(hashOf(again.status, new Uint8Array(await again.arrayBuffer())), `${r.name}: not deterministic`).toBe(fresh[r.name]);
      if (process.env.PRINT_ANSWER_HASHES) return;
      expect(fresh[r.name], `${r.name}: ${res.status} ${new TextDecoder().decode(body).slice(0, 300)}`).toBe(RECORDED[r.name]);
    });
  }
});
