// The routing module's task table: which function answers each routing task. Arguments and
// answers are the task map's (src/core/tasks/), checked here by the compiler; the HTTP layer
// validates before it calls, and the tasks check what they are also called with directly.
//
// The stages, in the order a request flows through them:
//   locate/    a point onto the roads (snap, candidates, road access)
//   search/    shortest paths (CH query, Dijkstra, upward searches, traffic, legs, solve, alternatives)
//   guidance/  turn-by-turn steps and their instructions
//   answers/   the JSON the answers are written as (/route in route-json.ts)
//   matrix/, isochrone/, match/, optimize/, osrm/, ride/: the tasks built on them
import { workerData } from 'node:worker_threads';
import type { WorkerModule } from '../../src/core/task.ts';
import type { TaskOp, TaskTable } from '../../src/core/tasks/index.ts';
import { loadGraphs, loadedGraphs, setLoadedGraphs, withCarLua } from './graphs.ts';
import { solve, totals } from './search/solve.ts';
import { plainRouteTask, guidedRouteTask } from './answers/route-json.ts';
import { matrixTask } from './matrix/task.ts';
import { warmUpMatrix } from './matrix/warm-up.ts';
import { optimizeTask } from './optimize/optimize.ts';
import { matchTask } from './match/match.ts';
import { isochroneTask } from './isochrone/isochrone.ts';
import { roadAccess } from './locate/access.ts';
import { osrmRouteTask, osrmNearestTask, osrmTableTask, osrmTripTask, osrmMatchTask } from './osrm/osrm.ts';
import { fleetEtaTask } from './ride/fleet-eta.ts';
import { pickupTask } from './ride/pickup.ts';
import { collectWhenIdle } from '../collect.ts';

const round1 = (x: number) => Math.round(x * 10) / 10;

/** The routing tasks, each checked against its entry of the task map. */
export const routingTasks = {
  // steps and alternatives take the guided path; the plain answer keeps its own faster one
  route: (args) => (args.steps || args.alternatives ? guidedRouteTask(args) : plainRouteTask(args)),
  // the /osrm/ compatibility layer: OSRM's car.lua graphs only (withCarLua), never an operator's driving_tracks
  osrm_route: (args) => withCarLua(() => osrmRouteTask(args)),
  osrm_nearest: (args) => withCarLua(() => osrmNearestTask(args)),
  osrm_table: (args) => withCarLua(() => osrmTableTask(args)),
  osrm_trip: (args) => withCarLua(() => osrmTripTask(args)),
  osrm_match: (args) => withCarLua(() => osrmMatchTask(args)),
  road_access: (args) => roadAccess(loadedGraphs(), args),
  route_matrix: (args, ctx) => matrixTask(args, ctx),
  // GET /fleet/vehicles/nearest: vehicles by road ETA to a rider
  fleet_eta: (args) => fleetEtaTask(args),
  // GET /pickup-points: road points on the rider's side of the road
  pickup_roads: (args) => pickupTask(args),
  route_optimize: (args) => optimizeTask(args),
  route_match: (args) => matchTask(args),
  route_isochrone: (args) => isochroneTask(args),
  // Cost and length only, no geometry: benchmarks and the no_route checks compare it with OSRM.
  route_cost: (args) => {
    const r = solve(args, () => null);
    const t = totals(r);
    return { cost_ms: t.cost, distance_m: round1(t.dist), settled: r.settled, extract: r.graph.extract };
  },
} satisfies TaskTable<Extract<TaskOp, 'route' | 'route_cost' | `route_${string}` | `osrm_${string}` | 'road_access' | 'fleet_eta' | 'pickup_roads'>>;

export const routing = {
  // what the warm-up leaves is collected once the thread is idle after it
  init(datasets) { setLoadedGraphs(loadGraphs(datasets)); warmUpMatrix(loadedGraphs(), undefined, collectWhenIdle, workerData?.warmUpAfterMs ?? 0); },
  tasks: routingTasks,
} satisfies WorkerModule;
