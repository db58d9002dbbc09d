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
    const b = this.bytes();
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
  }

  /** The array's JSON text as ASCII bytes: a view of the thread's scratch buffer, valid until its next answer. */
  bytes(): Uint8Array {
    this.buf[this.n] = 93; // ]
    return this.buf.subarray(0, this.n + 1);
  }

  private grow() {
    const b = new Uint8Array(this.buf.length * 2);
    b.set(this.buf.subarray(0, this.n));
    this.buf = scratch = b;
  }
}

/** "00".."99" as ASCII pairs: two digits per table read instead of a division each. */
const PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) { PAIRS[2 * i] = 48 + ((i / 10) | 0); PAIRS[2 * i + 1] = 48 + (i % 10); }

/**
 * Writes v / 1e7 (v an integer, |v| < 2^31) as decimal text at b[n]; returns the new end.
 * Int32 arithmetic throughout (|v| / 1e7 ≤ 214): this runs twice per coordinate of every answer.
 */
export function writeE7(b: Uint8Array, n: number, v: number): number {
  if (v < 0) { b[n++] = 45; v = -v; } // -
  const ip = (v / 10000000) | 0;
  let f = v - ip * 10000000;
  if (ip >= 100) {
    const lo = ip - 100 * ((ip / 100) | 0);
    b[n] = 48 + ((ip / 100) | 0); b[n + 1] = PAIRS[2 * lo]; b[n + 2] = PAIRS[2 * lo + 1]; n += 3;
  } else if (ip >= 10) { b[n] = PAIRS[2 * ip]; b[n + 1] = PAIRS[2 * ip + 1]; n += 2; } else b[n++] = 48 + ip;
  if (f === 0) return n;
  b[n] = 46; // .
  // seven fraction digits as 1 + 2 + 2 + 2, then the trailing zeros dropped
  const d1 = (f / 1000000) | 0; f -= d1 * 1000000;
  const p1 = (f / 10000) | 0; f -= p1 * 10000;
  const p2 = (f / 100) | 0; const p3 = f - p2 * 100;
  b[n + 1] = 48 + d1;
  b[n + 2] = PAIRS[2 * p1]; b[n + 3] = PAIRS[2 * p1 + 1];
  b[n + 4] = PAIRS[2 * p2]; b[n + 5] = PAIRS[2 * p2 + 1];
  b[n + 6] = PAIRS[2 * p3]; b[n + 7] = PAIRS[2 * p3 + 1];
  let end = n + 8;
  while (b[end - 1] === 48) end--;
  return end;
}
