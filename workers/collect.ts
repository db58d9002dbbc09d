// A full garbage collection of this worker thread, run when it has dropped large buffers (the arrays
// a 1,000 × 1,000 matrix left, ~50 MB: workers/routing/matrix.ts release()). An idle thread never
// collects on its own, so that memory would stay resident until its next busy spell (issue 11 §6:
// extra RSS per busy worker). Runs in the next event-loop turn, so the caller does not wait for it.
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

/** Collect once this turn's work is done (several requests in one turn: one collection). */
export function collectSoon() {
  if (pending) return;
  pending = true;
  setImmediate(() => {
    pending = false;
    (gc ??= collector())();
  });
}
