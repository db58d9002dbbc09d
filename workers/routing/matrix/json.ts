// A matrix's JSON written as bytes: 2 × 1,000,000 numbers through JSON.stringify cost ~0.3 s.
// The rows, the snapped points and the blocks a streamed matrix sends ahead.
import type { Snap } from '../locate/snap.ts';
import { queryAddon } from '../search/native-query.ts';
import { writeE7 } from '../answers/coords.ts';

const round = Math.round;


const utf8 = new TextEncoder();

/** A byte buffer kept for the thread's next answer (the worker copies the answer out before it). */
/** 0000…9999 as four ASCII digits, little-endian in a u32; "null" likewise. */
const DIGITS4 = new Uint32Array(10000);
for (let i = 0; i < 10000; i++) {
  const d = String(i).padStart(4, '0');
  DIGITS4[i] = d.charCodeAt(0) | (d.charCodeAt(1) << 8) | (d.charCodeAt(2) << 16) | (d.charCodeAt(3) << 24);
}
const NULL = 0x6c6c756e;
/** Digits of 0…9999. */
const DIGITS_LEN = new Uint8Array(10000);
for (let i = 0; i < 10000; i++) DIGITS_LEN[i] = String(i).length;

const LAT = bytesOf('{"lat":'), LNG = bytesOf(',"lng":'), DIST = bytesOf(',"distance_m":');
function bytesOf(s: string): Uint8Array { return Uint8Array.from(s, (ch) => ch.charCodeAt(0)); }
function ascii(b: Uint8Array, n: number, s: Uint8Array): number {
  for (let k = 0; k < s.length; k++) b[n + k] = s[k];
  return n + s.length;
}

export class ByteWriter {
  buf: Uint8Array;
  view: DataView;
  n = 0;
  constructor(cap = 1 << 16) { this.buf = new Uint8Array(cap); this.view = new DataView(this.buf.buffer); }
  ensure(k: number) {
    if (this.n + k <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.n + k) cap *= 2;
    const b = new Uint8Array(cap); b.set(this.buf.subarray(0, this.n)); this.buf = b; this.view = new DataView(b.buffer);
  }
  str(s: string) {
    this.ensure(3 * s.length);
    this.n += utf8.encodeInto(s, this.buf.subarray(this.n)).written;
  }

  /**
   * Rows [v,v,null,…],[…] (comma-separated): seconds from ms, or metres, each rounded to 0.1 as
   * /route's round1 does. The integer part goes out four digits at a time from a table, each group
   * one 4-byte store with its leading zeros shifted off (the bytes past the number are overwritten
   * by what follows): ~20% less time than a digit at a time, and this is ~40% of a large matrix.
   */
  rows(arr: Float64Array, rows: number, cols: number, secs: boolean) {
    const a = queryAddon();
    for (let i = 0; i < rows; i++) {
      this.ensure(cols * 24 + 10);
      const b = this.buf, view = this.view;
      let n = this.n;
      if (i) b[n++] = 44;
      // the same bytes in C++, in about a third of the time; a row it refuses is written here
      const end = a ? a.row(arr, i * cols, cols, secs, b, n) : -1;
      if (end >= 0) { this.n = end; continue; }
      b[n++] = 91;
      for (let j = 0, off = i * cols; j < cols; j++) {
        if (j) b[n++] = 44;
        const v = arr[off + j];
        if (v === Infinity) { view.setUint32(n, NULL, true); n += 4; continue; }
        n = this.tenthsAt(n, secs ? (v / 1000) * 10 : v * 10);
      }
      b[n++] = 93;
      this.n = n;
    }
  }
  /**
   * Math.round(x) / 10 as JSON writes it, at byte n (x a value in tenths, ≥ 0); returns the new end,
   * with up to 3 bytes written past it. Math.round and an integer division by 10 were over half of
   * a row's time; for 0.5 ≤ x < 1e9, ⌊x + 0.5⌋ is exactly Math.round(x) (the sum is exact there), and
   * t × 0.1 never falls below the next lower multiple's quotient (0.1 is slightly above 1/10).
   */
  private tenthsAt(n: number, x: number): number {
    if (x >= 1e9 - 0.5) return this.big(n, Math.round(x));
    const b = this.buf, view = this.view, L = DIGITS4, N = DIGITS_LEN;
    const t = x < 0.5 ? 0 : (x + 0.5) | 0;
    const ip = (t * 0.1) | 0, f = t - ip * 10;
    if (ip < 10000) { const len = N[ip]; view.setUint32(n, L[ip] >>> ((4 - len) << 3), true); n += len; }
    else {
      const hi = (ip * 0.0001) | 0, len = N[hi]; // ip < 10^8: hi < 10^4 (0.0001 is slightly above 1/10^4)
      view.setUint32(n, L[hi] >>> ((4 - len) << 3), true); n += len;
      view.setUint32(n, L[ip - hi * 10000], true); n += 4;
    }
    if (f) { b[n] = 46; b[n + 1] = 48 + f; n += 2; }
    return n;
  }
  /** A value of 10^8 or more (a cost beyond 3 years, a distance beyond 100,000 km): as JSON.stringify writes it. */
  private big(n: number, t: number): number {
    const s = String(t / 10);
    for (let i = 0; i < s.length; i++) this.buf[n++] = s.charCodeAt(i);
    return n;
  }
  /**
   * Snapped points as JSON array items (no brackets), the text JSON.stringify gives snappedJson's
   * objects, written from the rounded integers: a point's doubles printed as shortest digits cost
   * more than a row of cells.
   */
  snapped(list: (Snap[] | null)[], from: number, to: number) {
    for (let i = from; i < to; i++) {
      this.ensure(80);
      const b = this.buf, view = this.view, c = list[i];
      let n = this.n;
      if (i > from) b[n++] = 44;
      if (!c) { view.setUint32(n, NULL, true); this.n = n + 4; continue; }
      const la = round(c[0].lat * 1e7), lo = round(c[0].lng * 1e7);
      // below 1e-6 degrees JSON writes an exponent ("1e-7"): those few as JSON.stringify writes them
      if ((la !== 0 && la > -10 && la < 10) || (lo !== 0 && lo > -10 && lo < 10)) { this.n = n; this.str(JSON.stringify(snappedJson(c))); continue; }
      n = ascii(b, n, LAT); n = writeE7(view, n, la);
      n = ascii(b, n, LNG); n = writeE7(view, n, lo);
      n = ascii(b, n, DIST); n = this.tenthsAt(n, c[0].dist * 10);
      b[n++] = 125; // }
      this.n = n;
    }
  }
}

let writer = new ByteWriter();

/** The thread's writer, grown first to `bound` bytes when smaller (once, not by doubling). */
export function matrixWriter(bound = 0): ByteWriter {
  if (writer.buf.length < bound) writer = new ByteWriter(bound);
  return writer;
}

/** Drops the writer's buffer (a thread quiet after a large matrix). */
export function freshWriter() { writer = new ByteWriter(); }

/** Rows as ByteWriter.rows writes them, as text (for tests). */
export function rowsText(arr: Float64Array, rows: number, cols: number, secs: boolean): string {
  const w = new ByteWriter();
  w.rows(arr, rows, cols, secs);
  return Buffer.from(w.buf.subarray(0, w.n)).toString();
}

export const snappedJson = (c: Snap[] | null) => c
  ? { lat: round(c[0].lat * 1e7) / 1e7, lng: round(c[0].lng * 1e7) / 1e7, distance_m: round(c[0].dist * 10) / 10 }
  : null;

/** The rows of a block as JSON text in a buffer of its own (to be moved to the main thread). */
export function blockText(arr: Float64Array, rows: number, cols: number, secs: boolean): Uint8Array {
  const w = writer;
  w.n = 0;
  w.rows(arr, rows, cols, secs);
  return w.buf.slice(0, w.n);
}

