// A binary min-heap of (key, id) pairs in typed arrays. Duplicates are allowed: callers
// push again on a decrease and skip stale pops, which is faster in JS than decrease-key.
export class MinHeap {
  keys: Float64Array;
  ids: Int32Array;
  length = 0;
  constructor(cap = 1024) {
    this.keys = new Float64Array(cap);
    this.ids = new Int32Array(cap);
  }
  clear() { this.length = 0; }
  push(key: number, id: number) {
    if (this.length === this.keys.length) {
      const k = new Float64Array(this.length * 2); k.set(this.keys); this.keys = k;
      const i = new Int32Array(this.length * 2); i.set(this.ids); this.ids = i;
    }
    const keys = this.keys, ids = this.ids;
    let pos = this.length++;
    while (pos > 0) {
      const parent = (pos - 1) >> 1;
      const pk = keys[parent];
      if (key >= pk) break;
      keys[pos] = pk; ids[pos] = ids[parent];
      pos = parent;
    }
    keys[pos] = key; ids[pos] = id;
  }
  /** Smallest key (undefined behaviour when empty). */
  peekKey(): number { return this.keys[0]; }
  peekId(): number { return this.ids[0]; }
  /** Removes the top; read peekKey/peekId first. */
  pop(): void {
    const keys = this.keys, ids = this.ids;
    const n = --this.length;
    if (n <= 0) return;
    const key = keys[n], id = ids[n];
    let pos = 0;
    const half = n >> 1;
    while (pos < half) {
      let c = 2 * pos + 1;
      const r = c + 1;
      if (r < n && keys[r] < keys[c]) c = r;
      if (keys[c] >= key) break;
      keys[pos] = keys[c]; ids[pos] = ids[c];
      pos = c;
    }
    keys[pos] = key; ids[pos] = id;
  }
}
