// Graph compression: interior nodes of degree 2 (where direction rules agree) become
// shape points of one edge between junctions. Every OSM shape point is kept so
// geometry unpacks exactly and snapping can land anywhere on the road.
// An edge open both ways whose two directions take different times or weights (maxspeed:forward/backward,
// a directed traffic signal, a side road's routability) becomes two one-way edges over the same shape,
// the second flagged EDGE_TWIN_BACK, because an edge stores one duration and one weight.
import type { Segments } from './segments.ts';
import type { WayTable } from '../turns/ways.ts';
import { osrmDistance } from './distance.ts';
import { E7, EDGE_NO_START, EDGE_TWIN_BACK, type GraphViews, type WayAttr } from '../../src/core/format/route.ts';

/** The compressed (uncontracted) graph: the base-edge and shape sections of the route file, plus counts. */
export type BaseGraph = Pick<GraphViews,
  'nodeLat' | 'nodeLon' | 'edgeU' | 'edgeV' | 'edgeW' | 'edgeWeight' | 'edgeDist' | 'edgeFlags' | 'edgeShape' | 'shapeLat' | 'shapeLon' | 'shapeCum' | 'edgeAttr'> & {
  nodes: number;
  edges: number;
  /** Guidance attribute rows (edgeAttr indexes them); [{cls:''}] for networks without tags. */
  attrs: WayAttr[];
  /** Build-time only (not written): way index (RawNetwork.ways) of each edge's first segment, when the segments carry it. */
  edgeWay?: Int32Array;
  /** Build-time only: 1 where edge e's U→V runs in its way's node order. */
  edgeAlong?: Uint8Array;
  /** Build-time only: the RawNetwork node of each shape point (copies of a node map back to it), when known. */
  shapeNode?: Int32Array;
  /** Build-time only: the way (RawNetwork.ways index) of the segment ending at each shape point (at an edge's first point, its first segment's), when known. */
  shapeWay?: Int32Array;
  /** Build-time only: what the profile made of each way, for the turns (from the segments). */
  wayTable?: WayTable;
};

/**
 * Time of one OSM segment of d metres at v m/s, as OSRM's extractor stores it: whole deciseconds,
 * at least one (so answers agree with osrm-routed's to the 0.1 s it prints).
 */
const segMs = (d: number, v: number) => Math.max(1, Math.round((d / v) * 10)) * 100;

/**
 * Weight of one OSM segment as OSRM stores it, ms-scaled: the profile's weight (distance / rate,
 * or a fixed share of the way's) rounded to its weight precision, at least one unit of it.
 */
const segWeightMs = (w: number, precision: number) => {
  const unit = 10 ** precision;
  return (Math.max(1, Math.round(w * unit)) * 1000) / unit;
};

// Module-level rather than closures inside the per-segment loop: under tsx every closure
// created is also named (a defineProperty), which cost a country build seconds.
/** A segment's ms at v m/s, or its fixed duration (s) when it has one. */
const segTimeMs = (fixedS: number, d: number, v: number) => (fixedS > 0 ? Math.max(1, Math.round(fixedS * 10)) * 100 : segMs(d, v));
/** A segment's weight: its fixed weight, or its length at rate r (m per weight unit). */
const segWeight = (fixed: number, d: number, r: number, precision: number) => segWeightMs(fixed > 0 ? fixed : r > 0 ? d / r : 0, precision);
/** Direction bits of segment s as walked from node `from`. */
const dirFrom = (s: Segments, seg: number, from: number) => (s.a[seg] === from ? s.flags[seg] : ((s.flags[seg] & 1) << 1) | ((s.flags[seg] & 2) >> 1));

export function compress(s: Segments): BaseGraph {
  const N = s.lat.length;
  const deg = new Int32Array(N + 1);
  for (let i = 0; i < s.count; i++) { deg[s.a[i]]++; deg[s.b[i]]++; }
  // CSR of incident segments per node
  const first = new Int32Array(N + 1);
  for (let v = 0; v < N; v++) first[v + 1] = first[v] + deg[v];
  const inc = new Int32Array(first[N]);
  // the degrees are in first now: their array becomes the fill cursors (a country's nodes × 4 bytes less)
  const fill = deg;
  fill.set(first.subarray(0, N));
  for (let i = 0; i < s.count; i++) { inc[fill[s.a[i]]++] = i; inc[fill[s.b[i]]++] = i; }

  // Junctions: degree ≠ 2, or degree 2 where walking through would change the direction rule.
  const junction = new Int32Array(N).fill(-1);
  let nodes = 0;
  const isJ = new Uint8Array(N);
  for (let v = 0; v < N; v++) {
    const d = first[v + 1] - first[v];
    if (d === 0) continue;
    if (d !== 2 || (s.keep && s.keep[v])) { isJ[v] = 1; continue; }
    const s1 = inc[first[v]], s2 = inc[first[v] + 1];
    // Walking x→v on s1 then v→y on s2: "into v" along s1 must equal "out of v" along s2.
    const into = dirFrom(s, s1, v);
    const back = ((into & 1) << 1) | ((into & 2) >> 1); // direction of s1 as walked towards v
    if (back !== dirFrom(s, s2, v)) isJ[v] = 1;
    // A change of name, ref, class or roundabout is a guidance point ("new name"): keep it a node.
    else if (s.attr && s.attr[s1] !== s.attr[s2]) isJ[v] = 1;
    // a waypoint may snap on one side and not the other: the edge ends here
    else if (s.noStart && s.noStart[s1] !== s.noStart[s2]) isJ[v] = 1;
  }

  const used = new Uint8Array(s.count);
  // Output buffers, grown as needed.
  let eCap = Math.max(16, s.count), pCap = Math.max(32, s.count * 2);
  let edgeU = new Int32Array(eCap), edgeV = new Int32Array(eCap), edgeW = new Int32Array(eCap), edgeWeight = new Int32Array(eCap), edgeWay = new Int32Array(eCap), edgeAlong = new Uint8Array(eCap);
  let edgeDist = new Float32Array(eCap), edgeFlags = new Uint8Array(eCap), edgeShape = new Uint32Array(eCap + 1), edgeAttr = new Int32Array(eCap);
  let shapeLat = new Int32Array(pCap), shapeLon = new Int32Array(pCap), shapeCum = new Float32Array(pCap), shapeNode = new Int32Array(pCap), shapeWay = new Int32Array(pCap);
  let m = 0, p = 0;
  const grow = () => {
    if (m + 1 >= eCap) {
      eCap *= 2;
      const g = <T extends Int32Array | Float32Array | Uint8Array | Uint32Array>(x: T, n: number): T => { const y = new (x.constructor as any)(n); y.set(x); return y; };
      edgeU = g(edgeU, eCap); edgeV = g(edgeV, eCap); edgeW = g(edgeW, eCap); edgeDist = g(edgeDist, eCap);
      edgeWeight = g(edgeWeight, eCap); edgeWay = g(edgeWay, eCap); edgeAlong = g(edgeAlong, eCap);
      edgeFlags = g(edgeFlags, eCap); edgeShape = g(edgeShape, eCap + 1); edgeAttr = g(edgeAttr, eCap);
    }
  };
  const growPts = () => {
    if (p === pCap) {
      pCap *= 2;
      const a = new Int32Array(pCap); a.set(shapeLat); shapeLat = a;
      const b = new Int32Array(pCap); b.set(shapeLon); shapeLon = b;
      const c = new Float32Array(pCap); c.set(shapeCum); shapeCum = c;
      const d = new Int32Array(pCap); d.set(shapeNode); shapeNode = d;
      const w = new Int32Array(pCap); w.set(shapeWay); shapeWay = w;
    }
  };
  const copyOf = s.copyOf, firstCopy = N - (copyOf?.length ?? 0);
  const origin = (v: number) => (v < firstCopy ? v : copyOf![v - firstCopy]);
  const pushPt = (v: number, cum: number, seg: number) => {
    growPts();
    shapeLat[p] = Math.round(s.lat[v] * E7); shapeLon[p] = Math.round(s.lon[v] * E7); shapeCum[p] = cum; shapeNode[p] = origin(v);
    shapeWay[p] = s.way ? s.way[seg] : -1; p++;
  };
  const copyPt = (k: number) => {
    growPts();
    shapeLat[p] = shapeLat[k]; shapeLon[p] = shapeLon[k]; shapeCum[p] = shapeCum[k]; shapeNode[p] = shapeNode[k]; shapeWay[p] = shapeWay[k]; p++;
  };
  const id = (v: number) => (junction[v] >= 0 ? junction[v] : (junction[v] = nodes++));

  const back = s.speedBack ?? s.speed;
  const weighed = s.rate !== undefined && s.rateBack !== undefined && s.fixedWeight !== undefined;
  const precision = s.weightPrecision ?? 1;
  const walk = (start: number, seg0: number) => {
    grow();
    edgeShape[m] = p;
    const p0 = p;
    // ms along the walk (from start) and against it
    let cur = start, seg = seg0, dist = 0, msAlong = 0, msAgainst = 0, wAlong = 0, wAgainst = 0;
    const flags = dirFrom(s, seg0, start);
    pushPt(start, 0, seg0);
    for (;;) {
      used[seg] = 1;
      const fw = s.a[seg] === cur;
      const next = fw ? s.b[seg] : s.a[seg];
      const d = osrmDistance(shapeLat[p - 1] / E7, shapeLon[p - 1] / E7, Math.round(s.lat[next] * E7) / E7, Math.round(s.lon[next] * E7) / E7);
      dist += d;
      const vAB = s.speed[seg] / 3.6, vBA = back[seg] / 3.6;
      const fixedS = s.fixedDuration ? s.fixedDuration[seg] : 0;
      msAlong += segTimeMs(fixedS, d, fw ? vAB : vBA);
      msAgainst += segTimeMs(fixedS, d, fw ? vBA : vAB);
      if (weighed) {
        // the same with the profile's weight (an obstacle's weight is its duration in every profile svc builds)
        const fixed = s.fixedWeight![seg], rAB = s.rate![seg], rBA = s.rateBack![seg];
        wAlong += segWeight(fixed, d, fw ? rAB : rBA, precision);
        wAgainst += segWeight(fixed, d, fw ? rBA : rAB, precision);
      }
      pushPt(next, dist, seg);
      if (isJ[next]) { cur = next; break; }
      const o = first[next];
      const ns = inc[o] === seg ? inc[o + 1] : inc[o];
      cur = next; seg = ns;
      if (used[seg]) break; // closed ring of degree-2 nodes, already walked
    }
    const u = id(start), v = id(cur), attr = s.attr ? s.attr[seg0] : 0;
    const noStart = s.noStart && s.noStart[seg0] ? EDGE_NO_START : 0;
    const wA = Math.max(1, Math.round(msAlong)), wB = Math.max(1, Math.round(msAgainst));
    // without the profile's weights, weight is duration
    const gA = weighed ? Math.max(1, Math.round(wAlong)) : wA, gB = weighed ? Math.max(1, Math.round(wAgainst)) : wB;
    const way = s.way ? s.way[seg0] : -1, along = s.a[seg0] === start ? 1 : 0; // a segment runs a→b in its way's order
    edgeU[m] = u; edgeV[m] = v; edgeDist[m] = dist; edgeAttr[m] = attr; edgeWay[m] = way; edgeAlong[m] = along;
    if (flags === 3 && (wA !== wB || gA !== gB)) {
      // two directions, two times or weights: this edge u→v, a twin v→u over the same shape
      edgeW[m] = wA; edgeWeight[m] = gA; edgeFlags[m] = 1 | noStart;
      m++;
      grow();
      edgeShape[m] = p;
      for (let k = p0, e = p; k < e; k++) copyPt(k);
      edgeU[m] = u; edgeV[m] = v; edgeDist[m] = dist; edgeAttr[m] = attr; edgeWay[m] = way; edgeAlong[m] = along;
      edgeW[m] = wB; edgeWeight[m] = gB; edgeFlags[m] = 2 | noStart | EDGE_TWIN_BACK;
    } else {
      edgeW[m] = flags & 1 ? wA : wB; edgeWeight[m] = flags & 1 ? gA : gB; edgeFlags[m] = flags | noStart;
    }
    m++;
  };

  for (let v = 0; v < N; v++) {
    if (!isJ[v]) continue;
    for (let k = first[v]; k < first[v + 1]; k++) if (!used[inc[k]]) walk(v, inc[k]);
  }
  // Rings made only of degree-2 nodes: promote one node per ring to a junction.
  for (let i = 0; i < s.count; i++) {
    if (used[i]) continue;
    const v = s.a[i];
    isJ[v] = 1;
    walk(v, i);
  }
  edgeShape[m] = p;
  const nodeLat = new Int32Array(nodes), nodeLon = new Int32Array(nodes);
  for (let v = 0; v < N; v++) {
    const j = junction[v];
    if (j >= 0) { nodeLat[j] = Math.round(s.lat[v] * E7); nodeLon[j] = Math.round(s.lon[v] * E7); }
  }
  // The shape columns are returned as views: their pages past p were never written, so they cost
  // address space, not memory, where a trimmed copy would briefly hold every point twice.
  return {
    nodes, nodeLat, nodeLon, edges: m,
    edgeU: edgeU.slice(0, m), edgeV: edgeV.slice(0, m), edgeW: edgeW.slice(0, m), edgeWeight: edgeWeight.slice(0, m), edgeDist: edgeDist.slice(0, m),
    edgeFlags: edgeFlags.slice(0, m), edgeShape: edgeShape.slice(0, m + 1), edgeAttr: edgeAttr.slice(0, m), attrs: s.attrs ?? [{ cls: '' }],
    shapeLat: shapeLat.subarray(0, p), shapeLon: shapeLon.subarray(0, p), shapeCum: shapeCum.subarray(0, p),
    ...(s.way ? { edgeWay: edgeWay.slice(0, m), edgeAlong: edgeAlong.slice(0, m) } : {}), shapeNode: shapeNode.subarray(0, p), ...(s.way ? { shapeWay: shapeWay.subarray(0, p) } : {}),
    ...(s.wayTable ? { wayTable: s.wayTable } : {}),
  };
}
