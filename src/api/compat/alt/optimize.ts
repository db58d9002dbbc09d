// optimize:true — the order of the stopover waypoints from our trip optimiser (task
// `route_optimize`: exact up to 10 stops, local search above), origin and destination fixed.
import type { AppContext, Req } from '../../../http/types.ts';
import type { Resolved } from './places.ts';
import { task, ok } from './tasks.ts';

/** Errors that mean "no route" rather than a bad request: the platform's ZERO_RESULTS. */
export const NO_ROUTE = new Set(['no_route', 'no_road_nearby', 'out_of_coverage']);

/** Order of the intermediate points (indices into the waypoints), or the no-route error. */
export async function optimizeOrder(ctx: AppContext, req: Req, pts: Resolved[], mode: string, radius: number): Promise<number[] | { code: string; message: string }> {
  const at = (p: Resolved): [number, number] => [p.lat, p.lng];
  const r = await task(ctx, req, 'route_optimize', {
    start: at(pts[0]), end: at(pts[pts.length - 1]), round_trip: false,
    stops: pts.slice(1, -1).map((p) => ({ lat: p.lat, lng: p.lng })), mode, radius,
  });
  if (r.status === 400 && NO_ROUTE.has(r.body?.error?.code)) return r.body.error;
  return ok(r, 'route_optimize').order as number[];
}
