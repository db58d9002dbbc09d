// The CH query against plain Dijkstra on the uncontracted edge-based graph: equal costs, an unpacked
// path that is a continuous chain of allowed base edges and turns from source to target whose
// weights sum to the cost, multiple weighted sources and targets, and reuse across the stamp
// wrap-around. Nodes are edge-based nodes (directed base edges).
// On a small SYNTHETIC grid (bench/lib/synthetic.ts) so it runs in a second.
import { describe, it, expect, beforeAll } from 'vitest';
import { buildGraph } from '../../graph-build/contract/build.ts';
import { encode } from '../../src/core/format/index.ts';
import { openGraph, ROUTE_KIND, ROUTE_FORMAT_VERSION, type GraphViews } from '../../src/core/format/route.ts';
import { ChQuery, chEntry } from '../../workers/routing/search/ch-query.ts';
import { DijkstraQuery } from '../../workers/routing/search/dijkstra.ts';
import { between } from '../../workers/routing/search/path-search.ts';
import { syntheticGrid } from '../../bench/lib/synthetic.ts';
import { rng } from '../../bench/lib/rand.ts';

let g: GraphViews, nodes = 0;
beforeAll(() => {
  const built = buildGraph(syntheticGrid(900, 7), 'driving');
  const bytes = encode(ROUTE_KIND, ROUTE_FORMAT_VERSION, built.sections, built.meta);
  g = openGraph(bytes.buffer as ArrayBuffer, 'synthetic-900');
  nodes = g.ebEdge.length;
});

/**
 * Walks an unpacked path that starts after edge-based node a: every step an allowed base edge
 * continuing from the last over an existing turn; returns [last edge-based node, weight].
 */
function walk(a: number, path: Int32Array, n: number): [number, number] {
  const s0 = g.ebEdge[a];
  let at = s0 > 0 ? g.edgeV[s0 - 1] : g.edgeU[-s0 - 1], prev = a, w = 0;
  for (let i = 0; i < n; i++) {
    const e = Math.abs(path[i]) - 1;
    const fwd = path[i] > 0;
    const from = fwd ? g.edgeU[e] : g.edgeV[e], to = fwd ? g.edgeV[e] : g.edgeU[e];
    expect(g.edgeFlags[e] & (fwd ? 1 : 2), `edge ${e} travelled against its direction`).not.toBe(0);
    expect(from, `path breaks at step ${i}`).toBe(at);
    const x = g.edgeEb[2 * e + (fwd ? 0 : 1)];
    let turn = -1;
    for (let k = g.ebOutFirst[prev]; k < g.ebOutFirst[prev + 1]; k++) if (g.ebOut[3 * k] === x) turn = k;
    expect(turn, `no turn ${prev}→${x} at step ${i}`).toBeGreaterThanOrEqual(0);
    w += g.ebOut[3 * turn + 1] + g.edgeWeight[e];
    at = to; prev = x;
  }
  return [prev, w];
}

describe('CH query', () => {
  it('finds the Dijkstra cost and a continuous path of that weight for 150 random pairs', () => {
    const ch = new ChQuery(g), dj = new DijkstraQuery(g);
    const rand = rng(99);
    let reachable = 0, nonTrivial = 0;
    for (let i = 0; i < 150; i++) {
      const a = Math.floor(rand() * nodes), b = Math.floor(rand() * nodes);
      const c = between(ch, a, b), d = between(dj, a, b);
      expect(c, `pair ${a}→${b}`).toBe(d);
      if (c === Infinity) { expect(ch.path().length).toBe(0); continue; }
      reachable++;
      expect(ch.settled).toBeGreaterThan(0);
      const path = ch.path(), n = path.length;
      if (a === b) { expect(c).toBe(0); continue; }
      nonTrivial++;
      expect(n).toBeGreaterThan(0);
      const [last, w] = walk(a, path, n);
      expect(last).toBe(b);
      expect(w).toBe(c);
      expect(ch.startNode()).toBe(a);
      expect(ch.endNode()).toBe(b);
    }
    expect(reachable).toBeGreaterThan(110);
    expect(nonTrivial).toBeGreaterThan(110);
  });

  it('takes several weighted sources and targets and picks the cheapest combination', () => {
    const ch = new ChQuery(g), dj = new DijkstraQuery(g);
    const rand = rng(5);
    for (let i = 0; i < 100; i++) {
      const s = [Math.floor(rand() * nodes), Math.floor(rand() * nodes)], so = [Math.floor(rand() * 60000), Math.floor(rand() * 60000)];
      const t = [Math.floor(rand() * nodes), Math.floor(rand() * nodes)], to = [Math.floor(rand() * 60000), Math.floor(rand() * 60000)];
      for (const q of [ch, dj]) {
        q.reset();
        q.addSource(s[0], so[0]); q.addSource(s[1], so[1]);
        q.addTarget(t[0], to[0]); q.addTarget(t[1], to[1]);
      }
      const c = ch.run();
      expect(c).toBe(dj.run());
      if (c === Infinity) continue;
      const path = ch.path(), n = path.length;
      const start = ch.startNode(), end = ch.endNode();
      expect(s).toContain(start);
      expect(t).toContain(end);
      const w = n ? walk(start, path, n)[1] : 0;
      // The cost is the path's weight plus the offsets of the source and target it used.
      const offS = Math.min(...s.map((x, k) => (x === start ? so[k] : Infinity)));
      const offT = Math.min(...t.map((x, k) => (x === end ? to[k] : Infinity)));
      expect(c).toBe(w + offS + offT);
    }
  });

  it('a source seeded twice keeps its cheaper offset', () => {
    const ch = new ChQuery(g), dj = new DijkstraQuery(g);
    ch.reset(); ch.addSource(10, 5000); ch.addSource(10, 100); ch.addSource(10, 9000); ch.addTarget(500, 0);
    dj.reset(); dj.addSource(10, 100); dj.addTarget(500, 0);
    expect(ch.run()).toBe(dj.run());
  });

  it('stays correct across reuse and the stamp wrap-around', () => {
    const ch = new ChQuery(g), dj = new DijkstraQuery(g);
    const last = nodes - 1;
    const pairs = [[1, last], [last, 1], [17, 433], [433, 17]];
    const want = pairs.map(([a, b]) => between(dj, a, b));
    (ch as unknown as { cur: number }).cur = 0x7ffffffd;
    for (let round = 0; round < 3; round++) {
      pairs.forEach(([a, b], i) => expect(between(ch, a, b)).toBe(want[i]));
    }
  });
});

describe('CH query internals', () => {
  it('the search space stays small: stall-on-demand settles about a tenth of what Dijkstra does', () => {
    const ch = new ChQuery(g), dj = new DijkstraQuery(g);
    const rand = rng(99);
    let chSettled = 0, djSettled = 0;
    for (let i = 0; i < 150; i++) {
      const a = Math.floor(rand() * nodes), b = Math.floor(rand() * nodes);
      between(ch, a, b); chSettled += ch.settled;
      between(dj, a, b); djSettled += dj.settled;
    }
    // Measured on this graph's edge-based nodes: 20,986 against Dijkstra's 221,126. More means the search grew.
    expect(chSettled).toBeLessThanOrEqual(21000);
    expect(chSettled / djSettled).toBeLessThan(0.1);
  });

  it('clears stale stamps when the version counter wraps', () => {
    const ch = new ChQuery(g), dj = new DijkstraQuery(g);
    const rand = rng(3);
    // Query 1 leaves records stamped 1; after the wrap the counter is 1 again.
    between(ch, 0, nodes - 1);
    (ch as unknown as { cur: number }).cur = 0x7ffffffd;
    between(ch, 5, 6);
    ch.reset();
    expect((ch as unknown as { cur: number }).cur).toBe(1);
    for (let i = 0; i < 20; i++) {
      const a = Math.floor(rand() * nodes), b = Math.floor(rand() * nodes);
      if (i) ch.reset();
      ch.addSource(a, 0); ch.addTarget(b, 0);
      expect(ch.run(), `pair ${a}→${b}`).toBe(between(dj, a, b));
    }
  });

  it('grows its unpacking stack for long paths', () => {
    const ch = new ChQuery(g);
    const rand = rng(11);
    const box = ch as unknown as { stack: Int32Array };
    let grew = 0;
    for (let i = 0; i < 50; i++) {
      const a = Math.floor(rand() * nodes), b = Math.floor(rand() * nodes);
      const c = between(ch, a, b);
      if (c === Infinity || a === b) continue;
      box.stack = new Int32Array(2);
      const path = ch.path();
      expect(walk(a, path, path.length)).toEqual([b, c]);
      if (box.stack.length > 2) grew++;
    }
    expect(grew).toBeGreaterThan(5);
  });

  it('reports a missing CH entry instead of unpacking garbage', () => {
    expect(() => chEntry(g, 0, nodes + 5, 1)).toThrow(`CH entry 0/${nodes + 5} missing`);
  });

  it('reset bumps the version rather than clearing records, except at the wrap', () => {
    const ch = new ChQuery(g);
    const box = ch as unknown as { cur: number; meet: number };
    expect([ch.startNode(), ch.endNode(), ch.path().length]).toEqual([-1, -1, 0]); // never run
    between(ch, 1, 2);
    expect(box.cur).toBe(1);
    expect(ch.startNode()).toBe(1);
    ch.reset();
    expect(box.cur).toBe(2);
    expect([ch.startNode(), ch.endNode(), ch.path().length, ch.settled]).toEqual([-1, -1, 0, 0]);
    box.cur = 0x7ffffffd;
    ch.reset();
    expect(box.cur).toBe(0x7ffffffe);
    ch.reset();
    expect(box.cur).toBe(1);
  });

  it('an empty query meets nowhere', () => {
    const ch = new ChQuery(g);
    ch.reset();
    expect(ch.run()).toBe(Infinity);
    expect([ch.settled, ch.startNode(), ch.endNode(), ch.path().length]).toEqual([0, -1, -1, 0]);
    ch.reset(); ch.addSource(3, 7); ch.addTarget(3, 2);
    expect(ch.run()).toBe(9);
    expect([ch.startNode(), ch.endNode(), ch.path().length]).toEqual([3, 3, 0]);
  });
});
