// The routed-graph container: one file per extract and profile ("<profile>.route.bin"),
// written by graph-build/contract and opened zero-copy by workers. One definition for both sides.
import { open, type Opened, type FileBytes } from './index.ts';
import { DATASET_FORMATS } from './kinds.ts';

export const ROUTE_KIND = 'road-graph';
/** The version lives in the one table of dataset formats (kinds.ts). */
export const ROUTE_FORMAT_VERSION = DATASET_FORMATS.road;

/**
 * chArc: two Int32 per CH entry, [head, weight]. A node's entries are contiguous, so settling it
 * reads 8 bytes per entry, mostly one cache line, instead of one line per field array.
 * head = nbr << HEAD_SHIFT | HEAD_LAST | HEAD_BW | HEAD_FW:
 *   HEAD_FW  the entry is the arc x→nbr, HEAD_BW the arc nbr→x (both: same weight and middle);
 *   HEAD_LAST the last entry of x's block, so the search needs no second offset to know where it ends.
 * A neighbour whose two arcs differ in weight or middle has two entries, one per direction.
 * chMid (read only when unpacking): per entry, the middle node of a shortcut (≥ 0) or -(baseEdge+1).
 */
export const ARC = 2, ARC_HEAD = 0, ARC_W = 1;
export const HEAD_FW = 1, HEAD_BW = 2, HEAD_LAST = 4, HEAD_SHIFT = 3;
/** nbr << HEAD_SHIFT must stay a positive Int32. */
export const MAX_NODES = 2 ** (31 - HEAD_SHIFT);

/** edgeFlags bits beside the two direction bits (see GraphViews.edgeFlags). */
export const EDGE_NO_START = 4, EDGE_TWIN_BACK = 8;

/** Weight unit of every cost in the file: integer milliseconds of travel time. */
export const WEIGHT_UNIT = 'ms';

/** Fixed-point scale of stored coordinates (Int32 degrees × 1e7, ~1 cm). */
export const E7 = 1e7;

/**
 * Guidance attributes of a way (one row per distinct combination; edgeAttr indexes the rows).
 * cls: highway class (or "ferry"); name and its fr/en/ar/pt/sw variants; ref; destination signs;
 * rb: 1 on a roundabout.
 */
export interface WayAttr {
  cls: string;
  name?: string; fr?: string; en?: string; ar?: string; pt?: string; sw?: string;
  ref?: string; dest?: string; destRef?: string;
  /** name:pronunciation (the OSRM layer's step pronunciation) */
  pron?: string;
  rb?: 1;
}

export interface GraphMeta {
  profile: string;
  nodes: number;
  edges: number;
  /** CH entries (chMid.length) */
  arcs: number;
  shortcuts: number;
  shape_points: number;
  /** [minLng, minLat, maxLng, maxLat] of every shape point. */
  bbox: [number, number, number, number];
  /** cos(latitude) used to scale longitude in the spatial index. */
  index_cos_lat: number;
  weight_unit: string;
  /** id and node count of the largest strongly connected component (points off it also get a candidate on it) */
  main_component: number;
  main_component_nodes: number;
  /** edges inside the largest SCC: below 1,000 OSRM calls it tiny, and its layer gives no point a candidate on it */
  main_component_edges?: number;
  components: number;
  /** SCCs of at least 1,000 edges, and the largest: where a point off them gets its second candidate */
  big_components: number[];
  /** nodes of the edge-based graph the hierarchy is built over (one per open direction of a base edge, plus via-way copies) and its arcs (turns) */
  eb_nodes: number;
  eb_arcs: number;
  /** what the hierarchy minimises, by OSRM's name: the profile's weight_name ('routability' for car.lua, 'duration') */
  weight_name: string;
}

/**
 * Views over one routed graph. Base nodes (junctions) are dense 0..nodes-1; the contraction
 * hierarchy is over the edge-based graph (graph-build/contract/edge-based.ts): its nodes 0..eb_nodes-1
 * are directed base edges (ebEdge), its arcs turns, in the locality order of graph-build/contract/renumber.ts.
 */
export interface GraphViews {
  meta: GraphMeta;
  // contraction hierarchy over edge-based nodes, CSR: entries of node x are first[x] .. first[x+1]-1, all to higher-ranked nodes
  chFirst: Uint32Array;
  /** entry k = chArc[ARC*k], chArc[ARC*k+1]: head (neighbour and flags, see HEAD_*) and routing weight (ms-scaled) */
  chArc: Int32Array;
  /** entry k: ≥ 0 middle node of a shortcut, < 0 -(head+1) of an original arc (a turn into node head) */
  chMid: Int32Array;
  /** entry k: metres of the entry's path, shortcuts fully unpacked (graph-build/contract/ch-dist.ts) */
  chDist: Float32Array;
  /** entry k: travel time (ms) of the entry's path, turns included */
  chDur: Int32Array;
  /** per edge-based node: its directed base edge, +(e+1) along edgeU→edgeV, -(e+1) against */
  ebEdge: Int32Array;
  /** per directed base edge (2e along, 2e+1 against): its edge-based node, -1 where closed */
  edgeEb: Int32Array;
  /** per edge-based node: the next copy of the same directed edge (via-way restrictions), -1 at the last */
  copyNext: Int32Array;
  /** turns by tail, CSR: ebOut[3k] head node, ebOut[3k+1] turn weight, ebOut[3k+2] turn duration (ms) */
  ebOutFirst: Uint32Array;
  ebOut: Int32Array;
  /** the same turns by head: ebIn[3k] tail node, then weight and duration */
  ebInFirst: Uint32Array;
  ebIn: Int32Array;
  // base (uncontracted, compressed) edges
  edgeU: Int32Array;
  edgeV: Int32Array;
  /** travel time, integer ms (≥ 1) */
  edgeW: Int32Array;
  /**
   * the profile's weight (car.lua's routability: side roads, service roads… weigh more than their
   * time), in the same ms scale, in the direction(s) the edge is open; equal to edgeW where the
   * profile weighs time.
   */
  edgeWeight: Int32Array;
  /** metres */
  edgeDist: Float32Array;
  /**
   * bit 1: u→v allowed, bit 2: v→u allowed; EDGE_NO_START: a waypoint may not snap here (ferries,
   * private service roads); EDGE_TWIN_BACK: the v→u half of the edge before it (same u, v and
   * shape), where the two directions of one road take different times
   */
  edgeFlags: Uint8Array;
  /** shape points of edge e are edgeShape[e] .. edgeShape[e+1]-1, first = u, last = v */
  edgeShape: Uint32Array;
  shapeLat: Int32Array;
  shapeLon: Int32Array;
  /** metres from the edge's first shape point */
  shapeCum: Float32Array;
  nodeLat: Int32Array;
  nodeLon: Int32Array;
  /** strongly connected component both ends of each edge share, -1 for an edge between two (graph-build/contract/components.ts) */
  edgeComp: Int32Array;
  /** guidance attribute row of each edge (index into wayAttrs) */
  edgeAttr: Int32Array;
  /** UTF-8 JSON of WayAttr[] (parse once: readWayAttrs) */
  wayAttrs: Uint8Array;
  /** incident edges of node x: adjEdge[adjFirst[x] .. adjFirst[x+1]-1], +(e+1) when x is edgeU[e], -(e+1) when x is edgeV[e] */
  adjFirst: Uint32Array;
  adjEdge: Int32Array;
  /** spatial index item i = segment from shape point segPt[i] to segPt[i]+1 of edge segEdge[i] */
  segEdge: Int32Array;
  segPt: Uint32Array;
  /** serialised flatbush (Flatbush.from(spatial.buffer, spatial.byteOffset)) */
  spatial: Uint8Array;
}

export function openGraph(buf: FileBytes, file: string, verify = false): GraphViews {
  const o: Opened = open(buf, { file, kind: ROUTE_KIND, version: ROUTE_FORMAT_VERSION, verify });
  return {
    meta: o.meta as GraphMeta,
    chFirst: o.get('chFirst', Uint32Array),
    chArc: o.get('chArc', Int32Array),
    chMid: o.get('chMid', Int32Array),
    chDist: o.get('chDist', Float32Array),
    chDur: o.get('chDur', Int32Array),
    ebEdge: o.get('ebEdge', Int32Array),
    edgeEb: o.get('edgeEb', Int32Array),
    copyNext: o.get('copyNext', Int32Array),
    ebOutFirst: o.get('ebOutFirst', Uint32Array),
    ebOut: o.get('ebOut', Int32Array),
    ebInFirst: o.get('ebInFirst', Uint32Array),
    ebIn: o.get('ebIn', Int32Array),
    edgeU: o.get('edgeU', Int32Array),
    edgeV: o.get('edgeV', Int32Array),
    edgeW: o.get('edgeW', Int32Array),
    edgeWeight: o.get('edgeWeight', Int32Array),
    edgeDist: o.get('edgeDist', Float32Array),
    edgeFlags: o.get('edgeFlags', Uint8Array),
    edgeShape: o.get('edgeShape', Uint32Array),
    shapeLat: o.get('shapeLat', Int32Array),
    shapeLon: o.get('shapeLon', Int32Array),
    shapeCum: o.get('shapeCum', Float32Array),
    nodeLat: o.get('nodeLat', Int32Array),
    nodeLon: o.get('nodeLon', Int32Array),
    edgeComp: o.get('edgeComp', Int32Array),
    segEdge: o.get('segEdge', Int32Array),
    segPt: o.get('segPt', Uint32Array),
    spatial: o.get('spatial', Uint8Array),
    edgeAttr: o.get('edgeAttr', Int32Array),
    wayAttrs: o.get('wayAttrs', Uint8Array),
    adjFirst: o.get('adjFirst', Uint32Array),
    adjEdge: o.get('adjEdge', Int32Array),
  };
}

const attrCache = new WeakMap<Uint8Array, WayAttr[]>();
/** The attribute rows of a graph, parsed once per thread. */
export function readWayAttrs(g: Pick<GraphViews, 'wayAttrs'>): WayAttr[] {
  let a = attrCache.get(g.wayAttrs);
  if (!a) { a = (JSON.parse(new TextDecoder().decode(g.wayAttrs)) as WayAttr[]).map(uniform); attrCache.set(g.wayAttrs, a); }
  return a;
}

/**
 * Every field present, in one order: parsed as they are stored (only the fields a way has),
 * the attributes take dozens of object shapes, and guidance's reads of them at every node of a
 * route went through V8's slow megamorphic lookups.
 */
function uniform(a: WayAttr): WayAttr {
  return { ...NO_ATTRS, ...a };
}
/** Every field of WayAttr, in order (a field added to WayAttr must be listed here too: the type says so). */
const NO_ATTRS: Record<keyof WayAttr, undefined> = {
  cls: undefined, name: undefined, fr: undefined, en: undefined, ar: undefined, pt: undefined, sw: undefined,
  ref: undefined, dest: undefined, destRef: undefined, pron: undefined, rb: undefined,
};
