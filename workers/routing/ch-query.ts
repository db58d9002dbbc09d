// Bidirectional CH query with stall-on-demand. All state lives in typed arrays sized to
// the graph and reused across queries; a version stamp marks which entries are current,
// so a query touches only the nodes it visits and allocates nothing.
import type { GraphViews } from './format.ts';
import type { PathSearch } from './search.ts';
import { MinHeap } from './heap.ts';

export class ChQuery implements PathSearch {
  private distF: Float64Array; private distB: Float64Array;
  private stampF: Uint32Array; private stampB: Uint32Array;
  private predF: Int32Array; private predB: Int32Array;
  private midF: Int32Array; private midB: Int32Array;
  private heapF = new MinHeap(256); private heapB = new MinHeap(256);
  private cur = 0;
  private meet = -1;
  private best = Infinity;
  settled = 0;
  private stack = new Int32Array(64);

  constructor(private g: GraphViews) {
    const n = g.meta.nodes;
    this.distF = new Float64Array(n); this.distB = new Float64Array(n);
    this.stampF = new Uint32Array(n); this.stampB = new Uint32Array(n);
    this.predF = new Int32Array(n); this.predB = new Int32Array(n);
    this.midF = new Int32Array(n); this.midB = new Int32Array(n);
  }

  reset() {
    if (++this.cur === 0xffffffff) { this.stampF.fill(0); this.stampB.fill(0); this.cur = 1; }
    this.heapF.clear(); this.heapB.clear();
    this.meet = -1; this.best = Infinity; this.settled = 0;
  }

  addSource(v: number, d: number) {
    if (this.stampF[v] === this.cur && this.distF[v] <= d) return;
    this.stampF[v] = this.cur; this.distF[v] = d; this.predF[v] = -1; this.heapF.push(d, v);
  }

  addTarget(v: number, d: number) {
    if (this.stampB[v] === this.cur && this.distB[v] <= d) return;
    this.stampB[v] = this.cur; this.distB[v] = d; this.predB[v] = -1; this.heapB.push(d, v);
  }

  run(): number {
    const { chFirst, chNbr, chFw, chBw, chFwMid, chBwMid } = this.g;
    const cur = this.cur;
    const hF = this.heapF, hB = this.heapB;
    const distF = this.distF, distB = this.distB, stampF = this.stampF, stampB = this.stampB;
    let best = Infinity, meet = -1, settled = 0;
    for (;;) {
      const topF = hF.length ? hF.peekKey() : Infinity;
      const topB = hB.length ? hB.peekKey() : Infinity;
      if (topF >= best && topB >= best) break;
      // Forward and backward are symmetric: same code with (fw,bw) and (F,B) swapped.
      const fwd = topF <= topB;
      const h = fwd ? hF : hB;
      const x = h.peekId(), d = h.peekKey();
      h.pop();
      const dist = fwd ? distF : distB, stamp = fwd ? stampF : stampB;
      if (d > dist[x]) continue; // stale duplicate
      settled++;
      const odist = fwd ? distB : distF, ostamp = fwd ? stampB : stampF;
      if (ostamp[x] === cur) {
        const t = d + odist[x];
        if (t < best) { best = t; meet = x; }
      }
      const out = fwd ? chFw : chBw, inn = fwd ? chBw : chFw;
      const s = chFirst[x], e = chFirst[x + 1];
      // Stall on demand: if a higher node reaches x more cheaply, x's upward edges cannot help.
      let stalled = false;
      for (let k = s; k < e; k++) {
        const w = inn[k];
        if (w < 0) continue;
        const y = chNbr[k];
        if (stamp[y] === cur && dist[y] + w < d) { stalled = true; break; }
      }
      if (stalled) continue;
      const pred = fwd ? this.predF : this.predB, mids = fwd ? this.midF : this.midB, midSrc = fwd ? chFwMid : chBwMid;
      for (let k = s; k < e; k++) {
        const w = out[k];
        if (w < 0) continue;
        const y = chNbr[k];
        const nd = d + w;
        if (stamp[y] !== cur || nd < dist[y]) {
          stamp[y] = cur; dist[y] = nd; pred[y] = x; mids[y] = midSrc[k];
          h.push(nd, y);
        }
      }
    }
    this.best = best; this.meet = meet; this.settled = settled;
    return best;
  }

  startNode(): number {
    let x = this.meet;
    while (x >= 0 && this.predF[x] >= 0) x = this.predF[x];
    return x;
  }

  endNode(): number {
    let x = this.meet;
    while (x >= 0 && this.predB[x] >= 0) x = this.predB[x];
    return x;
  }

  path(out: Int32Array): number {
    if (this.meet < 0) return 0;
    let n = 0;
    // forward half, collected meet→source then unpacked in source→meet order
    let top = 0;
    for (let x = this.meet; this.predF[x] >= 0; x = this.predF[x]) {
      if (top + 3 > this.stack.length) { const s = new Int32Array(this.stack.length * 2); s.set(this.stack); this.stack = s; }
      this.stack[top++] = this.predF[x]; this.stack[top++] = x; this.stack[top++] = this.midF[x];
    }
    const stack = this.stack;
    for (let i = top - 3; i >= 0; i -= 3) n = this.unpack(stack[i], stack[i + 1], stack[i + 2], out, n);
    for (let x = this.meet; this.predB[x] >= 0; x = this.predB[x]) n = this.unpack(x, this.predB[x], this.midB[x], out, n);
    return n;
  }

  /** Arc a→b: a base edge (mid < 0) or a shortcut through `mid`, whose halves sit in mid's frozen entries. */
  private unpack(a: number, b: number, mid: number, out: Int32Array, n: number): number {
    const g = this.g;
    if (mid < 0) {
      const e = -mid - 1;
      out[n++] = g.edgeU[e] === a ? e + 1 : -(e + 1);
      return n;
    }
    const s = g.chFirst[mid], end = g.chFirst[mid + 1];
    let ka = -1, kb = -1;
    for (let k = s; k < end; k++) {
      const y = g.chNbr[k];
      if (y === a) ka = k;
      if (y === b) kb = k;
    }
    n = this.unpack(a, mid, g.chBwMid[ka], out, n);
    return this.unpack(mid, b, g.chFwMid[kb], out, n);
  }
}
