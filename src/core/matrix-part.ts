// A part of a matrix split over threads, as the matrix task writes it (workers/routing/matrix)
// and the pool's matrix dispatch joins it (src/pool/matrix-dispatch.ts) without parsing:
// three u32 (little-endian) byte lengths, then the durations rows `[…],[…]`, the distances rows,
// the snapped sources of those rows `{…},null`, and, in the part whose rows start at 0 (the only
// one read for it), the rest of the object from `"destinations":` on, without its braces. A part
// whose rows came ahead as pieces (TaskReply.pieces) has its two sections of rows empty.

/** Bytes before a part's first section. */
export const PART_HEAD_BYTES = 12;

/** Writes the head: the byte lengths of the durations, distances and sources sections. */
export function writePartHead(view: DataView, durations: number, distances: number, sources: number): void {
  view.setUint32(0, durations, true); view.setUint32(4, distances, true); view.setUint32(8, sources, true);
}

/** A part's sections. */
export function readPart(b: Uint8Array): { dur: Uint8Array; dist: Uint8Array; src: Uint8Array; rest: Uint8Array } {
  const h = new DataView(b.buffer, b.byteOffset, PART_HEAD_BYTES);
  const d = PART_HEAD_BYTES + h.getUint32(0, true), m = d + h.getUint32(4, true), s = m + h.getUint32(8, true);
  if (s > b.byteLength) throw new Error('matrix part in an unexpected layout');
  return { dur: b.subarray(PART_HEAD_BYTES, d), dist: b.subarray(d, m), src: b.subarray(m, s), rest: b.subarray(s) };
}
