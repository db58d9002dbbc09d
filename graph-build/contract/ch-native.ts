// The contraction in C++ (native/ch, built by `npm install` beside the mmap addon): the same
// algorithm as ch.ts, byte for byte the same hierarchy, several times faster. Without a compiler at
// install (or with CH_NATIVE=0) the build contracts in TypeScript, as before.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { ROOT } from '../../src/core/config.ts';
import { ARC, ARC_HEAD, ARC_W, HEAD_FW, HEAD_BW, HEAD_LAST, HEAD_SHIFT } from '../../src/core/format/route.ts';
import type { BaseGraph } from './compress.ts';

/** The hierarchy as ch.ts returns it (CH there): the route file's CH sections and the order. */
interface Hierarchy { chFirst: Uint32Array; chArc: Int32Array; chMid: Int32Array; rank: Uint32Array; shortcuts: number; arcs: number }

export const CH_ADDON = resolve(ROOT, 'native', 'ch', 'build', 'Release', 'svc_ch.node');

interface Addon {
  create(nodes: number, edgeU: Int32Array, edgeV: Int32Array, edgeFlags: Uint8Array, edgeW: Int32Array, sim: number, con: number, eager: boolean, threads: number, rounds: boolean): unknown;
  /** Contracts up to `work` more nodes; returns how many are contracted (all: finished). */
  step(handle: unknown, work: number): number;
  finish(handle: unknown, format: Record<string, number>): Hierarchy;
}

let addon: Addon | null | undefined;

/** The addon, or null (told once why) when it did not build or CH_NATIVE=0. */
export function chAddon(): Addon | null {
  if (addon !== undefined) return addon;
  if (process.env.CH_NATIVE === '0') return (addon = null);
  try {
    addon = createRequire(import.meta.url)(CH_ADDON) as Addon;
  } catch (e) {
    addon = null;
    process.stderr.write(`graph-build: the contraction addon did not load (${(e as Error).message.split('\n')[0]}); contracting in TypeScript, several times slower (run npm install with a C++ compiler)\n`);
  }
  return addon;
}

/**
 * Threads for the priorities: by default two where the machine has two cores and the graph is large
 * enough to repay the hand-overs; GRAPH_BUILD_THREADS=1 or 2 decides. Either way the hierarchy is the same.
 */
export function contractThreads(nodes: number): number {
  const set = process.env.GRAPH_BUILD_THREADS;
  if (set !== undefined && set !== '') return Number(set) >= 2 ? 2 : 1;
  return nodes >= 20_000 && availableParallelism() >= 2 ? 2 : 1;
}

/** ch.ts's contract() through the addon; the limits are ch.ts's, resolved by the caller. */
export function contractNative(a: Addon, g: BaseGraph, sim: number, con: number, eager: boolean, onProgress?: (fraction: number, done: number, total: number) => void, rounds = false): Hierarchy {
  const m = g.edges, n = g.nodes;
  const h = a.create(n, g.edgeU.subarray(0, m), g.edgeV.subarray(0, m), g.edgeFlags.subarray(0, m), g.edgeW.subarray(0, m), sim, con, eager, contractThreads(n), rounds);
  // slices of 1% of the nodes, so progress reads as the TypeScript contraction's did
  const slice = Math.max(1, Math.floor(n / 100));
  let seen = 0;
  for (let order = a.step(h, slice); order < n; order = a.step(h, slice)) {
    if (onProgress && order > seen) { seen = order; onProgress(order / n, order, n); }
  }
  return a.finish(h, { ARC, ARC_HEAD, ARC_W, HEAD_FW, HEAD_BW, HEAD_LAST, HEAD_SHIFT });
}
