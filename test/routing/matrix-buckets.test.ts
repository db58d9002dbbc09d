// The bucket many-to-many search over the edge-based hierarchy against the reference consumer,
// leg() over the CH query: every cell has the leg's routing weight, its time and its metres, for
// points on random edges, on the same edge (ahead of and behind each other) and on one-way edges.
// The graph is a SYNTHETIC grid (bench/lib/synthetic.ts) whose edges weigh other than their time and
// whose turns have weights and durations of their own, so a cell that minimised time, or that
// took its time from the weights, would differ from the leg.
import { describe, it, expect, beforeAll } from 'vitest';
import { buildGraph } from '../../graph-build/contract/build.ts';
import { plainTurns } from '../../graph-build/contract/edge-based.ts';
import type { BaseGraph } from '../../graph-build/contract/compress.ts';
import { encode } from '../../src/core/format/index.ts';
import { openGraph, ROUTE_KIND, ROUTE_FORMAT_VERSION, type GraphViews } from '../../src/core/format/route.ts';
import { LoadedGraph } from '../../workers/routing/graphs.ts';
import { ChQuery } from '../../workers/routing/search/ch-query.ts';
import { leg } from '../../workers/routing/search/legs.ts';
import { manyToMany } from '../../workers/routing/matrix/many-to-many.ts';
import type { Snap } from '../../workers/routing/locate/snap.ts';
import { syntheticGrid } from '../../bench/lib/synthetic.ts';
import { rng } from '../../bench/lib/rand.ts';

let g: GraphViews, graph: LoadedGraph;
beforeAll(() => {
  const rand = rng(41);
  const built = buildGraph(syntheticGrid(900, 7), 'driving', {
    turns: (base: BaseGraph) => {
      // a routing weight per edge that is not its time (as car.lua's routability), read by the build after the turns
      base.edgeWeight = Int32Array.from(base.edgeW, (w) => Math.round(w * (0.5 + 2 * rand())));
      const t = plainTurns(base);
      for (let i = 0; i < t.count; i++) { t.weight[i] = Math.floor(rand() * 8000); t.duration[i] = Math.floor(rand() * 8000); }
      return t;
    },
  });
  g = openGraph(encode(ROUTE_KIND, ROUTE_FORMAT_VERSION, built.sections, built.meta).buffer as ArrayBuffer, 'synthetic-900-weighted');
  graph = new LoadedGraph('synthetic-900-weighted', 'driving', g);
});

const snapAt = (edge: number, frac: number): Snap => ({ edge, pt: g.edgeShape[edge], pos: frac * g.edgeDist[edge], frac, lat: 0, lng: 0, dist: 0 });

describe('bucket many-to-many on the edge-based graph', () => {
  it('the graph weighs edges and turns other than their time', () => {
    let differ = 0;
    for (let e = 0; e < g.edgeW.length; e++) if (g.edgeWeight[e] !== g.edgeW[e]) differ++;
    expect(differ).toBeGreaterThan(g.edgeW.length / 2);
    let turns = 0;
    for (let k = 0; k < g.ebOut.length; k += 3) if (g.ebOut[k + 1] !== g.ebOut[k + 2]) turns++;
    expect(turns).toBeGreaterThan(g.ebOut.length / 6);
  });

  it('every cell has the weight, time and metres of leg() between the two points', () => {
    const rand = rng(7), E = g.edgeU.length, q = new ChQuery(g);
    const pts: Snap[] = [];
    for (let i = 0; i < 30; i++) pts.push(snapAt(Math.floor(rand() * E), rand()));
    // pairs on one edge: a target ahead of its source, one behind it (a loop), on a one-way edge too
    const oneway = Array.from({ length: E }, (_, e) => e).find((e) => (g.edgeFlags[e] & 3) === 1)!;
    pts.push(snapAt(pts[0].edge, Math.min(1, pts[0].frac + 0.3)), snapAt(pts[0].edge, pts[0].frac / 2));
    pts.push(snapAt(oneway, 0.2), snapAt(oneway, 0.7));
    const n = pts.length, cells = n * n;
    const ms = new Float64Array(cells).fill(Infinity), metres = new Float64Array(cells).fill(Infinity), weight = new Float64Array(cells).fill(Infinity);
    manyToMany(graph, pts.map((s) => [s]), pts.map((s) => [s]), ms, metres, weight);
    let routed = 0, none = 0, timeNotWeight = 0;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const l = leg(g, q, pts[i], pts[j]), k = i * n + j;
      if (!l) { expect(ms[k], `${i}→${j}`).toBe(Infinity); none++; continue; }
      expect(weight[k], `${i}→${j} weight`).toBe(l.weight);
      expect(ms[k], `${i}→${j} ms`).toBe(l.cost);
      expect(metres[k], `${i}→${j} metres`).toBeCloseTo(l.dist, 1);
      if (l.cost !== l.weight) timeNotWeight++;
      routed++;
    }
    expect(routed).toBeGreaterThan(0.8 * cells);
    expect(timeNotWeight).toBeGreaterThan(0.8 * routed);
    // the one-way pair: ahead along the edge directly, back to the start only by a loop round the block
    const a = n - 2, b = n - 1;
    expect(metres[a * n + b]).toBeCloseTo(0.5 * g.edgeDist[oneway], 3);
    expect(metres[b * n + a]).toBeGreaterThan(g.edgeDist[oneway]);
    void none;
  });

  it('a point with two candidates takes the lighter one per cell', () => {
    const rand = rng(8), E = g.edgeU.length, q = new ChQuery(g);
    const two = Array.from({ length: 12 }, () => [snapAt(Math.floor(rand() * E), rand()), snapAt(Math.floor(rand() * E), rand())]);
    const n = two.length, cells = n * n;
    const ms = new Float64Array(cells).fill(Infinity), metres = new Float64Array(cells).fill(Infinity), weight = new Float64Array(cells).fill(Infinity);
    manyToMany(graph, two, two, ms, metres, weight);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      let best: { weight: number; cost: number } | null = null;
      for (const s of two[i]) for (const t of two[j]) {
        const l = leg(g, q, s, t);
        if (l && (!best || l.weight < best.weight)) best = l;
      }
      const k = i * n + j;
      expect(weight[k], `${i}→${j}`).toBe(best ? best.weight : Infinity);
      if (best) expect(ms[k], `${i}→${j} ms`).toBe(best.cost);
    }
  });
});
