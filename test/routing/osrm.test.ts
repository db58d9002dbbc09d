// The OSRM v5 compatibility layer over HTTP: answers validated against OSRM's documented shapes
// (docs/http.md result objects), and the same requests through the native /route agree.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import polyline from '@mapbox/polyline';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { SHARED_DATA } from './helpers.ts';
import { ajv } from '../../src/http/operation.ts';
import { OSRM_SCHEMAS, parseCoordinates } from '../../src/api/osrm/index.ts';
import { haversine } from '../../src/core/geometry.ts';

const valid = {
  match: ajv.compile(OSRM_SCHEMAS.match),
  trip: ajv.compile(OSRM_SCHEMAS.trip),
  table: ajv.compile(OSRM_SCHEMAS.table),
  route: ajv.compile(OSRM_SCHEMAS.route), nearest: ajv.compile(OSRM_SCHEMAS.nearest), error: ajv.compile(OSRM_SCHEMAS.error),
};
const check = (which: keyof typeof valid, body: unknown) => {
  const ok = valid[which](body);
  expect(ok, JSON.stringify(valid[which].errors)).toBe(true);
};

describe('OSRM-compatible API under /osrm/', () => {
  let db: TestDb;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    db = freshPglite();
    for (const [name, file] of [['accra', 'accra-trotro-route-streets-2017'], ['tanzania-sw', 'tanzania-sw-rural-roads-gostnets-2025']]) {
      await buildRoadExtract({ input: join(SHARED_DATA, `${file}.osm.pbf`), name, out: join(db.dataDir, 'built'), profiles: ['driving'] });
    }
    s = await startTestServer(db);
    key = await s.key({ plan: 'enterprise' });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });
  const osrm = async (path: string, k: string | null = key) => {
    const r = await fetch(`${s.url}/osrm/${path}${path.includes('?') ? '&' : '?'}${k ? `key=${k}` : ''}`);
    return { status: r.status, body: await r.json() as any };
  };
  // Accra: Kinbu Street to Osu (lng,lat as OSRM writes them); Sikonge, Tanzania
  const ACCRA = '-0.205,5.55;-0.18,5.556';
  const TZ = '32.7667,-5.6333;32.90,-5.80;32.95,-5.70';

  it('route: the documented shape, and the native /route agrees on distance and duration', async () => {
    for (const c of [ACCRA, TZ]) {
      const { status, body } = await osrm(`route/v1/driving/${c}?overview=full&geometries=geojson`);
      expect(status, JSON.stringify(body)).toBe(200);
      check('route', body);
      const pts = c.split(';').map((p) => p.split(',').reverse().join(','));
      const via = pts.slice(1, -1).join(';');
      const n = await (await s.get(`/api/v1/route?from=${pts[0]}&to=${pts.at(-1)}${via ? `&via=${via}` : ''}&radius=10000`, key)).json() as any;
      const r = body.routes[0];
      expect(r.distance).toBeCloseTo(n.route.distance_m, 0);
      expect(r.duration).toBeCloseTo(n.route.duration_s, 0);
      expect(r.legs.map((l: any) => l.duration)).toEqual(n.route.legs.map((l: any) => l.duration_s));
      expect(body.waypoints).toHaveLength(pts.length);
      expect(body.waypoints[0].location).toEqual([n.route.snapped.from.lng, n.route.snapped.from.lat].map((x) => Math.round(x * 1e6) / 1e6));
      expect(r.legs[0].steps).toEqual([]);
    }
  });

  it('geometries: polyline (default) and polyline6 decode to the GeoJSON line; overview simplified keeps the ends', async () => {
    const full = (await osrm(`route/v1/driving/${ACCRA}?overview=full&geometries=geojson`)).body.routes[0].geometry.coordinates;
    const p5 = (await osrm(`route/v1/driving/${ACCRA}?overview=full`)).body.routes[0].geometry;
    const p6 = (await osrm(`route/v1/driving/${ACCRA}.json?overview=full&geometries=polyline6`)).body.routes[0].geometry;
    const d5 = polyline.decode(p5, 5), d6 = polyline.decode(p6, 6);
    expect(d5.length).toBeGreaterThan(10);
    full.forEach(([lng, lat]: number[], i: number) => {
      expect(Math.abs(d6[i][0] - lat)).toBeLessThanOrEqual(0.5e-6 + 1e-12);
      expect(Math.abs(d6[i][1] - lng)).toBeLessThanOrEqual(0.5e-6 + 1e-12);
    });
    expect(d5).toHaveLength(full.length);
    const simp = (await osrm(`route/v1/driving/${ACCRA}?geometries=geojson`)).body.routes[0].geometry.coordinates;
    expect(simp.length).toBeLessThan(full.length);
    expect(simp[0]).toEqual(full[0]);
    expect(simp.at(-1)).toEqual(full.at(-1));
    expect((await osrm(`route/v1/driving/${ACCRA}?overview=false`)).body.routes[0].geometry).toBeUndefined();
  });

  it('steps, alternatives and annotations as OSRM writes them', async () => {
    const { body } = await osrm(`route/v1/driving/${ACCRA}?steps=true&alternatives=2&annotations=true&overview=full&geometries=geojson`);
    check('route', body);
    expect(body.routes.length).toBeGreaterThanOrEqual(2);
    const native = await (await s.get(`/api/v1/route?from=5.55,-0.205&to=5.556,-0.18&radius=10000&steps=true`, key)).json() as any;
    const steps = body.routes[0].legs[0].steps;
    expect(steps.map((x: any) => x.maneuver.type)).toEqual(native.route.legs[0].steps.map((x: any) => x.maneuver.type));
    expect(steps[0].intersections[0].out).toBe(0);
    expect(steps.at(-1).maneuver.type).toBe('arrive');
    expect(body.routes[0].legs[0].summary).toMatch(/, /);
    const ann = body.routes[0].legs[0].annotation;
    expect(ann.distance).toHaveLength(body.routes[0].geometry.coordinates.length - 1);
    const sum = ann.distance.reduce((a: number, b: number) => a + b, 0);
    expect(Math.abs(sum - body.routes[0].distance)).toBeLessThan(0.005 * body.routes[0].distance);
    expect(ann.nodes).toBeUndefined();
    // steps' polylines decode and join end to end
    const p = (await osrm(`route/v1/driving/${ACCRA}?steps=true`)).body.routes[0].legs[0].steps;
    for (const x of p) expect(typeof x.geometry).toBe('string');
    const first = polyline.decode(p[1].geometry, 5)[0];
    expect(haversine(first[0], first[1], p[1].maneuver.location[1], p[1].maneuver.location[0])).toBeLessThan(2);
  });

  it('table: the documented shape; every cell equals the native /route between the same points', async () => {
    const pts = ['-0.205,5.55', '-0.18,5.556', '-0.2,5.57', '-0.19,5.54'];
    const { status, body } = await osrm(`table/v1/driving/${pts.join(';')}?annotations=duration,distance&sources=0;2&destinations=1;3;0`);
    expect(status, JSON.stringify(body)).toBe(200);
    check('table', body);
    expect(body.durations).toHaveLength(2);
    expect(body.durations[0]).toHaveLength(3);
    expect(body.sources).toHaveLength(2);
    expect(body.destinations).toHaveLength(3);
    const ll = (p: string) => p.split(',').reverse().join(',');
    for (const [i, si] of [0, 2].entries()) {
      for (const [j, dj] of [1, 3, 0].entries()) {
        if (si === dj) { expect(body.durations[i][j]).toBe(0); continue; }
        const n = await (await s.get(`/api/v1/route?from=${ll(pts[si])}&to=${ll(pts[dj])}&radius=10000`, key)).json() as any;
        expect(body.durations[i][j]).toBeCloseTo(n.route.duration_s, 1);
        expect(body.distances[i][j]).toBeCloseTo(n.route.distance_m, 1);
      }
    }
    const only = (await osrm(`table/v1/driving/${pts.join(';')}`)).body;
    expect(only.durations).toHaveLength(4);
    expect(only.distances).toBeUndefined();
    expect((await osrm(`table/v1/driving/${pts.join(';')}?sources=9`)).body.code).toBe('InvalidOptions');
    expect((await osrm(`table/v1/driving/${pts.join(';')}?scale_factor=2&annotations=duration`)).body.durations[0][1]).toBeCloseTo(2 * only.durations[0][1], 0);
  });

  it('trip: the documented shape, a visiting order no slower than the input order, fixed ends honoured', async () => {
    const pts = ['-0.205,5.55', '-0.18,5.556', '-0.2,5.57', '-0.19,5.54', '-0.17,5.565'];
    const { status, body } = await osrm(`trip/v1/driving/${pts.join(';')}?overview=full&geometries=geojson`);
    expect(status, JSON.stringify(body)).toBe(200);
    check('trip', body);
    const idx = body.waypoints.map((w: any) => w.waypoint_index);
    expect([...idx].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(idx[0]).toBe(0);
    const trip = body.trips[0];
    expect(trip.legs).toHaveLength(5);
    const inOrder = (await osrm(`route/v1/driving/${[...pts, pts[0]].join(';')}?overview=false`)).body.routes[0];
    expect(trip.duration).toBeLessThanOrEqual(inOrder.duration + 0.1);
    // the trip's route is the route through the points in the trip's order
    const ordered = [...pts.keys()].sort((a, b) => idx[a] - idx[b]).map((i) => pts[i]);
    const again = (await osrm(`route/v1/driving/${[...ordered, ordered[0]].join(';')}?overview=false`)).body.routes[0];
    expect(trip.duration).toBeCloseTo(again.duration, 1);
    const open = (await osrm(`trip/v1/driving/${pts.join(';')}?roundtrip=false&source=first&destination=last`)).body;
    expect(open.code).toBe('Ok');
    expect(open.waypoints[0].waypoint_index).toBe(0);
    expect(open.waypoints[4].waypoint_index).toBe(4);
    expect(open.trips[0].legs).toHaveLength(4);
    const bad = await osrm(`trip/v1/driving/${pts.join(';')}?roundtrip=false`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('NotSupported');
  });

  it('match: a trace along a route matches back onto it; the native /route/match agrees', async () => {
    const line = (await osrm(`route/v1/driving/${ACCRA}?overview=full&geometries=geojson`)).body.routes[0];
    const c: number[][] = line.geometry.coordinates;
    // every ~8th shape point (at most 60), 10 s apart
    const step = Math.max(1, Math.floor(c.length / 60));
    const trace = c.filter((_, i) => i % step === 0).slice(0, 60);
    const ts = trace.map((_, i) => 1700000000 + 10 * i);
    const path = `match/v1/driving/${trace.map((p) => `${p[0].toFixed(6)},${p[1].toFixed(6)}`).join(';')}?overview=full&geometries=geojson&timestamps=${ts.join(';')}&steps=true`;
    const { status, body } = await osrm(path);
    expect(status, JSON.stringify(body).slice(0, 400)).toBe(200);
    check('match', body);
    expect(body.matchings).toHaveLength(1);
    expect(body.tracepoints).toHaveLength(trace.length);
    expect(body.tracepoints.filter((t: any) => t).length).toBeGreaterThan(0.9 * trace.length);
    const m = body.matchings[0];
    expect(m.confidence).toBeGreaterThan(0.5);
    expect(m.legs.length).toBe(body.tracepoints.filter((t: any) => t).length - 1);
    // the native request gets the same 6-decimal points the OSRM URL carries: a point on a signal's
    // node moved 5 cm may snap to the road on the node's other side (graph-build/contract/segments.ts)
    const r6 = (x: number) => Number(x.toFixed(6));
    const native = await (await s.post('/api/v1/route/match', { points: trace.map((p, i) => ({ lat: r6(p[1]), lng: r6(p[0]), ts: ts[i] })) }, key)).json() as any;
    // the same matched positions; ours sums the legs as /route drives them, the native one the matcher's leg metres
    expect(Math.abs(m.distance - native.matchings[0].distance_m)).toBeLessThan(0.005 * m.distance);
    expect(Math.abs(m.duration - native.matchings[0].duration_s)).toBeLessThan(1);
    const bad = await osrm(`match/v1/driving/${trace.slice(0, 3).map((p) => `${p[0]},${p[1]}`).join(';')}?timestamps=3;2;1`);
    expect(bad.body.code).toBe('InvalidValue');
  });

  it('nearest: the nearest distinct segments, nearest first', async () => {
    const { status, body } = await osrm('nearest/v1/driving/-0.2,5.56?number=3');
    expect(status, JSON.stringify(body)).toBe(200);
    check('nearest', body);
    expect(body.waypoints).toHaveLength(3);
    const d = body.waypoints.map((w: any) => w.distance);
    expect([...d].sort((a, b) => a - b)).toEqual(d);
    const native = await (await s.get('/api/v1/route?from=5.56,-0.2&to=5.556,-0.18&radius=10000', key)).json() as any;
    expect(d[0]).toBeCloseTo(native.route.snapped.from.distance_m, 0);
  });

  it('errors in OSRM shape: InvalidQuery, InvalidValue, InvalidOptions, NoSegment, TooBig; auth by ?key= or header', async () => {
    for (const [path, code] of [
      ['route/v1/driving/abc;def', 'InvalidQuery'],
      ['route/v1/driving/-0.205,95;-0.18,5.556', 'InvalidValue'],
      ['route/v1/hovercraft/' + ACCRA, 'InvalidValue'],
      ['route/v1/driving/-0.205,5.55', 'InvalidOptions'],
      ['route/v1/driving/' + ACCRA + '?radiuses=10', 'InvalidOptions'],
      ['route/v1/driving/' + ACCRA + '?geometries=wkt', 'InvalidQuery'],
      ['route/v1/driving/0,0;1,1', 'NoSegment'],
      ['route/v1/driving/' + Array.from({ length: 30 }, () => '-0.2,5.56').join(';'), 'TooBig'],
      ['route/v1/driving/' + ACCRA + '?exclude=motorway', 'InvalidValue'],
      ['nearest/v1/driving/' + ACCRA, 'InvalidOptions'],
    ] as const) {
      const { status, body } = await osrm(path);
      expect(status, path).toBe(400);
      check('error', body);
      expect(body.code, path).toBe(code);
    }
    expect((await osrm(`route/v1/driving/${ACCRA}`, null)).status).toBe(401);
    const h = await s.get(`/osrm/route/v1/car/${ACCRA}`, key);
    expect(h.status).toBe(200);
    const poly = polyline.encode([[5.55, -0.205], [5.556, -0.18]], 5);
    expect((await osrm(`route/v1/driving/polyline(${encodeURIComponent(poly)})`)).body.code).toBe('Ok');
  });

  it('options are validated by their declared types and refused as osrm-routed refuses them', async () => {
    // codes as osrm-routed v26.4.1 answers the same requests: its grammar refuses a malformed value
    // (InvalidQuery), its parameter check a value out of range (InvalidOptions), a limit (TooBig)
    const TABLE = 'table/v1/driving/' + ACCRA;
    for (const [path, code] of [
      [`route/v1/driving/${ACCRA}?steps=foo`, 'InvalidQuery'],
      [`route/v1/driving/${ACCRA}?alternatives=x`, 'InvalidQuery'],
      [`route/v1/driving/${ACCRA}?annotations=foo`, 'InvalidQuery'],
      [`route/v1/driving/${ACCRA}?bearings=10;`, 'InvalidQuery'],
      [`route/v1/driving/${ACCRA}?approaches=curb;foo`, 'InvalidQuery'],
      [`route/v1/driving/${ACCRA}?radiuses=10;x`, 'InvalidQuery'],
      [`match/v1/driving/${ACCRA}?timestamps=5;`, 'InvalidQuery'],
      [`${TABLE}?fallback_speed=x`, 'InvalidQuery'],
      [`${TABLE}?fallback_speed=0`, 'InvalidOptions'],
      [`${TABLE}?scale_factor=-1`, 'InvalidOptions'],
      [`${TABLE}?sources=all;1`, 'InvalidQuery'],
      ['nearest/v1/driving/-0.2,5.56?number=0', 'InvalidOptions'],
      ['nearest/v1/driving/-0.2,5.56?number=1000', 'TooBig'],
    ] as const) {
      const { status, body } = await osrm(path);
      expect(status, path).toBe(400);
      check('error', body);
      expect(body.code, path).toBe(code);
      expect(body.error, path).toBeUndefined();
      if (process.env.OSRM_VERBOSE) console.log(path, JSON.stringify(body));
      expect(body.message, path).toMatch(/'(steps|alternatives|annotations|bearings|approaches|radiuses|timestamps|fallback_speed|scale_factor|sources|number)/);
    }
    // the declared types read what OSRM clients send
    const two = (await osrm(`route/v1/driving/${ACCRA}?alternatives=2&steps=true&radiuses=unlimited;500&approaches=;curb&bearings=90,20;`)).body;
    expect(two.code).toBe('Ok');
    expect(two.routes.length).toBeGreaterThanOrEqual(2);
    expect((await osrm(`route/v1/driving/${ACCRA}?alternatives=true`)).body.routes).toHaveLength(2);
    expect((await osrm(`route/v1/driving/${ACCRA}?alternatives=false`)).body.routes).toHaveLength(1);
    expect((await osrm(`route/v1/driving/${ACCRA}?skip_waypoints=true`)).body.waypoints).toBeUndefined();
    expect((await osrm(`route/v1/driving/${ACCRA}?annotations=distance,speed&overview=full`)).body.routes[0].legs[0].annotation).toEqual(expect.objectContaining({ distance: expect.any(Array), speed: expect.any(Array) }));
    expect((await osrm(`${TABLE}?sources=1&destinations=all`)).body.durations).toHaveLength(1);
  });

  it('the OpenAPI document shows the OSRM options with their real types', async () => {
    const doc = await (await s.get('/api/v1/openapi.json')).json() as any;
    const query = (service: string) => Object.fromEntries(
      doc.paths[`/osrm/${service}/v1/{profile}/{coordinates}`].get.parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.schema]),
    );
    const route = query('route');
    expect(route.steps).toMatchObject({ type: 'boolean', default: false });
    expect(route.geometries).toMatchObject({ type: 'string', enum: ['polyline', 'polyline6', 'geojson'], default: 'polyline' });
    expect(route.alternatives.oneOf.map((b: any) => b.type)).toEqual(['integer', 'boolean']);
    expect(route.annotations.oneOf.map((b: any) => b.type)).toEqual(['boolean', 'array']);
    expect(route.radiuses).toMatchObject({ type: 'array', items: { oneOf: [{ oneOf: [{ type: 'number', minimum: 0 }, { enum: ['unlimited'] }] }, { type: 'null' }] } });
    expect(route.skip_waypoints.type).toBe('boolean');
    const table = query('table');
    expect(table.fallback_speed).toMatchObject({ type: 'number', exclusiveMinimum: 0 });
    expect(table.scale_factor).toMatchObject({ type: 'number', default: 1 });
    expect(table.sources.oneOf[1]).toMatchObject({ type: 'array', items: { type: 'integer', minimum: 0 } });
    expect(query('trip').roundtrip).toMatchObject({ type: 'boolean', default: true });
    expect(query('match').timestamps).toMatchObject({ type: 'array', items: { type: 'integer', minimum: 0 } });
    expect(query('nearest').number).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 1 });
  });

  it('parses OSRM coordinate strings', () => {
    expect(parseCoordinates('13.38886,52.517037;13.397634,52.529407.json')).toEqual([[13.38886, 52.517037], [13.397634, 52.529407]]);
    expect(parseCoordinates(`polyline6(${polyline.encode([[52.517037, 13.38886]], 6)})`)).toEqual([[13.38886, 52.517037]]);
  });
});
