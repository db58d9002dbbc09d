// The directed base edge that drives each OSM segment a→b, for the few nodes restrictions name
// (OSRM checks a restriction's node path against its graph and drops it when a step cannot be driven).
import type { BaseGraph } from '../contract/compress.ts';

/** "a,b" (RawNetwork nodes) → signed directed base edge driving a→b, for segments with both ends in `nodes`. */
export function drivableSegments(base: BaseGraph, nodes: ReadonlySet<number>): Map<string, number> {
  const shapeNode = base.shapeNode!;
  const out = new Map<string, number>();
  if (!nodes.size) return out;
  for (let e = 0; e < base.edges; e++) {
    for (let k = base.edgeShape[e]; k + 1 < base.edgeShape[e + 1]; k++) {
      const a = shapeNode[k], b = shapeNode[k + 1];
      if (!nodes.has(a) || !nodes.has(b)) continue;
      if (base.edgeFlags[e] & 1) out.set(a + ',' + b, e + 1);
      if (base.edgeFlags[e] & 2) out.set(b + ',' + a, -(e + 1));
    }
  }
  return out;
}
