import { describe, expect, it } from 'vitest';
import { rawNetwork } from './helpers.ts';
import { profileSegments } from '../../graph-build/contract/segments.ts';
import { compress } from '../../graph-build/contract/compress.ts';
import { buildTurns } from '../../graph-build/turns/index.ts';
import { profileFor } from '../../graph-build/profiles/index.ts';
import { edgeBased, dirIndex } from '../../graph-build/contract/edge-based.ts';

// Two via-way restrictions with the same from and via ways: both hold (OSRM's car/restrictions
// "Two times same way").
describe('via-way restrictions that begin alike', () => {
  const m = {
    points: { a: [0, 0], b: [0, 2], c: [0, 4], f: [0, 8], d: [2, 4], e: [2, 6], h: [-2, 2] } as Record<string, [number, number]>,
    ways: [['ab', {}], ['bc', {}], ['bh', {}], ['cd', { oneway: 'yes' }], ['ce', { oneway: 'yes' }], ['cf', { oneway: 'yes' }]] as [string, Record<string, string>][],
  };

  /** The directed edges reachable from a→b by two turns (onto b→c, or its copy, then on), as "x>y" names. */
  function afterTwoTurns(relations: { from: string; viaWays: string[]; to: string; restriction: string }[]) {
    const net = rawNetwork({ ...m, relations });
    const names = Object.keys(m.points);
    const segs = profileSegments(net, 'driving');
    const base = compress(segs);
    const turns = buildTurns(net, base, profileFor('driving'));
    const eb = edgeBased(base, turns);
    const sn = base.shapeNode!;
    const name = (d: number) => {
      const e = Math.abs(d) - 1, s0 = base.edgeShape[e], s1 = base.edgeShape[e + 1] - 1;
      return (d > 0 ? [sn[s0], sn[s1]] : [sn[s1], sn[s0]]).map((r) => names[r]).join('>');
    };
    let start = -1;
    for (let d = 1; d <= base.edges; d++) for (const s of [d, -d]) if (name(s) === 'a>b') start = eb.edgeEb[dirIndex(s)];
    const heads = (v: number) => Array.from({ length: eb.outFirst[v + 1] - eb.outFirst[v] }, (_, k) => eb.out[3 * (eb.outFirst[v] + k)]);
    const out = new Set<string>();
    for (const x of heads(start)) if (name(eb.ebEdge[x]) === 'b>c') for (const y of heads(x)) out.add(name(eb.ebEdge[y]));
    return [...out].sort();
  }

  it('leaves only c→f (and the u-turn) after a→b→c when both c→d and c→e are forbidden', () => {
    expect(afterTwoTurns([])).toEqual(['c>b', 'c>d', 'c>e', 'c>f']);
    expect(afterTwoTurns([
      { from: 'ab', viaWays: ['bc'], to: 'ce', restriction: 'no_right_turn' },
      { from: 'ab', viaWays: ['bc'], to: 'cd', restriction: 'no_right_turn' },
    ])).toEqual(['c>b', 'c>f']);
  });

  it('keeps only the allowed turn of an only_ restriction that shares its beginning with a no_ one', () => {
    expect(afterTwoTurns([
      { from: 'ab', viaWays: ['bc'], to: 'ce', restriction: 'no_right_turn' },
      { from: 'ab', viaWays: ['bc'], to: 'cd', restriction: 'only_right_turn' },
    ])).toEqual(['c>d']);
  });
});
