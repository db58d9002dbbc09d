import { describe, expect, it } from 'vitest';
import { rawNetwork } from './helpers.ts';
import { profileSegments } from '../../graph-build/contract/segments.ts';

// Two ways over the same nodes keep one segment per direction, as OSRM's extractor keeps them.
describe('parallel segments of two ways over the same nodes', () => {
  const points = { i: [0, 0], c: [0, 2], d: [0, 4], e: [0, 6] } as Record<string, [number, number]>;
  const waysOf = (segs: ReturnType<typeof profileSegments>, net: ReturnType<typeof rawNetwork>) => {
    const out: string[] = [];
    for (let k = 0; k < segs.count; k++) {
      const names = Object.keys(points);
      out.push(`${names[segs.a[k]]}${names[segs.b[k]]}:${segs.flags[k]}:${net.ways[segs.way![k]].tags.name}`);
    }
    return out.sort();
  };

  it('keeps, at equal cost, the way whose name sorts first, whatever its access (OSRM: name order)', () => {
    const net = rawNetwork({ points, ways: [['icde', { name: 'icde' }], ['cde', { name: 'cde', access: 'destination' }]] });
    expect(waysOf(profileSegments(net, 'driving'), net)).toEqual(['cd:3:cde', 'de:3:cde', 'ic:3:icde']);
  });

  it('keeps the cheaper of two parallel segments in each direction', () => {
    // the residential way is slower: the primary one stays, whatever the names
    const net = rawNetwork({ points, ways: [['icde', { name: 'b' }], ['cde', { name: 'a', highway: 'residential' }]] });
    expect(waysOf(profileSegments(net, 'driving'), net)).toEqual(['cd:3:b', 'de:3:b', 'ic:3:b']);
  });

  it('keeps each direction from the way that is cheaper that way', () => {
    // a oneway primary and a two-way residential over c–d: c→d on the primary, d→c on the residential
    const net = rawNetwork({ points, ways: [['icd', { name: 'p', oneway: 'yes' }], ['cd', { name: 'r', highway: 'residential' }]] });
    expect(waysOf(profileSegments(net, 'driving'), net)).toEqual(['cd:1:p', 'cd:2:r', 'ic:1:p']);
  });
});
