// The lines of the thread's current answer (guided routes, the OSRM layer): their E7 coordinates
// and the JSON text of their points, in scratch space reused by the next answer. Tasks run one at
// a time; guide() and the OSRM match task start it over with startLines().
//
// Why scratch: each long route's line, point offsets and text were fresh arrays off the heap,
// counted as external memory, and churning them brought the worker's full collections forward.
// When a scratch is full, a larger one replaces it and what was already taken keeps the old one.
import { writePoint } from './coords.ts';
import { startBytes } from './json-bytes.ts';

/**
 * Points from..to (inclusive) of a flat E7 array [lng, lat, …] (a route's line, or a step's range
 * of it): written as GeoJSON or an encoded polyline by the answer's format. One point stands for a
 * line of two equal points (an arrive step).
 */
export class E7Line {
  constructor(readonly c: ArrayLike<number>, readonly from = 0, readonly to = c.length / 2 - 1) {}
  /** [lng, lat] pairs as E7 integers, for encoders that want a plain list */
  *points(): Generator<[number, number]> {
    for (let k = this.from; k <= this.to; k++) yield [this.c[2 * k], this.c[2 * k + 1]];
    if (this.to === this.from) yield [this.c[2 * this.to], this.c[2 * this.to + 1]];
  }
}

let arena = new Int32Array(1 << 16);
let arenaUsed = 0;
/** JSON text of points, "[x,y]," each (writePoint may touch 3 bytes past a point: room is kept). */
let text = new Uint8Array(1 << 17);
let textView = new DataView(text.buffer);
let textUsed = 0;

/** A new answer: its lines, and the JSON written around them, take the scratch space from the start. */
export function startLines() { arenaUsed = 0; textUsed = 0; startBytes(); }

/** n Int32s of the current answer's space (zeroed is not promised). */
export function takeInts(n: number): Int32Array {
  if (arenaUsed + n > arena.length) { arena = new Int32Array(Math.max(arena.length, 2 * n)); arenaUsed = 0; }
  arenaUsed += n;
  return arena.subarray(arenaUsed - n, arenaUsed);
}

/** A route's line as it is assembled: flat E7 [lng, lat, …] pairs, a repeat of the last point dropped. */
export class Coords {
  private a = arena;
  private base = arenaUsed;
  /** integers used (twice the points) */
  n = 0;
  get points(): number { return this.n >> 1; }
  /** lng (x) and lat (y) of point k */
  x(k: number): number { return this.a[this.base + 2 * k]; }
  y(k: number): number { return this.a[this.base + 2 * k + 1]; }
  add(x: number, y: number) {
    const i = this.base + this.n;
    if (this.n >= 2 && this.a[i - 2] === x && this.a[i - 1] === y) return;
    if (i + 2 > this.a.length) this.grow();
    const j = this.base + this.n;
    this.a[j] = x; this.a[j + 1] = y; this.n += 2;
  }
  /**
   * Shape points s0..s1-1 of an edge (lon/lat E7 arrays), in order or backwards, each dropped
   * when equal to the point before: add() per point, in one loop over locals (a long route's
   * line is thousands of these).
   */
  addShape(lon: ArrayLike<number>, lat: ArrayLike<number>, s0: number, s1: number, forward: boolean) {
    if (this.base + this.n + 2 * (s1 - s0) > this.a.length) this.grow(2 * (s1 - s0));
    const a = this.a;
    let j = this.base + this.n, lx = this.n >= 2 ? a[j - 2] : NaN, ly = this.n >= 2 ? a[j - 1] : NaN;
    for (let i = 0, k = forward ? s0 : s1 - 1, step = forward ? 1 : -1; i < s1 - s0; i++, k += step) {
      const x = lon[k], y = lat[k];
      if (x === lx && y === ly) continue;
      a[j] = lx = x; a[j + 1] = ly = y; j += 2;
    }
    this.n = j - this.base;
  }
  private grow(extra = 2) {
    const b = new Int32Array(Math.max(arena.length, 4 * (this.n + extra)));
    b.set(this.a.subarray(this.base, this.base + this.n));
    arena = this.a = b; this.base = 0; arenaUsed = 0;
  }
  /** The pairs, as a view: the line is not appended to after, and the next line starts past it. */
  done(): Int32Array {
    if (this.a === arena) arenaUsed = this.base + this.n;
    return this.a.subarray(this.base, this.base + this.n);
  }
}

/** A line's JSON text: bytes[at[k] .. at[k+1]-1) is "[x,y]," of point k (at[points] = length). */
export interface LineText { bytes: Uint8Array; at: Int32Array }

/** The lines already written, by their coordinate view. */
const written = new WeakMap<ArrayLike<number>, LineText>();

/**
 * The JSON text of a line's points, written on first use into the text scratch: a route's line
 * once, and each step's line a range of it.
 */
export function lineText(c: ArrayLike<number>): LineText {
  let w = written.get(c);
  if (!w) { w = writePoints(c); written.set(c, w); }
  return w;
}

/** "[x,y],[x,y],…," for every point of c, in the text scratch, and where each point's text starts. */
function writePoints(c: ArrayLike<number>): LineText {
  const n = c.length / 2;
  if (text.length - textUsed < n * 28 + 16) { text = new Uint8Array(Math.max(text.length, n * 28 + 16)); textView = new DataView(text.buffer); textUsed = 0; }
  const d = textView, at = takeInts(n + 1), base = textUsed;
  let m = base;
  for (let k = 0; k < n; k++) {
    at[k] = m - base;
    m = writePoint(d, m, c[2 * k], c[2 * k + 1]);
    d.setUint8(m++, 44);
  }
  at[n] = m - base;
  textUsed = m;
  return { bytes: text.subarray(base, m), at };
}
