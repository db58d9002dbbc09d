// Costs between resolved places for the distance matrix.
import type { AppContext, Req } from '../../../http/types.ts';
import type { Resolved } from './places.ts';
import { task, ok } from './tasks.ts';

/** One element: null when a place was not geocoded; null distance/duration when no route joins them. */
export type Cell = { distance_m: number | null; duration_s: number | null } | null;

const NO_ROUTE = new Set(['no_route', 'no_road_nearby', 'out_of_coverage']);

export async function matrix(ctx: AppContext, req: Req, o: (Resolved | null)[], d: (Resolved | null)[], mode: string): Promise<Cell[][]> {
  return Promise.all(o.map((a) => Promise.all(d.map(async (b): Promise<Cell> => {
    if (!a || !b) return null;
    const r = await task(ctx, req, 'route_cost', { from: [a.lat, a.lng], to: [b.lat, b.lng], mode, radius: 5000 });
    if (r.status === 400 && NO_ROUTE.has(r.body?.error?.code)) return { distance_m: null, duration_s: null };
    const c = ok(r, 'route_cost');
    return { distance_m: c.distance_m, duration_s: c.cost_ms / 1000 };
  }))));
}
