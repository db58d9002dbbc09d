// The matrix's searches in C++ (native/query) against the TypeScript ones they replace
// (workers/routing/matrix/buckets.ts): every cell's weight, ms and metres bit for bit, on real
// extracts, with points off the road (the big-component and fallback passes) and on threads that
// meet in shared memory (the spaces given, not searched). Among paths of equal weight the first met
// wins in both, so a heap that popped ties in another order would show here as other ms or metres.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { rng } from '../../bench/lib/rand.ts';
import { loadedGraphs } from '../../workers/routing/graphs.ts';
import { matrixCosts } from '../../workers/routing/matrix/task.ts';
import { writeSide } from '../../workers/routing/matrix/meeting.ts';
import { routing } from '../../workers/routing/index.ts';
import { queryAddon, useNativeQuery } from '../../workers/routing/search/native-query.ts';
import { meetBytes } from '../../src/core/meet.ts';
import type { BinaryBody } from '../../src/core/task.ts';
import { linkRoads } from '../helpers/built.ts';
import { tempDir, loadInto, bothQueries, pointsNearRoads } from './helpers.ts';
import { buildGraph } from '../../graph-build/contract/build.ts';
import { plainTurns } from '../../graph-build/contract/edge-based.ts';
import type { BaseGraph } from '../../graph-build/contract/compress.ts';
import { encode } from '../../src/core/format/index.ts';
import { openGraph, ROUTE_KIND, ROUTE_FORMAT_VERSION } from '../../src/core/format/route.ts';
import { LoadedGraph } from '../../workers/routing/graphs.ts';
import { manyToMany } from '../../workers/routing/matrix/many-to-many.ts';
import { syntheticGrid } from '../../bench/lib/synthetic.ts';
import type { Snap } from '../../workers/routing/locate/snap.ts';

const tmp = tempDir();
beforeAll(async () => {
  await linkRoads(tmp.dir, ['accra', 'tanzania-sw']);
  loadInto(tmp.dir, ['accra', 'tanzania-sw']);
}, 300_000);
afterAll(() => { useNativeQuery(true); tmp.remove(); });

/** n points on the roads, a quarter of them moved up to ~1.5 km off (some then have no road within the radius). */
function points(name: string, n: number, seed: number): [number, number][] {
  return pointsNearRoads(loadedGraphs().find((x) => x.extract === name && x.profile === 'driving')!.g, n, seed, 0.25, 0.03);
}

describe('the native matrix search', () => {
  it('built at install', () => {
    expect(queryAddon()).not.toBeNull();
  });

  for (const name of ['accra', 'tanzania-sw']) {
    it(`${name}: every cell's weight, ms and metres equal the TypeScript search's, bit for bit`, () => {
      const args = { sources: points(name, 60, 31), destinations: points(name, 45, 32) };
      const { native, ts } = bothQueries(() => {
        const c = matrixCosts(args);
        return { ms: Array.from(c.ms), metres: Array.from(c.metres), weight: Array.from(c.weight!) };
      });
      expect(native.weight).toEqual(ts.weight);
      expect(native.ms).toEqual(ts.ms);
      expect(native.metres).toEqual(ts.metres);
      const routed = ts.ms.filter((x) => x !== Infinity).length;
      expect(routed).toBeGreaterThan(0.4 * ts.ms.length);
      expect(routed).toBeLessThan(ts.ms.length);
    });
  }

  it('on a grid where every edge weighs the same and times differ, ties are broken as the TypeScript search breaks them', () => {
    // every route between two crossings has many paths of one weight and as many times: the one
    // kept is the first the searches meet, so a heap that popped equal keys in another order fails here
    const rand = rng(43);
    const built = buildGraph(syntheticGrid(400, 9), 'driving', {
      turns: (base: BaseGraph) => {
        base.edgeWeight = new Int32Array(base.edgeW.length).fill(1000);
        const t = plainTurns(base);
        for (let i = 0; i < t.count; i++) { t.weight[i] = 0; t.duration[i] = Math.floor(rand() * 5000); }
        return t;
      },
    });
    const g = openGraph(encode(ROUTE_KIND, ROUTE_FORMAT_VERSION, built.sections, built.meta).buffer as ArrayBuffer, 'synthetic-400-ties');
    const graph = new LoadedGraph('synthetic-400-ties', 'driving', g);
    const E = g.edgeU.length, pts: Snap[][] = [];
    for (let i = 0; i < 40; i++) { const e = Math.floor(rand() * E); pts.push([{ edge: e, pt: g.edgeShape[e], pos: 0, frac: 0, lat: 0, lng: 0, dist: 0 }]); }
    const { native, ts } = bothQueries(() => {
      const n = pts.length * pts.length, ms = new Float64Array(n).fill(Infinity), metres = new Float64Array(n).fill(Infinity), weight = new Float64Array(n).fill(Infinity);
      manyToMany(graph, pts, pts, ms, metres, weight);
      return { ms: Array.from(ms), metres: Array.from(metres), weight: Array.from(weight) };
    });
    expect(native.weight).toEqual(ts.weight);
    expect(native.ms).toEqual(ts.ms);
    expect(native.metres).toEqual(ts.metres);
    expect(ts.ms.filter((x) => x !== Infinity).length).toBeGreaterThan(0.9 * ts.ms.length);
  });

  it('threads meeting in shared memory (spaces given, not searched) answer the same bytes', () => {
    const S = points('tanzania-sw', 24, 33), D = points('tanzania-sw', 19, 34);
    const parts = [[0, 20], [20, 43]] as [number, number][], rows = [[0, 9], [9, 24]] as [number, number][];
    const side = (k: number) => ({ sources: S, destinations: D, phase: 'meet' as const, part: parts[k], side: k, sides: 2, room: 8192, rows: rows[k] });
    const answer = () => {
      const buf = new SharedArrayBuffer(meetBytes(2, 8192));
      for (const k of [0, 1]) writeSide(side(k), buf);
      return [0, 1].map((k) => Buffer.from((routing.tasks.route_matrix(side(k), { sandbox: false, attached: [new Uint8Array(buf)] }) as BinaryBody).bytes).toString('hex'));
    };
    const { native, ts } = bothQueries(answer);
    expect(native).toEqual(ts);
  });
});
