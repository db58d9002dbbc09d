// Shared buffers a worker thread lends the main thread and gets back without a message.
//
// A matrix's 'spaces' answers go to the main thread and on to every thread's 'cells' task in shared
// memory (src/api/matrix.ts runPhased). A new SharedArrayBuffer per answer is a fresh mapping (above
// the malloc mmap threshold): its pages fault in as they are written and are unmapped when it dies,
// which cost each thread ~0.2 ms of a 100 × 100 on the 1M grid, a tenth of its phase. So a thread
// keeps a few slabs and writes into one that is back. A slab's first word says whether it is out:
// the thread sets it when it lends the slab, the main thread clears it once nothing reads the bytes.
// A slab never given back (a failed request) is simply dropped from the shelf.

/** Bytes before a slab's data: the Int32 flag, padded so the data stays Float64-aligned. */
const HEAD = 8;

export class SlabShelf {
  private slabs: SharedArrayBuffer[] = [];

  /** Keeps at most `count` slabs, none larger than `maxBytes` of data. */
  constructor(private count: number, private maxBytes: number) {}

  /** A slab with room for `bytes` of data that is not out: one kept, or a new one. */
  take(bytes: number): SharedArrayBuffer {
    const free = this.slabs.find((s) => !isOut(s) && s.byteLength - HEAD >= bytes);
    if (free) return free;
    const slab = new SharedArrayBuffer(HEAD + bytes);
    if (bytes > this.maxBytes) return slab;
    // replace a free slab (too small), else the first one (out: dropped from the shelf, its holder keeps it)
    const small = this.slabs.findIndex((s) => !isOut(s));
    if (this.slabs.length < this.count) this.slabs.push(slab);
    else this.slabs[small >= 0 ? small : 0] = slab;
    return slab;
  }

  /** Bytes of the slabs kept. */
  get bytes(): number {
    return this.slabs.reduce((n, s) => n + s.byteLength, 0);
  }

  clear() { this.slabs = []; }
}

/** The data of `slab` as Float64s (capacity: the whole slab). */
export function slabFloats(slab: SharedArrayBuffer): Float64Array {
  return new Float64Array(slab, HEAD);
}

/** Marks `slab` out and answers its first `bytes` of data, to be handed on. */
export function lend(slab: SharedArrayBuffer, bytes: number): Uint8Array {
  Atomics.store(new Int32Array(slab, 0, 1), 0, 1);
  return new Uint8Array(slab, HEAD, bytes);
}

/** Hands lent bytes back to the thread that lent them (bytes that are not a slab's: nothing to do). */
export function giveBack(bytes: Uint8Array) {
  if (bytes.buffer instanceof SharedArrayBuffer && bytes.byteOffset === HEAD) Atomics.store(new Int32Array(bytes.buffer, 0, 1), 0, 0);
}

function isOut(slab: SharedArrayBuffer): boolean {
  return Atomics.load(new Int32Array(slab, 0, 1), 0) !== 0;
}
