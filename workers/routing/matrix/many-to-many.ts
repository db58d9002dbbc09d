// The many-to-many search of a matrix: every source's costs to every destination through the
// bucket index (buckets.ts). Also used by the map matcher for its transition costs.
import type { LoadedGraph } from '../graphs.ts';
import type { Snap } from '../locate/snap.ts';
import { BucketIndex, type Cells } from './buckets.ts';

// The thread's state for the next matrix: a matrix runs start to end on one thread, and only one
// at a time. `spare` serves the fallback, which runs while `main` is still being scanned.
export const indexes = { main: new BucketIndex(), spare: new BucketIndex() };

/** Drops the indexes' arrays (a thread quiet after a large matrix). */
export function freshIndexes() { indexes.main = new BucketIndex(); indexes.spare = new BucketIndex(); }

/**
 * The bucket search of sources × destinations into ms/metres (Infinity-filled, row-major): each
 * cell the time and metres of its path of least routing weight (that weight into `weight` when
 * given, Infinity-filled too); a null entry is skipped. Returns the bytes of state it held.
 */
export function manyToMany(graph: LoadedGraph, src: (Snap[] | null)[], dst: (Snap[] | null)[], ms: Float64Array, metres: Float64Array, weight?: Float64Array): number {
  const cells: Cells = { weight: weight ?? new Float64Array(ms.length).fill(Infinity), ms, metres };
  indexes.main.build(graph, dst).scan(src, cells);
  return indexes.main.bytes;
}

