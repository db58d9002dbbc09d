// Correctness check of one routed graph (issue 3 §9): for random pairs of points on the
// road network, the CH cost equals plain Dijkstra on the uncontracted graph exactly,
// the unpacked path is continuous, and the geometry length matches distance_m within 0.5%.
import type { GraphViews } from '../../src/core/format/route.ts';
import { E7 } from '../../src/core/format/route.ts';
import { ChQuery } from '../../workers/routing/search/ch-query.ts';
import { DijkstraQuery } from '../../workers/routing/search/dijkstra.ts';
import { leg } from '../../workers/routing/search/legs.ts';
import { snap, loadIndex } from '../../workers/routing/locate/snap.ts';
import { haversine } from '../../src/core/geometry.ts';
import { ArraySink } from '../../workers/routing/answers/coords.ts';
import { rng } from './rand.ts';

export interface CheckReport {
  pairs: number;
  routed: number;
  unreachable: number;
  cost_mismatches: number;
  discontinuities: number;
  length_mismatches: number;
  max_length_error: number;
  examples: string[];
}

/** A random point on a random shape segment, so every pair snaps (radius 1000 m). */
export function randomPoints(g: GraphViews, n: number, seed: number): [number, number][] {
  const rand = rng(seed);
  const out: [number, number][] = [];
  const segs = g.segPt.length;
  for (let i = 0; i < n; i++) {
    const p = g.segPt[Math.floor(rand() * segs)], t = rand();
    out.push([(g.shapeLat[p] + t * (g.shapeLat[p + 1] - g.shapeLat[p])) / E7, (g.shapeLon[p] + t * (g.shapeLon[p + 1] - g.shapeLon[p])) / E7]);
  }
  return out;
}

export function checkGraph(g: GraphViews, pairs: number, seed = 1): CheckReport {
  const index = loadIndex(g);
  const ch = new ChQuery(g), dj = new DijkstraQuery(g);
  const pts = randomPoints(g, pairs * 2, seed);
  const rep: CheckReport = { pairs, routed: 0, unreachable: 0, cost_mismatches: 0, discontinuities: 0, length_mismatches: 0, max_length_error: 0, examples: [] };
  for (let i = 0; i < pairs; i++) {
    const a = pts[2 * i], b = pts[2 * i + 1];
    const sa = snap(g, index, a[0], a[1], 1000), sb = snap(g, index, b[0], b[1], 1000);
    if (!sa || !sb) throw new Error(`point on the network failed to snap: ${a} ${b}`);
    const sink = new ArraySink();
    const lc = leg(g, ch, sa, sb, sink);
    const coords = sink.coords;
    const ld = leg(g, dj, sa, sb);
    if ((lc === null) !== (ld === null) || (lc && ld && lc.cost !== ld.cost)) {
      rep.cost_mismatches++;
      if (rep.examples.length < 5) rep.examples.push(`pair ${i}: ch ${lc?.cost} dijkstra ${ld?.cost}`);
      continue;
    }
    if (!lc) { rep.unreachable++; continue; }
    rep.routed++;
    // continuity: each unpacked edge starts where the previous one ended
    const pathA = ch.path(), n = pathA.length;
    // the path starts where the start node's edge (the source's, edge-based) ends
    const s0 = g.ebEdge[ch.startNode()];
    let node = s0 > 0 ? g.edgeV[s0 - 1] : g.edgeU[-s0 - 1];
    for (let k = 0; k < n && lc.cost > 0; k++) {
      const e = pathA[k], from = e > 0 ? g.edgeU[e - 1] : g.edgeV[-e - 1], to = e > 0 ? g.edgeV[e - 1] : g.edgeU[-e - 1];
      if (from !== node) { rep.discontinuities++; break; }
      node = to;
    }
    // geometry: consecutive points never jump further than the longest shape segment allows, ends at the snapped points
    let len = 0;
    for (let k = 1; k < coords.length; k++) len += haversine(coords[k - 1][1], coords[k - 1][0], coords[k][1], coords[k][0]);
    const ends = coords.length > 0 && Math.abs(coords[0][0] - sa.lng) < 1e-6 && Math.abs(coords[0][1] - sa.lat) < 1e-6
      && Math.abs(coords[coords.length - 1][0] - sb.lng) < 1e-6 && Math.abs(coords[coords.length - 1][1] - sb.lat) < 1e-6;
    if (!ends) rep.discontinuities++;
    const err = lc.dist > 1 ? Math.abs(len - lc.dist) / lc.dist : Math.abs(len - lc.dist) > 0.5 ? 1 : 0;
    if (err > rep.max_length_error) rep.max_length_error = err;
    if (err > 0.005) { rep.length_mismatches++; if (rep.examples.length < 5) rep.examples.push(`pair ${i}: geometry ${len.toFixed(1)} m vs distance ${lc.dist.toFixed(1)} m`); }
  }
  return rep;
}
