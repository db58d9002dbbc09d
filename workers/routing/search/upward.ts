// One-directional upward CH search (forward: arcs x→y to higher y; backward: arcs y→x), with
// stall-on-demand, over the edge-based hierarchy: it minimises the routing weight and carries the
// travel time (chDur) and metres (chDist) of the path it keeps beside it. The building block of the many-to-many
// searches (matrix/, match/): Knopp et al. 2007, as OSRM's table plugin.
//
// State is hash-indexed, not sized to the graph: an upward search space is a few hundred to a few
// thousand nodes whatever the graph's size, so a small open-addressing table (grown on demand,
// cleared through the list of used slots) keeps per-worker memory proportional to what a query
// touches and stays in cache. Issue 11 §6.
import { ARC, ARC_HEAD, ARC_W, HEAD_FW, HEAD_BW, HEAD_LAST, HEAD_SHIFT, type GraphViews } from '../../../src/core/format/route.ts';
import { MinHeap } from '../../../src/core/heap.ts';

export const FORWARD = 0, BACKWARD = 1;

/**
 * The nodes a search settled (not stalled), with their weight, ms and metres, in settling order;
 * reused from search to search (set n = 0). The search writes here rather than calling back: a
 * callback V8 does not inline boxes every settled node's numbers into heap numbers, ~330 KB of
 * garbage per 100 × 100 matrix on the 1M grid (a third of what the matrix allocates).
 */
export class Settled {
  n = 0;
  node = new Int32Array(256); d = new Float64Array(256); t = new Float64Array(256); m = new Float64Array(256);
  add(x: number, d: number, t: number, m: number) {
    if (this.n === this.node.length) this.grow();
    this.node[this.n] = x; this.d[this.n] = d; this.t[this.n] = t; this.m[this.n] = m; this.n++;
  }
  private grow() {
    const k = this.n * 2;
    const a = new Int32Array(k); a.set(this.node); this.node = a;
    const b = new Float64Array(k); b.set(this.d); this.d = b;
    const e = new Float64Array(k); e.set(this.t); this.t = e;
    const c = new Float64Array(k); c.set(this.m); this.m = c;
  }
}

export class UpwardSearch {
  private cap = 1024;
  private keys = new Int32Array(this.cap); // node + 1, 0 = empty
  private dist = new Float64Array(this.cap);
  private time = new Float64Array(this.cap);
  private metres = new Float64Array(this.cap);
  private used = new Int32Array(this.cap);
  private nUsed = 0;
  private heap = new MinHeap(256);

  constructor(private g: GraphViews) {}

  reset() {
    const keys = this.keys, used = this.used;
    for (let i = 0; i < this.nUsed; i++) keys[used[i]] = 0;
    this.nUsed = 0;
    this.heap.clear();
  }

  private slot(v: number): number {
    const mask = this.cap - 1, keys = this.keys, k = v + 1;
    let i = Math.imul(v, 0x9e3779b1) >>> 0 & mask;
    for (;;) {
      const c = keys[i];
      if (c === k) return i;
      if (c === 0) return ~i;
      i = (i + 1) & mask;
    }
  }

  private grow() {
    const oldKeys = this.keys, oldDist = this.dist, oldT = this.time, oldM = this.metres, oldUsed = this.used, n = this.nUsed;
    this.cap *= 2;
    this.keys = new Int32Array(this.cap); this.dist = new Float64Array(this.cap); this.time = new Float64Array(this.cap); this.metres = new Float64Array(this.cap);
    this.used = new Int32Array(this.cap); this.nUsed = 0;
    for (let j = 0; j < n; j++) {
      const i = oldUsed[j];
      this.put(oldKeys[i] - 1, oldDist[i], oldT[i], oldM[i]);
    }
  }

  /** Sets v's weight d, time t and metres m (inserting v); returns false when v already had a weight ≤ d. */
  private put(v: number, d: number, t: number, m: number): boolean {
    let s = this.slot(v);
    if (s >= 0) {
      if (this.dist[s] <= d) return false;
    } else {
      if (2 * (this.nUsed + 1) > this.cap) { this.grow(); s = this.slot(v); }
      s = ~s;
      this.keys[s] = v + 1;
      this.used[this.nUsed++] = s;
    }
    this.dist[s] = d; this.time[s] = t; this.metres[s] = m;
    return true;
  }

  /** A start node at weight d, t ms and m metres (locate/seeds.ts). */
  seed(v: number, d: number, t: number, m: number) { if (this.put(v, d, t, m)) this.heap.push(d, v); }

  /**
   * Runs the upward search in direction `dir`; appends to `out` every settled node that is not
   * stalled (a stalled node's distance is not its shortest, so it must not meet the other side).
   */
  run(dir: number, out: Settled) {
    const g = this.g, arc = g.chArc, chFirst = g.chFirst, chDist = g.chDist, chDur = g.chDur, h = this.heap;
    const fw = dir === FORWARD ? HEAD_FW : HEAD_BW, inn = dir === FORWARD ? HEAD_BW : HEAD_FW;
    while (h.length) {
      const x = h.peekId(), d = h.peekKey();
      h.pop();
      const sx = this.slot(x);
      if (d > this.dist[sx]) continue; // stale
      const t = this.time[sx], m = this.metres[sx];
      const first = chFirst[x], end = chFirst[x + 1];
      if (first === end) { out.add(x, d, t, m); continue; }
      let stalled = false;
      for (let k = ARC * first; ; k += ARC) {
        const head = arc[k + ARC_HEAD];
        if (head & inn) {
          const sy = this.slot(head >>> HEAD_SHIFT);
          if (sy >= 0 && this.dist[sy] + arc[k + ARC_W] < d) { stalled = true; break; }
        }
        if (head & HEAD_LAST) break;
      }
      if (stalled) continue;
      out.add(x, d, t, m);
      for (let k = ARC * first, j = first; ; k += ARC, j++) {
        const head = arc[k + ARC_HEAD];
        if (head & fw) {
          const y = head >>> HEAD_SHIFT, nd = d + arc[k + ARC_W];
          if (this.put(y, nd, t + chDur[j], m + chDist[j])) h.push(nd, y);
        }
        if (head & HEAD_LAST) break;
      }
    }
  }

  /** Bytes this search holds now (its table and heap), for the memory figures. */
  bytes(): number { return this.cap * (4 + 8 + 8 + 8 + 4) + this.heap.keys.length * 12; }
}
