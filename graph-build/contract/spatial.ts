// Snapping index: a flatbush over every straight segment of every edge's shape, in
// coordinates (lon·cos(lat0), lat) so that box distances are roughly isotropic. Edges a waypoint
// may not start or end on (EDGE_NO_START: ferries, private service roads, as OSRM's
// is_startpoint) are in it, for OSRM's snapping=any, and every reader skips them by default
// (workers/routing/locate/snap.ts); the second half of a twin pair is not (its shape is the first's).
import Flatbush from 'flatbush';
import type { BaseGraph } from './compress.ts';
import { E7, EDGE_TWIN_BACK } from '../../src/core/format/route.ts';

export interface Spatial {
  segEdge: Int32Array;
  segPt: Uint32Array;
  spatial: Uint8Array;
  cosLat: number;
  bbox: [number, number, number, number];
}

export function buildSpatial(g: BaseGraph): Spatial {
  let minLat = Infinity, maxLat = -Infinity, minLon = Infinity, maxLon = -Infinity;
  for (let i = 0; i < g.shapeLat.length; i++) {
    const la = g.shapeLat[i], lo = g.shapeLon[i];
    if (la < minLat) minLat = la; if (la > maxLat) maxLat = la;
    if (lo < minLon) minLon = lo; if (lo > maxLon) maxLon = lo;
  }
  const bbox: [number, number, number, number] = g.shapeLat.length
    ? [minLon / E7, minLat / E7, maxLon / E7, maxLat / E7] : [0, 0, 0, 0];
  const cosLat = Math.cos(((bbox[1] + bbox[3]) / 2) * (Math.PI / 180));
  const indexed = (e: number) => !(g.edgeFlags[e] & EDGE_TWIN_BACK);
  let segs = 0;
  for (let e = 0; e < g.edges; e++) if (indexed(e)) segs += g.edgeShape[e + 1] - g.edgeShape[e] - 1;
  const segEdge = new Int32Array(segs), segPt = new Uint32Array(segs);
  const fb = new Flatbush(Math.max(1, segs));
  let i = 0;
  for (let e = 0; e < g.edges; e++) {
    if (!indexed(e)) continue;
    for (let p = g.edgeShape[e]; p < g.edgeShape[e + 1] - 1; p++) {
      const x1 = (g.shapeLon[p] / E7) * cosLat, y1 = g.shapeLat[p] / E7;
      const x2 = (g.shapeLon[p + 1] / E7) * cosLat, y2 = g.shapeLat[p + 1] / E7;
      fb.add(Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2));
      segEdge[i] = e; segPt[i] = p; i++;
    }
  }
  if (segs === 0) fb.add(0, 0, 0, 0); // flatbush needs one item; segEdge is empty so it never matches
  fb.finish();
  return { segEdge, segPt, spatial: new Uint8Array(fb.data), cosLat, bbox };
}
