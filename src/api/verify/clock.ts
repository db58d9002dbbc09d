// Time as a key sees it. Live keys: the real clock, always. Test keys: the real clock plus
// their project's sandbox offset, which only moves forward (POST /api/v1/sandbox/clock), so a
// 14-day verification window can be played through in seconds without touching live rows.
import type { Owner } from '../logistics/owner.ts';

type Q = { query: (text: string, values?: unknown[]) => Promise<{ rows: any[] }> };

/** The sandbox offset of a project (ms), 0 when its clock was never moved. */
export async function sandboxOffset(q: Q, project: string): Promise<number> {
  const r = await q.query('SELECT offset_ms FROM sandbox_clocks WHERE project_id = $1', [project]);
  return r.rows.length ? Number(r.rows[0].offset_ms) : 0;
}

/** "Now" for this owner in epoch ms. */
export async function nowFor(q: Q, o: Owner): Promise<number> {
  return o.sandbox ? Date.now() + (await sandboxOffset(q, o.project)) : Date.now();
}

/** Moves a project's sandbox clock forward by `ms`; returns the new offset. */
export async function advanceSandbox(q: Q, project: string, ms: number): Promise<number> {
  const r = await q.query(
    `INSERT INTO sandbox_clocks (project_id, offset_ms) VALUES ($1, $2)
     ON CONFLICT (project_id) DO UPDATE SET offset_ms = sandbox_clocks.offset_ms + EXCLUDED.offset_ms, updated_at = now()
     RETURNING offset_ms`,
    [project, Math.round(ms)],
  );
  return Number(r.rows[0].offset_ms);
}
