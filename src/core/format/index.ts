// The binary container shared by graph-build (writer) and workers (reader).
export { encode, open, readShared, writeAtomic, writeContainer, FormatError, MAGIC, CONTAINER_VERSION } from './container.ts';
export type { Section, Opened, OpenOptions } from './container.ts';
export type { Manifest, ManifestFile } from './manifest.ts';
export { readManifest, writeManifest, isStale } from './manifest.ts';
export { DATASET_FORMATS, type DatasetKind } from './kinds.ts';
