// Places from OpenStreetMap (graph-build/pois → workers/pois): file name, container kind and
// format version, one definition for the writer and the reader.
import { DATASET_FORMATS } from './kinds.ts';

export const POI_VERSION = DATASET_FORMATS.pois;
export const POI_FILES = { pois: { file: 'pois.bin', kind: 'osm-pois' } } as const;
/** Item kinds (the `kind` section, one byte per item). */
export const POI_KINDS = ['business', 'market', 'protected_area'] as const;
export type PoiKind = (typeof POI_KINDS)[number];
/**
 * tourism=* values that are lodging (graph-build/pois keeps them as businesses of group `tourism`);
 * the hotels endpoints serve these. A build's manifest counts them under `lodging`.
 */
export const LODGING_CATEGORIES = ['hotel', 'guest_house', 'hostel', 'motel', 'apartment', 'chalet'] as const;
export type LodgingCategory = (typeof LODGING_CATEGORIES)[number];
