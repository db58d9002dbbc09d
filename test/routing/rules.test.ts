// car.lua's node and direction rules on the node-based graph, from .osm XML files as OSRM's test
// suite writes them: a bollard blocks the road through it, a gate costs 60 s, a traffic signal 2 s
// (only in its direction when it has one), maxspeed:forward binds one direction; driving_tracks
// drives highway=track and says so, the /osrm/ layer never uses it.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { readOsm } from '../../graph-build/osm/read.ts';
import { tempDir, loadInto, task } from './helpers.ts';

type Nodes = Record<string, [number, number, Record<string, string>?]>;
type Ways = [string, Record<string, string>][];

/** An .osm file: named nodes at (row, col) × 0.001° from (lat0, lng0), ways as space-separated node names. */
function osmXml(lat0: number, lng0: number, nodes: Nodes, ways: Ways, relations = ''): string {
  const ids = new Map(Object.keys(nodes).map((k, i) => [k, i + 1]));
  const tag = (t: Record<string, string> = {}) => Object.entries(t).map(([k, v]) => `<tag k="${k}" v="${v}"/>`).join('');
  const ns = Object.entries(nodes).map(([k, [r, c, t]]) =>
    `<node id="${ids.get(k)}" lat="${(lat0 + r * 0.001).toFixed(7)}" lon="${(lng0 + c * 0.001).toFixed(7)}">${tag(t)}</node>`);
  const ws = ways.map(([refs, t], i) => `<way id="${100 + i}">${refs.split(' ').map((r) => `<nd ref="${ids.get(r)}"/>`).join('')}${tag(t)}</way>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="rules.test">\n${[...ns, ...ws].join('\n')}\n${relations}</osm>\n`;
}

const at = (lat0: number, lng0: number, nodes: Nodes) => (n: string): [number, number] => [lat0 + nodes[n][0] * 0.001, lng0 + nodes[n][1] * 0.001];

// 1: a bollard at B on A-B-C; the way round by D and E is longer
const BARRIER: Nodes = { A: [0, 0], B: [0, 1, { barrier: 'bollard' }], C: [0, 2], D: [1, 0], E: [1, 2] };
// 2: one primary road with a gate, a signal, a forward-only signal and nothing, one after the other (4 × 222 m)
const PENALTY: Nodes = {
  P0: [0, 0], G: [0, 1, { barrier: 'gate' }], P1: [0, 2], S: [0, 3, { highway: 'traffic_signals' }], P2: [0, 4],
  F: [0, 5, { highway: 'traffic_signals', 'traffic_signals:direction': 'forward' }], P3: [0, 6], Q: [0, 7], P4: [0, 8],
  M0: [2, 0], M1: [2, 4],
};
// 3: a track between two primary roads
const TRACK: Nodes = { R0: [0, 0], R1: [0, 4], T0: [0, 2], T1: [3, 2], U0: [3, 0], U1: [3, 4] };

// 4: private service roads at both ends of a primary one (car.lua: no waypoint snaps to them)
const PRIVATE: Nodes = { A: [0, 0], B: [0, 2], C: [0, 4], D: [0, 6] };

describe('car.lua node rules, directions and driving_tracks', () => {
  const tmp = tempDir();
  const files: Record<string, string> = {};
  beforeAll(async () => {
    files.barrier = join(tmp.dir, 'barrier.osm');
    writeFileSync(files.barrier, osmXml(0, 20, BARRIER, [['A B C', { highway: 'primary' }], ['A D E C', { highway: 'residential' }]],
      '<relation id="900"><member type="way" ref="100" role="from"/><member type="node" ref="3" role="via"/><member type="way" ref="101" role="to"/><tag k="type" v="restriction"/><tag k="restriction" v="no_left_turn"/></relation>\n'));
    files.penalty = join(tmp.dir, 'penalty.osm');
    writeFileSync(files.penalty, osmXml(2, 20, PENALTY, [
      ['P0 G P1 S P2 F P3 Q P4', { highway: 'primary' }],
      ['M0 M1', { highway: 'primary', 'maxspeed:forward': '30' }],
    ]));
    files.track = join(tmp.dir, 'track.osm');
    writeFileSync(files.track, osmXml(4, 20, TRACK, [['R0 T0 R1', { highway: 'primary' }], ['U0 T1 U1', { highway: 'primary' }], ['T0 T1', { highway: 'track' }]]));
    await buildRoadExtract({ input: files.barrier, name: 'barrier', out: tmp.dir, profiles: ['driving'] });
    await buildRoadExtract({ input: files.penalty, name: 'penalty', out: tmp.dir, profiles: ['driving'] });
    await buildRoadExtract({ input: files.track, name: 'track', out: tmp.dir, profiles: ['driving', 'driving_tracks'] });
    files.private = join(tmp.dir, 'private.osm');
    writeFileSync(files.private, osmXml(6, 20, PRIVATE, [['A B', { highway: 'service', access: 'private' }], ['B C', { highway: 'primary' }],
      ['C D', { highway: 'service', access: 'private' }]]));
    await buildRoadExtract({ input: files.private, name: 'private', out: tmp.dir, profiles: ['driving'] });
    loadInto(tmp.dir, ['barrier', 'penalty', 'track', 'private']);
  }, 120_000);
  afterAll(() => tmp.remove());

  it('reads .osm XML with node tags and restriction relations', async () => {
    const { net, info } = await readOsm(files.barrier);
    expect(net.ways).toHaveLength(2);
    expect([...net.nodeTags!.values()]).toEqual([{ barrier: 'bollard' }]);
    expect(net.relations).toEqual([{ id: 900, tags: { type: 'restriction', restriction: 'no_left_turn' },
      members: [{ type: 'way', ref: 100, role: 'from' }, { type: 'node', ref: 3, role: 'via' }, { type: 'way', ref: 101, role: 'to' }] }]);
    expect(info.writingProgram).toBe('rules.test');
  });

  it('reads an empty tag value as no tag, as OSRM\'s profiles do (a gate with access="" keeps its penalty)', async () => {
    const file = join(tmp.dir, 'empty.osm');
    writeFileSync(file, osmXml(0, 30, { A: [0, 0], B: [0, 1, { barrier: 'gate', access: '' }], C: [0, 2] },
      [['A B C', { highway: 'primary', maxspeed: '' }], ['C A', { highway: '', route: 'ferry' }]]));
    const { net } = await readOsm(file);
    expect([...net.nodeTags!.values()]).toEqual([{ barrier: 'gate' }]);
    expect(net.ways.map((w) => w.tags)).toEqual([{ highway: 'primary' }, { route: 'ferry' }]);
  });

  it('snaps to a private service road only with snapping=any (OSRM\'s is_startpoint and its override)', () => {
    const p = at(6, 20, PRIVATE);
    const one: [number, number] = [p('A')[0], p('A')[1] + 0.001], two: [number, number] = [p('C')[0], p('C')[1] + 0.001];
    const plain = task('route', { from: one, to: two, mode: 'driving' }).route;
    expect(plain.distance_m).toBeCloseTo(222, -1); // B to C: both points moved onto the primary road
    const any = task('route', { from: one, to: two, mode: 'driving', snapping: 'any' }).route;
    expect(any.distance_m).toBeCloseTo(444, -1); // from the point on A–B to the point on C–D
  });

  it('never passes a bollard, but reaches it from both sides', () => {
    const p = at(0, 20, BARRIER);
    const r = task('route', { from: p('A'), to: p('C'), mode: 'driving' }).route;
    expect(r.geometry.coordinates.map((c: number[]) => c.join())).toContain([p('D')[1], p('D')[0]].join());
    expect(r.distance_m).toBeGreaterThan(400);
    // 11 m before the bollard on either side: straight there, not round the block
    const west: [number, number] = [p('B')[0], p('B')[1] - 0.0001], east: [number, number] = [p('B')[0], p('B')[1] + 0.0001];
    expect(task('route', { from: p('A'), to: west, mode: 'driving' }).route.distance_m).toBeCloseTo(100, -1);
    expect(task('route', { from: p('C'), to: east, mode: 'driving' }).route.distance_m).toBeCloseTo(100, -1);
  });

  const legTime = (from: string, to: string) => {
    const p = at(2, 20, PENALTY);
    const r = task('route', { from: p(from), to: p(to), mode: 'driving' }).route;
    return { s: r.duration_s, free: r.distance_m / (65 / 3.6) };
  };

  it('charges 60 s through a gate and 2 s through a traffic signal, both ways', () => {
    for (const [a, b, extra] of [['P0', 'P1', 60], ['P1', 'P0', 60], ['P1', 'P2', 2], ['P2', 'P1', 2]] as const) {
      const t = legTime(a, b);
      expect(t.s - t.free, `${a}→${b}`).toBeCloseTo(extra, 0);
    }
  });

  it('charges a directed signal only in its direction', () => {
    const fw = legTime('P2', 'P3'), bw = legTime('P3', 'P2');
    expect(fw.s - fw.free).toBeCloseTo(2, 0);
    expect(bw.s - bw.free).toBeCloseTo(0, 0);
    const plain = legTime('P3', 'P4');
    expect(plain.s - plain.free).toBeCloseTo(0, 0);
  });

  it('drives maxspeed:forward one way only', () => {
    const p = at(2, 20, PENALTY);
    const fw = task('route', { from: p('M0'), to: p('M1'), mode: 'driving' }).route;
    const bw = task('route', { from: p('M1'), to: p('M0'), mode: 'driving' }).route;
    expect(fw.distance_m / fw.duration_s * 3.6).toBeCloseTo(24, 0); // 0.8 × 30
    expect(bw.distance_m / bw.duration_s * 3.6).toBeCloseTo(65, 0); // primary
    // from the middle of the road, each way at its own speed (the point is on both one-way halves)
    const mid: [number, number] = [p('M0')[0], (p('M0')[1] + p('M1')[1]) / 2];
    const toM1 = task('route', { from: mid, to: p('M1'), mode: 'driving' }).route, toM0 = task('route', { from: mid, to: p('M0'), mode: 'driving' }).route;
    expect(toM1.distance_m).toBeCloseTo(fw.distance_m / 2, 0);
    expect(toM0.distance_m).toBeCloseTo(fw.distance_m / 2, 0);
    expect(toM0.distance_m / toM0.duration_s * 3.6).toBeCloseTo(65, -1);
  });

  it('drives highway=track only in driving_tracks, says so, and keeps the OSRM layer on car.lua', () => {
    const p = at(4, 20, TRACK);
    const r = task('route', { from: p('T0'), to: p('T1'), mode: 'driving' }).route;
    expect(r.profile).toBe('driving_tracks');
    expect(r.distance_m).toBeCloseTo(333, -1);
    expect(r.duration_s).toBeCloseTo(333.6 / (15 / 3.6), -1);
    // car.lua refuses the track: the OSRM layer's nearest road to the track's middle is a primary road 167 m away
    const mid: [number, number] = [(p('T0')[0] + p('T1')[0]) / 2, p('T0')[1]];
    const near = task('osrm_nearest', { coordinate: [mid[1], mid[0]], mode: 'driving', number: 1 });
    expect(near.code).toBe('Ok');
    expect(near.waypoints[0].distance).toBeGreaterThan(160);
    expect(task('route', { from: mid, to: p('T1'), mode: 'driving' }).route.snapped.from.distance_m).toBe(0);
  });
});
