// Where a car can stop for a rider: the drivable roads within a radius of the rider, each at the
// point nearest the rider, with the direction a car must travel there so that the rider is on its
// curb side — OSRM's `approaches=curb`: on a two-way road the kerb of the lane the car drives in is
// on the right where traffic keeps right and on the left where it keeps left, so the rider standing
// on that side needs no crossing. A oneway road is driven the one way it allows (OSRM ignores curb
// on oneways too); whether the rider is on the side the car can pull over to depends on the road's
// width and is reported, not assumed. Motorways are left out: no one stops there.
import { TaskError } from '../../../src/core/task.ts';
import { readWayAttrs } from '../../../src/core/format/route.ts';
import { E7, EDGE_NO_START } from '../../../src/core/format/route.ts';
import { M_PER_DEG, haversine } from '../../../src/core/geometry.ts';
import type { PickupArgs, PickupReply, PickupRoad } from '../../../src/core/tasks/index.ts';
import { loadedGraphs } from '../graphs.ts';
import { checkPoint } from '../locate/candidates.ts';
import { boxSlack, nearOnSeg, project } from '../locate/snap.ts';

/** Classes a car does not stop on. */
const NO_STOP = new Set(['motorway', 'motorway_link']);
/** Closer to the centre line than this (metres), the rider stands on the road: either side will do. */
const ON_ROAD_M = 1;

const r1 = (x: number) => Math.round(x * 10) / 10;
const r7 = (x: number) => Math.round(x * 1e7) / 1e7;

export function pickupTask(a: PickupArgs): PickupReply {
  const [lat, lng] = checkPoint(a?.at, 'at');
  const side = a.driving_side;
  if (side !== 'left' && side !== 'right') throw new TaskError(400, 'invalid_parameter', "Parameter 'driving_side' must be left or right.");
  const graph = loadedGraphs().find((g) => g.profile === 'driving' && g.covers(lat, lng, a.radius));
  if (!graph) throw new TaskError(400, 'out_of_coverage', 'No driving road extract covers this point.');
  const g = graph.g, attrs = readWayAttrs(g);
  const kx = Math.cos(lat * (Math.PI / 180)) * M_PER_DEG, ky = M_PER_DEG;
  // The nearest segment of every road (a named street once, an unnamed edge each) within the radius.
  const best = new Map<string, { i: number; t: number; d: number }>();
  const m = { t: 0, d: 0 };
  for (const i of graph.index.neighbors(lng * g.meta.index_cos_lat, lat, Infinity, (a.radius / M_PER_DEG) * boxSlack(g, lat))) {
    if (i >= g.segEdge.length || g.edgeFlags[g.segEdge[i]] & EDGE_NO_START) continue;
    const e = g.segEdge[i], attr = attrs[g.edgeAttr[e]];
    if (attr && NO_STOP.has(attr.cls)) continue;
    nearOnSeg(g, i, lat, lng, kx, ky, m);
    if (m.d > a.radius) continue;
    const road = attr?.name ? `n:${attr.name}` : `e:${e}`;
    const o = best.get(road);
    if (!o || m.d < o.d) best.set(road, { i, t: m.t, d: m.d });
  }
  const points = [...best.values()].sort((x, y) => x.d - y.d).slice(0, a.limit).map(({ i, t }) => {
    const s = project(g, i, t, lat, lng);
    const e = s.edge, p = g.segPt[i], attr = attrs[g.edgeAttr[e]];
    const ax = g.shapeLon[p] / E7, ay = g.shapeLat[p] / E7, bx = g.shapeLon[p + 1] / E7, by = g.shapeLat[p + 1] / E7;
    // the segment's direction (edge order, u → v) and which side of it the rider stands on
    const dx = (bx - ax) * kx, dy = (by - ay) * ky, rx = (lng - s.lng) * kx, ry = (lat - s.lat) * ky;
    const cross = dx * ry - dy * rx;
    const len = Math.hypot(dx, dy) || 1;
    const offset = cross / len; // > 0: the rider is left of u → v
    const fwd = (g.edgeFlags[e] & 1) !== 0, bwd = (g.edgeFlags[e] & 2) !== 0;
    const onRoad = Math.abs(offset) < ON_ROAD_M;
    let forward: boolean, approach: 'curb' | 'oneway' | 'either';
    if (fwd && bwd) {
      // The car keeps the rider on its kerb side: right-hand traffic, rider on the right of travel.
      const leftOfForward = offset > 0;
      forward = onRoad ? true : side === 'right' ? !leftOfForward : leftOfForward;
      approach = onRoad ? 'either' : 'curb';
    } else {
      forward = fwd;
      approach = 'oneway';
    }
    // which side of the travelling car the rider is on
    const riderSide: PickupRoad['rider_side'] = onRoad ? 'on_road' : (offset > 0) === forward ? 'left' : 'right';
    const heading = ((Math.atan2(forward ? dx : -dx, forward ? dy : -dy) * 180) / Math.PI + 360) % 360;
    return {
      lat: r7(s.lat), lng: r7(s.lng), distance_m: r1(haversine(lat, lng, s.lat, s.lng)),
      road: attr?.name ?? null, ref: attr?.ref ?? null, class: attr?.cls ?? null,
      oneway: !(fwd && bwd), approach, heading_deg: Math.round(heading), rider_side: riderSide,
      // on the kerb the car stops at, with no road to cross
      curb_side: riderSide === 'on_road' || riderSide === side,
    };
  });
  return { extract: graph.extract, driving_side: side, points };
}
