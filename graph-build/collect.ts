// A full garbage collection between two phases of a build. The turns leave their intersection
// objects dead but uncollected (on a country about a gigabyte; V8 collects when it must, not when a
// phase ends), and contraction then adds its own working set on top of them.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null = null;

export function collectNow(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
