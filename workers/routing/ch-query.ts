// Bidirectional CH query with stall-on-demand. All state lives in typed arrays sized to
// the graph and reused across queries; a version stamp marks which entries are current,
// so a query touches only the nodes it visits and allocates nothing.
//
// Memory layout is the point of this file. On graphs of millions of nodes nearly every
// first touch of a node is a cache (and TLB) miss, so everything the search reads or
// writes about node y sits in one 32-byte record, both directions together:
//   f64 [4y]   distF        f64 [4y+1] distB
//   i32 [8y+4] stamp        i32 [8y+5] predF    i32 [8y+6] predB    i32 [8y+7] chFirst[y] (-1: no entries)
// One stamp covers both directions (a first touch sets the other distance to Infinity),
// which frees the slot for a copy of chFirst[y]: settling x reads no shared offset array,
// and HEAD_LAST ends the block. The arc used is not stored: unpacking finds it again in
// the predecessor's block, so a relaxation writes nothing beyond the record.
import { ARC, ARC_HEAD, ARC_W, HEAD_FW, HEAD_BW, HEAD_LAST, HEAD_SHIFT, type GraphViews } from '../../src/core/format/route.ts';
import type { PathSearch } from './search.ts';
import { MinHeap } from '../../src/core/heap.ts';

const STAMP = 4, PRED = 5, FIRST = 7;

export class ChQuery implements PathSearch {
  private dist: Float64Array;
  private rec: Int32Array;
  private heapF = new MinHeap(256); private heapB = new MinHeap(256);
  private cur = 0;
  private meet = -1;
  private best = Infinity;
  settled = 0;
  private stack = new Int32Array(64);

  constructor(private g: GraphViews) {
    const n = g.meta.nodes;
    const buf = new ArrayBuffer(n * 32);
    this.dist = new Float64Array(buf);
    this.rec = new Int32Array(buf);
    for (let v = 0; v < n; v++) this.rec[8 * v + FIRST] = g.chFirst[v + 1] > g.chFirst[v] ? g.chFirst[v] : -1;
  }

  reset() {
    if (++this.cur === 0x7fffffff) {
      for (let i = STAMP; i < this.rec.length; i += 8) this.rec[i] = 0;
      this.cur = 1;
    }
    this.heapF.clear(); this.heapB.clear();
    this.meet = -1; this.best = Infinity; this.settled = 0;
  }

  /** dir 0 = forward, 1 = backward */
  private seed(v: number, d: number, dir: number, h: MinHeap) {
    const dist = this.dist, rec = this.rec;
    if (rec[8 * v + STAMP] !== this.cur) { rec[8 * v + STAMP] = this.cur; dist[4 * v] = Infinity; dist[4 * v + 1] = Infinity; }
    else if (dist[4 * v + dir] <= d) return;
    dist[4 * v + dir] = d; rec[8 * v + PRED + dir] = -1;
    h.push(d, v);
  }

  addSource(v: number, d: number) { this.seed(v, d, 0, this.heapF); }
  addTarget(v: number, d: number) { this.seed(v, d, 1, this.heapB); }

  run(): number {
    const arc = this.g.chArc;
    const dist = this.dist, rec = this.rec, cur = this.cur;
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
      if (d > dist[4 * x + dir]) continue; // stale duplicate
      settled++;
      const t = d + dist[4 * x + 1 - dir]; // Infinity unless the other side reached x
      if (t < best) { best = t; meet = x; }
      const first = rec[8 * x + FIRST];
      if (first < 0) continue; // top of a hierarchy: no upward entries
      const out = dir === 0 ? HEAD_FW : HEAD_BW, inn = dir === 0 ? HEAD_BW : HEAD_FW;
      // Stall on demand: if a higher node reaches x more cheaply, x's upward edges cannot help.
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
        // A key ≥ best is never popped, and such a distance can neither improve the meeting point
        // nor stall a node: it is skipped before touching y's record (a likely cache miss).
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

  private pred(x: number, dir: number): number { return this.rec[8 * x + PRED + dir]; }

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

  path(out: Int32Array): number {
    if (this.meet < 0) return 0;
    let n = 0;
    // forward half, collected meet→source then unpacked in source→meet order
    let top = 0;
    for (let x = this.meet; this.pred(x, 0) >= 0; x = this.pred(x, 0)) {
      if (top + 2 > this.stack.length) { const s = new Int32Array(this.stack.length * 2); s.set(this.stack); this.stack = s; }
      this.stack[top++] = this.pred(x, 0); this.stack[top++] = x;
    }
    const stack = this.stack;
    for (let i = top - 2; i >= 0; i -= 2) { const p = stack[i], x = stack[i + 1]; n = this.unpack(p, x, this.mid(p, x, HEAD_FW), out, n); }
    for (let x = this.meet, p: number; (p = this.pred(x, 1)) >= 0; x = p) n = this.unpack(x, p, this.mid(p, x, HEAD_BW), out, n);
    return n;
  }

  /** Middle of the arc between `owner` and its higher neighbour `nbr`: owner→nbr (HEAD_FW) or nbr→owner (HEAD_BW). */
  private mid(owner: number, nbr: number, dir: number): number {
    const { chFirst, chArc, chMid } = this.g;
    for (let k = chFirst[owner], e = chFirst[owner + 1]; k < e; k++) {
      const head = chArc[ARC * k + ARC_HEAD];
      if (head >>> HEAD_SHIFT === nbr && head & dir) return chMid[k];
    }
    throw new Error(`CH entry ${owner}/${nbr} missing`);
  }

  /** Arc a→b: a base edge (mid < 0) or a shortcut through `mid`, whose halves sit in mid's frozen entries. */
  private unpack(a: number, b: number, mid: number, out: Int32Array, n: number): number {
    const g = this.g;
    if (mid < 0) {
      const e = -mid - 1;
      out[n++] = g.edgeU[e] === a ? e + 1 : -(e + 1);
      return n;
    }
    n = this.unpack(a, mid, this.mid(mid, a, HEAD_BW), out, n);
    return this.unpack(mid, b, this.mid(mid, b, HEAD_FW), out, n);
  }
}
