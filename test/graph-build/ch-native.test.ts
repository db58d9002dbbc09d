// The contraction addon (native/ch) must give the very hierarchy the TypeScript contractor gives
// (graph-build/contract/ch.ts), with one thread or two: the route file, its answers and their
// hashes do not depend on whether the addon built or how many cores the build had.
import { describe, it, expect, afterEach } from 'vitest';
import { contract } from '../../graph-build/contract/ch.ts';
import { chAddon, contractThreads } from '../../graph-build/contract/ch-native.ts';
import type { BaseGraph } from '../../graph-build/contract/compress.ts';
import { rng } from '../../bench/lib/rand.ts';

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

const threads = process.env.GRAPH_BUILD_THREADS;
afterEach(() => { if (threads === undefined) delete process.env.GRAPH_BUILD_THREADS; else process.env.GRAPH_BUILD_THREADS = threads; });

describe('contraction addon', () => {
  it('is built by npm install (CI would otherwise pass on the TypeScript fallback unnoticed)', () => {
    expect(chAddon()).not.toBeNull();
  });

  it('gives the TypeScript hierarchy byte for byte, with one thread and with two', () => {
    const g = grid(145, 7); // 21,025 nodes: above the size where a second thread is used
    const ts = contract(g, { typescript: true });
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

  it('reports progress as it goes', () => {
    const seen: number[] = [];
    contract(grid(40, 3), { onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(10);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBeGreaterThan(0.9);
  });
});
