// Vehicles ranked by road ETA to one rider: the matrix engine (matrix/task.ts) with the vehicles as
// sources and the rider as the one destination, on the driving graph that covers the rider. A
// vehicle is answered on its own, never failing the rest: outside that extract, with no road
// within the snap radius, or with no route to the rider.
import { TaskError } from '../../../src/core/task.ts';
import { SNAP_RADIUS } from '../../../src/core/limits.ts';
import type { FleetEtaArgs, FleetEtaReply, VehicleEta } from '../../../src/core/tasks/index.ts';
import { loadedGraphs } from '../graphs.ts';
import { candidates, checkPoint } from '../locate/candidates.ts';
import { matrixCosts } from '../matrix/task.ts';

const r1 = (x: number) => Math.round(x * 10) / 10;

export function fleetEtaTask(a: FleetEtaArgs): FleetEtaReply {
  const rider = checkPoint(a?.rider, 'rider');
  if (!Array.isArray(a.vehicles)) throw new TaskError(400, 'invalid_parameter', "Parameter 'vehicles' must be a list of [lat, lng] pairs.");
  const vehicles = a.vehicles.map((p, i) => checkPoint(p, 'vehicles', i));
  const radius = a.radius ?? SNAP_RADIUS.default;
  // The smallest driving extract around the rider, as /route and the matrix pick it.
  const graph = loadedGraphs().find((g) => g.profile === 'driving' && g.covers(rider[0], rider[1], radius));
  if (!graph) throw new TaskError(400, 'out_of_coverage', 'No driving road extract covers the rider\'s point.');
  // The rider's road first: with none, no vehicle can be ranked (even when there is none to rank).
  const own = candidates(graph, rider[0], rider[1], radius);
  if (!own) throw new TaskError(400, 'no_road', `No drivable road within ${radius} m of the rider.`);
  const riderOut = { lat: own[0].lat, lng: own[0].lng, distance_m: r1(own[0].dist) };
  const inside = vehicles.map((v, i) => (graph.covers(v[0], v[1], radius) ? i : -1)).filter((i) => i >= 0);
  const out: VehicleEta[] = vehicles.map(() => ({ unreachable: 'out_of_coverage' }));
  if (!inside.length) return { extract: graph.extract, rider: riderOut, vehicles: out };
  const m = matrixCosts({ sources: inside.map((i) => vehicles[i]), destinations: [rider], mode: 'driving', radius });
  if (m.graph !== graph) throw new Error('fleet_eta: the matrix picked another extract than the rider\'s');
  inside.forEach((vi, k) => {
    const src = m.src[k];
    if (!src) { out[vi] = { unreachable: 'no_road' }; return; }
    const ms = m.ms[k], metres = m.metres[k];
    out[vi] = ms === Infinity ? { unreachable: 'no_route' } : { eta_s: r1(ms / 1000), distance_m: r1(metres), snap_m: r1(src[0].dist) };
  });
  return { extract: graph.extract, rider: riderOut, vehicles: out };
}
