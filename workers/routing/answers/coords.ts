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
let scratchView = new DataView(scratch.buffer);

export class JsonCoordSink implements CoordSink {
  private buf = scratch;
  private dv = scratchView;
  private n = 1;
  private lx = NaN; private ly = NaN;

  constructor() { this.buf[0] = 91; /* [ */ }

  add(x: number, y: number) {
    if (x === this.lx && y === this.ly) return;
    this.lx = x; this.ly = y;
    // "," + "[x,y]" (at most 27 characters) + 3 bytes writeE7 may touch beyond its end + "]"
    if (this.n + 32 > this.buf.length) this.grow();
    let n = this.n;
    if (n > 1) this.buf[n++] = 44; // ,
    this.n = writePoint(this.dv, n, x, y);
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
    this.dv = scratchView = new DataView(b.buffer);
  }
}

/*
 * Digits by table, four bytes per store: the fraction's first three digits with the point
 * (".ddd") and its last four ("dddd") are each one little-endian u32, the integer part (0–214)
 * one more, and the trailing zeros to drop are looked up too. About 2.3× fewer instructions
 * than two digits at a time (callgrind), on the path every coordinate of every answer takes.
 */
const DOT3 = new Uint32Array(1000), D4 = new Uint32Array(10000), INT = new Uint32Array(215);
const TZ3 = new Uint8Array(1000), TZ4 = new Uint8Array(10000), INT_LEN = new Uint8Array(215);
const u32 = (s: string) => { let w = 0; for (let k = 0; k < s.length; k++) w |= s.charCodeAt(k) << (8 * k); return w >>> 0; };
const zeros = (s: string) => s.length - s.replace(/0+$/, '').length;
for (let i = 0; i < 10000; i++) { const s = String(i).padStart(4, '0'); D4[i] = u32(s); TZ4[i] = zeros(s); }
for (let i = 0; i < 1000; i++) { const s = String(i).padStart(3, '0'); DOT3[i] = u32('.' + s); TZ3[i] = zeros(s); }
for (let i = 0; i < 215; i++) { INT[i] = u32(String(i)); INT_LEN[i] = String(i).length; }

/**
 * Writes v / 1e7 (v an integer, |v| < 2^31) as decimal text at byte n of d; returns the new end.
 * May write up to 3 bytes past that end (whole u32 stores): callers leave room.
 */
export function writeE7(d: DataView, n: number, v: number): number {
  if (v < 0) { d.setUint8(n++, 45); v = -v; } // -
  const ip = (v / 10000000) | 0, f = v - ip * 10000000;
  d.setUint32(n, INT[ip], true);
  n += INT_LEN[ip];
  if (f === 0) return n;
  const hi = (f / 10000) | 0, lo = f - hi * 10000;
  d.setUint32(n, DOT3[hi], true);
  if (lo === 0) return n + 4 - TZ3[hi];
  d.setUint32(n + 4, D4[lo], true);
  return n + 8 - TZ4[lo];
}

/** Writes "[x,y]" (E7 integers as degrees) at byte n of d; returns the new end (3 bytes of room past it). */
export function writePoint(d: DataView, n: number, x: number, y: number): number {
  d.setUint8(n, 91); // [
  n = writeE7(d, n + 1, x);
  d.setUint8(n, 44); // ,
  n = writeE7(d, n + 1, y);
  d.setUint8(n, 93); // ]
  return n + 1;
}
