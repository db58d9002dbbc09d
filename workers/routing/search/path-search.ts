// The shape every shortest-path search here shares, so CH and the plain-Dijkstra
// reference run the very same snapping, phantom-node and geometry code. Nodes are the edge-based
// graph's (directed base edges; graph-build/contract/edge-based.ts): a cost at node x is the cost of
// standing at the far end of x's edge. Seeds come from locate/seeds.ts.
export interface PathSearch {
  /** Forget the previous query (O(1): version stamps, no clearing). */
  reset(): void;
  /** A start node reached at cost d from the source point (the rest of its edge driven). */
  addSource(node: number, d: number): void;
  /** A node from which the target point is reached at cost d (the turn and the part of the target edge). */
  addTarget(node: number, d: number): void;
  /** Best cost source→target (Infinity when none). */
  run(): number;
  /**
   * After run(): the base edges of the best path's nodes after the start node up to the end node,
   * in order; +(e+1) along u→v, -(e+1) against. A view of the search's own scratch, grown to the
   * longest path so far (never sized to the graph), valid until the next call.
   */
  path(): Int32Array;
  /** After path(): travel time (ms) of those edges and of the turns onto them. */
  pathDuration(): number;
  /** Source node where the best path starts and target node where it ends (after run()). */
  startNode(): number;
  endNode(): number;
  /** Nodes settled by the last run (both directions). */
  settled: number;
  /**
   * Travel time (ms) of base edge e driven u→v (dir 0) or v→u (dir 1), when the search overrides the
   * stored weights (traffic); the partial edges at either end of a leg are costed with it too.
   */
  edgeWeight?(e: number, dir: 0 | 1): number;
  /** With edgeWeight: the routing cost (unrounded) of metres x..y (from u) of edge e driven in direction dir: the traffic time where it has one, else the share of the edge's weight. */
  partWeight?(e: number, dir: 0 | 1, x: number, y: number): number;
  /** With edgeWeight: the travel time (ms, unrounded) of that part. */
  partTime?(e: number, dir: 0 | 1, x: number, y: number): number;
}

/** Best cost from node a to node b, no offsets at either end (tests and benchmarks query node pairs). */
export function between(q: PathSearch, a: number, b: number): number {
  q.reset(); q.addSource(a, 0); q.addTarget(b, 0);
  return q.run();
}
