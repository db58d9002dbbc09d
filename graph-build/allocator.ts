// Large blocks straight from the system for the rest of a build: a fixed mmap threshold, so an
// array of a few MiB that a phase frees leaves the process's resident memory instead of staying in
// malloc's heap (native/ch/allocator.cc says why glibc keeps it). On the 1M-node stitched input the
// build's peak went from 435-442 MB to 325-335 MB in most runs (docs/built-files.md).
import { createRequire } from 'node:module';
import { CH_ADDON } from './contract/ch-native.ts';

/** Blocks of this size or more are mapped on their own. Below 2 MiB and at 8 MiB the peak did not fall as far. */
export const MMAP_THRESHOLD = 4 << 20;

/** True when the C library took the setting; false without the addon or off glibc (nothing changes then). */
export function largeBlocksFromTheSystem(): boolean {
  try {
    const a = createRequire(import.meta.url)(CH_ADDON) as { fixMmapThreshold?: (bytes: number) => boolean };
    return a.fixMmapThreshold?.(MMAP_THRESHOLD) ?? false;
  } catch {
    return false; // the contraction reports a missing addon when it needs it
  }
}
