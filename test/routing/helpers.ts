// Build road datasets into a temp folder and load them the way the server does
// (catalog → SharedArrayBuffers → routing.init), so tests exercise the real path.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDataset } from '../../src/data/catalog.ts';
import { routing } from '../../workers/routing/index.ts';
import { TaskError, JsonText, type Dataset, type TaskContext, type WorkerModule } from '../../src/core/task.ts';
import type { RawNetwork } from '../../graph-build/osm/read.ts';
import type { GraphViews } from '../../src/core/format/route.ts';
import { useNativeQuery } from '../../workers/routing/search/native-query.ts';
import { randomPoints } from '../../bench/lib/check.ts';
import { rng } from '../../bench/lib/rand.ts';

export { REPO, SHARED_DATA } from '../helpers/paths.ts';

export function tempDir(prefix = 'svc-routing-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function loadInto(builtDir: string, names: string[]): Dataset[] {
  const ds = names.map((n) => loadDataset(join(builtDir, n))!);
  routing.init(ds);
  return ds;
}

/** f's answer with the TypeScript searches, then with the query addon's (native/query). */
export function bothQueries<T>(f: () => T): { native: T; ts: T } {
  useNativeQuery(false);
  const ts = f();
  useNativeQuery(true);
  return { native: f(), ts };
}

/** n random points on g's roads, the share `off` of them moved up to `spread` degrees off, half each way. */
export function pointsNearRoads(g: GraphViews, n: number, seed: number, off: number, spread: number): [number, number][] {
  const r = rng(seed);
  return randomPoints(g, n, seed).map(([la, lo]) => (r() < off ? [la + (r() - 0.5) * spread, lo + (r() - 0.5) * spread] : [la, lo]));
}

/** The routing tasks by name, as the worker looks them up (tests also send arguments the types refuse). */
const table: WorkerModule['tasks'] = routing.tasks;

/** Run a task like the worker does; a TaskError becomes { status, code }. */
export function task(op: string, args: unknown, ctx: Partial<TaskContext> = {}): any {
  try {
    const out = table[op](args, { sandbox: false, ...ctx });
    // What the worker answers, parsed as a client would (route bodies arrive as JSON text).
    return out instanceof JsonText ? JSON.parse(out.text) : out;
  } catch (e) {
    if (e instanceof TaskError) return { status: e.status, code: e.code, message: e.message };
    throw e;
  }
}

/** A tiny network from named points (lat, lng) and ways given as point names + tags. */
export function network(points: Record<string, [number, number]>, ways: [string[], Record<string, string>][]): RawNetwork {
  const names = Object.keys(points);
  const idx = new Map(names.map((n, i) => [n, i]));
  return {
    lat: Float64Array.from(names.map((n) => points[n][0])),
    lon: Float64Array.from(names.map((n) => points[n][1])),
    ways: ways.map(([refs, tags], i) => ({ id: i + 1, tags, refs: refs.map((r) => { const k = idx.get(r); if (k === undefined) throw new Error(`no point ${r}`); return k; }) })),
  };
}
