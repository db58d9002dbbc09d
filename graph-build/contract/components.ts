// Weakly connected components (union-find over edges). A point that snaps onto a small
// island of road (a clipped fragment, a private compound) can fall back to the main network.
import type { BaseGraph } from './compress.ts';

export function components(g: BaseGraph): { edgeComp: Int32Array; main: number; mainNodes: number; count: number } {
  const parent = new Int32Array(g.nodes);
  for (let i = 0; i < g.nodes; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; }
    return x;
  };
  for (let e = 0; e < g.edges; e++) {
    const a = find(g.edgeU[e]), b = find(g.edgeV[e]);
    if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
  }
  const size = new Int32Array(g.nodes);
  let count = 0, main = -1, mainNodes = 0;
  for (let v = 0; v < g.nodes; v++) {
    const r = find(v);
    if (size[r]++ === 0) count++;
    if (size[r] > mainNodes) { mainNodes = size[r]; main = r; }
  }
  const edgeComp = new Int32Array(g.edges);
  for (let e = 0; e < g.edges; e++) edgeComp[e] = find(g.edgeU[e]);
  return { edgeComp, main, mainNodes, count };
}
