// Road access at a point, for `dispatchable`: the nearest drivable road of the extract covering
// the point, and whether the main road network (the graph's largest connected component, from
// which every other main-network point is reachable) comes within reach.
//   road_access { lat, lng, search_m? } → { covered, extract, nearest_road, main_network, search_m }
import { TaskError } from '../../../src/core/task.ts';
import type { LoadedGraph } from '../graphs.ts';
import { snap } from './snap.ts';

/** How far the task looks for a road, metres (the caller judges against its own threshold). */
export const ACCESS_SEARCH_M = { default: 1000, max: 5000 };

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function roadAccess(graphs: LoadedGraph[], a: any) {
  const lat = Number(a?.lat), lng = Number(a?.lng);
  if (!Number.isFinite(lat) || Math.abs(lat) > 90 || !Number.isFinite(lng) || Math.abs(lng) > 180) throw new TaskError(400, 'invalid_parameter', "Parameters 'lat' and 'lng' must be a point.");
  const search = a?.search_m === undefined ? ACCESS_SEARCH_M.default : Number(a.search_m);
  if (!(search > 0 && search <= ACCESS_SEARCH_M.max)) throw new TaskError(400, 'invalid_parameter', `Parameter 'search_m' must be between 1 and ${ACCESS_SEARCH_M.max}.`);
  // Smallest covering driving extract first (graphs are sorted by area).
  const cands = graphs.filter((g) => g.profile === 'driving' && g.covers(lat, lng, search));
  if (!cands.length) return { covered: false, extract: null, nearest_road: null, main_network: null, search_m: search };
  let best: { graph: LoadedGraph; any: ReturnType<typeof snap>; main: ReturnType<typeof snap> } | null = null;
  for (const graph of cands) {
    const any = snap(graph.g, graph.index, lat, lng, search);
    if (!any) continue;
    const mainComp = graph.g.meta.main_component;
    const main = graph.g.edgeComp[any.edge] === mainComp ? any : snap(graph.g, graph.index, lat, lng, search, (e) => graph.g.edgeComp[e] === mainComp);
    if (!best || any.dist < best.any!.dist) best = { graph, any, main };
  }
  if (!best) return { covered: true, extract: cands[0].extract, nearest_road: null, main_network: null, search_m: search };
  const { graph, any, main } = best;
  return {
    covered: true,
    extract: graph.extract,
    nearest_road: { distance_m: Math.round(any!.dist), lat: r6(any!.lat), lng: r6(any!.lng), on_main_network: graph.g.edgeComp[any!.edge] === graph.g.meta.main_component },
    main_network: main ? { distance_m: Math.round(main.dist), lat: r6(main.lat), lng: r6(main.lng), nodes: graph.g.meta.main_component_nodes } : null,
    search_m: search,
  };
}
