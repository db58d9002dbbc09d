// A growing column of 32-bit integers: 4 bytes an entry outside V8's heap, where a JavaScript array
// of the same numbers costs 8 (more where a value leaves the small-integer range) inside it, and
// makes V8 let its heap grow in proportion to everything the build holds there.
export class Int32Column {
  private data: Int32Array;
  length = 0;
  constructor(capacity = 1024) { this.data = new Int32Array(Math.max(16, capacity)); }
  push(x: number) {
    if (this.length === this.data.length) {
      const d = new Int32Array(Math.ceil(this.data.length * 1.5));
      d.set(this.data); this.data = d;
    }
    this.data[this.length++] = x;
  }
  /** The entries, in an array of their own length. */
  take(): Int32Array { return this.data.slice(0, this.length); }
}
