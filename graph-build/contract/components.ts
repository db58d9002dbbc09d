// Strongly connected components over the directed base graph (iterative Tarjan). A point whose
// nearest road lies outside the largest SCC (a oneway dead end, a clipped fragment, a private
// compound, a street whose only way out is a wrong-way oneway) may be unable to reach, or be
// reached from, the rest of the network although it touches it: such a point also gets a
// candidate on the largest SCC (OSRM's "big component" phantom nodes, workers/routing/index.ts).
// Weak components hid exactly these cases: a oneway dead end is weakly connected to everything.
import type { BaseGraph } from './compress.ts';

export interface Components {
  /** per edge: the SCC id both its ends share, or -1 when it joins two SCCs (a one-way bridge) */
  edgeComp: Int32Array;
  /** id of the largest SCC */
  main: number;
  mainNodes: number;
  /** edges inside the largest SCC (below BIG_EDGES OSRM would call it tiny too) */
  mainEdges: number;
  /** number of SCCs (every node is in one) */
  count: number;
  /** SCCs with at least BIG_EDGES edges (always including the largest), ascending ids */
  big: number[];
}

/**
 * OSRM calls a component "tiny" below 1,000 edge-based nodes (one per compressed segment); ours is
 * the same count of compressed edges. On an extract smaller than that the largest SCC is still big.
 */
export const BIG_EDGES = 1000;

export function components(g: BaseGraph): Components {
  const n = g.nodes, m = g.edges;
  // forward adjacency over allowed directions
  const first = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    if (g.edgeFlags[e] & 1) first[g.edgeU[e] + 1]++;
    if (g.edgeFlags[e] & 2) first[g.edgeV[e] + 1]++;
  }
  for (let v = 0; v < n; v++) first[v + 1] += first[v];
  const to = new Int32Array(first[n]);
  const fill = first.slice(0, n);
  for (let e = 0; e < m; e++) {
    if (g.edgeFlags[e] & 1) to[fill[g.edgeU[e]]++] = g.edgeV[e];
    if (g.edgeFlags[e] & 2) to[fill[g.edgeV[e]]++] = g.edgeU[e];
  }
  const index = new Int32Array(n).fill(-1), low = new Int32Array(n), comp = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n), onStack = new Uint8Array(n);
  const call = new Int32Array(n), edgeAt = new Int32Array(n); // explicit DFS stack: node, next arc
  let sp = 0, next = 0, count = 0;
  const size: number[] = [];
  for (let root = 0; root < n; root++) {
    if (index[root] >= 0) continue;
    let depth = 0;
    call[0] = root; edgeAt[0] = first[root];
    index[root] = low[root] = next++; stack[sp++] = root; onStack[root] = 1;
    while (depth >= 0) {
      const v = call[depth];
      const k = edgeAt[depth];
      if (k < first[v + 1]) {
        edgeAt[depth] = k + 1;
        const w = to[k];
        if (index[w] < 0) {
          index[w] = low[w] = next++; stack[sp++] = w; onStack[w] = 1;
          depth++; call[depth] = w; edgeAt[depth] = first[w];
        } else if (onStack[w] && index[w] < low[v]) low[v] = index[w];
        continue;
      }
      if (low[v] === index[v]) {
        let s = 0, w: number;
        do { w = stack[--sp]; onStack[w] = 0; comp[w] = count; s++; } while (w !== v);
        size.push(s); count++;
      }
      depth--;
      if (depth >= 0) { const p = call[depth]; if (low[v] < low[p]) low[p] = low[v]; }
    }
  }
  const edgeComp = new Int32Array(m);
  const edgesIn = new Int32Array(count), length = new Float64Array(count);
  for (let e = 0; e < m; e++) { const a = comp[g.edgeU[e]]; edgeComp[e] = a === comp[g.edgeV[e]] ? a : -1; if (edgeComp[e] >= 0) { edgesIn[a]++; length[a] += g.edgeDist[e]; } }
  // the most nodes; between components of as many nodes (after compression a lone road has two
  // whatever its length), the most road
  let main = -1, mainNodes = 0;
  for (let c = 0; c < count; c++) if (size[c] > mainNodes || (size[c] === mainNodes && length[c] > length[main])) { mainNodes = size[c]; main = c; }
  const big: number[] = [];
  for (let c = 0; c < count; c++) if (c === main || edgesIn[c] >= BIG_EDGES) big.push(c);
  return { edgeComp, main, mainNodes, mainEdges: main >= 0 ? edgesIn[main] : 0, count, big };
}
