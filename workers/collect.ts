// Full garbage collections of this worker thread when it has left memory behind. An idle thread never
// collects on its own (V8 collects when allocation asks it to), so what its last tasks dropped stays
// resident until its next busy spell (extra RSS per busy worker): a 1,000 × 1,000
// matrix's arrays (workers/routing/matrix/task.ts release()), an isochrone's triangulation, a long
// trace's candidates. Each runs in a later event-loop turn, so no caller waits for it.
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | null = null;
let pending = false;

function collector(): () => void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  // Without --expose-gc on the command line: the flag set now exposes gc() in contexts made after it.
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** Heap and external bytes after the last full collection this module ran. */
let floor = 0;
const held = () => { const h = v8.getHeapStatistics(); return h.used_heap_size + h.external_memory; };

function collect() {
  (gc ??= collector())();
  floor = held();
}

/** Collect once this turn's work is done (several requests in one turn: one collection). */
export function collectSoon() {
  if (pending) return;
  pending = true;
  setImmediate(() => {
    pending = false;
    collect();
  });
}

/** A thread quiet for this long is idle: what it holds beyond IDLE_SLACK_BYTES is collected. */
export const IDLE_MS = 200;
export const IDLE_SLACK_BYTES = 2 << 20;
let idleTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * Call after each batch: once the thread has had no batch for IDLE_MS, a full collection runs if the
 * heap and external memory hold IDLE_SLACK_BYTES more than after the last one (a busy thread is left
 * to V8; a quiet one costs one collection, a few ms on a worker's heap, and only when there is garbage).
 */
export function collectWhenIdle() {
  if (idleTimer) idleTimer.refresh();
  else idleTimer = setTimeout(() => {
    idleTimer = null;
    if (held() - floor > IDLE_SLACK_BYTES) collect();
  }, IDLE_MS).unref();
}
