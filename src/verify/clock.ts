// Time as a key sees it. Live keys: the real clock, always. Test keys: the real clock plus
// their project's sandbox offset, which only moves forward (POST /api/v1/sandbox/clock), so a
// 14-day verification window can be played through in seconds without touching live rows.
import type { Db, Tenant } from '../store/db.ts';
import { sandboxOffset } from '../store/sandbox-clocks.ts';

/** "Now" for this owner in epoch ms. */
export async function nowFor(q: Db, o: Tenant): Promise<number> {
  return o.sandbox ? Date.now() + (await sandboxOffset(q, o.project)) : Date.now();
}
