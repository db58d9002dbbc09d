import { describe, expect, it } from 'vitest';
import { build, carAnglePenalty, ms } from './helpers.ts';

// A T junction: a–j–b west to east, j–s to the south.
const T = { points: { a: [0, 0], j: [0, 1], b: [0, 2], s: [1, 1] } as Record<string, [number, number]>, ways: [['ajb', {}], ['js', {}]] as [string, Record<string, string>][] };

describe('turn angles and u-turns (car.lua)', () => {
  it('charges the sigmoid of the turn angle at a junction of three roads', () => {
    const { turns } = build(T);
    // eastbound at j: south is a right turn (turn.angle 90), north of nothing; westbound: south is a left (-90)
    expect(turns.get('a>j>s')).toEqual({ duration: ms(carAnglePenalty(90)), weight: ms(carAnglePenalty(90)) });
    expect(turns.get('b>j>s')!.duration).toBe(ms(carAnglePenalty(-90)));
    expect(turns.get('a>j>b')!.duration).toBe(ms(carAnglePenalty(0)));
    expect(turns.get('b>j>s')!.duration).toBeGreaterThan(turns.get('a>j>s')!.duration);
  });

  it('allows u-turns at dead ends only, with the u-turn penalty', () => {
    const { turns } = build(T);
    expect(turns.get('j>s>j')!.duration).toBe(ms(carAnglePenalty(180) + 20));
    expect(turns.get('j>a>j')).toBeDefined();
    expect(turns.has('a>j>a')).toBe(false);
    expect(turns.has('s>j>s')).toBe(false);
  });

  it('adds no angle penalty where only two roads meet', () => {
    // a bend of 90° at j, where the road changes name (so j stays a graph node)
    const { turns } = build({ points: { a: [0, 0], j: [0, 1], s: [1, 1] }, ways: [['aj', { name: 'A' }], ['js', { name: 'S' }]] });
    expect(turns.get('a>j>s')!.duration).toBe(0);
  });
});

describe('obstacles on the turns through their node', () => {
  it('charges a traffic signal on every turn through it', () => {
    const { turns } = build({ ...T, nodes: { j: { highway: 'traffic_signals' } } });
    expect(turns.get('a>j>b')!.duration).toBe(ms(2 + carAnglePenalty(0)));
    expect(turns.get('a>j>s')!.duration).toBe(ms(2 + carAnglePenalty(90)));
  });

  it('charges a directed signal only on traffic moving its way', () => {
    // a signal in the middle of a plain road, bound to traffic along a→b
    const { turns } = build({ points: { a: [0, 0], j: [0, 1], b: [0, 2] }, ways: [['ajb', {}]], nodes: { j: { highway: 'traffic_signals', 'traffic_signals:direction': 'forward' } } });
    expect(turns.get('a>j>b')!.duration).toBe(2000);
    expect(turns.get('b>j>a')!.duration).toBe(0);
  });

  it('lets no turn pass a barrier, but turns round before it', () => {
    const { turns } = build({ points: { a: [0, 0], j: [0, 1], b: [0, 2] }, ways: [['ajb', {}]], nodes: { j: { barrier: 'bollard' } } });
    expect(turns.has('a>j>b')).toBe(false);
    expect(turns.has('b>j>a')).toBe(false);
    expect(turns.get('a>j>a')!.duration).toBe(ms(carAnglePenalty(180) + 20));
    expect(turns.get('b>j>b')).toBeDefined();
  });
});

describe('restrictions', () => {
  // features/car/restrictions.feature, "Car - No left turn"
  const cross = {
    points: { a: [0, 1], d: [1, 0], j: [1, 1], b: [1, 2], c: [2, 1] } as Record<string, [number, number]>,
    ways: [['cj', { oneway: 'yes' }], ['aj', { oneway: '-1' }], ['dj', { oneway: '-1' }], ['bj', { oneway: '-1' }]] as [string, Record<string, string>][],
  };

  it('removes the turn a no_* restriction names and keeps the others', () => {
    const free = build(cross).turns;
    expect(free.has('c>j>d')).toBe(true);
    const { turns } = build({ ...cross, relations: [{ from: 'cj', viaNode: 'j', to: 'dj', restriction: 'no_left_turn' }] });
    expect(turns.has('c>j>d')).toBe(false);
    expect(turns.has('c>j>a')).toBe(true);
    expect(turns.has('c>j>b')).toBe(true);
  });

  it('keeps only the named turn of an only_* restriction', () => {
    const { turns } = build({ ...cross, relations: [{ from: 'cj', viaNode: 'j', to: 'aj', restriction: 'only_straight_on' }] });
    expect([...turns.keys()].filter((k) => k.startsWith('c>j>'))).toEqual(['c>j>a']);
  });

  it('reads no_*_on_red as no restriction', () => {
    const { turns } = build({ ...cross, relations: [{ from: 'cj', viaNode: 'j', to: 'dj', restriction: 'no_right_turn_on_red' }] });
    expect(turns.has('c>j>d')).toBe(true);
  });

  it('drops an only_* restriction whose turn cannot be driven, as OSRM does', () => {
    // only_straight_on onto aj, which is one-way towards j: the restriction is void, every turn stays
    const { turns } = build({ ...cross, ways: [['cj', { oneway: 'yes' }], ['aj', { oneway: 'yes' }], ['dj', { oneway: '-1' }], ['bj', { oneway: '-1' }]],
      relations: [{ from: 'cj', viaNode: 'j', to: 'aj', restriction: 'only_straight_on' }] });
    expect(turns.has('c>j>d')).toBe(true);
    expect(turns.has('c>j>b')).toBe(true);
  });

  it('returns a restriction over a via way as directed edges', () => {
    // a–b–c–d along the top, b–e and c–f down: no u-turn e→b→c→f through the via way bc
    const m = {
      points: { a: [0, 0], b: [0, 1], c: [0, 2], d: [0, 3], e: [1, 1], f: [1, 2] } as Record<string, [number, number]>,
      ways: [['ab', {}], ['bc', {}], ['cd', {}], ['eb', {}], ['cf', {}]] as [string, Record<string, string>][],
      relations: [{ from: 'eb', viaWays: ['bc'], to: 'cf', restriction: 'no_u_turn' }],
    };
    const { viaWay, turns } = build(m);
    expect(viaWay).toEqual([{ from: 'e>b', via: ['b>c'], to: 'c>f', only: false }]);
    // the turns themselves stay: the edge-based stage enforces the path
    expect(turns.has('e>b>c')).toBe(true);
    expect(turns.has('b>c>f')).toBe(true);
  });

  it('weighs a turn into a destination-only road as max_turn_weight', () => {
    const { turns } = build({ ...T, ways: [['ajb', {}], ['js', { access: 'destination' }]] });
    const t = turns.get('a>j>s')!;
    expect(t.duration).toBe(ms(carAnglePenalty(90)));
    expect(t.weight).toBe(3276700);
    expect(turns.get('s>j>a')!.weight).toBe(turns.get('s>j>a')!.duration);
  });
});

describe('foot and bicycle turns', () => {
  it('charges walkers a u-turn penalty and nothing for angles', () => {
    const { turns } = build(T, 'walk');
    expect(turns.get('a>j>s')!.duration).toBe(0);
    expect(turns.get('j>s>j')!.duration).toBe(2000);
  });

  it('charges cyclists the square of the angle', () => {
    const { turns } = build(T, 'cycle');
    // bicycle.lua: (angle/90)² · 6 / 1.4 to the right
    expect(turns.get('a>j>s')!.duration).toBe(ms(6 / 1.4));
    expect(turns.get('b>j>s')!.duration).toBe(ms(6 * 1.4));
  });
});

describe('dual carriageways (OSRM merges their halves)', () => {
  // a two-way road w–j that splits at j into two one-way halves 11 m apart, all named Main
  const dual = {
    points: { w: [0, 0], j: [0, 1], n: [-0.05, 1.2], m: [-0.05, 3], t: [0.05, 3], s: [0.05, 1.2] } as Record<string, [number, number]>,
    ways: [['wj', { name: 'Main' }], ['jnm', { name: 'Main', oneway: 'yes' }], ['tsj', { name: 'Main', oneway: 'yes' }]] as [string, Record<string, string>][],
  };

  it('makes turning from one half into the other a u-turn, and going on straight free (as osrm-extract does)', () => {
    const { turns } = build(dual);
    // osrm-extract on this map: s→j→n 27.4 s, s→j→w 0, w→j→n 0
    expect(turns.get('s>j>n')!.duration).toBe(27400);
    expect(turns.get('s>j>w')!.duration).toBe(0);
    expect(turns.get('w>j>n')!.duration).toBe(0);
  });

  it('does not merge halves of different names', () => {
    const { turns } = build({ ...dual, ways: [['wj', { name: 'Main' }], ['jnm', { name: 'Main', oneway: 'yes' }], ['tsj', { name: 'Other', oneway: 'yes' }]] });
    expect(turns.get('s>j>n')!.duration).toBeLessThan(27400);
  });
});
