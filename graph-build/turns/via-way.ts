// Restrictions over via ways, from OSM node paths to directed base edges: the edges the path
// from → via… → to runs along, in order, the first the `from` edge and the last the `to` edge.
import type { BaseGraph } from '../contract/compress.ts';
import type { WayRestriction } from './restrictions.ts';
import type { TurnTable } from './types.ts';
import { drivableSegments } from './segment-index.ts';

export function viaWayEdges(list: readonly WayRestriction[], base: BaseGraph): { list: TurnTable['viaWay']; unmapped: number } {
  const out: TurnTable['viaWay'] = [];
  if (!list.length) return { list: out, unmapped: 0 };
  const wanted = new Set<number>();
  for (const r of list) { wanted.add(r.from); wanted.add(r.to); for (const v of r.via) wanted.add(v); }
  const bySegment = drivableSegments(base, wanted);
  let unmapped = 0;
  for (const r of list) {
    const path = [r.from, ...r.via, r.to];
    const edges: number[] = [];
    let ok = true;
    for (let i = 0; i + 1 < path.length; i++) {
      const d = bySegment.get(path[i] + ',' + path[i + 1]);
      if (d === undefined) { ok = false; break; }
      if (edges[edges.length - 1] !== d) edges.push(d);
    }
    // a path the graph cannot drive, or one that never leaves an edge between from and to
    if (!ok || edges.length < 3) { unmapped++; continue; }
    out.push({ from: edges[0], via: edges.slice(1, -1), to: edges[edges.length - 1], only: r.only });
  }
  return { list: out, unmapped };
}
