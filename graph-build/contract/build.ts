// One profile's routed graph from segments: compress → contract → index → container sections.
import type { Segments } from './segments.ts';
import { compress, type BaseGraph } from './compress.ts';
import { contract, type ContractOptions } from './ch.ts';
import { buildSpatial } from './spatial.ts';
import { components } from './components.ts';
import { renumber } from './renumber.ts';
import { chDistances } from './ch-dist.ts';
import { writeContainer, type Section } from '../../src/core/format/index.ts';
import { ROUTE_KIND, ROUTE_FORMAT_VERSION, WEIGHT_UNIT, type GraphMeta } from '../../src/core/format/route.ts';

export interface BuiltGraph {
  meta: GraphMeta;
  sections: Record<string, Section>;
  base: BaseGraph;
  seconds: { compress: number; contract: number; index: number };
}

export function buildGraph(segs: Segments, profile: string, opts: ContractOptions = {}): BuiltGraph {
  const t0 = performance.now();
  const compressed = compress(segs);
  const t1 = performance.now();
  const { base, ch } = renumber(compressed, contract(compressed, opts));
  const t2 = performance.now();
  const sp = buildSpatial(base);
  const cc = components(base);
  const chDist = chDistances(base, ch);
  const t3 = performance.now();
  const meta: GraphMeta = {
    profile, nodes: base.nodes, edges: base.edges, arcs: ch.arcs, shortcuts: ch.shortcuts,
    shape_points: base.shapeLat.length, bbox: sp.bbox, index_cos_lat: sp.cosLat, weight_unit: WEIGHT_UNIT,
    main_component: cc.main, main_component_nodes: cc.mainNodes, components: cc.count, big_components: cc.big,
  };
  const sections: Record<string, Section> = {
    chFirst: ch.chFirst, chArc: ch.chArc, chMid: ch.chMid, chDist,
    edgeU: base.edgeU, edgeV: base.edgeV, edgeW: base.edgeW, edgeWeight: base.edgeWeight, edgeDist: base.edgeDist, edgeFlags: base.edgeFlags,
    edgeShape: base.edgeShape, shapeLat: base.shapeLat, shapeLon: base.shapeLon, shapeCum: base.shapeCum,
    nodeLat: base.nodeLat, nodeLon: base.nodeLon, edgeComp: cc.edgeComp, segEdge: sp.segEdge, segPt: sp.segPt, spatial: sp.spatial,
    ...guidanceSections(base), ...arcSections(base),
  };
  return { meta, sections, base, seconds: { compress: (t1 - t0) / 1000, contract: (t2 - t1) / 1000, index: (t3 - t2) / 1000 } };
}

/** What turn-by-turn guidance reads: each edge's attribute row, the rows, and every node's incident edges. */
function guidanceSections(b: BaseGraph): Record<string, Section> {
  const adjFirst = new Uint32Array(b.nodes + 1);
  for (let e = 0; e < b.edges; e++) { adjFirst[b.edgeU[e] + 1]++; adjFirst[b.edgeV[e] + 1]++; }
  for (let v = 0; v < b.nodes; v++) adjFirst[v + 1] += adjFirst[v];
  const fill = adjFirst.slice(0, b.nodes), adjEdge = new Int32Array(2 * b.edges);
  for (let e = 0; e < b.edges; e++) { adjEdge[fill[b.edgeU[e]]++] = e + 1; adjEdge[fill[b.edgeV[e]]++] = -(e + 1); }
  return { edgeAttr: b.edgeAttr, wayAttrs: new TextEncoder().encode(JSON.stringify(b.attrs)), adjFirst, adjEdge };
}

/** The directed adjacency of the uncontracted graph (route.ts, arcFirst/arcs). */
function arcSections(b: BaseGraph): Record<string, Section> {
  const arcFirst = new Uint32Array(b.nodes + 1);
  for (let e = 0; e < b.edges; e++) { if (b.edgeFlags[e] & 1) arcFirst[b.edgeU[e] + 1]++; if (b.edgeFlags[e] & 2) arcFirst[b.edgeV[e] + 1]++; }
  for (let v = 0; v < b.nodes; v++) arcFirst[v + 1] += arcFirst[v];
  const fill = arcFirst.slice(0, b.nodes), arcs = new Int32Array(2 * arcFirst[b.nodes]);
  for (let e = 0; e < b.edges; e++) {
    if (b.edgeFlags[e] & 1) { const k = fill[b.edgeU[e]]++; arcs[2 * k] = b.edgeV[e]; arcs[2 * k + 1] = e + 1; }
    if (b.edgeFlags[e] & 2) { const k = fill[b.edgeV[e]]++; arcs[2 * k] = b.edgeU[e]; arcs[2 * k + 1] = -(e + 1); }
  }
  return { arcFirst, arcs };
}

export function writeGraph(path: string, g: BuiltGraph): number {
  return writeContainer(path, ROUTE_KIND, ROUTE_FORMAT_VERSION, g.sections, g.meta);
}
