// Every dataset this build reads, with the format version it reads and writes: one row per
// dataset. Bump a version on any layout change of its files; older builds are then refused
// with "rebuild", and `npm start` rebuilds default datasets whose manifest says otherwise.
export const DATASET_FORMATS = {
  /** Routed graphs, "<profile>.route.bin" (src/core/format/route.ts). 2: packed CH entries, locality order. 3: edgeComp = strongly connected components, chDist. 4: guidance (edgeAttr, wayAttrs, adjFirst/adjEdge). 5: arcFirst/arcs, the directed adjacency of the uncontracted graph, shared by every worker's Dijkstra and isochrone search. 6: driving is OSRM's car.lua (graph-build/profiles/car.ts): per-direction times as twin edges (EDGE_TWIN_BACK), node obstacles, EDGE_NO_START edges left out of the snapping index (since kept in it, skipped by the readers unless snapping=any; an older build only lacks that option). 7: the hierarchy is over the edge-based graph (turns: restrictions and turn costs), with its turns (ebOut/ebIn), chDur and edgeWeight; the node-based arcFirst/arcs are gone (every search runs over the turns). */ 
  road: 7,
  /** Gazetteer features, text and spatial files (src/core/format/gazetteer.ts). 2: neighbour lists, name records. 3: admin-1 polygons (a1* sections, admin1Unit, admin1 layer). 4: layers address and admin from full-tag extracts (kd_address, the ad* rings of admin_level boundaries), each name's address-parser key (lexKeyStr, lexKeyOff). */
  gazetteer: 4,
  /** Vector tiles: one PMTiles v3 archive plus glyph ranges and sprites (graph-build/tiles, docs/maps.md). */
  tiles: 1,
  /** Places from a full OpenStreetMap extract: businesses, markets, protected areas (src/core/format/pois.ts). */
  pois: 1,
} as const;

export type DatasetKind = keyof typeof DATASET_FORMATS;
