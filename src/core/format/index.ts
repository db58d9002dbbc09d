// The binary container shared by graph-build (writer) and workers (reader).
export { encode, open, readShared, writeAtomic, writeContainer, wholeFile, isPieces, FormatError, MAGIC, CONTAINER_VERSION, MAX_SECTION_BYTES } from './container.ts';
export type { Section, Opened, OpenOptions, FileBytes, Pieces } from './container.ts';
export type { Manifest, ManifestFile } from './manifest.ts';
export { readManifest, writeManifest, isStale } from './manifest.ts';
export { DATASET_FORMATS, type DatasetKind } from './kinds.ts';
