// The contraction addon (native/ch) must give the very hierarchy the TypeScript contractor gives
// (graph-build/contract/ch.ts), with one thread or two: the route file, its answers and their
// hashes do not depend on whether the addon built or how many cores the build had.
import { describe, it, expect, afterEach } from 'vitest';
import { availableParallelism } from 'node:os';
import { contract, contractionOrder, ROUNDS_FROM_NODES } from '../../graph-build/contract/ch.ts';
import { chAddon, contractThreads } from '../../graph-build/contract/ch-native.ts';
import type { BaseGraph } from '../../graph-build/contract/compress.ts';
import { rng } from '../../bench/lib/rand.ts';
import { MinHeap } from '../../src/core/heap.ts';
import { ARC, ARC_HEAD, ARC_W, HEAD_FW, HEAD_BW, HEAD_SHIFT } from '../../src/core/format/route.ts';
import type { CH } from '../../graph-build/contract/ch.ts';

/** A directed road-like grid: every street both ways at different costs, some one-way, a few diagonals. */
function grid(side: number, seed: number): BaseGraph {
  const rand = rng(seed);
  const u: number[] = [], v: number[] = [], w: number[] = [];
  const arc = (a: number, b: number) => { u.push(a); v.push(b); w.push(1 + Math.floor(rand() * 600)); };
  const id = (x: number, y: number) => y * side + x;
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) {
    if (x + 1 < side) { arc(id(x, y), id(x + 1, y)); if (rand() > 0.15) arc(id(x + 1, y), id(x, y)); }
    if (y + 1 < side) { arc(id(x, y), id(x, y + 1)); if (rand() > 0.15) arc(id(x, y + 1), id(x, y)); }
    if (x + 1 < side && y + 1 < side && rand() < 0.05) arc(id(x, y), id(x + 1, y + 1));
  }
  const m = u.length;
  return { nodes: side * side, edges: m, edgeU: Int32Array.from(u), edgeV: Int32Array.from(v), edgeW: Int32Array.from(w), edgeFlags: new Uint8Array(m).fill(1) } as unknown as BaseGraph;
}

/** Plain Dijkstra over the input arcs: the distances every hierarchy must keep. */
function dijkstra(g: BaseGraph, s: number): Float64Array {
  const first = new Int32Array(g.nodes + 1);
  for (let e = 0; e < g.edges; e++) first[g.edgeU[e] + 1]++;
  for (let v = 0; v < g.nodes; v++) first[v + 1] += first[v];
  const fill = first.slice(0, g.nodes), to = new Int32Array(g.edges), w = new Int32Array(g.edges);
  for (let e = 0; e < g.edges; e++) { const k = fill[g.edgeU[e]]++; to[k] = g.edgeV[e]; w[k] = g.edgeW[e]; }
  const dist = new Float64Array(g.nodes).fill(Infinity), heap = new MinHeap();
  dist[s] = 0; heap.push(0, s);
  while (heap.length) {
    const d = heap.peekKey(), x = heap.peekId();
    heap.pop();
    if (d > dist[x]) continue;
    for (let k = first[x]; k < first[x + 1]; k++) if (d + w[k] < dist[to[k]]) { dist[to[k]] = d + w[k]; heap.push(d + w[k], to[k]); }
  }
  return dist;
}

/** Distance s→t through the hierarchy: both upward searches, each over its own direction's entries. */
function chDistance(ch: CH, s: number, t: number): number {
  const up = (src: number, dir: number) => {
    const dist = new Map<number, number>([[src, 0]]), heap = new MinHeap();
    heap.push(0, src);
    while (heap.length) {
      const d = heap.peekKey(), x = heap.peekId();
      heap.pop();
      if (d > dist.get(x)!) continue;
      for (let k = ch.chFirst[x]; k < ch.chFirst[x + 1]; k++) {
        const head = ch.chArc[ARC * k + ARC_HEAD];
        if (!(head & dir)) continue;
        const y = head >>> HEAD_SHIFT, nd = d + ch.chArc[ARC * k + ARC_W];
        if (nd < (dist.get(y) ?? Infinity)) { dist.set(y, nd); heap.push(nd, y); }
      }
    }
    return dist;
  };
  const f = up(s, HEAD_FW), b = up(t, HEAD_BW);
  let best = Infinity;
  for (const [x, d] of f) { const e = b.get(x); if (e !== undefined && d + e < best) best = d + e; }
  return best;
}

const threads = process.env.GRAPH_BUILD_THREADS, order = process.env.GRAPH_BUILD_ORDER;
afterEach(() => {
  if (threads === undefined) delete process.env.GRAPH_BUILD_THREADS; else process.env.GRAPH_BUILD_THREADS = threads;
  if (order === undefined) delete process.env.GRAPH_BUILD_ORDER; else process.env.GRAPH_BUILD_ORDER = order;
});

describe('contraction addon', () => {
  it('is built by npm install (CI would otherwise pass on the TypeScript fallback unnoticed)', () => {
    expect(chAddon()).not.toBeNull();
  });

  it('gives the TypeScript hierarchy byte for byte, with one thread and with two', () => {
    const g = grid(70, 7);
    const ts = contract(g, { typescript: true });
    delete process.env.GRAPH_BUILD_THREADS;
    expect(contractThreads(1_000)).toBe(1); // a small graph does not repay the hand-overs
    expect(contractThreads(50_000)).toBe(availableParallelism() >= 2 ? 2 : 1);
    process.env.GRAPH_BUILD_THREADS = '1';
    expect(contractThreads(g.nodes)).toBe(1);
    const one = contract(g);
    process.env.GRAPH_BUILD_THREADS = '2';
    expect(contractThreads(g.nodes)).toBe(2);
    const two = contract(g);
    expect(ts.shortcuts).toBeGreaterThan(0);
    for (const c of [one, two]) {
      expect(c.shortcuts).toBe(ts.shortcuts);
      expect(c.arcs).toBe(ts.arcs);
      expect(Buffer.from(c.rank.buffer).equals(Buffer.from(ts.rank.buffer))).toBe(true);
      expect(Buffer.from(c.chFirst.buffer).equals(Buffer.from(ts.chFirst.buffer))).toBe(true);
      expect(Buffer.from(c.chArc.buffer).equals(Buffer.from(ts.chArc.buffer))).toBe(true);
      expect(Buffer.from(c.chMid.buffer).equals(Buffer.from(ts.chMid.buffer))).toBe(true);
    }
  }, 120_000);

  it('keeps every shortest distance, in the sequential order and in rounds, on one thread and on two', () => {
    const g = grid(70, 11);
    const rand = rng(5);
    const pairs: [number, number][] = [], want: number[] = [];
    for (let i = 0; i < 6; i++) {
      const s = Math.floor(rand() * g.nodes), dist = dijkstra(g, s);
      for (let j = 0; j < 50; j++) { const t = Math.floor(rand() * g.nodes); pairs.push([s, t]); want.push(dist[t]); }
    }
    for (const [ord, th] of [['sequential', '2'], ['rounds', '1'], ['rounds', '2']]) {
      process.env.GRAPH_BUILD_ORDER = ord; process.env.GRAPH_BUILD_THREADS = th;
      const ch = contract(g);
      const got = pairs.map(([s, t]) => chDistance(ch, s, t));
      expect(got, `${ord}, ${th} thread(s)`).toEqual(want);
    }
  }, 120_000);

  it('contracts a country-sized graph in rounds and a small one in order, unless GRAPH_BUILD_ORDER says', () => {
    expect(contractionOrder(ROUNDS_FROM_NODES - 1, {})).toBe('sequential');
    expect(contractionOrder(ROUNDS_FROM_NODES, {})).toBe('rounds');
    expect(contractionOrder(1_430_000, {})).toBe('rounds');
    expect(contractionOrder(1_430_000, { GRAPH_BUILD_ORDER: 'sequential' })).toBe('sequential');
    expect(contractionOrder(4_900, { GRAPH_BUILD_ORDER: 'rounds' })).toBe('rounds');
    // every graph the tests, the OSRM suite and the default data build (Tanzania SW's walking graph,
    // 25.5k nodes, the largest) keeps the TypeScript contractor's order
    expect(ROUNDS_FROM_NODES).toBeGreaterThan(26_000);
    expect(contractionOrder(159_000, {})).toBe('rounds');
  });

  it('contracts in rounds to the same hierarchy with one thread or two', () => {
    const g = grid(70, 13);
    process.env.GRAPH_BUILD_ORDER = 'rounds';
    process.env.GRAPH_BUILD_THREADS = '1';
    const one = contract(g);
    process.env.GRAPH_BUILD_THREADS = '2';
    const two = contract(g);
    expect(Buffer.from(one.chArc.buffer).equals(Buffer.from(two.chArc.buffer))).toBe(true);
    expect(Buffer.from(one.rank.buffer).equals(Buffer.from(two.rank.buffer))).toBe(true);
  });

  it('reports progress as it goes', () => {
    const seen: number[] = [];
    contract(grid(40, 3), { onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(10);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBeGreaterThan(0.9);
  });
});
