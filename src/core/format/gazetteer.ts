// The gazetteer's file names, container kinds and format version: one definition for
// graph-build (writer) and the worker (reader). Bump the version in kinds.ts on any layout change.
import { DATASET_FORMATS } from './kinds.ts';

/** 4: layers address and admin (kd_address; adStart, adCoords, adOwner, adIndex), text.bin the parser key of each name (lexKeyStr, lexKeyOff). 3: features.bin adds admin1Unit, spatial.bin the admin-1 rings (a1Start, a1Coords, a1Owner, a1Index), layer admin1. 2: text.bin adds per-token neighbour lists (nbStart, nbTok) and per-name scoring records (nameRecStart, nameRec). */
export const GAZ_VERSION = DATASET_FORMATS.gazetteer;
/**
 * Older versions the worker still reads: v1 lacks only those additions (typo lookups then probe
 * the deletion table for every word, as v1 did, and each worker derives the name records), so an
 * old build keeps serving until it is rebuilt (graph-build/defaults.ts rebuilds a stale one at start).
 */
export const GAZ_READS_ALSO = [3, 2, 1];

export const GAZ_FILES = {
  features: { file: 'features.bin', kind: 'gaz-features' },
  text: { file: 'text.bin', kind: 'gaz-text' },
  spatial: { file: 'spatial.bin', kind: 'gaz-spatial' },
} as const;
