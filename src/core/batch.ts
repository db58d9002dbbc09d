// The reply format of a batch of tasks, shared by the workers (which write it) and the
// main thread (which splits it into answers).
import type { TaskReply } from './task.ts';

/**
 * What a batch comes back as: one buffer, so one transfer serves every answer and the
 * message carries nothing to structured-clone. Layout (little-endian u32 words, then bytes):
 * n, compute µs, status[0..n), end[0..n), then the bodies (JSON text, or raw bytes for a BinaryBody) back to back; body i spans
 * end[i-1] (or 0) to end[i], counted from the start of the bodies.
 */
export type BatchReply = Uint8Array;

const HEAD = 2;

/**
 * Sent on a lane before a batch's reply: a piece of the answer of the batch's task `task`
 * (TaskContext.piece), which the main thread hands on in TaskReply.pieces[stream].
 */
export interface PieceMessage { piece: Uint8Array; task: number; stream: number }

/** Split a batch reply into its answers (main thread). */
export function readBatchReply(r: BatchReply): TaskReply[] {
  const n = new Uint32Array(r.buffer, r.byteOffset, 1)[0];
  const words = new Uint32Array(r.buffer, r.byteOffset, HEAD + 2 * n);
  const base = 4 * (HEAD + 2 * n);
  const out: TaskReply[] = new Array(n);
  for (let i = 0, start = base; i < n; i++) {
    const end = base + words[HEAD + n + i];
    out[i] = { status: words[HEAD + i], body: r.subarray(start, end) };
    start = end;
  }
  return out;
}

/** The worker's compute time for the batch, in µs. */
export function batchMicros(r: BatchReply): number {
  return new Uint32Array(r.buffer, r.byteOffset, 2)[1];
}

/**
 * A transferable buffer in the BatchReply layout: one `reuse` offers (a buffer handed back to the
 * worker, at least that many bytes) or a new unpooled one.
 */
export function encodeBatchReply(answers: { status: number; parts: (string | Uint8Array)[] }[], micros: number, reuse?: (bytes: number) => Buffer | undefined): BatchReply {
  const n = answers.length;
  const base = 4 * (HEAD + 2 * n);
  let total = 0;
  for (let i = 0; i < n; i++) for (const p of answers[i].parts) total += typeof p === 'string' ? Buffer.byteLength(p) : p.byteLength;
  const buf = reuse?.(base + total) ?? Buffer.allocUnsafeSlow(base + total);
  const words = new Uint32Array(buf.buffer, buf.byteOffset, HEAD + 2 * n);
  words[0] = n;
  words[1] = Math.min(0xffffffff, Math.round(micros));
  let off = 0;
  for (let i = 0; i < n; i++) {
    words[HEAD + i] = answers[i].status;
    for (const p of answers[i].parts) {
      if (typeof p === 'string') off += buf.write(p, base + off);
      else { buf.set(p, base + off); off += p.byteLength; }
    }
    words[HEAD + n + i] = off;
  }
  return new Uint8Array(buf.buffer, buf.byteOffset, base + total);
}
