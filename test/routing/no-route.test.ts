// Issue 11 §1: never a false no_route. (1) A hand-built oneway dead end: its nearest road cannot be
// left, so the point also needs a candidate on the big strongly connected component. (2) Replays
// test/routing/osrm-car-pairs.json, random pairs of drivable road vertices on every default extract
// with osrm-routed's (car profile) answers, written by `npm run bench -- osrm-pairs`: every pair
// OSRM routes (snapping within our maximum radius) must be routed by us too.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRoadNetwork, buildRoadExtract } from '../../graph-build/roads.ts';
import { compare, PAIRS_FILE, type PairsFile } from '../../bench/osrm-pairs.ts';
import { tempDir, loadInto, task, network, SHARED_DATA } from './helpers.ts';

const P = (y: number, x: number): [number, number] => [y * 0.001, 30 + x * 0.001];

describe('big-component candidates (fixture)', () => {
  const tmp = tempDir();
  beforeAll(() => {
    // A square of two-way streets; from its corner B a oneway spur runs B→X→Y into a dead end.
    // A point at Y snaps onto the spur, which no car can leave.
    const net = network({ A: P(0, 0), B: P(0, 4), C: P(4, 4), D: P(4, 0), X: P(-2, 4), Y: P(-4, 4), Z: P(-4, 3.5) }, [
      [['A', 'B', 'C', 'D', 'A'], { highway: 'residential' }],
      [['B', 'X', 'Y'], { highway: 'residential', oneway: 'yes' }],
      // a two-way street ending 55 m west of Y: the nearest road on the big component
      [['A', 'Z'], { highway: 'residential' }],
    ]);
    buildRoadNetwork(net, { name: 'spur', out: tmp.dir, profiles: ['driving'] });
    loadInto(tmp.dir, ['spur']);
  });
  afterAll(() => tmp.remove());

  it('a point on a oneway dead end leaves by its big-component candidate', () => {
    const r = task('route', { from: P(-4, 4), to: P(4, 2) });
    expect(r.status).toBeUndefined();
    // snapped off the spur onto A–Z, not onto Y
    expect(r.route.snapped.from.lng).toBeLessThan(30.0036);
  });
  it('a route into the dead end still uses the spur (its nearest road routes, so it stays)', () => {
    const r = task('route', { from: P(4, 2), to: P(-4, 4) });
    expect(r.status).toBeUndefined();
    expect(r.route.snapped.to.distance_m).toBeLessThan(1);
  });
});

describe('every pair osrm-routed (car) routes, we route', () => {
  const file: PairsFile = JSON.parse(readFileSync(PAIRS_FILE, 'utf8'));
  const tmp = tempDir();
  afterAll(() => tmp.remove());
  for (const [name, ex] of Object.entries(file.extracts)) {
    it(`${name}: ${ex.pairs.length} random vertex pairs against ${file.osrm.split(' (')[0]}`, async () => {
      await buildRoadExtract({ input: join(SHARED_DATA, ex.input), name, out: tmp.dir, profiles: ['driving'] });
      loadInto(tmp.dir, [name]);
      const r = compare(ex.pairs);
      expect(r.misses).toEqual([]);
      expect(r.false_no_route).toBe(0);
      expect(r.we_route_of_those).toBe(r.osrm_routed);
      expect(r.osrm_routed).toBeGreaterThan(200);
      // the same roads and speeds: half the distances within 1% of OSRM's
      expect(r.distance_ratio_ours_over_osrm.p50).toBeGreaterThan(0.99);
      expect(r.distance_ratio_ours_over_osrm.p50).toBeLessThan(1.01);
      if (name === 'algiers-east') {
        // the example, at the default radius (OSRM: 4,161 m)
        const e = task('route_cost', { from: [36.726560, 3.152719], to: [36.720123, 3.181721] });
        expect(e.status).toBeUndefined();
        expect(Math.abs(e.distance_m - 4161) / 4161).toBeLessThan(0.01);
      }
    }, 60_000);
  }
});
