// Sandbox clocks (table sandbox_clocks): how far a project's test-key clock runs ahead of real time.
import type { Db } from './db.ts';

/** The sandbox offset of a project (ms), 0 when its clock was never moved. */
export async function sandboxOffset(q: Db, project: string): Promise<number> {
  const r = await q.query('SELECT offset_ms FROM sandbox_clocks WHERE project_id = $1', [project]);
  return r.rows.length ? Number(r.rows[0].offset_ms) : 0;
}

/** Moves a project's sandbox clock forward by `ms`; returns the new offset. */
export async function advanceSandbox(q: Db, project: string, ms: number): Promise<number> {
  const r = await q.query(
    `INSERT INTO sandbox_clocks (project_id, offset_ms) VALUES ($1, $2)
     ON CONFLICT (project_id) DO UPDATE SET offset_ms = sandbox_clocks.offset_ms + EXCLUDED.offset_ms, updated_at = now()
     RETURNING offset_ms`,
    [project, Math.round(ms)],
  );
  return Number(r.rows[0].offset_ms);
}
