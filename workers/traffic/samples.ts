// Speed samples from a matched trace: for every directed edge the trace drove, the time it entered
// and left the edge (or the part of it between the trace's first and last points), interpolated in
// distance between the matched points around them. One sample per edge per trace, so a slow vehicle
// with many pings counts once, like a fast one.
//
// A part of an edge counts too: rural edges run for kilometres between junctions, and a vehicle
// that crawls the first 3 km of a 10 km edge and stops there has seen traffic on 3 km of it. Its
// sample stands for the whole edge with the part driven at the observed time and the rest at the
// profile's (the speed that gives length / (observed time + the rest's profile time)), so the edge
// slows by what was seen and no more; /traffic shows that speed for the edge. The sample also
// names the part (from_m–to_m), so a route that drives only some of the edge (from or to a point
// on it) is costed at the observed speed where it overlaps the part (workers/routing/search/dijkstra.ts).
import type { GraphViews } from '../../src/core/format/route.ts';

/** A stretch of a trace matched onto one connected path. */
export interface MatchedRun {
  /** The path's base edges in order: e + 1 driven u→v, -(e + 1) driven v→u. */
  edges: number[];
  /** Per matched point, in time order: metres along the path from the start of edges[0], and epoch ms. */
  points: { along: number; ts: number }[];
}

/**
 * speed_kph stands for the whole edge (the part at its observed time, the rest at the profile's);
 * from_m–to_m is the part driven, metres from the edge's first node u whatever the direction.
 */
export interface EdgeSample { edge: number; dir: number; ts: number; speed_kph: number; from_m: number; to_m: number }

/** Speeds outside this range are matching or clock errors, not traffic. */
const MIN_KPH = 0.5, MAX_KPH = 180;
/**
 * The shortest part of an edge a sample is taken from: shorter parts (the few metres a trace
 * starts or ends into an edge) time too little to mean anything.
 */
export const MIN_PART_M = 100;

export function edgeSamples(g: GraphViews, run: MatchedRun): EdgeSample[] {
  const pts = run.points;
  if (pts.length < 2) return [];
  const first = pts[0].along, last = pts[pts.length - 1].along;
  const out: EdgeSample[] = [];
  let start = 0;
  for (const se of run.edges) {
    const e = se > 0 ? se - 1 : -se - 1;
    const len = g.edgeDist[e];
    const end = start + len;
    // the part of the edge between two observations: entering and leaving it are both interpolated
    const lo = Math.max(start, first), hi = Math.min(end, last);
    const part = hi - lo;
    if (len > 0 && part >= Math.min(len, MIN_PART_M)) {
      const tIn = timeAt(pts, lo), tOut = timeAt(pts, hi);
      const dt = (tOut - tIn) / 1000;
      // the rest of the edge at its profile time (edgeW: ms for the whole edge)
      const rest = ((len - part) / len) * (g.edgeW[e] / 1000);
      if (dt > 0) {
        const partKph = (part / dt) * 3.6, kph = (len / (dt + rest)) * 3.6;
        // the part in the edge's own metres (from u), whichever way it was driven
        const a = se > 0 ? lo - start : end - hi, b = se > 0 ? hi - start : end - lo;
        if (partKph >= MIN_KPH && partKph <= MAX_KPH) {
          out.push({ edge: e, dir: se > 0 ? 0 : 1, ts: Math.round(tOut), speed_kph: Math.round(kph * 10) / 10, from_m: Math.round(a * 10) / 10, to_m: Math.round(b * 10) / 10 });
        }
      }
    }
    start = end;
  }
  return out;
}

/** Linear in distance between the two observations around `along` (points sorted by along). */
function timeAt(pts: { along: number; ts: number }[], along: number): number {
  let lo = 0, hi = pts.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (pts[mid].along <= along) lo = mid; else hi = mid;
  }
  const a = pts[lo], b = pts[hi];
  if (b.along === a.along) return a.ts;
  return a.ts + ((along - a.along) / (b.along - a.along)) * (b.ts - a.ts);
}
