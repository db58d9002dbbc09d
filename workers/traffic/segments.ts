// GET /traffic's answer: the directed edges inside a bbox that carry a published speed (live) or
// a profile speed (forecast), as GeoJSON segments. Reads the shared traffic state; never writes.
import type { LoadedGraph } from '../routing/graphs.ts';
import { E7 } from '../../src/core/format/route.ts';

import type { TrafficSegmentsReply, TrafficSegmentsArgs as SegmentsArgs } from '../../src/core/tasks/index.ts';
export type { SegmentsArgs };

export type Congestion = 'free' | 'moderate' | 'heavy' | 'standstill';

/** Share of the free-flow speed: ≥ 80% free, ≥ 50% moderate, ≥ 20% heavy, below that standstill. */
export function congestion(speed: number, freeFlow: number): Congestion {
  const r = speed / freeFlow;
  return r >= 0.8 ? 'free' : r >= 0.5 ? 'moderate' : r >= 0.2 ? 'heavy' : 'standstill';
}

const kph = (distM: number, ms: number) => (distM / (ms / 1000)) * 3.6;
const round1 = (x: number) => Math.round(x * 10) / 10;

export function segments(graphs: readonly LoadedGraph[], a: SegmentsArgs): TrafficSegmentsReply {
  const [w, s, e, n] = a.bbox;
  const features: TrafficSegmentsReply['features'] = [];
  let truncated = false;
  let withTraffic = 0;
  const slot = a.mode === 'forecast' ? (a.dow ?? 0) * 24 + (a.hour ?? 0) : -1;
  for (const graph of graphs) {
    const t = graph.traffic;
    if (!t) continue;
    withTraffic++;
    const [gw, gs, ge, gn] = graph.g.meta.bbox;
    if (gw > e || ge < w || gs > n || gn < s) continue;
    const count = slot < 0 ? t.meta[1] : t.meta[2 + slot];
    if (count === 0) continue;
    const weights = slot < 0 ? t.weightMs : t.profileSlot(slot);
    const g = graph.g;
    for (let i = 0; i < weights.length; i++) {
      const ms = weights[i];
      if (ms <= 0) continue;
      const edge = i >> 1, dir = i & 1;
      const p0 = g.edgeShape[edge], p1 = g.edgeShape[edge + 1];
      if (!touches(g.shapeLon, g.shapeLat, p0, p1, w, s, e, n)) continue;
      if (features.length >= a.limit) { truncated = true; break; }
      const coords: [number, number][] = [];
      for (let p = p0; p < p1; p++) coords.push([g.shapeLon[p] / E7, g.shapeLat[p] / E7]);
      if (dir === 1) coords.reverse();
      const dist = g.edgeDist[edge];
      const free = kph(dist, g.edgeW[edge]);
      const speed = slot < 0 ? t.speedKph[i] : kph(dist, ms);
      features.push({
        type: 'Feature',
        geometry: { type: 'LineString', coordinates: coords },
        properties: {
          extract: graph.extract, edge, direction: dir === 0 ? 'forward' : 'backward',
          speed_kph: round1(speed), free_flow_kph: round1(free), congestion: congestion(speed, free),
          length_m: round1(dist),
          ...(slot < 0 ? { samples: t.samples[i], updated_at: new Date(t.updatedS[i] * 1000).toISOString() } : {}),
        },
      });
    }
    if (truncated) break;
  }
  const reason = features.length
    ? undefined
    : withTraffic === 0
      ? 'No routed driving graph is loaded, so there is nothing to carry traffic.'
      : a.mode === 'live'
        ? 'No probe data in this area in the last 15 minutes from at least 3 distinct devices; nothing is invented.'
        : 'No historical samples for this area at this day and hour from at least 3 distinct devices.';
  return { type: 'FeatureCollection', features, ...(truncated ? { truncated: true } : {}), ...(reason ? { empty_reason: reason } : {}) };
}

/** Whether any shape point of the edge lies in the bbox (edges are short; good enough for display). */
function touches(lon: Int32Array, lat: Int32Array, p0: number, p1: number, w: number, s: number, e: number, n: number): boolean {
  const W = w * E7, S = s * E7, E = e * E7, N = n * E7;
  for (let p = p0; p < p1; p++) if (lon[p] >= W && lon[p] <= E && lat[p] >= S && lat[p] <= N) return true;
  return false;
}
