// Where a route's coordinates go as they are unpacked. Coordinates arrive as Int32 degrees × 1e7
// (the stored precision); consecutive duplicates are dropped.
export interface CoordSink {
  add(lngE7: number, latE7: number): void;
}

/** [[lng, lat], …] arrays (benchmarks and checks; answers use JsonCoordSink). */
export class ArraySink implements CoordSink {
  coords: number[][] = [];
  private lx = NaN; private ly = NaN;
  add(x: number, y: number) {
    if (x === this.lx && y === this.ly) return;
    this.lx = x; this.ly = y;
    this.coords.push([x / 1e7, y / 1e7]);
  }
}

/**
 * The JSON text of [[lng, lat], …] written straight from the stored integers. Most of the cost
 * of a long route's answer was V8 turning 4,000 doubles into their shortest decimal strings;
 * an E7 integer prints as fixed-point digits instead (x / 1e7 and the decimal text parse to
 * the same double), into one byte buffer decoded once as Latin-1.
 */
/** Reused by every answer of this thread (tasks run one at a time); grows as needed. */
let scratch = new Uint8Array(1 << 16);

export class JsonCoordSink implements CoordSink {
  private buf = scratch;
  private n = 1;
  private lx = NaN; private ly = NaN;

  constructor() { this.buf[0] = 91; /* [ */ }

  add(x: number, y: number) {
    if (x === this.lx && y === this.ly) return;
    this.lx = x; this.ly = y;
    // ",[" + two numbers of at most 12 characters + "," + "]"
    if (this.n + 32 > this.buf.length) this.grow();
    const b = this.buf;
    let n = this.n;
    if (n > 1) b[n++] = 44; // ,
    b[n++] = 91; // [
    n = writeE7(b, n, x);
    b[n++] = 44;
    n = writeE7(b, n, y);
    b[n++] = 93; // ]
    this.n = n;
  }

  /** The array's JSON text. */
  text(): string {
    this.buf[this.n] = 93; // ]
    return Buffer.from(this.buf.buffer, this.buf.byteOffset, this.n + 1).toString('latin1');
  }

  private grow() {
    const b = new Uint8Array(this.buf.length * 2);
    b.set(this.buf.subarray(0, this.n));
    this.buf = scratch = b;
  }
}

/** Writes v / 1e7 (v an integer, |v| < 2^31) as decimal text at b[n]; returns the new end. */
export function writeE7(b: Uint8Array, n: number, v: number): number {
  if (v < 0) { b[n++] = 45; v = -v; } // -
  const ip = Math.floor(v / 1e7);
  let frac = v - ip * 1e7;
  // integer part, most significant digit first
  if (ip === 0) b[n++] = 48;
  else {
    let d = 1;
    while (d * 10 <= ip) d *= 10;
    for (let r = ip; d >= 1; d = d / 10 | 0) { const q = Math.floor(r / d); b[n++] = 48 + q; r -= q * d; }
  }
  if (frac === 0) return n;
  b[n++] = 46; // .
  // seven fraction digits without the trailing zeros
  let digits = 7;
  while (frac % 10 === 0) { frac /= 10; digits--; }
  for (let i = digits - 1; i >= 0; i--) { b[n + i] = 48 + (frac % 10); frac = Math.floor(frac / 10); }
  return n + digits;
}
