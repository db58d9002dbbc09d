// Bidirectional CH query with stall-on-demand. State is paged (pages.ts): a worker holds
// records for the pages its queries touch, not for every graph node (per-worker memory stays small on large graphs), and a reset
// detaches only the pages the last query touched.
//
// Memory layout: on graphs of millions of nodes nearly every first touch of a node is a cache
// miss, so what the search reads or writes about node y sits in one 32-byte record r, both
// directions together:
//   f64 [4r]   distF        f64 [4r+1] distB
//   i32 [8r+4] stamp        i32 [8r+5] predF    i32 [8r+6] predB    i32 [8r+7] chFirst[y] (-1: no entries)
// One stamp covers both directions (a first touch sets the other distance to Infinity). The arc
// used is not stored: unpacking finds it again in the predecessor's block. A page the query has
// not attached holds no node it reached, so a stall check on one reads nothing but the page table.
import { ARC, ARC_HEAD, ARC_W, HEAD_FW, HEAD_BW, HEAD_LAST, HEAD_SHIFT, type GraphViews } from '../../../src/core/format/route.ts';
import type { PathSearch } from './path-search.ts';
import { MinHeap } from '../../../src/core/heap.ts';
import { Pages, PAGE_SHIFT, PAGE_MASK as MASK } from './pages.ts';

const STAMP = 4, PRED = 5, FIRST = 7;
/** A graph whose records take at most this many bytes (≤ 32k nodes) holds them all, indexed by node. */
const WHOLE_BYTES = 1 << 20;

export class ChQuery implements PathSearch {
  private pages: Pages;
  private heapF = new MinHeap(256); private heapB = new MinHeap(256);
  private cur = 0;
  private meet = -1;
  private best = Infinity;
  settled = 0;
  private stack = new Int32Array(64);
  /** seeds of the current query (node, cost, direction), to start again after the pool grew */
  private seeds: number[] = [];
  /** base edges of the last path(), and the original CH entries they were unpacked from */
  private edges = new Int32Array(256);
  private arcs: number[] = [];
  /** ms of the last path(): its edges and the turns between them */
  private dur = 0;

  constructor(private g: GraphViews) {
    const n = g.chFirst.length - 1;
    this.pages = new Pages(n, 32, [STAMP], 0x7fffffff, WHOLE_BYTES);
    if (this.pages.whole) {
      // records in node order for good: each node's chFirst copied once, not on every first touch
      const rec = this.pages.i32, cf = g.chFirst;
      for (let v = 0; v < n; v++) rec[8 * v + FIRST] = cf[v + 1] > cf[v] ? cf[v] : -1;
    }
  }

  reset() {
    this.cur = this.pages.next(this.cur);
    this.heapF.clear(); this.heapB.clear();
    this.meet = -1; this.best = Infinity; this.settled = 0;
    this.seeds.length = 0;
  }

  /** Bytes of query state this search holds now (pages, heaps, scratch), for the memory figures. */
  bytes(): number {
    return this.pages.bytes() + this.stack.byteLength + this.edges.byteLength + 8 * this.arcs.length + 12 * (this.heapF.keys.length + this.heapB.keys.length);
  }

  /** Pages in the pool: the most one query has touched so far. */
  get poolPages(): number { return this.pages.poolPages; }

  /** dir 0 = forward, 1 = backward */
  private seed(v: number, d: number, dir: number, h: MinHeap) {
    const r = this.pages.rec(v), dist = this.pages.f64, rec = this.pages.i32, cf = this.g.chFirst;
    if (rec[8 * r + STAMP] !== this.cur) {
      rec[8 * r + STAMP] = this.cur; dist[4 * r] = Infinity; dist[4 * r + 1] = Infinity;
      rec[8 * r + FIRST] = cf[v + 1] > cf[v] ? cf[v] : -1;
    }
    else if (dist[4 * r + dir] <= d) return;
    dist[4 * r + dir] = d; rec[8 * r + PRED + dir] = -1;
    h.push(d, v);
  }

  addSource(v: number, d: number) { this.seeds.push(v, d, 0); this.seed(v, d, 0, this.heapF); }
  addTarget(v: number, d: number) { this.seeds.push(v, d, 1); this.seed(v, d, 1, this.heapB); }

  run(): number {
    for (;;) {
      const best = this.pages.whole ? this.searchWhole() : this.search();
      if (best === best) return best;
      // The query needs more pages than the pool has: grow it and start again (a few times in a
      // worker's life, until the pool reaches the most pages a query touches).
      this.pages.grow();
      const seeds = this.seeds.slice();
      this.reset();
      for (let i = 0; i < seeds.length; i += 3) (seeds[i + 2] === 0 ? this.addSource : this.addTarget).call(this, seeds[i], seeds[i + 1]);
    }
  }

  /** The search; NaN when the pool ran out of slots. */
  private search(): number {
    const arc = this.g.chArc, chFirst = this.g.chFirst, pages = this.pages, table = pages.table, cur = this.cur;
    const dist = pages.f64, rec = pages.i32;
    const PS = PAGE_SHIFT, M = MASK; // locals: an imported binding is a property load per use under a CommonJS loader (tsx)
    const hF = this.heapF, hB = this.heapB;
    let best = Infinity, meet = -1, settled = 0;
    for (;;) {
      const topF = hF.length ? hF.peekKey() : Infinity;
      const topB = hB.length ? hB.peekKey() : Infinity;
      if (topF >= best && topB >= best) break;
      // Forward and backward are one code path: dir picks the distance, predecessor and weight fields.
      const dir = topF <= topB ? 0 : 1;
      const h = dir === 0 ? hF : hB;
      const x = h.peekId(), d = h.peekKey();
      h.pop();
      const rx = table[x >>> PS] + (x & M); // x was reached, so its page is attached
      if (d > dist[4 * rx + dir]) continue; // stale duplicate
      settled++;
      const t = d + dist[4 * rx + 1 - dir]; // Infinity unless the other side reached x
      if (t < best) { best = t; meet = x; }
      const first = rec[8 * rx + FIRST];
      if (first < 0) continue; // top of a hierarchy: no upward entries
      const out = dir === 0 ? HEAD_FW : HEAD_BW, inn = dir === 0 ? HEAD_BW : HEAD_FW;
      // Stall on demand: if a higher node reaches x more cheaply, x's upward edges cannot help.
      // A page the query has not attached holds no node it reached.
      let stalled = false;
      for (let k = ARC * first; ; k += ARC) {
        const head = arc[k + ARC_HEAD];
        if (head & inn) {
          const y = head >>> HEAD_SHIFT, b = table[y >>> PS];
          if (b >= 0) {
            const ry = b + (y & M);
            if (rec[8 * ry + STAMP] === cur && dist[4 * ry + dir] + arc[k + ARC_W] < d) { stalled = true; break; }
          }
        }
        if (head & HEAD_LAST) break;
      }
      if (stalled) continue;
      for (let k = ARC * first; ; k += ARC) {
        const head = arc[k + ARC_HEAD];
        // A key ≥ best is never popped, and such a distance can neither improve the meeting point
        // nor stall a node: it is skipped before touching y's record (a likely cache miss).
        if (head & out && d + arc[k + ARC_W] < best) {
          const y = head >>> HEAD_SHIFT, nd = d + arc[k + ARC_W];
          let b = table[y >>> PS];
          if (b < 0 && (b = pages.take(y >>> PS)) < 0) return NaN;
          const ry = b + (y & M);
          if (rec[8 * ry + STAMP] !== cur) {
            rec[8 * ry + STAMP] = cur; dist[4 * ry + 1 - dir] = Infinity;
            dist[4 * ry + dir] = nd; rec[8 * ry + PRED + dir] = x; h.push(nd, y);
            // copied on first touch, off the path of settling y (which needs it at once)
            rec[8 * ry + FIRST] = chFirst[y + 1] > chFirst[y] ? chFirst[y] : -1;
          } else if (nd < dist[4 * ry + dir]) {
            dist[4 * ry + dir] = nd; rec[8 * ry + PRED + dir] = x; h.push(nd, y);
          }
        }
        if (head & HEAD_LAST) break;
      }
    }
    this.best = best; this.meet = meet; this.settled = settled;
    return best;
  }

  /**
   * search() on a small graph, whose records sit in the pool in node order with chFirst copied
   * once (Pages.whole, see the constructor): the same loop without page lookups, which cost a
   * query on the 9k-node graph of `bench -- scale` 12%. Kept apart from search() because testing
   * the mode inside that loop cost the paged search on 100k nodes 13%.
   */
  private searchWhole(): number {
    const arc = this.g.chArc, cur = this.cur, dist = this.pages.f64, rec = this.pages.i32;
    const hF = this.heapF, hB = this.heapB;
    let best = Infinity, meet = -1, settled = 0;
    for (;;) {
      const topF = hF.length ? hF.peekKey() : Infinity;
      const topB = hB.length ? hB.peekKey() : Infinity;
      if (topF >= best && topB >= best) break;
      const dir = topF <= topB ? 0 : 1;
      const h = dir === 0 ? hF : hB;
      const x = h.peekId(), d = h.peekKey();
      h.pop();
      if (d > dist[4 * x + dir]) continue;
      settled++;
      const t = d + dist[4 * x + 1 - dir];
      if (t < best) { best = t; meet = x; }
      const first = rec[8 * x + FIRST];
      if (first < 0) continue;
      const out = dir === 0 ? HEAD_FW : HEAD_BW, inn = dir === 0 ? HEAD_BW : HEAD_FW;
      let stalled = false;
      for (let k = ARC * first; ; k += ARC) {
        const head = arc[k + ARC_HEAD];
        if (head & inn) {
          const y = head >>> HEAD_SHIFT;
          if (rec[8 * y + STAMP] === cur && dist[4 * y + dir] + arc[k + ARC_W] < d) { stalled = true; break; }
        }
        if (head & HEAD_LAST) break;
      }
      if (stalled) continue;
      for (let k = ARC * first; ; k += ARC) {
        const head = arc[k + ARC_HEAD];
        if (head & out && d + arc[k + ARC_W] < best) {
          const y = head >>> HEAD_SHIFT, nd = d + arc[k + ARC_W];
          if (rec[8 * y + STAMP] !== cur) {
            rec[8 * y + STAMP] = cur; dist[4 * y + 1 - dir] = Infinity;
            dist[4 * y + dir] = nd; rec[8 * y + PRED + dir] = x; h.push(nd, y);
          } else if (nd < dist[4 * y + dir]) {
            dist[4 * y + dir] = nd; rec[8 * y + PRED + dir] = x; h.push(nd, y);
          }
        }
        if (head & HEAD_LAST) break;
      }
    }
    this.best = best; this.meet = meet; this.settled = settled;
    return best;
  }

  /** Predecessor of x (reached in the last run) in direction dir; -1 at a seed. */
  private pred(x: number, dir: number): number { return this.pages.i32[8 * (this.pages.table[x >>> PAGE_SHIFT] + (x & MASK)) + PRED + dir]; }

  startNode(): number {
    let x = this.meet;
    while (x >= 0 && this.pred(x, 0) >= 0) x = this.pred(x, 0);
    return x;
  }

  endNode(): number {
    let x = this.meet;
    while (x >= 0 && this.pred(x, 1) >= 0) x = this.pred(x, 1);
    return x;
  }

  path(): Int32Array {
    this.dur = 0;
    if (this.meet < 0) return this.edges.subarray(0, 0);
    const g = this.g, arcs = this.arcs;
    arcs.length = 0;
    // forward half, collected meet→source then unpacked in source→meet order
    let top = 0;
    for (let x = this.meet; this.pred(x, 0) >= 0; x = this.pred(x, 0)) {
      if (top + 2 > this.stack.length) { const s = new Int32Array(this.stack.length * 2); s.set(this.stack); this.stack = s; }
      this.stack[top++] = this.pred(x, 0); this.stack[top++] = x;
    }
    const stack = this.stack;
    for (let i = top - 2; i >= 0; i -= 2) { const p = stack[i], x = stack[i + 1]; unpackArcs(g, chEntry(g, p, x, HEAD_FW), p, arcs); }
    for (let x = this.meet, p: number; (p = this.pred(x, 1)) >= 0; x = p) unpackArcs(g, chEntry(g, p, x, HEAD_BW), p, arcs);
    if (arcs.length > this.edges.length) this.edges = new Int32Array(2 * arcs.length);
    for (let i = 0; i < arcs.length; i++) { const k = arcs[i]; this.edges[i] = g.ebEdge[-g.chMid[k] - 1]; this.dur += g.chDur[k]; }
    return this.edges.subarray(0, arcs.length);
  }

  pathDuration(): number { return this.dur; }
}

/** Entry of the arc between `owner` and its higher neighbour `nbr`: owner→nbr (HEAD_FW) or nbr→owner (HEAD_BW). */
export function chEntry(g: GraphViews, owner: number, nbr: number, dir: number): number {
  const { chFirst, chArc } = g;
  for (let k = chFirst[owner], e = chFirst[owner + 1]; k < e; k++) {
    const head = chArc[ARC * k + ARC_HEAD];
    if (head >>> HEAD_SHIFT === nbr && head & dir) return k;
  }
  throw new Error(`CH entry ${owner}/${nbr} missing`);
}

/**
 * Appends to `out`, in driving order, the original arcs entry k of `owner`'s block stands for: k
 * itself when it is a turn a→b (chMid = -(b + 1): b's base edge is driven), else the halves of the
 * shortcut through mid, a→mid and mid→b, which sit in mid's frozen block. An original entry's
 * weight and chDur are the turn's plus its head edge's.
 */
export function unpackArcs(g: GraphViews, k: number, owner: number, out: number[]) {
  const mid = g.chMid[k];
  if (mid < 0) { out.push(k); return; }
  const head = g.chArc[ARC * k + ARC_HEAD], y = head >>> HEAD_SHIFT;
  // HEAD_FW: the arc runs owner→y; HEAD_BW: y→owner
  const fw = (head & HEAD_FW) !== 0, a = fw ? owner : y, b = fw ? y : owner;
  unpackArcs(g, chEntry(g, mid, a, HEAD_BW), mid, out);
  unpackArcs(g, chEntry(g, mid, b, HEAD_FW), mid, out);
}
