// JIT warm-up of the matrix path in a new worker thread, in its idle time.
//
// A fresh thread runs the matrix code in V8's interpreter until TurboFan has compiled it, and the
// first task that grows a buffer (buckets, cells, answer bytes) deoptimises code compiled without
// that path: measured on Tanzania SW, the first 100 × 100 matrix of a new server took 117–160 ms in
// the worker, the next ones 10–40 ms until about the 6th to 20th (later under load, when the
// compiler threads wait for a core), then ~2 ms. Running a few matrices of growing size right
// after start took the first one to 20–36 ms and, over the 20 requests after it, p50 9.2 → 7.6 ms
// and server CPU 270 → 215 ms (docs/routing.md, *Matrix*), for ~100 ms of CPU per thread at start
// and 5–8 MB more RSS per idle worker (not per busy one). Each runs in its own event-loop turn, so a request that
// arrives meanwhile waits for one warm-up matrix at most. A server's threads begin it a second after they
// load (the pool's warmUpAfterMs): run at once, its CPU made a restart ~70 ms slower on 2 cores.
import type { LoadedGraph } from '../graphs.ts';
import { E7 } from '../../../src/core/format/route.ts';
import { matrixTask } from './task.ts';

/** Matrix sizes (sources = destinations) run in turn: small first, then past every buffer's first growth. */
export const WARM_UP_SIZES = [10, 30, 60, 100, 100, 100, 100, 100];

/** Points at road nodes spread over the graph's main component (where a matrix has cells to fill). */
function nodes(graph: LoadedGraph, n: number): [number, number][] {
  const g = graph.g, main = g.meta.main_component, out: [number, number][] = [];
  const edges = g.edgeU.length, step = Math.max(1, Math.floor(edges / (4 * n)));
  for (let e = 0; e < edges && out.length < n; e += step) {
    if (g.edgeComp[e] !== main) continue;
    const v = g.edgeU[e];
    out.push([g.nodeLat[v] / E7, g.nodeLon[v] / E7]);
  }
  return out;
}

/**
 * Starts the warm-up on the smallest graph (the code is the same for all) after afterMs; returns at
 * once. `done` gets the number of matrices answered.
 */
export function warmUpMatrix(graphs: LoadedGraph[], sizes = WARM_UP_SIZES, done?: (answered: number) => void, afterMs = 0) {
  const graph = graphs.find((x) => x.profile === 'driving') ?? graphs[0];
  if (!graph) { done?.(0); return; }
  const pts = nodes(graph, 2 * Math.max(...sizes));
  let k = 0, answered = 0;
  const step = () => {
    const n = Math.min(sizes[k++], pts.length >> 1);
    try {
      if (n > 0) { matrixTask({ sources: pts.slice(0, n), destinations: pts.slice(pts.length - n), mode: graph.profile }); answered++; }
    } catch { k = sizes.length; } // a graph without roads in range: nothing to warm on it
    if (k < sizes.length) setImmediate(step); else done?.(answered);
  };
  if (afterMs > 0) setTimeout(step, afterMs);
  else setImmediate(step);
}
