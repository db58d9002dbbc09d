// Stops and their pin confirmations (tables stops, stop_confirmations).
import type { Db, Tenant } from './db.ts';

export const STOP_COLS = `id, external_ref, address, country_code, delivery_code, created_lat, created_lng,
  pin_confirmed, pin_lat, pin_lng, pin_accuracy_m, pin_confirmed_at, pin_confirmed_by, created_at, updated_at`;

/** A stop by id; `forUpdate` locks the row (inside a transaction). */
export async function stopById(q: Db, o: Tenant, id: string, forUpdate = false): Promise<any | null> {
  const r = await q.query(`SELECT ${STOP_COLS} FROM stops WHERE project_id = $1 AND sandbox = $2 AND id = $3${forUpdate ? ' FOR UPDATE' : ''}`, [o.project, o.sandbox, id]);
  return r.rows[0] ?? null;
}

/** A stop by the caller's reference, locked (inside a transaction). */
export async function stopByRefForUpdate(q: Db, o: Tenant, externalRef: string): Promise<any | undefined> {
  const r = await q.query(`SELECT ${STOP_COLS} FROM stops WHERE project_id = $1 AND sandbox = $2 AND external_ref = $3 FOR UPDATE`, [o.project, o.sandbox, externalRef]);
  return r.rows[0];
}

/** The id of the stop holding a caller's reference, if any. */
export async function stopIdByRef(q: Db, o: Tenant, externalRef: string | undefined): Promise<string | undefined> {
  const ex = await q.query('SELECT id FROM stops WHERE project_id = $1 AND sandbox = $2 AND external_ref = $3', [o.project, o.sandbox, externalRef]);
  return ex.rows[0]?.id;
}

/** Stop by delivery code (already canonical). */
export async function stopByCode(q: Db, o: Tenant, code: string): Promise<any | null> {
  const r = await q.query(`SELECT ${STOP_COLS} FROM stops WHERE project_id = $1 AND sandbox = $2 AND delivery_code = $3`, [o.project, o.sandbox, code]);
  return r.rows[0] ?? null;
}

/** The confirmations of a stop, oldest first. */
export async function pinHistory(q: Db, o: Tenant, id: string): Promise<any[]> {
  const r = await q.query(
    `SELECT seq, lat, lng, accuracy_m, confirmed_by, confirmed_at, recorded_at FROM stop_confirmations
     WHERE project_id = $1 AND sandbox = $2 AND stop_id = $3 ORDER BY seq`,
    [o.project, o.sandbox, id],
  );
  return r.rows;
}

export interface NewStop {
  id: string; externalRef: string | null; address: string | null; country: string | null; code: string; lat: number; lng: number;
}

/** Inserts a stop; a duplicate code or reference fails with PostgreSQL's 23505 (the caller retries or answers 409). */
export async function insertStop(q: Db, o: Tenant, s: NewStop): Promise<any> {
  const r = await q.query(
    `INSERT INTO stops (project_id, sandbox, id, external_ref, address, country_code, delivery_code, created_lat, created_lng)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${STOP_COLS}`,
    [o.project, o.sandbox, s.id, s.externalRef, s.address, s.country, s.code, s.lat, s.lng],
  );
  return r.rows[0];
}

export interface PinConfirmation { lat: number; lng: number; accuracy: number | null; by: string | null; at: Date | null }

/**
 * Records a confirmation (the next seq of the stop) and makes it the stop's pin; returns the
 * updated stop. Run inside a transaction holding the stop's row lock, so seq never collides.
 */
export async function confirmPin(q: Db, o: Tenant, stopId: string, p: PinConfirmation): Promise<any> {
  await q.query(
    `INSERT INTO stop_confirmations (project_id, sandbox, stop_id, seq, lat, lng, accuracy_m, confirmed_by, confirmed_at)
     SELECT $1, $2, $3, coalesce(max(seq), 0) + 1, $4, $5, $6, $7, coalesce($8::timestamptz, now())
     FROM stop_confirmations WHERE project_id = $1 AND sandbox = $2 AND stop_id = $3`,
    [o.project, o.sandbox, stopId, p.lat, p.lng, p.accuracy, p.by, p.at],
  );
  const u = await q.query(
    `UPDATE stops SET pin_confirmed = true, pin_lat = $4, pin_lng = $5, pin_accuracy_m = $6, pin_confirmed_by = $7,
       pin_confirmed_at = coalesce($8::timestamptz, now()), updated_at = now()
     WHERE project_id = $1 AND sandbox = $2 AND id = $3 RETURNING ${STOP_COLS}`,
    [o.project, o.sandbox, stopId, p.lat, p.lng, p.accuracy, p.by, p.at],
  );
  return u.rows[0];
}
