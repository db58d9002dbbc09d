// The isochrone's one-to-all search and the via search of alternatives on the edge-based graph,
// against the reference consumer, leg() over the CH query. The graph is a SYNTHETIC grid
// (bench/lib/synthetic.ts) whose edges weigh other than their time and whose turns have weights and
// durations of their own, so a search that minimised time, left turns out or took its time from the
// weights would differ from the leg.
import { describe, it, expect, beforeAll } from 'vitest';
import { buildGraph } from '../../graph-build/contract/build.ts';
import { plainTurns } from '../../graph-build/contract/edge-based.ts';
import type { BaseGraph } from '../../graph-build/contract/compress.ts';
import { encode } from '../../src/core/format/index.ts';
import { openGraph, ROUTE_KIND, ROUTE_FORMAT_VERSION, E7, type GraphViews } from '../../src/core/format/route.ts';
import { LoadedGraph } from '../../workers/routing/graphs.ts';
import { ChQuery } from '../../workers/routing/search/ch-query.ts';
import { leg } from '../../workers/routing/search/legs.ts';
import { reach } from '../../workers/routing/isochrone/reach.ts';
import { ViaSearch, STRETCH, type Seed } from '../../workers/routing/search/alternatives.ts';
import { sourceSeeds, targetSeeds, aheadOf, upTo, weightShare } from '../../workers/routing/locate/seeds.ts';
import type { Snap } from '../../workers/routing/locate/snap.ts';
import { syntheticGrid } from '../../bench/lib/synthetic.ts';
import { rng } from '../../bench/lib/rand.ts';

let g: GraphViews, graph: LoadedGraph;
beforeAll(() => {
  const rand = rng(43);
  const built = buildGraph(syntheticGrid(900, 7), 'driving', {
    turns: (base: BaseGraph) => {
      // a routing weight per edge that is not its time (as car.lua's routability), read by the build after the turns
      (base as BaseGraph & { edgeWeight?: Int32Array }).edgeWeight = Int32Array.from(base.edgeW, (w) => Math.round(w * (0.5 + 2 * rand())));
      const t = plainTurns(base);
      for (let i = 0; i < t.count; i++) { t.weight[i] = Math.floor(rand() * 8000); t.duration[i] = Math.floor(rand() * 8000); }
      return t;
    },
  });
  g = openGraph(encode(ROUTE_KIND, ROUTE_FORMAT_VERSION, built.sections, built.meta).buffer as ArrayBuffer, 'synthetic-900-weighted');
  graph = new LoadedGraph('synthetic-900-weighted', 'driving', g);
}, 120_000);

const snapAt = (edge: number, frac: number): Snap => ({ edge, pt: g.edgeShape[edge], pos: frac * g.edgeDist[edge], frac, lat: 0, lng: 0, dist: 0 });
/** Midway along the first segment of edge e: where a point snaps onto e. */
const pointOn = (e: number): [number, number] => {
  const p = g.edgeShape[e];
  return [(g.shapeLat[p] + g.shapeLat[p + 1]) / 2 / E7, (g.shapeLon[p] + g.shapeLon[p + 1]) / 2 / E7];
};

describe('edge-based consumers', () => {
  it('isochrone: every point is worth the time of the leg /route drives to it, within the limit and beyond', () => {
    const rand = rng(9), E = g.edgeU.length, q = new ChQuery(g);
    let checked = 0, differ = 0;
    for (let i = 0; i < 4; i++) {
      const from = pointOn(Math.floor(rand() * E));
      const all = reach(graph, from, 100, Infinity, false);
      const s = all.snaps[0];
      expect(all.snaps).toHaveLength(1); // the grid is one big component: no second candidate
      const pts: Snap[] = [];
      for (let k = 0; k < 80; k++) pts.push(snapAt(Math.floor(rand() * E), rand()));
      // on the start's own edge, ahead of and behind the start (behind: round the block)
      pts.push(snapAt(s.edge, Math.min(1, s.frac + 0.2)), snapAt(s.edge, s.frac / 2));
      const legs = pts.map((t) => leg(g, q, s, t));
      const costs = legs.filter((l) => l).map((l) => l!.cost).sort((a, b) => a - b);
      const limit = costs[costs.length >> 1];
      const bounded = reach(graph, from, 100, limit, false);
      pts.forEach((t, k) => {
        const l = legs[k];
        const v = all.valueAt(t.edge, t.pos), vb = bounded.valueAt(t.edge, t.pos);
        if (!l) { expect(v).toBe(Infinity); return; }
        expect(Math.abs(v - l.cost), `point ${k}: ${v} vs ${l.cost}`).toBeLessThanOrEqual(0.5);
        if (l.cost <= limit) expect(Math.abs(vb - l.cost)).toBeLessThanOrEqual(0.5);
        else expect(vb).toBeGreaterThan(limit);
        if (l.cost !== l.weight) differ++;
        checked++;
      });
      expect(bounded.reached).toBeLessThan(all.reached);
    }
    expect(checked).toBeGreaterThan(250);
    expect(differ).toBeGreaterThan(checked / 2);
  }, 60_000);

  it('isochrone by distance: a point is worth the metres of the shortest way to it, never more than the fastest', () => {
    const E = g.edgeU.length, q = new ChQuery(g), rand = rng(10);
    const from = pointOn(Math.floor(rand() * E));
    const r = reach(graph, from, 100, Infinity, true), s = r.snaps[0];
    let shorter = 0;
    for (let k = 0; k < 60; k++) {
      const t = snapAt(Math.floor(rand() * E), rand()), l = leg(g, q, s, t);
      if (!l) continue;
      const v = r.valueAt(t.edge, t.pos);
      expect(v).toBeLessThanOrEqual(l.dist + 1e-6);
      if (v < l.dist - 1) shorter++;
    }
    expect(shorter).toBeGreaterThan(0);
  });

  it('alternatives: each weighs its seeds, turns and edges, takes their time, and is at most STRETCH heavier than the best', () => {
    const rand = rng(11), E = g.edgeU.length, q = new ChQuery(g), via = new ViaSearch(g), share = weightShare(g);
    let found = 0;
    for (let i = 0; i < 25; i++) {
      const s = snapAt(Math.floor(rand() * E), rand()), t = snapAt(Math.floor(rand() * E), rand());
      const bestEdges = new Set<number>();
      const best = leg(g, q, s, t, undefined, { piece: (e) => bestEdges.add(e) });
      if (!best || s.edge === t.edge) continue;
      const sources: Seed[] = sourceSeeds(g, s).map((a) => ({ node: a.node, cost: Math.round(share(s.edge, a.dir, ...aheadOf(g, s, a.dir))) }));
      const ends = targetSeeds(g, t);
      const targets: Seed[] = ends.map((b) => ({ node: b.node, cost: Math.round(b.turnWeight + share(t.edge, b.dir, ...upTo(g, t, b.dir))) }));
      // the points' places bound the trees (straight line at top speed)
      const at = (x: Snap): [number, number] => [g.shapeLat[x.pt] / E7, g.shapeLon[x.pt] / E7];
      const alts = via.find(sources, targets, best.weight, 3, bestEdges, q, at(s), at(t));
      for (const a of alts) {
        expect(a.cost).toBeGreaterThanOrEqual(best.weight);
        expect(a.cost).toBeLessThanOrEqual((1 + STRETCH) * best.weight);
        // walk its nodes: every step an existing turn
        let w = sources.find((x) => x.node === a.start)!.cost, dur = 0, prev = a.start;
        for (const e of a.edges) {
          const x = g.edgeEb[e > 0 ? 2 * (e - 1) : 2 * (-e - 1) + 1];
          let k = g.ebOutFirst[prev];
          while (k < g.ebOutFirst[prev + 1] && g.ebOut[3 * k] !== x) k++;
          expect(k, `no turn ${prev}→${x}`).toBeLessThan(g.ebOutFirst[prev + 1]);
          w += g.ebOut[3 * k + 1] + g.edgeWeight[Math.abs(e) - 1];
          dur += g.ebOut[3 * k + 2] + g.edgeW[Math.abs(e) - 1];
          prev = x;
        }
        expect(prev).toBe(a.end);
        w += Math.min(...targets.filter((x) => x.node === a.end).map((x) => x.cost));
        expect(a.cost).toBe(w);
        expect(a.duration).toBe(dur);
        expect(a.edges.some((e) => !bestEdges.has(Math.abs(e) - 1))).toBe(true);
      }
      found += alts.length;
    }
    expect(found).toBeGreaterThan(3);
  }, 60_000);
});

/** Plain Dijkstra over the turns from seeds, as the via trees count: forward, a node's distance includes its edge; backward, it runs from its edge's far end. */
function turnDistances(g: GraphViews, seeds: Seed[], dir: 0 | 1): Float64Array {
  const n = g.ebEdge.length, d = new Float64Array(n).fill(Infinity), done = new Uint8Array(n);
  const w = (x: number) => g.edgeWeight[Math.abs(g.ebEdge[x]) - 1];
  for (const s of seeds) d[s.node] = Math.min(d[s.node], s.cost);
  const first = dir === 0 ? g.ebOutFirst : g.ebInFirst, arcs = dir === 0 ? g.ebOut : g.ebIn;
  for (;;) {
    let x = -1;
    for (let v = 0; v < n; v++) if (!done[v] && d[v] < Infinity && (x < 0 || d[v] < d[x])) x = v;
    if (x < 0) return d;
    done[x] = 1;
    for (let k = first[x]; k < first[x + 1]; k++) {
      const y = arcs[3 * k], nd = d[x] + arcs[3 * k + 1] + (dir === 0 ? w(y) : w(x));
      if (nd < d[y]) d[y] = nd;
    }
  }
}

describe('alternatives: the fallback trees', () => {
  it('find every via candidate of a whole-graph search (dF + dB ≤ the stretch limit), at the same cost, though the forward tree only enters nodes the backward one settled', () => {
    const rand = rng(5), E = g.edgeU.length, q = new ChQuery(g), via = new ViaSearch(g), share = weightShare(g);
    let compared = 0, candidates = 0;
    for (let i = 0; i < 80 && compared < 8; i++) {
      const s = snapAt(Math.floor(rand() * E), rand()), t = snapAt(Math.floor(rand() * E), rand());
      const best = leg(g, q, s, t);
      if (!best || s.edge === t.edge) continue;
      const sources: Seed[] = sourceSeeds(g, s).map((a) => ({ node: a.node, cost: Math.round(share(s.edge, a.dir, ...aheadOf(g, s, a.dir))) }));
      const targets: Seed[] = targetSeeds(g, t).map((b) => ({ node: b.node, cost: Math.round(b.turnWeight + share(t.edge, b.dir, ...upTo(g, t, b.dir))) }));
      const at = (x: Snap): [number, number] => [g.shapeLat[x.pt] / E7, g.shapeLon[x.pt] / E7];
      const limit = (1 + STRETCH) * best.weight;
      const got = via.treeCandidates(sources, targets, limit, at(s), at(t));
      if (!got) continue; // a tree gave up at its budget
      const dF = turnDistances(g, sources, 0), dB = turnDistances(g, targets, 1);
      const want = new Map<number, number>();
      for (let v = 0; v < dF.length; v++) if (dF[v] + dB[v] <= limit) want.set(v, dF[v] + dB[v]);
      expect([...got.keys()].sort((a, b) => a - b)).toEqual([...want.keys()].sort((a, b) => a - b));
      for (const [v, c] of want) expect(got.get(v)).toBe(c);
      compared++; candidates += want.size;
    }
    expect(compared).toBeGreaterThanOrEqual(8);
    expect(candidates).toBeGreaterThan(100);
  }, 60_000);
});
