// Trip links (table trip_links): signed, expiring links that show one device's position,
// revoked by their owner or by the proof of delivery of the stop they were made for.
import type { Db, Tenant } from './db.ts';

const COLS = 'id, project_id, sandbox, key_id, plan, device, stop_id, label, created_at, expires_at, revoked_at, revoked_reason';
export interface TripLinkRow {
  id: string; project_id: string; sandbox: boolean; key_id: string; plan: string; device: string; stop_id: string | null; label: string | null;
  created_at: Date; expires_at: Date; revoked_at: Date | null; revoked_reason: string | null;
}

export interface NewTripLink { id: string; keyId: string; plan: string; device: string; stopId: string | null; label: string | null; expiresAt: Date }

export async function insertTripLink(q: Db, o: Tenant, l: NewTripLink): Promise<TripLinkRow> {
  const r = await q.query(
    `INSERT INTO trip_links (id, project_id, sandbox, key_id, plan, device, stop_id, label, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLS}`,
    [l.id, o.project, o.sandbox, l.keyId, l.plan, l.device, l.stopId, l.label, l.expiresAt],
  );
  return r.rows[0];
}

/** A link by id alone (its token names it; the row says whose it is). */
export async function tripLinkById(q: Db, id: string): Promise<TripLinkRow | undefined> {
  const r = await q.query(`SELECT ${COLS} FROM trip_links WHERE id = $1`, [id]);
  return r.rows[0];
}

/** A link of this project by id. */
export async function ownTripLink(q: Db, o: Tenant, id: string): Promise<TripLinkRow | undefined> {
  const r = await q.query(`SELECT ${COLS} FROM trip_links WHERE project_id = $1 AND sandbox = $2 AND id = $3`, [o.project, o.sandbox, id]);
  return r.rows[0];
}

/** Revokes a link of this project (a link already ended keeps its time and reason); the row, or undefined. */
export async function revokeTripLink(q: Db, o: Tenant, id: string): Promise<TripLinkRow | undefined> {
  const r = await q.query(
    `UPDATE trip_links SET revoked_at = COALESCE(revoked_at, now()), revoked_reason = COALESCE(revoked_reason, 'revoked')
     WHERE project_id = $1 AND sandbox = $2 AND id = $3 RETURNING ${COLS}`,
    [o.project, o.sandbox, id],
  );
  return r.rows[0];
}

/** Ends the live links made for a stop; how many. */
export async function endTripLinksOfStop(q: Db, o: Tenant, stopId: string, reason: string): Promise<number> {
  const r = await q.query(
    `UPDATE trip_links SET revoked_at = now(), revoked_reason = $4 WHERE project_id = $1 AND sandbox = $2 AND stop_id = $3 AND revoked_at IS NULL`,
    [o.project, o.sandbox, stopId, reason],
  );
  return r.rowCount ?? 0;
}
