// Shared memory where the threads of one matrix meet (src/pool/matrix-dispatch.ts, workers/routing/matrix/task.ts).
//
// A middling matrix on idle threads runs on all of them at once: each snaps a share of the points
// and writes their upward search spaces into its own region here, says so in the header, waits
// until every other side has said so, then fills a share of the rows from every side's spaces.
// The threads meet without the main thread: one message out and one answer back per thread, where
// two phases through the main thread cost a second round trip, a second copy of the request's
// arguments for each thread to unpack and check, and the main thread's turn in between.
//
// Layout: Int32 header of 2 × sides words (state of side k at k, its length in Float64s at
// sides + k), then `sides` regions of `cap` Float64s each (the buffer may be larger: a kept one).
// The main thread owns the buffer; it reuses it only once every side has answered.

/** State of a side: not yet written, written, or out of room (its length is then what it needed). */
export const MEET_PENDING = 0, MEET_WRITTEN = 1, MEET_FULL = 2;

export interface MeetLayout {
  sides: number;
  /** Float64s per side */
  cap: number;
  head: Int32Array;
}

/** 2 × sides Int32 words: a multiple of 8 bytes, so the regions stay Float64-aligned. */
const headBytes = (sides: number) => 8 * sides;

/** Bytes of a buffer for `sides` regions of `cap` Float64s each. */
export const meetBytes = (sides: number, cap: number) => headBytes(sides) + 8 * sides * cap;

/** The layout of `buf` for `sides` regions of `cap` Float64s, or null when the buffer cannot hold them. */
export function meetLayout(buf: SharedArrayBuffer, sides: number, cap: number): MeetLayout | null {
  if (!(Number.isInteger(sides) && sides >= 1 && Number.isInteger(cap) && cap >= 1)) return null;
  if (buf.byteLength < meetBytes(sides, cap)) return null;
  return { sides, cap, head: new Int32Array(buf, 0, 2 * sides) };
}

/** Side k's region as Float64s (its whole capacity). */
export function meetRegion(buf: SharedArrayBuffer, m: MeetLayout, k: number): Float64Array {
  return new Float64Array(buf, headBytes(m.sides) + 8 * k * m.cap, m.cap);
}

/** Clears every side's state before the buffer goes out again. */
export function meetReset(buf: SharedArrayBuffer, sides: number) {
  new Int32Array(buf, 0, 2 * sides).fill(0);
}

/** Length (Float64s) side k wrote, or needed when it ran out of room. */
export function meetLength(m: MeetLayout, k: number): number {
  return Atomics.load(m.head, m.sides + k);
}

/** Publishes side k: its state and length, and wakes whoever waits for it. */
export function meetPublish(m: MeetLayout, k: number, state: number, length: number) {
  Atomics.store(m.head, m.sides + k, length);
  Atomics.store(m.head, k, state);
  Atomics.notify(m.head, k);
}

/** Waits until side k is published or `until` (ms, Date.now()) passes; its state (MEET_PENDING on time-out). */
export function meetWait(m: MeetLayout, k: number, until: number): number {
  for (;;) {
    const s = Atomics.load(m.head, k);
    if (s !== MEET_PENDING) return s;
    const left = until - Date.now();
    if (left <= 0) return MEET_PENDING;
    Atomics.wait(m.head, k, MEET_PENDING, left);
  }
}

/**
 * The error every side of a meeting answers when a side ran out of room: the dispatcher then runs
 * the matrix whole on one thread and gives the next meeting more room (src/pool/matrix-dispatch.ts).
 */
export const MEET_FULL_ERROR = { status: 409, code: 'meet_full' } as const;
