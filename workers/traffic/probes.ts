// Task traffic_samples: probe traces → speed samples per directed edge. Each trace is map-matched
// on the smallest driving graph that covers it (routing/match.ts, the same HMM matcher as
// POST /route/match), and every matched piece gives one sample per edge it drove, whole or in part (samples.ts).
import type { GraphViews } from '../../src/core/format/route.ts';
import { loadedGraphs } from '../routing/graphs.ts';
import { matchTrace, type Matching } from '../routing/match/match.ts';
import { edgeSamples, type MatchedRun } from './samples.ts';

import type { TrafficSamplesArgs as SamplesArgs } from '../../src/core/tasks/index.ts';
export type { SamplesArgs };

const COVER_M = 200;

export function trafficSamples(a: SamplesArgs) {
  const samples: { extract: string; profile: string; edge: number; dir: number; ts: number; speed_kph: number; device: string }[] = [];
  let matched = 0, unmatched = 0;
  for (const t of a.traces) {
    const graph = loadedGraphs().find((g) => g.traffic && t.points.every(([la, lo]) => g.covers(la, lo, COVER_M)));
    if (!graph || t.points.length < 2) { unmatched++; continue; }
    const { matchings } = matchTrace(graph, t.points.map(([lat, lng, ms]) => ({ lat, lng, ts: ms / 1000 })));
    if (!matchings.length) { unmatched++; continue; }
    matched++;
    for (const m of matchings) {
      const run = runOf(graph.g, m, t.points);
      if (!run) continue;
      for (const s of edgeSamples(graph.g, run)) samples.push({ extract: graph.extract, profile: graph.profile, ...s, device: t.device });
    }
  }
  return { samples, traces: { matched, unmatched } };
}

/**
 * Where each matched point lies along its piece's path: metres from the start of the first edge
 * driven. Null when the points do not advance along the path (a matching this cannot time).
 */
export function runOf(g: GraphViews, m: Matching, pts: [number, number, number][]): MatchedRun | null {
  const start: number[] = [];
  let acc = 0;
  for (const se of m.edges) { start.push(acc); acc += g.edgeDist[se > 0 ? se - 1 : -se - 1]; }
  const points: MatchedRun['points'] = [];
  let j = 0;
  for (let k = 0; k < m.idx.length; k++) {
    const s = m.snaps[k];
    while (j < m.edges.length && Math.abs(m.edges[j]) - 1 !== s.edge) j++;
    if (j === m.edges.length) return null;
    const e = m.edges[j];
    const along = start[j] + (e > 0 ? s.pos : g.edgeDist[s.edge] - s.pos);
    if (points.length && along < points[points.length - 1].along) return null;
    points.push({ along, ts: pts[m.idx[k]][2] });
  }
  return { edges: m.edges, points };
}
