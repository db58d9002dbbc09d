// The gazetteer's file names, container kinds and format version: one definition for
// graph-build (writer) and the worker (reader). Bump GAZ_VERSION on any layout change.
import type { Manifest } from '../../src/format/index.ts';

/** 2: text.bin adds per-token neighbour lists (nbStart, nbTok). */
export const GAZ_VERSION = 2;
/**
 * Older versions the worker still reads: v1 lacks only the neighbour lists (typo lookups then
 * probe the deletion table for every word, as v1 did), so an old build keeps serving until it
 * is rebuilt (gazetteerIsStale tells graph-build/defaults.ts when to).
 */
export const GAZ_READS_ALSO = [1];

/** True when a built gazetteer was written in another format version than this build writes. */
export function gazetteerIsStale(m: Manifest): boolean {
  return m.format_version !== GAZ_VERSION || m.files.some((f) => f.version !== GAZ_VERSION);
}
export const GAZ_FILES = {
  features: { file: 'features.bin', kind: 'gaz-features' },
  text: { file: 'text.bin', kind: 'gaz-text' },
  spatial: { file: 'spatial.bin', kind: 'gaz-spatial' },
} as const;
