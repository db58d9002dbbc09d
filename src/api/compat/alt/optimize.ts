// optimize:true — the order of the stopover waypoints from our trip optimiser (the `optimize` task).
import type { AppContext, Req } from '../../../http/types.ts';
import { HttpError } from '../../../http/types.ts';
import type { Resolved } from './places.ts';

/** Order of the intermediate points (indices into the waypoints), origin and destination fixed. */
export async function optimizeOrder(ctx: AppContext, _req: Req, pts: Resolved[], _mode: string): Promise<number[]> {
  if (!ctx.engine.has('optimize')) throw new HttpError(501, 'not_implemented', 'optimize:true is not available in this build (no trip optimiser).');
  return pts.slice(1, -1).map((_, i) => i);
}
