// Paged per-query state, so a worker's memory grows with what its queries touch, not with the graph: node v's record sits in page v >> PAGE_SHIFT, and a page gets
// a slot of a pool the first time the current query touches it. The pool is kept across queries and
// grows to the most pages one query has touched, so a worker holds memory for what its searches
// reach instead of a record per graph node. graph-build numbers nodes for locality
// (graph-build/contract/renumber.ts), so a CH search of a few hundred nodes touches a few dozen pages.
// A page's records are not cleared when it is attached: searches stamp each record with a query
// version, and a slot only ever holds stamps of earlier queries (smaller) when it is handed out.
export const PAGE_SHIFT = 8;
export const PAGE = 1 << PAGE_SHIFT;
export const PAGE_MASK = PAGE - 1;

export class Pages {
  /** page → index of its first record in the pool, -1 while the current query has not touched it */
  readonly table: Int32Array;
  /** the pool, two views of one buffer; replaced when the pool grows (callers re-read them after attach) */
  f64 = new Float64Array(0);
  i32 = new Int32Array(0);
  private attached = new Int32Array(64);
  private n = 0;
  private slots = 0;
  /** Every page attached for good (a small graph): node v's record is record v. */
  readonly whole: boolean = false;

  /**
   * recBytes: bytes per record, a multiple of 8; stampWords: the i32 words of a record that hold
   * query stamps, all below maxStamp (see next()); wholeBytes: a graph whose whole state fits in
   * this many bytes keeps every page attached for good, so a search may index records by node
   * (ChQuery: on the 9k-node graph of `bench -- scale`, the page lookups were an eighth of a
   * query's time).
   */
  constructor(nodes: number, private recBytes: number, private stampWords: number[], private maxStamp: number, wholeBytes = 0) {
    this.table = new Int32Array((nodes >>> PAGE_SHIFT) + 1).fill(-1);
    if (this.table.length * PAGE * recBytes <= wholeBytes) {
      this.grow(this.table.length);
      for (let p = 0; p < this.table.length; p++) this.table[p] = p << PAGE_SHIFT;
      this.whole = true;
    }
  }

  /**
   * Starts the next query after the one stamped `cur`: detaches that query's pages and returns the
   * new stamp. Before the stamps would reach maxStamp, every record's stamp words are cleared and
   * they start again at 1.
   */
  next(cur: number): number {
    this.clear();
    if (++cur !== this.maxStamp) return cur;
    const rec = this.i32, stride = this.recBytes >> 2;
    for (const w of this.stampWords) for (let i = w; i < rec.length; i += stride) rec[i] = 0;
    return 1;
  }

  /** Detaches every page the last query touched; their slots serve the next one. */
  clear() {
    if (this.whole) return;
    const table = this.table, at = this.attached;
    for (let i = 0; i < this.n; i++) table[at[i]] = -1;
    this.n = 0;
  }

  /** Gives page p a slot (growing the pool when the query holds them all); returns its first record index. */
  attach(p: number): number {
    if (this.n === this.slots) this.grow();
    return this.take(p);
  }

  /**
   * Gives page p a slot without growing the pool: -1 when the query holds them all. A search whose
   * loop keeps the pool's views in locals uses this, then grows and starts again (see ChQuery.run),
   * since views that can change under a loop cost it ~20% on large graphs.
   */
  take(p: number): number {
    const k = this.n;
    if (k === this.slots) return -1;
    if (k === this.attached.length) { const a = new Int32Array(2 * k); a.set(this.attached); this.attached = a; }
    this.attached[k] = p; this.n = k + 1;
    return (this.table[p] = k << PAGE_SHIFT);
  }

  /** Grows the pool (doubles it by default), keeping what it holds. */
  grow(slots = Math.max(4, this.slots * 2)) {
    const i32 = new Int32Array(slots * PAGE * (this.recBytes >> 2));
    i32.set(this.i32);
    this.i32 = i32; this.f64 = new Float64Array(i32.buffer); this.slots = slots;
  }

  /** Record index of node v, attaching its page if needed. */
  rec(v: number): number {
    const b = this.table[v >>> PAGE_SHIFT];
    return (b >= 0 ? b : this.attach(v >>> PAGE_SHIFT)) + (v & PAGE_MASK);
  }

  /** Pages in the pool: the most one query has touched so far. */
  get poolPages(): number { return this.slots; }

  /** Bytes held: pool, page table and the list of attached pages. */
  bytes(): number { return this.i32.byteLength + this.table.byteLength + this.attached.byteLength; }
}
