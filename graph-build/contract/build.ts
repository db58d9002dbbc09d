// One profile's routed graph from segments: compress → turns → edge-based graph → contract →
// index → container sections.
import type { Segments } from './segments.ts';
import { compress, type BaseGraph } from './compress.ts';
import { contract, type ContractOptions } from './ch.ts';
import { buildSpatial } from './spatial.ts';
import { components } from './components.ts';
import { renumber } from './renumber.ts';
import { chSums } from './ch-dist.ts';
import { edgeBased, plainTurns, type EdgeBasedGraph } from './edge-based.ts';
import type { TurnTable } from '../turns/types.ts';
import { writeContainer, type Section } from '../../src/core/format/index.ts';
import { ROUTE_KIND, ROUTE_FORMAT_VERSION, WEIGHT_UNIT, type GraphMeta } from '../../src/core/format/route.ts';

export interface BuiltGraph {
  meta: GraphMeta;
  sections: Record<string, Section>;
  base: BaseGraph;
  seconds: { compress: number; contract: number; index: number };
}

export interface GraphOptions extends ContractOptions {
  /** OSRM's name of what edgeWeight holds (the profile's weight_name); 'duration' by default */
  weightName?: string;
  /** The turns of the compressed graph (graph-build/turns); every turn free, u-turns at dead ends only, without. */
  turns?: (base: BaseGraph) => TurnTable;
}

/**
 * `segs` may be a function that makes them: the segments are then garbage once compressed, which
 * on a country is several hundred MB less held through turns and contraction.
 */
export function buildGraph(segs: Segments | (() => Segments), profile: string, opts: GraphOptions = {}): BuiltGraph {
  const t0 = performance.now();
  const base = compressed(segs);
  const t1 = performance.now();
  const eb0 = edgeBased(base, (opts.turns ?? plainTurns)(base));
  const arcs = arcGraph(base, eb0);
  const ch0 = contract(arcs, opts);
  for (let k = 0; k < ch0.chMid.length; k++) if (ch0.chMid[k] < 0) ch0.chMid[k] = -(arcs.edgeV[-ch0.chMid[k] - 1] + 1);
  const r = renumber(arcs, ch0, true);
  const ch = r.ch, eb = permute(eb0, r.id);
  const t2 = performance.now();
  const sp = buildSpatial(base);
  const cc = components(base);
  const weight = edgeWeight(base);
  const dirDist = (s: number) => base.edgeDist[s > 0 ? s - 1 : -s - 1];
  const dirDur = (s: number) => base.edgeW[s > 0 ? s - 1 : -s - 1];
  const [dist, dur] = chSums(ch, (mid) => dirDist(eb.ebEdge[-mid - 1]), (_mid, tail, head) => turnOf(eb, tail, head, 2) + dirDur(eb.ebEdge[head]));
  const chDist = Float32Array.from(dist), chDur = Int32Array.from(dur);
  const t3 = performance.now();
  const meta: GraphMeta = {
    profile, nodes: base.nodes, edges: base.edges, arcs: ch.arcs, shortcuts: ch.shortcuts, eb_nodes: eb.nodes, eb_arcs: eb.out.length / 3, weight_name: opts.weightName ?? 'duration',
    shape_points: base.shapeLat.length, bbox: sp.bbox, index_cos_lat: sp.cosLat, weight_unit: WEIGHT_UNIT,
    main_component: cc.main, main_component_nodes: cc.mainNodes, main_component_edges: cc.mainEdges, components: cc.count, big_components: cc.big,
  };
  const sections: Record<string, Section> = {
    chFirst: ch.chFirst, chArc: ch.chArc, chMid: ch.chMid, chDist, chDur,
    ebEdge: eb.ebEdge, edgeEb: eb.edgeEb, copyNext: eb.copyNext, ebOutFirst: eb.outFirst, ebOut: eb.out, ebInFirst: eb.inFirst, ebIn: eb.inn,
    edgeWeight: weight,
    edgeU: base.edgeU, edgeV: base.edgeV, edgeW: base.edgeW, edgeDist: base.edgeDist, edgeFlags: base.edgeFlags,
    edgeShape: base.edgeShape, shapeLat: base.shapeLat, shapeLon: base.shapeLon, shapeCum: base.shapeCum,
    nodeLat: base.nodeLat, nodeLon: base.nodeLon, edgeComp: cc.edgeComp, segEdge: sp.segEdge, segPt: sp.segPt, spatial: sp.spatial,
    ...guidanceSections(base),
  };
  return { meta, sections, base, seconds: { compress: (t1 - t0) / 1000, contract: (t2 - t1) / 1000, index: (t3 - t2) / 1000 } };
}

/** In a frame of its own: a register of buildGraph's would hold made segments through what follows. */
const compressed = (segs: Segments | (() => Segments)): BaseGraph => compress(typeof segs === 'function' ? segs() : segs);

/** Routing weight of every base edge: the profile's (routability), as compress gave it. */
const edgeWeight = (b: BaseGraph): Int32Array => b.edgeWeight;

/**
 * The edge-based graph as the contractor takes a graph: a node per edge-based node, placed at the
 * end of its base edge (for the locality order), an edge per turn weighing the turn plus the
 * whole edge turned into. The contractor names an original arc -(index+1); those are rewritten to
 * -(head+1), which the query maps to the base edge driven (ebEdge).
 */
function arcGraph(base: BaseGraph, eb: EdgeBasedGraph): BaseGraph {
  const n = eb.nodes, m = eb.out.length / 3, w = edgeWeight(base);
  const edgeU = new Int32Array(m), edgeV = new Int32Array(m), edgeW = new Int32Array(m);
  for (let x = 0; x < n; x++) for (let k = eb.outFirst[x]; k < eb.outFirst[x + 1]; k++) {
    const h = eb.out[3 * k], s = eb.ebEdge[h];
    edgeU[k] = x; edgeV[k] = h; edgeW[k] = eb.out[3 * k + 1] + w[s > 0 ? s - 1 : -s - 1];
  }
  const nodeLat = new Int32Array(n), nodeLon = new Int32Array(n);
  for (let x = 0; x < n; x++) {
    const s = eb.ebEdge[x], v = s > 0 ? base.edgeV[s - 1] : base.edgeU[-s - 1];
    nodeLat[x] = base.nodeLat[v]; nodeLon[x] = base.nodeLon[v];
  }
  return {
    nodes: n, edges: m, edgeU, edgeV, edgeW, edgeWeight: edgeW, edgeFlags: new Uint8Array(m).fill(1), nodeLat, nodeLon,
    edgeDist: new Float32Array(0), edgeShape: new Uint32Array(0), shapeLat: new Int32Array(0), shapeLon: new Int32Array(0),
    shapeCum: new Float32Array(0), edgeAttr: new Int32Array(0), attrs: [],
  };
}

/** The edge-based graph under new node ids (id[old] = new). */
function permute(eb: EdgeBasedGraph, id: Int32Array): EdgeBasedGraph {
  const n = eb.nodes, inv = new Int32Array(n);
  for (let x = 0; x < n; x++) inv[id[x]] = x;
  const ebEdge = new Int32Array(n), copyNext = new Int32Array(n);
  for (let x = 0; x < n; x++) { ebEdge[id[x]] = eb.ebEdge[x]; copyNext[id[x]] = eb.copyNext[x] < 0 ? -1 : id[eb.copyNext[x]]; }
  const edgeEb = eb.edgeEb.map((x) => (x < 0 ? -1 : id[x]));
  const csr = (first: Uint32Array, list: Int32Array) => {
    const f = new Uint32Array(n + 1), l = new Int32Array(list.length);
    let o = 0;
    for (let k = 0; k < n; k++) {
      const x = inv[k];
      f[k] = o;
      for (let j = first[x]; j < first[x + 1]; j++, o++) { l[3 * o] = id[list[3 * j]]; l[3 * o + 1] = list[3 * j + 1]; l[3 * o + 2] = list[3 * j + 2]; }
    }
    f[n] = o;
    return [f, l] as const;
  };
  const [outFirst, out] = csr(eb.outFirst, eb.out), [inFirst, inn] = csr(eb.inFirst, eb.inn);
  return { nodes: n, ebEdge, edgeEb, copyNext, outFirst, out, inFirst, inn };
}

/** Field f (1 weight, 2 duration) of the turn tail→head. */
function turnOf(eb: EdgeBasedGraph, tail: number, head: number, f: number): number {
  for (let k = eb.outFirst[tail]; k < eb.outFirst[tail + 1]; k++) if (eb.out[3 * k] === head) return eb.out[3 * k + f];
  throw new Error(`turn ${tail}→${head} missing`);
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

export function writeGraph(path: string, g: BuiltGraph): number {
  return writeContainer(path, ROUTE_KIND, ROUTE_FORMAT_VERSION, g.sections, g.meta);
}
