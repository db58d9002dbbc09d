// Speed samples from a matched trace: for every directed edge the trace crossed whole, the time
// it entered and left the edge, interpolated in distance between the matched points around them.
// One sample per edge per trace, so a slow vehicle with many pings counts once, like a fast one.
import type { GraphViews } from '../../src/core/format/route.ts';

/** A stretch of a trace matched onto one connected path. */
export interface MatchedRun {
  /** The path's base edges in order: e + 1 driven u→v, -(e + 1) driven v→u. */
  edges: number[];
  /** Per matched point, in time order: metres along the path from the start of edges[0], and epoch ms. */
  points: { along: number; ts: number }[];
}

export interface EdgeSample { edge: number; dir: number; ts: number; speed_kph: number }

/** Speeds outside this range are matching or clock errors, not traffic. */
const MIN_KPH = 0.5, MAX_KPH = 180;

export function edgeSamples(g: GraphViews, run: MatchedRun): EdgeSample[] {
  const pts = run.points;
  if (pts.length < 2) return [];
  const out: EdgeSample[] = [];
  let start = 0;
  for (const se of run.edges) {
    const e = se > 0 ? se - 1 : -se - 1;
    const len = g.edgeDist[e];
    const end = start + len;
    // Only edges driven whole between two observations: entering and leaving are both interpolated.
    if (start >= pts[0].along && end <= pts[pts.length - 1].along && len > 0) {
      const tIn = timeAt(pts, start), tOut = timeAt(pts, end);
      const dt = (tOut - tIn) / 1000;
      if (dt > 0) {
        const kph = (len / dt) * 3.6;
        if (kph >= MIN_KPH && kph <= MAX_KPH) out.push({ edge: e, dir: se > 0 ? 0 : 1, ts: Math.round(tOut), speed_kph: Math.round(kph * 10) / 10 });
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
