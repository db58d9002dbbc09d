// Costs between resolved places for the distance matrix, from the many-to-many `route_matrix`
// task (every cell equals what /route answers for that pair).
import type { AppContext, Req } from '../../../http/types.ts';
import type { Resolved } from './places.ts';
import { task, ok } from './tasks.ts';

/** One element: null when a place was not geocoded; null distance/duration when no route joins them. */
export type Cell = { distance_m: number | null; duration_s: number | null } | null;

/** Snap radius: addresses geocode to settlement centres, which can sit off the road network. */
const RADIUS_M = 5000;

type P = [number, number];

async function run(ctx: AppContext, req: Req, sources: P[], destinations: P[], mode: string) {
  return task(ctx, req, 'route_matrix', { sources, destinations, mode, radius: RADIUS_M });
}

export async function matrix(ctx: AppContext, req: Req, o: (Resolved | null)[], d: (Resolved | null)[], mode: string): Promise<Cell[][]> {
  const oi = o.flatMap((p, i) => (p ? [i] : [])), di = d.flatMap((p, i) => (p ? [i] : []));
  const out: Cell[][] = o.map(() => d.map(() => null));
  if (!oi.length || !di.length) return out;
  const at = (p: Resolved | null): P => [p!.lat, p!.lng];
  const r = await run(ctx, req, oi.map((i) => at(o[i])), di.map((j) => at(d[j])), mode);
  if (r.status === 200) {
    oi.forEach((i, a) => di.forEach((j, b) => { out[i][j] = { distance_m: r.body.distances_m[a][b], duration_s: r.body.durations_s[a][b] }; }));
    return out;
  }
  if (r.body?.error?.code !== 'out_of_coverage') ok(r, 'route_matrix');
  // The places lie in different road extracts: each pair on its own, so pairs one extract
  // joins still get their answer and the others no route (ZERO_RESULTS), as on the platform.
  await Promise.all(oi.flatMap((i) => di.map(async (j) => {
    const c = await run(ctx, req, [at(o[i])], [at(d[j])], mode);
    if (c.status === 200) out[i][j] = { distance_m: c.body.distances_m[0][0], duration_s: c.body.durations_s[0][0] };
    else if (c.body?.error?.code === 'out_of_coverage') out[i][j] = { distance_m: null, duration_s: null };
    else ok(c, 'route_matrix');
  })));
  return out;
}
