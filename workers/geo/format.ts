// The gazetteer's file names, container kinds and format version: one definition for
// graph-build (writer) and the worker (reader). Bump GAZ_VERSION on any layout change.
export const GAZ_VERSION = 1;
export const GAZ_FILES = {
  features: { file: 'features.bin', kind: 'gaz-features' },
  text: { file: 'text.bin', kind: 'gaz-text' },
  spatial: { file: 'spatial.bin', kind: 'gaz-spatial' },
} as const;
