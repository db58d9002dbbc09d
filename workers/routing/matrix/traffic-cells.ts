// Matrix cells with traffic=live|forecast: each a leg of its own over the traffic-aware search.
import { TaskError } from '../../../src/core/task.ts';
import { TRAFFIC_MATRIX_MAX_CELLS } from '../../../src/core/limits.ts';
import type { LoadedGraph } from '../graphs.ts';
import type { Snap } from '../locate/snap.ts';
import { leg } from '../search/legs.ts';
import { choosePair, nearestFirst } from '../locate/candidates.ts';
import type { searchFor } from '../search/traffic-search.ts';

/**
 * Traffic-aware cells: the weights change under a CH, so each cell is a leg of its own over the
 * traffic search (between the nearest roads, or the pair /route moves to), as /route?traffic= answers it.
 */
export function trafficCells(graph: LoadedGraph, q: ReturnType<typeof searchFor>['q'], src: (Snap[] | null)[], dst: (Snap[] | null)[], sp: [number, number][], dp: [number, number][], radius: number, ms: Float64Array, metres: Float64Array) {
  const cols = dst.length;
  if (src.length * cols > TRAFFIC_MATRIX_MAX_CELLS) {
    throw new TaskError(400, 'invalid_parameter', `A matrix with traffic has at most ${TRAFFIC_MATRIX_MAX_CELLS} cells; this one has ${src.length * cols}.`);
  }
  for (let i = 0; i < src.length; i++) {
    const a = src[i];
    if (!a) continue;
    for (let j = 0; j < cols; j++) {
      const b = dst[j];
      if (!b) continue;
      // the nearest roads (the direction of a two-way road of two one-way edges as /route picks it),
      // else the pair /route would move to (choosePair), driven with traffic
      const near = nearestFirst(graph, [a, b], [sp[i], dp[j]], radius);
      let l = near && leg(graph.g, q, a[near[0]], b[near[1]]);
      if (!l) {
        const pair = choosePair(graph, a, b, sp[i], dp[j], radius);
        l = pair && leg(graph.g, q, pair[0], pair[1]);
      }
      if (l) { ms[i * cols + j] = l.cost; metres[i * cols + j] = l.dist; }
    }
  }
}

