import { describe, expect, it } from 'vitest';
import { rawNetwork } from './helpers.ts';
import { profileSegments } from '../../graph-build/contract/segments.ts';
import { compress } from '../../graph-build/contract/compress.ts';
import { osrmDistance } from '../../graph-build/contract/distance.ts';

const E7 = 1e7;

describe('edgeWeight: the profile weight of each base edge', () => {
  const net = rawNetwork({
    points: { a: [0, 0], b: [0, 1], c: [0, 2], d: [1, 1] },
    ways: [['ab', { name: 'A' }], ['bc', { name: 'C' }], ['bd', { highway: 'service', service: 'alley' }]],
  });
  const g = compress(profileSegments(net, 'driving'));
  const edgeOf = (from: number, to: number) => {
    for (let e = 0; e < g.edges; e++) {
      const u = g.edgeU[e], v = g.edgeV[e];
      const at = (n: number) => [g.nodeLat[n], g.nodeLon[n]].join();
      const p = (i: number) => [Math.round(net.lat[i] * E7), Math.round(net.lon[i] * E7)].join();
      if ((at(u) === p(from) && at(v) === p(to)) || (at(u) === p(to) && at(v) === p(from))) return e;
    }
    throw new Error('no edge');
  };

  it('equals the duration on a road car.lua weighs by time', () => {
    const e = edgeOf(0, 1);
    expect(g.edgeWeight[e]).toBe(g.edgeW[e]);
  });

  it('weighs an alley at half its speed (car.lua routability), in whole tenths', () => {
    const e = edgeOf(1, 3);
    const d = osrmDistance(net.lat[1], net.lon[1], net.lat[3], net.lon[3]);
    const rate = (15 * 0.5) / 3.6; // service 15 km/h, alley penalty 0.5
    expect(g.edgeWeight[e]).toBe(Math.round((d / rate) * 10) * 100);
    expect(g.edgeWeight[e]).toBeGreaterThan(1.9 * g.edgeW[e]);
  });

  it('splits a ferry\'s duration= evenly over its OSM segments whatever their lengths, as OSRM\'s extractor does', () => {
    // b c d e: segments of 4, 1 and 1 grid steps; a road meets the ferry at c, so b–c is an edge of its own
    // no highway tag: rawNetwork's default one is taken off
    const ferry = { route: 'ferry', duration: '0:10', highway: undefined as unknown as string };
    const n2 = rawNetwork({
      points: { b: [0, 0], c: [0, 4], d: [0, 5], e: [0, 6], x: [1, 4] },
      ways: [['bcde', ferry], ['cx', {}]],
    });
    const g2 = compress(profileSegments(n2, 'driving'));
    const at = (i: number) => [Math.round(n2.lat[i] * E7), Math.round(n2.lon[i] * E7)].join();
    const node = (n: number) => [g2.nodeLat[n], g2.nodeLon[n]].join();
    const durationBetween = (p: number, q: number) => {
      for (let e = 0; e < g2.edges; e++) if (node(g2.edgeU[e]) === at(p) && node(g2.edgeV[e]) === at(q)) return g2.edgeW[e];
      throw new Error('no edge');
    };
    expect(durationBetween(0, 1)).toBe(200_000); // b–c: one of three segments of 600 s
    expect(durationBetween(1, 3)).toBe(400_000); // c–e: the other two
  });

  it('splits an edge whose directions weigh differently into twins', () => {
    // the same road, faster one way (maxspeed:forward): two durations and two weights
    const n2 = rawNetwork({ points: { a: [0, 0], b: [0, 1] }, ways: [['ab', { 'maxspeed:forward': '30' }]] });
    const g2 = compress(profileSegments(n2, 'driving'));
    expect(g2.edges).toBe(2);
    expect(g2.edgeWeight[0]).not.toBe(g2.edgeWeight[1]);
  });
});
