// The search a route's legs run on: the contraction hierarchy, or with traffic=live|forecast
// Dijkstra over the graph's shared traffic weights (src/core/traffic-state.ts). /route, its guided
// answers and the matrix all choose through here, so they agree on what traffic applies.
import type { LoadedGraph } from '../graphs.ts';
import type { PathSearch } from './path-search.ts';
import { TrafficState } from '../../../src/core/traffic-state.ts';


import type { TrafficArgs, TrafficUse } from '../../../src/core/tasks/index.ts';
export type { TrafficArgs, TrafficUse };

/** The search a leg runs on: the CH, or for traffic-aware routes Dijkstra over the shared traffic weights. */
export function searchFor(graph: LoadedGraph, args: TrafficArgs): { q: PathSearch; traffic: TrafficUse | null } {
  const mode = args.traffic ?? 'none';
  if (mode === 'none') return { q: graph.query, traffic: null };
  const t = graph.traffic;
  if (!t) return { q: graph.query, traffic: { mode, applied: false, edges_with_data: 0 } };
  let weights: Int32Array, n: number, slot: TrafficUse['slot'];
  if (mode === 'live') { weights = t.weightMs; n = t.meta[1]; }
  else {
    const s = TrafficState.slot(args.depart_at ?? Date.now());
    weights = t.profileSlot(s); n = t.meta[2 + s]; slot = { dow: Math.floor(s / 24), hour: s % 24 };
  }
  if (n === 0) return { q: graph.query, traffic: { mode, applied: false, edges_with_data: 0, ...(slot ? { slot } : {}) } };
  const q = graph.trafficQuery;
  q.setWeights(weights, mode === 'live' ? { from: t.partFrom, to: t.partTo } : null);
  return { q, traffic: { mode, applied: true, edges_with_data: n, ...(slot ? { slot } : {}) } };
}
