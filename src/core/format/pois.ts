// Places from OpenStreetMap (graph-build/pois → workers/pois): file name, container kind and
// format version, one definition for the writer and the reader.
import { DATASET_FORMATS } from './kinds.ts';

export const POI_VERSION = DATASET_FORMATS.pois;
export const POI_FILES = { pois: { file: 'pois.bin', kind: 'osm-pois' } } as const;
/** Item kinds (the `kind` section, one byte per item). */
export const POI_KINDS = ['business', 'market', 'protected_area'] as const;
export type PoiKind = (typeof POI_KINDS)[number];
