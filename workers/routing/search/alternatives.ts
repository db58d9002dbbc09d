// Alternative routes by the via-node method with plateaus (Abraham, Delling, Goldberg, Werneck:
// "Alternative routes in road networks"), over the contraction hierarchy as OSRM's CH alternatives,
// with Dijkstra trees where the hierarchy offers too few via nodes:
//
// 1. Two upward searches of the hierarchy over the edge-based graph (graph-build/contract/
//    edge-based.ts), forward from the source's seeds and backward from the target's
//    (locate/seeds.ts), each settling every node up to (1 + STRETCH)·best (best = the route's
//    routing weight, what every search minimises), without stall-on-demand: a stalled node is
//    still a via node of a real path.
// 2. Every node v settled by both with dF(v) + dB(v) ≤ (1 + STRETCH)·best is a via candidate of
//    that cost: the path s → v → t is the two packed paths, unpacked into turns. Candidates are
//    tried cheapest first; a node lying on a path already tried is skipped (it would give the same
//    path: the plateau that path runs along), and at most MAX_TRIED paths are examined.
// 3. A path is accepted when it is simple (no junction twice), shares ≤ MAX_SHARE of its length with the best route
//    and with every alternative already accepted, and is admissible: its halves s → v and v → t are
//    shortest paths, and so is the sub-path from T = LOCAL·best before v to T after v (the T-test),
//    each checked with one CH query.
// 4. While fewer than asked were found, the same again with two Dijkstra trees of the uncontracted
//    graph bounded by the stretch (whose halves are shortest by construction), given up past
//    TREE_BUDGET settled nodes: a city's upward spaces are a few dozen nodes (Accra: no
//    alternative from them), a rural route's trees most of the graph.
import { ARC, ARC_HEAD, ARC_W, HEAD_FW, HEAD_BW, HEAD_LAST, HEAD_SHIFT, type GraphViews } from '../../../src/core/format/route.ts';
import { MinHeap } from '../../../src/core/heap.ts';
import { chEntry, unpackArcs, type ChQuery } from './ch-query.ts';
import { Pages, PAGE_SHIFT, PAGE_MASK } from './pages.ts';
import { M_PER_DEG } from '../../../src/core/geometry.ts';

/** The plane's distances are scaled by this before use as a lower bound (projection error ≪ 5% over an extract). */
const LB_SLACK = 0.95;

/** What counts as an alternative (as OSRM's via-node method): at most 3, ≤ 25% longer, ≤ 80% shared; T = 25% of the best for local optimality. */
export { MAX_ALTERNATIVES } from '../../../src/core/guidance.ts';
export const STRETCH = 0.25;
export const MAX_SHARE = 0.8;
export const LOCAL = 0.25;
/** Distinct via paths examined at most per request (cheapest first): bounds the cost of a request. */
export const MAX_TRIED = 20;
/**
 * Nodes a fallback Dijkstra tree may settle before it gives up. The hierarchy's upward spaces are
 * small on a city's graph (Accra: ~30 nodes, two via candidates, no alternative), so when they give
 * fewer alternatives than asked, two trees bounded by the stretch are grown as well (Accra's: 427
 * nodes backward, then 130 forward within the backward tree's bound); on a long route the backward
 * tree covers most of the graph, and past this many nodes the answer keeps what the hierarchy found.
 * Most trees that reach the budget give up anyway (on Monaco 191 of 292, on Tanzania SW 291 of
 * 317 at 1,024 nodes), so a lower budget mostly saves wasted work: at 512 instead of 1,024 the
 * alternatives cost 21% less a request on Monaco (158 vs 199 µs) and 14% on Tanzania SW, and the
 * pairs answered with an alternative go from 218 to 204 of 500 on Monaco (osrm-routed: 160).
 */
export const TREE_BUDGET = 512;

/** An edge-based node a tree starts from, at the cost (routing weight) of the point's part of its edge. */
export interface Seed { node: number; cost: number }
/**
 * An alternative: edge-based nodes start..end (start a source seed, end a target seed), the base
 * edges of the nodes after start through end (as PathSearch.path()), its routing weight between
 * the seeds' costs included, and the travel time (ms) of those edges and the turns onto them.
 */
export interface AltPath { edges: number[]; start: number; end: number; cost: number; duration: number }

// State of the two trees is paged (pages.ts, so memory follows what the search reaches): one 32-byte record per node reached,
// both directions together: f64 [4r + dir] distance, i32 [8r + 4 + dir] state, i32 [8r + 6 + dir]
// neighbour in the upward search + 1 (0 at a seed): the lower end of the hierarchy's arc it was
// reached by, forward from the source's side, backward from the target's. The
// state is 2·cur when reached in this call and 2·cur + 1 when settled.
const ST = 4, PRED = 6;

export class ViaSearch {
  private pages: Pages;
  private cur = 0;
  private heap = new MinHeap(1024);
  /** the original CH entries of the last via() path, in driving order */
  private arcs: number[] = [];

  /** Fastest speed on any edge (m per unit of weight): straight-line distance / vmax bounds any remaining weight from below. */
  private vmax = 0;
  private kx = 0;

  constructor(private g: GraphViews) {
    this.pages = new Pages(g.ebEdge.length, 32, [ST, ST + 1], 0x3fffffff); // states 2·cur, 2·cur + 1: int32
    for (let e = 0; e < g.edgeWeight.length; e++) if (g.edgeWeight[e] > 0) this.vmax = Math.max(this.vmax, g.edgeDist[e] / g.edgeWeight[e]);
    // Equirectangular at the widest latitude of the extract (|lat| largest, so cos smallest): east-west
    // distances come out no longer than on the sphere; LB_SLACK covers the rest of the projection error.
    const [, s, , nn] = g.meta.bbox;
    this.kx = Math.cos(Math.max(Math.abs(s), Math.abs(nn)) * (Math.PI / 180)) * M_PER_DEG;
  }

  /** Record index of a node reached in this call (its page is attached). */
  private r(v: number): number { return this.pages.table[v >>> PAGE_SHIFT] + (v & PAGE_MASK); }

  /** Neighbour of v in search dir (-1 at a seed). */
  private pred(v: number, dir: number): number { return this.pages.i32[8 * this.r(v) + PRED + dir] - 1; }

  /** Bytes of search state held now (pages and heap), for the memory figures. */
  bytes(): number { return this.pages.bytes() + 12 * this.heap.keys.length + 8 * this.arcs.length; }

  /**
   * Up to `want` alternatives to the best route (routing weight `best`, base edges `bestEdges` as
   * unsigned ids), from the hierarchy's via nodes first, then, while fewer were found, from bounded
   * Dijkstra trees (see TREE_BUDGET). `q` (the thread's CH query) runs the optimality checks;
   * `from` and `to` are the points, whose straight line bounds the trees.
   */
  find(sources: Seed[], targets: Seed[], best: number, want: number, bestEdges: Set<number>, q: ChQuery, from: [number, number], to: [number, number]): AltPath[] {
    const accepted: AltPath[] = [];
    const acceptedSets: Set<number>[] = [bestEdges];
    const limit = (1 + STRETCH) * best;
    for (const trees of [false, true]) {
      if (accepted.length >= want) break;
      this.cur = this.pages.next(this.cur);
      let seen: number[] | null;
      if (trees) seen = this.trees(sources, targets, limit, from, to);
      else { this.up(sources, 0, limit); seen = this.up(targets, 1, limit); }
      if (seen) this.choose(seen, trees, limit, best, want, q, accepted, acceptedSets);
    }
    return accepted;
  }

  /**
   * Via candidates of the last searches (nodes of `seen`, the second search's, settled by both
   * within the limit), cheapest first, into `accepted` while they pass the tests.
   */
  private choose(seen: number[], trees: boolean, limit: number, best: number, want: number, q: ChQuery, accepted: AltPath[], acceptedSets: Set<number>[]) {
    const g = this.g;
    const cands = this.candidates(seen, limit);
    // nodes of a path already tried are on its plateau: no via there
    const mark = new Set<number>();
    let tried = 0;
    for (const { v, c } of cands) {
      if (accepted.length >= want || tried >= MAX_TRIED) break;
      if (mark.has(v)) continue;
      const path = trees ? this.treeVia(v) : this.via(v);
      for (const x of path.nodes) mark.add(x);
      tried++;
      if (!path.simple) continue;
      let len = 0;
      const set = new Set<number>();
      for (const e of path.edges) { const id = Math.abs(e) - 1; set.add(id); len += g.edgeDist[id]; }
      // (a path found twice shares all of itself with its first copy)
      if (len <= 0 || acceptedSets.some((o) => sharedLen(g, set, o) > MAX_SHARE * len)) continue;
      if (!this.admissible(path.nodes, path.weights, path.iv, best, q, !trees)) continue;
      accepted.push({ edges: path.edges, start: path.nodes[0], end: path.nodes[path.nodes.length - 1], cost: c, duration: path.duration });
      acceptedSets.push(set);
    }
  }

  /** Nodes of `seen` settled by both of the last searches with dF + dB ≤ limit, cheapest first. */
  private candidates(seen: number[], limit: number): { v: number; c: number }[] {
    const cands: { v: number; c: number }[] = [];
    const settledAt = 2 * this.cur + 1, st = this.pages.i32, dist = this.pages.f64;
    for (const v of seen) {
      const r = this.r(v);
      if (st[8 * r + ST] !== settledAt || st[8 * r + ST + 1] !== settledAt) continue;
      const c = dist[4 * r] + dist[4 * r + 1];
      if (c <= limit) cands.push({ v, c });
    }
    return cands.sort((a, b) => a.c - b.c);
  }

  /** The two trees' via candidates (node → dF + dB) up to `limit`, as find() grows them; null when a tree gave up. */
  treeCandidates(sources: Seed[], targets: Seed[], limit: number, from: [number, number], to: [number, number]): Map<number, number> | null {
    this.cur = this.pages.next(this.cur);
    const seen = this.trees(sources, targets, limit, from, to);
    return seen && new Map(this.candidates(seen, limit).map(({ v, c }) => [v, c]));
  }

  /** Both trees, the backward one first (it bounds the forward one: see tree); the forward one's nodes, or null when a tree gave up. */
  private trees(sources: Seed[], targets: Seed[], limit: number, from: [number, number], to: [number, number]): number[] | null {
    return this.tree(targets, 1, limit, from) && this.tree(sources, 0, limit, to);
  }

  /** A search's heap holding its seeds, at their costs (the cheapest where a node is seeded twice). */
  private start(seeds: Seed[], dir: number) {
    const pages = this.pages, reached = 2 * this.cur;
    this.heap.clear();
    for (const s of seeds) {
      const r = pages.rec(s.node), dist = pages.f64, st = pages.i32;
      if (st[8 * r + ST + dir] < reached || s.cost < dist[4 * r + dir]) {
        st[8 * r + ST + dir] = reached; dist[4 * r + dir] = s.cost; st[8 * r + PRED + dir] = 0;
        this.heap.push(s.cost, s.node);
      }
    }
  }

  /** Pops the search's next node to settle (key ≤ limit) and marks it settled; -1 when there is none. */
  private settleNext(dir: number, limit: number): number {
    const h = this.heap, pages = this.pages, done = 2 * this.cur + 1;
    while (h.length) {
      const x = h.peekId(), d = h.peekKey();
      h.pop();
      const r = pages.table[x >>> PAGE_SHIFT] + (x & PAGE_MASK);
      if (pages.i32[8 * r + ST + dir] === done || d > pages.f64[4 * r + dir]) continue;
      if (d > limit) return -1;
      pages.i32[8 * r + ST + dir] = done;
      return x;
    }
    return -1;
  }

  /**
   * The upward search of the hierarchy from seeds, forward (dir 0: arcs x→y to higher y) or
   * backward (1: arcs y→x), settling keys ≤ limit; the nodes it settled.
   */
  private up(seeds: Seed[], dir: number, limit: number): number[] {
    const g = this.g, pages = this.pages, table = pages.table, h = this.heap, arc = g.chArc, chFirst = g.chFirst;
    const reached = 2 * this.cur, ST_ = ST + dir, PRED_ = PRED + dir;
    const out = dir === 0 ? HEAD_FW : HEAD_BW;
    let dist = pages.f64, st = pages.i32;
    const PS = PAGE_SHIFT, M = PAGE_MASK; // locals: an imported binding is a property load per use under a CommonJS loader (tsx)
    const settled: number[] = [];
    this.start(seeds, dir);
    dist = pages.f64; st = pages.i32;
    for (let x: number; (x = this.settleNext(dir, limit)) >= 0;) {
      const d = dist[4 * (table[x >>> PS] + (x & M)) + dir];
      settled.push(x);
      const first = chFirst[x];
      if (first === chFirst[x + 1]) continue;
      for (let k = ARC * first; ; k += ARC) {
        const head = arc[k + ARC_HEAD];
        if (head & out) {
          const y = head >>> HEAD_SHIFT, nd = d + arc[k + ARC_W];
          if (nd <= limit) {
            let b = table[y >>> PS];
            if (b < 0) { b = pages.attach(y >>> PS); dist = pages.f64; st = pages.i32; }
            const ry = b + (y & M);
            if (st[8 * ry + ST_] < reached || nd < dist[4 * ry + dir]) {
              st[8 * ry + ST_] = reached; dist[4 * ry + dir] = nd; st[8 * ry + PRED_] = x + 1;
              h.push(nd, y);
            }
          }
        }
        if (head & HEAD_LAST) break;
      }
    }
    return settled;
  }

  /**
   * Dijkstra over the turns from seeds, forward (dir 0) or backward (1), settling keys ≤ limit.
   * Forward, node y is entered from x at the turn's weight plus y's whole edge; backward, x's
   * predecessor p at the turn p→x plus x's edge (the distance at a node is from the far end of its
   * edge to the target). A node whose distance plus a lower bound of the rest of the way (straight
   * line from its edge's far end to `toward` at the graph's top speed) exceeds the limit is not
   * entered: it can be no via node, nor lie on the tree path to one (the bound is consistent), so
   * pruning it loses nothing. The forward tree runs after the backward one and uses its exact
   * distances instead: a node y on the forward tree's path to a via node v has dF(y) + dB(y) ≤
   * dF(v) + dB(v) ≤ limit, so the backward tree settled y (its straight-line bound is below
   * dF(y)), and a node it did not settle, or whose sum exceeds the limit, is not entered. That
   * grows the forward tree over the via candidates' ellipse alone, not the disc the top speed's
   * bound leaves (a city's roads are far slower than its fastest one), and finds the same candidates
   * at the same distances. Null when it settled more than TREE_BUDGET nodes.
   */
  private tree(seeds: Seed[], dir: number, limit: number, toward: [number, number]): number[] | null {
    const g = this.g, pages = this.pages, table = pages.table, h = this.heap;
    const reached = 2 * this.cur, ST_ = ST + dir, PRED_ = PRED + dir;
    let dist = pages.f64, st = pages.i32;
    const PS = PAGE_SHIFT, M = PAGE_MASK; // locals: an imported binding is a property load per use under a CommonJS loader (tsx)
    const kx = this.kx, tx = toward[1] * kx, ty = toward[0] * M_PER_DEG;
    const f = this.vmax > 0 ? LB_SLACK / this.vmax : 0;
    const ebEdge = g.ebEdge, edgeU = g.edgeU, edgeV = g.edgeV, ew = g.edgeWeight;
    const lb = (y: number) => {
      const s = ebEdge[y], v = s > 0 ? edgeV[s - 1] : edgeU[-s - 1];
      const dx = (g.nodeLon[v] / 1e7) * kx - tx, dy = (g.nodeLat[v] / 1e7) * M_PER_DEG - ty;
      return Math.sqrt(dx * dx + dy * dy) * f;
    };
    const first = dir === 0 ? g.ebOutFirst : g.ebInFirst, arcs = dir === 0 ? g.ebOut : g.ebIn;
    const settled: number[] = [];
    this.start(seeds, dir);
    dist = pages.f64; st = pages.i32;
    for (let x: number; (x = this.settleNext(dir, limit)) >= 0;) {
      const d = dist[4 * (table[x >>> PS] + (x & M)) + dir];
      if (settled.push(x) > TREE_BUDGET) return null;
      // backward, every step drives x's own edge
      const sx = ebEdge[x], wx = dir === 0 ? 0 : ew[sx > 0 ? sx - 1 : -sx - 1];
      for (let k = first[x]; k < first[x + 1]; k++) {
        const y = arcs[3 * k];
        let nd = d + arcs[3 * k + 1];
        if (dir === 0) { const sy = ebEdge[y]; nd += ew[sy > 0 ? sy - 1 : -sy - 1]; } else nd += wx;
        let b = table[y >>> PS];
        if (dir === 0) {
          // forward, after the backward tree: only nodes it settled, by their exact sum
          if (b < 0) continue;
          const ry = b + (y & M);
          if (st[8 * ry + ST + 1] !== reached + 1 || nd + dist[4 * ry + 1] > limit) continue;
          if (st[8 * ry + ST] < reached || nd < dist[4 * ry]) {
            st[8 * ry + ST] = reached; dist[4 * ry] = nd; st[8 * ry + PRED] = x + 1;
            h.push(nd, y);
          }
          continue;
        }
        if (b < 0) { if (nd + lb(y) > limit) continue; b = pages.attach(y >>> PS); dist = pages.f64; st = pages.i32; }
        const ry = b + (y & M);
        if ((st[8 * ry + ST_] < reached || nd < dist[4 * ry + dir]) && nd + lb(y) <= limit) {
          st[8 * ry + ST_] = reached; dist[4 * ry + dir] = nd; st[8 * ry + PRED_] = x + 1;
          h.push(nd, y);
        }
      }
    }
    return settled;
  }

  /**
   * source seed → v → target seed along the two searches, unpacked: the edge-based nodes, the base
   * edges after the first, the routing weight of the turn into each node, v's position, the travel
   * time (ms) of the turns and edges after the first node, and whether no junction repeats.
   */
  private via(v: number) {
    const g = this.g, arcs = this.arcs, cap = g.ebEdge.length;
    arcs.length = 0;
    const up: number[] = [];
    for (let x = v; x >= 0 && up.length <= cap; x = this.pred(x, 0)) up.push(x);
    for (let i = up.length - 1; i > 0; i--) unpackArcs(g, chEntry(g, up[i], up[i - 1], HEAD_FW), up[i], arcs);
    const nv = arcs.length;
    for (let x = v, p: number, n = 0; (p = this.pred(x, 1)) >= 0 && n <= cap; x = p, n++) unpackArcs(g, chEntry(g, p, x, HEAD_BW), p, arcs);
    const nodes = [up[up.length - 1]], edges: number[] = [], weights = [0];
    let duration = 0;
    for (const k of arcs) {
      const y = -g.chMid[k] - 1;
      nodes.push(y); edges.push(g.ebEdge[y]); weights.push(g.chArc[ARC * k + ARC_W]); duration += g.chDur[k];
    }
    return { edges, nodes, weights, iv: nv, duration, simple: simple(g, nodes) };
  }

  /** source seed → v → target seed along the two trees, as via() gives a path of the hierarchy. */
  private treeVia(v: number) {
    const g = this.g, cap = g.ebEdge.length;
    const nodes: number[] = [];
    for (let x = v; x >= 0 && nodes.length <= cap; x = this.pred(x, 0)) nodes.push(x);
    nodes.reverse();
    const iv = nodes.length - 1;
    for (let x = this.pred(v, 1); x >= 0 && nodes.length <= 2 * cap; x = this.pred(x, 1)) nodes.push(x);
    const edges = nodes.slice(1).map((x) => g.ebEdge[x]), weights = [0], w: [number, number] = [0, 0];
    let duration = 0;
    for (let i = 1; i < nodes.length; i++) { this.step(nodes[i - 1], nodes[i], w); weights.push(w[0]); duration += w[1]; }
    return { edges, nodes, weights, iv, duration, simple: simple(g, nodes) };
  }

  /** Routing weight of the turn a→b and of b's edge, and their travel time (ms), into w[0], w[1]. */
  private step(a: number, b: number, w: [number, number]) {
    const g = this.g, s = g.ebEdge[b], e = s > 0 ? s - 1 : -s - 1;
    w[0] = g.edgeWeight[e]; w[1] = g.edgeW[e];
    for (let k = g.ebOutFirst[a]; k < g.ebOutFirst[a + 1]; k++) if (g.ebOut[3 * k] === b) { w[0] += g.ebOut[3 * k + 1]; w[1] += g.ebOut[3 * k + 2]; return; }
    throw new Error(`no turn ${a}→${b}`);
  }

  /**
   * A via path is admissible when both its halves are shortest paths (checked for an upward
   * search's path to v, which need not be; a Dijkstra tree's always is) and it passes the T-test around v: the sub-path from ~T
   * before v to ~T after is a shortest path too.
   */
  private admissible(nodes: number[], weights: number[], iv: number, best: number, q: ChQuery, halves: boolean): boolean {
    const cum = [0];
    for (let i = 1; i < nodes.length; i++) cum.push(cum[i - 1] + weights[i]);
    const last = nodes.length - 1, T = LOCAL * best;
    let a = iv, b = iv;
    while (a > 0 && cum[iv] - cum[a] < T) a--;
    while (b < last && cum[b] - cum[iv] < T) b++;
    return this.shortest(nodes, cum, a, b, q) && (!halves || (this.shortest(nodes, cum, 0, iv, q) && this.shortest(nodes, cum, iv, last, q)));
  }

  /** Whether the path's part from position a to b is a shortest path (one CH query). */
  private shortest(nodes: number[], cum: number[], a: number, b: number, q: ChQuery): boolean {
    if (a === b) return true;
    // both at the far end of their edges: the CH distance a→b is the turns and edges after a through b
    q.reset();
    q.addSource(nodes[a], 0);
    q.addTarget(nodes[b], 0);
    return q.run() >= cum[b] - cum[a];
  }
}

/** Whether a path passes no junction twice (the junctions: the far end of every node's edge). */
function simple(g: GraphViews, nodes: number[]): boolean {
  const seen = new Set<number>();
  for (const x of nodes) {
    const s = g.ebEdge[x], j = s > 0 ? g.edgeV[s - 1] : g.edgeU[-s - 1];
    if (seen.has(j)) return false;
    seen.add(j);
  }
  return true;
}

function sharedLen(g: GraphViews, a: Set<number>, b: Set<number>): number {
  let s = 0;
  for (const e of a) if (b.has(e)) s += g.edgeDist[e];
  return s;
}
