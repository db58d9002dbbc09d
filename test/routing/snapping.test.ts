// Snapping as OSRM does it: a point stays on its nearest road whenever the route from it exists; it
// is moved (to the big-component candidate, then to any strongly connected component) only when
// it must, as little as it can, and never beyond the radius; every answer says how far it moved.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { buildRoadNetwork } from '../../graph-build/roads.ts';
import { linkRoads } from '../helpers/built.ts';
import { tempDir, loadInto, task, network } from './helpers.ts';
import { loadedGraphs } from '../../workers/routing/graphs.ts';
import { candidates, nearestRoad, choose } from '../../workers/routing/locate/candidates.ts';
import { cheapestPair } from '../../workers/routing/search/legs.ts';
import { E7 } from '../../src/core/format/route.ts';
import { rng } from '../../bench/lib/rand.ts';

const P = (y: number, x: number): [number, number] => [y * 0.001, 31 + x * 0.001];
const ll = (p: [number, number]): [number, number] => [p[1], p[0]];

describe('three separate roads in a row (OSRM "Car - Gate penalties": a-b-c   d-e-f   g-h-i)', () => {
  const tmp = tempDir();
  // Three two-way roads on one line, 100 m a grid cell; g…i is the longest, so our largest strongly
  // connected component: every a-b-c and d-e-f point also gets a candidate on it (its end g).
  const X = (x: number): [number, number] => P(0, x * 0.9);
  const pts = { a: X(0), b: X(1), c: X(2), d: X(4), e: X(5), f: X(6), g: X(8), h1: X(9), h2: X(10), h3: X(11), h4: X(12), i: X(13) };
  beforeAll(() => {
    const net = network(pts, [
      [['a', 'b', 'c'], { highway: 'primary' }],
      [['d', 'e', 'f'], { highway: 'primary' }],
      [['g', 'h1', 'h2', 'h3', 'h4', 'i'], { highway: 'primary' }],
    ]);
    buildRoadNetwork(net, { name: 'three', out: tmp.dir, profiles: ['driving'] });
    loadInto(tmp.dir, ['three']);
  });
  afterAll(() => tmp.remove());

  it('a→c drives a-b-c and both points stay put (they were moved 800 and 600 m onto g: 0 m)', () => {
    const r = task('route', { from: pts.a, to: pts.c });
    expect(r.status).toBeUndefined();
    expect(r.route.distance_m).toBeGreaterThan(195);
    expect(r.route.distance_m).toBeLessThan(205);
    expect(r.route.snapped.from.distance_m).toBeLessThan(0.5);
    expect(r.route.snapped.to.distance_m).toBeLessThan(0.5);
  });

  it('the matrix, the /osrm/ layer and route_cost answer the same', () => {
    const r = task('route', { from: pts.a, to: pts.c });
    const m = task('route_matrix', { sources: [pts.a, pts.c], destinations: [pts.c, pts.a] });
    expect(m.distances_m[0][0]).toBe(r.route.distance_m);
    expect(m.durations_s[0][0]).toBe(r.route.duration_s);
    expect(m.distances_m[1][1]).toBe(r.route.distance_m);
    const c = task('route_cost', { from: pts.a, to: pts.c });
    expect(c.distance_m).toBe(r.route.distance_m);
    const o = task('osrm_route', { coordinates: [ll(pts.a), ll(pts.c)], mode: 'driving', radius: 1000, steps: false, alternatives: 0, overview: 'false', geometries: 'polyline', annotations: [], skipWaypoints: false });
    expect(o.code).toBe('Ok');
    expect(o.routes[0].distance).toBeCloseTo(r.route.distance_m, 0);
    for (const w of o.waypoints) expect(w.distance).toBeLessThan(0.5);
  });

  it('a→e (no road joins them): both take their big-component candidate, and the answer says how far they moved', () => {
    const r = task('route', { from: pts.a, to: pts.e });
    expect(r.status).toBeUndefined();
    expect(r.route.snapped.from.distance_m).toBeGreaterThan(780);
    expect(r.route.snapped.from.distance_m).toBeLessThan(820);
    expect(r.route.snapped.to.distance_m).toBeGreaterThan(280);
    expect(r.route.snapped.to.distance_m).toBeLessThan(320);
    const m = task('route_matrix', { sources: [pts.a], destinations: [pts.e] });
    expect(m.distances_m[0][0]).toBe(r.route.distance_m);
    // the /osrm/ layer answers as osrm-routed: every road here is a tiny component (under 1,000
    // edges), so no point gets a candidate on another road, and no road joins a and e
    const o = task('osrm_route', { coordinates: [ll(pts.a), ll(pts.e)], mode: 'driving', radius: 1000, steps: false, alternatives: 0, overview: 'false', geometries: 'polyline', annotations: [], skipWaypoints: false });
    expect(o.code).toBe('NoRoute');
  });

  it('never further than the radius, and no further than it must: within 500 m only e moves (300 m onto c); within 250 m no route', () => {
    const r = task('route', { from: pts.a, to: pts.e, radius: 500 });
    expect(r.status).toBeUndefined();
    expect(r.route.snapped.from.distance_m).toBeLessThan(0.5);
    expect(r.route.snapped.to.distance_m).toBeGreaterThan(280);
    expect(r.route.snapped.to.distance_m).toBeLessThan(320);
    expect(r.route.distance_m).toBeCloseTo(task('route', { from: pts.a, to: pts.c }).route.distance_m, 0);
    const m5 = task('route_matrix', { sources: [pts.a], destinations: [pts.e], radius: 500 });
    expect(m5.distances_m[0][0]).toBe(r.route.distance_m);
    const n = task('route', { from: pts.a, to: pts.e, radius: 250 });
    expect(n.status).toBe(400);
    expect(n.code).toBe('no_route');
    const m = task('route_matrix', { sources: [pts.a], destinations: [pts.e, pts.c], radius: 250 });
    expect(m.distances_m[0][0]).toBeNull();
    expect(m.distances_m[0][1]).not.toBeNull();
  });
});

describe('a point moves only as far as it must (oneway spur)', () => {
  const tmp = tempDir();
  // A square of two-way streets; from its corner B a oneway spur runs B→X→Y into a dead end. Two
  // two-way streets end near Y: A–Z (55 m west) and a longer one 300 m further west.
  const Q = (y: number, x: number): [number, number] => [y * 0.001, 30 + x * 0.001];
  beforeAll(() => {
    const net = network({ A: Q(0, 0), B: Q(0, 4), C: Q(4, 4), D: Q(4, 0), X: Q(-2, 4), Y: Q(-4, 4), Z: Q(-4, 3.5), W: Q(-4, 0.5) }, [
      [['A', 'B', 'C', 'D', 'A'], { highway: 'residential' }],
      [['B', 'X', 'Y'], { highway: 'residential', oneway: 'yes' }],
      [['A', 'Z'], { highway: 'residential' }],
      [['A', 'W'], { highway: 'residential' }],
    ]);
    buildRoadNetwork(net, { name: 'spur2', out: tmp.dir, profiles: ['driving'] });
    loadInto(tmp.dir, ['spur2']);
  });
  afterAll(() => tmp.remove());

  it('leaving the dead end: onto the nearest road that routes (A–Z, 55 m), not a cheaper one further off', () => {
    const r = task('route', { from: Q(-4, 4), to: Q(4, 2) });
    expect(r.status).toBeUndefined();
    expect(r.route.snapped.from.distance_m).toBeGreaterThan(40);
    expect(r.route.snapped.from.distance_m).toBeLessThan(70);
  });
  it('into the dead end: the spur routes, so the point stays on it', () => {
    const r = task('route', { from: Q(4, 2), to: Q(-4, 4) });
    expect(r.route.snapped.to.distance_m).toBeLessThan(1);
    const m = task('route_matrix', { sources: [Q(4, 2), Q(-4, 4)], destinations: [Q(-4, 4), Q(4, 2)] });
    expect(m.distances_m[0][0]).toBe(r.route.distance_m);
    const back = task('route', { from: Q(-4, 4), to: Q(4, 2) });
    expect(m.distances_m[1][1]).toBe(back.route.distance_m);
  });
});

describe('Tanzania SW: two points on one small road network, radius 10 km', () => {
  const tmp = tempDir();
  beforeAll(async () => {
    await linkRoads(tmp.dir, ['tanzania-sw']);
    loadInto(tmp.dir, ['tanzania-sw']);
  }, 300_000);
  afterAll(() => tmp.remove());

  // Both points lie on a strongly connected component below the big-component size, 4.8 and 5.9 km
  // from the nearest big one: the cheapest pair of candidates moved both onto one point (0 m).
  const from: [number, number] = [-5.8555406, 34.1526157];
  const to: [number, number] = [-5.845412, 34.141919];
  it('stays on the small network', () => {
    const r = task('route', { from, to, radius: 10_000 });
    expect(r.status).toBeUndefined();
    expect(r.route.snapped.from.distance_m).toBeLessThan(1);
    expect(r.route.snapped.to.distance_m).toBeLessThan(1);
    expect(r.route.distance_m).toBeGreaterThan(1500);
    const m = task('route_matrix', { sources: [from], destinations: [to], radius: 10_000 });
    expect(m.distances_m[0][0]).toBe(r.route.distance_m);
  });

  it('random road points anywhere (small networks, dead ends, islands), radius 10 km: every matrix cell is what /route answers', () => {
    const g = loadedGraphs().find((x) => x.extract === 'tanzania-sw' && x.profile === 'driving')!.g;
    let seed = 12;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pts = Array.from({ length: 30 }, (): [number, number] => { const p = Math.floor(rand() * g.shapeLat.length); return [g.shapeLat[p] / 1e7, g.shapeLon[p] / 1e7]; });
    const m = task('route_matrix', { sources: pts, destinations: pts, radius: 10_000 });
    let routed = 0, moved = 0;
    for (let i = 0; i < pts.length; i++) for (let j = 0; j < pts.length; j++) {
      const r = task('route', { from: pts[i], to: pts[j], radius: 10_000 });
      if (r.status) { expect(r.code).toBe('no_route'); expect(m.distances_m[i][j]).toBeNull(); continue; }
      routed++;
      if (r.route.snapped.from.distance_m > 1 || r.route.snapped.to.distance_m > 1) moved++;
      expect(m.durations_s[i][j], `${i}→${j}`).toBe(r.route.duration_s);
      // metres are summed in another order (matrix.test.ts allows the same)
      expect(Math.abs(m.distances_m[i][j] - r.route.distance_m), `${i}→${j}`).toBeLessThanOrEqual(0.5);
    }
    // the sample holds unroutable pairs and pairs routed only by moving a point
    expect(routed).toBeGreaterThan(300);
    expect(routed).toBeLessThan(900);
    expect(moved).toBeGreaterThan(0);
  }, 120_000);
});

describe('two points whose nearest roads are several candidates (a junction, a road split in two one-way halves)', () => {
  const tmp = tempDir();
  beforeAll(async () => {
    await linkRoads(tmp.dir, ['accra']);
    loadInto(tmp.dir, ['accra']);
  }, 300_000);
  afterAll(() => tmp.remove());

  it('one search from all of them picks the pair that one search per pair picks (choose), ties included', () => {
    const graph = loadedGraphs().find((x) => x.extract === 'accra' && x.profile === 'driving')!;
    const g = graph.g, rand = rng(3);
    // road vertices: many are junctions, where every road meeting there is a candidate
    const vertex = (): [number, number] => { const p = Math.floor(rand() * g.shapeLat.length); return [g.shapeLat[p] / E7, g.shapeLon[p] / E7]; };
    let compared = 0, several = 0, notFirst = 0;
    for (let k = 0; k < 600; k++) {
      const pa = vertex(), pb = vertex();
      const ca = candidates(graph, pa[0], pa[1], 25), cb = candidates(graph, pb[0], pb[1], 25);
      if (!ca || !cb) continue;
      const a = nearestRoad(ca), b = nearestRoad(cb);
      if (a.length === 1 && b.length === 1) continue;
      const want = choose(graph, [a.slice(), b.slice()], [pa, pb], 25);
      if (typeof want === 'number' || want[0] >= a.length || want[1] >= b.length) continue; // no pair of them routes
      expect(cheapestPair(g, graph.query, a, b), `pair ${k}`).toEqual(want);
      compared++; several += a.length * b.length > 2 ? 1 : 0; notFirst += want[0] + want[1] > 0 ? 1 : 0;
    }
    expect(compared).toBeGreaterThan(150);
    expect(several).toBeGreaterThan(50);
    expect(notFirst).toBeGreaterThan(30);
  }, 120_000);
});
