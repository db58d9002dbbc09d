// Trip outcomes reported by delivery partners (table trip_outcomes): one row per trip, the last report wins.
import type { Db, Tenant } from './db.ts';

export interface TripOutcome { slug: string; tripId: string; outcome: string; pins: unknown; hints: unknown }

export async function upsertTripOutcome(q: Db, o: Tenant, t: TripOutcome): Promise<void> {
  await q.query(
    `INSERT INTO trip_outcomes (project_id, sandbox, slug, trip_id, outcome, pins, hints)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (project_id, sandbox, slug, trip_id) DO UPDATE
       SET outcome = EXCLUDED.outcome, pins = EXCLUDED.pins, hints = EXCLUDED.hints, received_at = now()`,
    [o.project, o.sandbox, t.slug, t.tripId, t.outcome, JSON.stringify(t.pins), JSON.stringify(t.hints)],
  );
}
