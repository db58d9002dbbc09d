// A full garbage collection of this worker thread, run after a task that allocated large buffers of
// its own (a 1,000 × 1,000 matrix: ~50 MB of cells and answer bytes). A thread that goes idle after
// such a task never collects on its own, so that memory would stay resident until its next busy
// spell (issue 11 §6: extra RSS per busy worker). Runs in the next event-loop turn, after the
// answer has left, so the caller does not wait for it.
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
