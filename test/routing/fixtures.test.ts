// Hand-built networks for the rules that real extracts exercise only by chance:
// oneway, access=no, roundabouts, motorways, ferries, via points, and the error codes.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { buildRoadNetwork } from '../../graph-build/roads.ts';
import { profileFor } from '../../graph-build/profiles/index.ts';
import { parseMaxspeed } from '../../graph-build/profiles/lib/way-handlers.ts';
import { CAR } from '../../graph-build/profiles/car.ts';
import { tempDir, loadInto, task, network } from './helpers.ts';

// 0.001° ≈ 111 m. The layout, around (0, 30):
//   D(1,0) ---- E(1,2)          island I1–I2 far east, roundabout R1..R4 south
//   |            |
//   A(0,0) -> B(0,1) -> C(0,2)   (A→C oneway)
//   |            |
//   F(-1,0) xx G(-1,2)            (access=no)
const r7 = (v: number) => Math.round(v * 1e7) / 1e7; // output coordinates carry 7 decimals
const P = (y: number, x: number): [number, number] => [r7(y * 0.001), r7(30 + x * 0.001)];
const points: Record<string, [number, number]> = {
  A: P(0, 0), B: P(0, 1), C: P(0, 2), D: P(1, 0), E: P(1, 2), F: P(-1, 0), G: P(-1, 2),
  // roundabout: R1→R2→R3 is the long way (via R2 far south), R3→R4→R1 short
  S1: P(-4, 0), R1: P(-5, 0), R2: P(-8, 1), R3: P(-5, 2), R4: P(-5, 1), S3: P(-4, 2),
  // motorway M1→M2 with a slow two-way road M1-M3-M2 beside it
  M1: P(-12, 0), M2: P(-12, 4), M3: P(-13, 2),
  // ferry between K1 and K2 across "water", a road on to K3 (no waypoint snaps onto a ferry)
  K1: P(3, 0), K2: P(6, 0), K3: P(7, 0),
  // an island road far from the rest, inside the bbox of everything
  I1: P(0, 60), I2: P(0, 61),
  // a two-node fragment 44 m north of the D–E road, disconnected from everything
  J1: P(1.4, 0.8), J2: P(1.4, 1.2),
};
const net = network(points, [
  [['A', 'B', 'C'], { highway: 'residential', oneway: 'yes' }],
  [['A', 'D', 'E', 'C'], { highway: 'residential' }],
  [['A', 'F'], { highway: 'residential' }],
  [['F', 'G'], { highway: 'residential', access: 'no' }],
  [['G', 'C'], { highway: 'residential' }],
  [['A', 'S1', 'R1'], { highway: 'tertiary' }],
  [['C', 'S3', 'R3'], { highway: 'tertiary' }],
  [['R1', 'R2', 'R3', 'R4', 'R1'], { highway: 'tertiary', junction: 'roundabout' }],
  [['R1', 'M1'], { highway: 'tertiary' }],
  [['M1', 'M2'], { highway: 'motorway' }],
  [['M1', 'M3', 'M2'], { highway: 'unclassified' }],
  [['D', 'K1'], { highway: 'residential' }],
  [['K1', 'K2'], { route: 'ferry' }],
  [['K2', 'K3'], { highway: 'residential' }],
  [['I1', 'I2'], { highway: 'residential' }],
  [['J1', 'J2'], { highway: 'service' }],
]);

describe('routing on hand-built fixtures', () => {
  const tmp = tempDir();
  beforeAll(() => {
    buildRoadNetwork(net, { name: 'fixture', out: tmp.dir });
    loadInto(tmp.dir, ['fixture']);
  });
  afterAll(() => tmp.remove());

  const route = (from: string, to: string, extra: Record<string, unknown> = {}) =>
    task('route', { from: points[from], to: points[to], mode: 'driving', ...extra });

  it('answers the documented shape', () => {
    const r = route('A', 'C');
    expect(Object.keys(r.route).sort()).toEqual(['distance_m', 'duration_s', 'extract', 'geometry', 'legs', 'mode', 'snapped'].sort());
    expect(r.route.geometry.type).toBe('LineString');
    expect(r.route.geometry.coordinates[0]).toEqual([points.A[1], points.A[0]]);
    expect(r.route.extract).toBe('fixture');
    expect(r.route.legs).toHaveLength(1);
    expect(r.route.snapped.from.distance_m).toBe(0);
  });

  it('respects oneway for driving but not for walking', () => {
    const ac = route('A', 'C').route, ca = route('C', 'A').route;
    expect(ac.distance_m).toBeCloseTo(222.4, 0);
    // C→A must go around by E and D (or F–G, which is access=no)
    expect(ca.distance_m).toBeGreaterThan(400);
    expect(ca.geometry.coordinates.map((c: number[]) => c.join())).toContain([points.E[1], points.E[0]].join());
    const walk = route('C', 'A', { mode: 'walk' }).route;
    expect(walk.distance_m).toBeCloseTo(222.4, 0);
  });

  it('never uses an access=no road', () => {
    // from F to G: the direct road is closed, so drive F→A→B→C→G
    const r = route('F', 'G').route;
    expect(r.distance_m).toBeGreaterThan(400);
    const coords = r.geometry.coordinates.map((c: number[]) => c.join());
    expect(coords).toContain([points.B[1], points.B[0]].join());
  });

  it('drives roundabouts one way only (implied oneway)', () => {
    const there = route('S1', 'S3').route, back = route('S3', 'S1').route;
    // S1→S3 must go R1→R2→R3 (long); S3→S1 takes R3→R4→R1 (short) — unless A–C is quicker, which it is not for S1→S3
    expect(there.distance_m).toBeGreaterThan(back.distance_m);
    const walkThere = route('S1', 'S3', { mode: 'walk' }).route;
    expect(walkThere.distance_m).toBeLessThan(there.distance_m);
  });

  it('treats motorways as oneway and keeps walkers and cyclists off them', () => {
    const fwd = route('M1', 'M2').route, rev = route('M2', 'M1').route;
    expect(fwd.duration_s).toBeLessThan(rev.duration_s); // back on the slow track
    const walk = route('M1', 'M2', { mode: 'walk' }).route;
    expect(walk.geometry.coordinates.map((c: number[]) => c.join())).toContain([points.M3[1], points.M3[0]].join());
  });

  it('takes a ferry where tagged', () => {
    const r = route('D', 'K3').route;
    expect(r.distance_m).toBeGreaterThan(500);
    // car.lua: a ferry without duration= goes at 5 km/h, 333 m ≈ 240 s
    expect(r.duration_s).toBeGreaterThan(240);
    expect(r.duration_s).toBeLessThan(300);
  });

  it('routes through via points, one leg each', () => {
    const r = task('route', { from: points.A, to: points.C, via: [points.E], mode: 'driving' }).route;
    expect(r.legs).toHaveLength(2);
    const sum = r.legs[0].distance_m + r.legs[1].distance_m;
    expect(Math.abs(sum - r.distance_m)).toBeLessThan(0.2);
    expect(r.distance_m).toBeGreaterThan(route('A', 'C').route.distance_m);
    expect(r.snapped.via).toHaveLength(1);
  });

  it('starts and ends at the projected points with partial edge costs', () => {
    const mid: [number, number] = [0.0001, 30.0005]; // 11 m north of A–B, half way
    const r = task('route', { from: mid, to: points.C, mode: 'driving' }).route;
    expect(r.snapped.from.lat).toBeCloseTo(0, 6);
    expect(r.snapped.from.distance_m).toBeCloseTo(11.1, 0);
    expect(r.distance_m).toBeCloseTo(166.8, 0);
    // against the oneway: from the middle of A→B back to A is a long way round
    const back = task('route', { from: mid, to: points.A, mode: 'driving' }).route;
    expect(back.distance_m).toBeGreaterThan(400);
  });

  it('answers the error codes', () => {
    expect(route('A', 'I1')).toMatchObject({ status: 400, code: 'no_route' });
    expect(task('route', { from: [0, 30.03], to: points.A, mode: 'driving' })).toMatchObject({ status: 400, code: 'no_road_nearby' });
    expect(task('route', { from: [10, 10], to: [10.1, 10.1], mode: 'driving' })).toMatchObject({ status: 400, code: 'out_of_coverage' });
    expect(task('route', { from: [0, 30.03], to: points.A, mode: 'driving', radius: 10000 }).route).toBeTruthy();
  });

  it('moves a point off a road island onto the main network when the island leads nowhere', () => {
    const r = route('J1', 'A').route;
    expect(r).toBeTruthy();
    expect(r.snapped.from.distance_m).toBeCloseTo(44.5, 0);
    expect(r.snapped.from.lat).toBeCloseTo(points.D[0], 6);
  });

  it('parses maxspeed and direction tags', () => {
    const car = profileFor('driving'), walk = profileFor('walk'), cycle = profileFor('cycle');
    expect(parseMaxspeed('50', CAR)).toBe(50);
    expect(parseMaxspeed('30 mph', CAR)).toBeCloseTo(48.27, 1);
    expect(parseMaxspeed('RU:urban', CAR)).toBe(60);
    expect(car.processWay({ highway: 'primary', oneway: '-1' })).toMatchObject({ forwardMode: 'inaccessible', backwardMode: 'driving' });
    expect(car.processWay({ highway: 'primary', oneway: 'true' })).toMatchObject({ forwardMode: 'driving', backwardMode: 'inaccessible' });
    expect(cycle.processWay({ highway: 'primary', oneway: 'yes', 'oneway:bicycle': 'no' })).toMatchObject({ forwardMode: 'cycling', backwardMode: 'cycling' });
    expect(car.processWay({ highway: 'footway' })).toBeNull();
    expect(walk.processWay({ highway: 'motorway' })).toBeNull();
    // car.lua: private is a restricted road one may drive to, not a closed one; agricultural is closed
    expect(car.processWay({ highway: 'residential', motor_vehicle: 'private' })).toMatchObject({ forwardRestricted: true });
    expect(car.processWay({ highway: 'residential', motor_vehicle: 'agricultural' })).toBeNull();
    expect(walk.processWay({ highway: 'residential', access: 'no', foot: 'yes' })).not.toBeNull();
    expect(car.processWay({ highway: 'primary', maxspeed: '100' })!.forwardSpeed).toBe(80);
  });
});
