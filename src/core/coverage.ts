// Which routing graph answers a request: the extracts of the travel mode whose coverage holds the
// request's points. Pure over the loaded graphs' `covers`, so /route, the matrix, isochrones and
// map matching choose the same way and refuse with the same out_of_coverage words.
import { TaskError } from './task.ts';

export interface Covering {
  profile: string;
  covers(lat: number, lng: number, radius: number): boolean;
}

/**
 * The graphs of `mode` that cover every point, in the given order (the loaded order: smallest
 * extract first). None: a 400 out_of_coverage saying whether the points at least fall in
 * different extracts.
 */
export function coveringAll<G extends Covering>(graphs: readonly G[], mode: string, pts: readonly [number, number][], radius: number): G[] {
  const all = graphs.filter((g) => g.profile === mode && pts.every(([la, lo]) => g.covers(la, lo, radius)));
  if (all.length) return all;
  const any = graphs.some((g) => g.profile === mode && pts.some(([la, lo]) => g.covers(la, lo, radius)));
  throw new TaskError(400, 'out_of_coverage', any
    ? 'The points lie in different road extracts; no single extract covers them all.'
    : `No ${mode} road extract covers these points.`);
}

/** The graph of `mode` covering the most points (the first on a tie), so an outlier far out cannot refuse a whole trace. */
export function coveringMost<G extends Covering>(graphs: readonly G[], mode: string, pts: readonly { lat: number; lng: number }[], radius: number): G {
  let graph: G | null = null, most = 0;
  for (const g of graphs) {
    if (g.profile !== mode) continue;
    let k = 0;
    for (const p of pts) if (g.covers(p.lat, p.lng, radius)) k++;
    if (k > most) { most = k; graph = g; }
  }
  if (!graph) throw new TaskError(400, 'out_of_coverage', `No ${mode} road extract covers these points.`);
  return graph;
}
