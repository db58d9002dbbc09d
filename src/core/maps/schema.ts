// The vector tile schema shared by the tile build (graph-build/tiles), the styles and the
// static-map renderer: layer names, road classes and the zooms at which each part is stored.
// Documented in docs/maps.md.

/** Continental layers (countries, admin-1, water, places, POIs, major roads) are stored at z0–8 ("base"). */
export const BASE_MAXZOOM = 8;
/** Roads of the OSM extracts are stored again at z9–14 ("detail"), only where the extracts are. */
export const DETAIL_MINZOOM = 9;
export const MAXZOOM = 14;
/** Base tiles use a finer grid so that points and lines stay within ~10 m when over-zoomed to z14. */
export const BASE_EXTENT = 16384;
export const DETAIL_EXTENT = 4096;

export const LAYER = { boundaries: 'boundaries', water: 'water', roads: 'roads', places: 'places', pois: 'pois' } as const;

export const ROAD_CLASSES = ['motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'minor', 'service', 'track', 'path', 'ferry'] as const;
export type RoadClass = (typeof ROAD_CLASSES)[number];

/** The zoom from which a road class is stored (and drawn). */
export const ROAD_CLASS_MINZOOM: Record<RoadClass, number> = {
  motorway: 5, trunk: 5, primary: 7, secondary: 8, tertiary: 10, minor: 12, service: 13, track: 13, path: 14, ferry: 8,
};

export const POI_GROUPS = ['health', 'transit', 'airport', 'port'] as const;

/** The tile set's name in TileJSON and the style's source names. */
export const SOURCE = { base: 'svc-base', detail: 'svc-detail' } as const;
