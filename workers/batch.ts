// The reply format of a batch of tasks, shared by the workers (which write it) and the
// main thread (which splits it into answers).
import type { TaskReply } from './task.ts';

/**
 * What a batch comes back as: one buffer, so one transfer serves every answer and the
 * message carries nothing to structured-clone. Layout (little-endian u32 words, then bytes):
 * n, status[0..n), end[0..n), then the JSON bodies back to back; body i spans
 * end[i-1] (or 0) to end[i], counted from the start of the bodies.
 */
export type BatchReply = Uint8Array;

/** Split a batch reply into its answers (main thread). */
export function readBatchReply(r: BatchReply): TaskReply[] {
  const words = new Uint32Array(r.buffer, r.byteOffset, 1 + 2 * new Uint32Array(r.buffer, r.byteOffset, 1)[0]);
  const n = words[0];
  const base = 4 * (1 + 2 * n);
  const out: TaskReply[] = new Array(n);
  for (let i = 0, start = base; i < n; i++) {
    const end = base + words[1 + n + i];
    out[i] = { status: words[1 + i], body: r.subarray(start, end) };
    start = end;
  }
  return out;
}

/** An unpooled, transferable buffer in the BatchReply layout. */
export function encodeBatchReply(answers: { status: number; json: string }[]): BatchReply {
  const n = answers.length;
  const base = 4 * (1 + 2 * n);
  let total = 0;
  const lens = new Array<number>(n);
  for (let i = 0; i < n; i++) total += lens[i] = Buffer.byteLength(answers[i].json);
  const buf = Buffer.allocUnsafeSlow(base + total);
  const words = new Uint32Array(buf.buffer, buf.byteOffset, 1 + 2 * n);
  words[0] = n;
  let off = 0;
  for (let i = 0; i < n; i++) {
    words[1 + i] = answers[i].status;
    off += buf.write(answers[i].json, base + off);
    words[1 + n + i] = off;
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, base + total);
}
