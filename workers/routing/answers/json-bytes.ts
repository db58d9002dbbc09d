// JSON text written as bytes into the thread's scratch space, for answers made of many small
// fields between large byte ranges (a guided route: each step's fields, then its line, a range
// of the route's already written text). Handed to the reply encoder as strings, the fields were
// some 30 pieces per route, each measured and then written by its own call into C++; here each
// run of fields is encoded once, as it is written, and the runs between two ranges are one view.
//
// A view handed out by cut() stays valid until the thread's next answer (startBytes), as the
// lines' text does (lines.ts): when the space is full, a larger one replaces it and views already
// cut keep the old one.

let space = Buffer.allocUnsafeSlow(1 << 14);
let used = 0;

/** A new answer: its bytes take the space from the start. */
export function startBytes() { used = 0; }

/** Appends JSON text to `out`: text and small byte strings into the space, large ranges as views of their own. */
export class JsonBytes {
  private start = used;
  constructor(private readonly out: (string | Uint8Array)[]) {}

  /** JSON text as it is (fields joined as a string: cheap in JS, where each crossing into C++ costs more than its bytes). */
  text(s: string): this {
    this.room(3 * s.length);
    used += space.write(s, used);
    return this;
  }

  /** Bytes from..to-1 of b, a few (a point's text), copied in. */
  small(b: Uint8Array, from: number, to: number): this {
    this.room(to - from);
    const d = space;
    let u = used;
    for (let i = from; i < to; i++) d[u++] = b[i];
    used = u;
    return this;
  }

  /** A large range as a view of its own, between the bytes written before and after it. */
  bytes(b: Uint8Array): this {
    this.cut();
    this.out.push(b);
    return this;
  }

  /** Hands what was written since the last cut to `out`. */
  cut(): this {
    if (used > this.start) this.out.push(new Uint8Array(space.buffer, space.byteOffset + this.start, used - this.start));
    this.start = used;
    return this;
  }

  private room(n: number) {
    if (used + n <= space.length) return;
    this.cut();
    space = Buffer.allocUnsafeSlow(Math.max(2 * space.length, 4 * n));
    used = this.start = 0;
  }
}
