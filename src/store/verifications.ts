// Address verifications (tables address_verifications and address_verification_visits): the
// rows, their pages, the outcome written only while a row is still pending, and the agent visits.
import type { Db, Tenant } from './db.ts';

export const AVR_COLS = `id, sandbox, product, subject_id, device, external_ref, address, components, country, pin_lat, pin_lng, resolution,
  timezone, radius_m, min_nights, window_start, window_end, consent_at, status, reason, evidence, confidence, completed_at, created_at, updated_at`;
const VISIT_COLS = 'seq, photo_url, lat, lng, accuracy_m, visited_at, agent, notes, distance_m, accepted, created_at';

/**
 * Pending verifications that may have moved (row alias v): window over (on the key's clock: the
 * sandbox offset for test rows), or, for digital ones, pings received since their last evaluation.
 */
const DUE = `v.status = 'pending' AND (
  v.window_end <= now() + coalesce((SELECT c.offset_ms FROM sandbox_clocks c WHERE v.sandbox AND c.project_id = v.project_id), 0) * interval '1 millisecond'
  OR (v.product = 'digital' AND EXISTS (SELECT 1 FROM devices d WHERE d.project_id = v.project_id AND d.sandbox = v.sandbox AND d.device = v.device AND d.last_received_at > v.evaluated_at)))`;

export interface NewVerification {
  id: string; product: string; subject: string | null; device: string | null; externalRef: string | null;
  address: string | null; components: unknown; country: string | null; lat: number; lng: number; resolution: unknown;
  timezone: string; radius: number; minNights: number; start: Date; end: Date;
}

/** Inserts a verification ordered at `start` (consent and creation time too); returns its row. */
export async function insertVerification(q: Db, o: Tenant, v: NewVerification): Promise<any> {
  const r = await q.query(
    `INSERT INTO address_verifications (project_id, sandbox, id, product, subject_id, device, external_ref, address, components, country,
       pin_lat, pin_lng, resolution, timezone, radius_m, min_nights, window_start, window_end, consent_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $17, $17) RETURNING ${AVR_COLS}`,
    [o.project, o.sandbox, v.id, v.product, v.subject, v.device, v.externalRef, v.address,
      v.components === undefined ? null : JSON.stringify(v.components), v.country, v.lat, v.lng,
      v.resolution === null ? null : JSON.stringify(v.resolution), v.timezone, v.radius, v.minNights, v.start, v.end],
  );
  return r.rows[0];
}

export async function verificationById(q: Db, o: Tenant, id: string, forUpdate = false): Promise<any | null> {
  const r = await q.query(`SELECT ${AVR_COLS} FROM address_verifications WHERE project_id = $1 AND sandbox = $2 AND id = $3${forUpdate ? ' FOR UPDATE' : ''}`, [o.project, o.sandbox, id]);
  return r.rows[0] ?? null;
}

export async function visitsOf(q: Db, o: Tenant, id: string): Promise<any[]> {
  const r = await q.query(
    `SELECT ${VISIT_COLS} FROM address_verification_visits
     WHERE project_id = $1 AND sandbox = $2 AND verification_id = $3 ORDER BY seq`, [o.project, o.sandbox, id]);
  return r.rows;
}

export interface OutcomeRow { status: string; reason: string | null; evidence: unknown; confidence: number | null; completed_at: Date | null }

/** Writes an outcome if the row is still pending; the row as written, or undefined when it was not pending. */
export async function setOutcome(q: Db, o: Tenant, id: string, out: OutcomeRow, evaluatedAt: Date): Promise<any | undefined> {
  const u = await q.query(
    `UPDATE address_verifications SET status = $4, reason = $5, evidence = $6, confidence = $7, completed_at = $8, evaluated_at = $9, updated_at = now()
     WHERE project_id = $1 AND sandbox = $2 AND id = $3 AND status = 'pending' RETURNING ${AVR_COLS}`,
    [o.project, o.sandbox, id, out.status, out.reason, JSON.stringify(out.evidence), out.confidence, out.completed_at, evaluatedAt],
  );
  return u.rows[0];
}

export interface NewVisit {
  photoUrl: string | null; lat: number; lng: number; accuracy: number | null; visitedAt: Date;
  agent: string | null; notes: string | null; distance: number; accepted: boolean;
}

/** Appends an agent visit (the next seq of its verification). */
export async function insertVisit(q: Db, o: Tenant, id: string, v: NewVisit): Promise<void> {
  await q.query(
    `INSERT INTO address_verification_visits (project_id, sandbox, verification_id, seq, photo_url, lat, lng, accuracy_m, visited_at, agent, notes, distance_m, accepted)
     SELECT $1, $2, $3, coalesce(max(seq), 0) + 1, $4, $5, $6, $7, $8, $9, $10, $11, $12
     FROM address_verification_visits WHERE project_id = $1 AND sandbox = $2 AND verification_id = $3`,
    [o.project, o.sandbox, id, v.photoUrl, v.lat, v.lng, v.accuracy, v.visitedAt, v.agent, v.notes, v.distance, v.accepted],
  );
}

/** A page's worth of a project's due verifications after the cursor (created_at, id), optionally of one subject. */
export async function duePage(q: Db, o: Tenant, after: [string, string] | null, limit: number, subject: string | null): Promise<any[]> {
  const r = await q.query(
    `SELECT ${AVR_COLS} FROM address_verifications v WHERE project_id = $1 AND sandbox = $2 AND ${DUE}
       AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4)) AND ($6::text IS NULL OR subject_id = $6)
     ORDER BY created_at, id LIMIT $5`,
    [o.project, o.sandbox, after?.[0] ?? null, after?.[1] ?? '', limit, subject],
  );
  return r.rows;
}

/** A page of a project's verifications oldest first after the cursor, with `at` (created_at as text) for the next cursor. */
export async function verificationsPage(q: Db, o: Tenant, after: [string, string] | null, limit: number, status: string | null, subject: string | null): Promise<any[]> {
  const r = await q.query(
    `SELECT ${AVR_COLS}, created_at::text AS at FROM address_verifications
     WHERE project_id = $1 AND sandbox = $2 AND ($3::timestamptz IS NULL OR (created_at, id) > ($3::timestamptz, $4))
       AND ($6::text IS NULL OR status = $6) AND ($7::text IS NULL OR subject_id = $7)
     ORDER BY created_at, id LIMIT $5`,
    [o.project, o.sandbox, after?.[0] ?? null, after?.[1] ?? '', limit, status, subject],
  );
  return r.rows;
}

/** Up to `batch` due verifications of every project (or of one), earliest window end first, with project_id. */
export async function dueAcross(q: Db, batch: number, only?: Tenant): Promise<any[]> {
  const r = await q.query(
    `SELECT project_id, sandbox, ${AVR_COLS.replace('id, sandbox, ', '')}, id FROM address_verifications v
     WHERE ${DUE} ${only ? 'AND v.project_id = $2 AND v.sandbox = $3' : ''} ORDER BY v.window_end LIMIT $1`,
    only ? [batch, only.project, only.sandbox] : [batch],
  );
  return r.rows;
}

/** Deletes a verification; its device (null for field ones), or undefined when there was none. */
export async function deleteVerification(q: Db, o: Tenant, id: string): Promise<{ device: string | null } | undefined> {
  const d = await q.query('DELETE FROM address_verifications WHERE project_id = $1 AND sandbox = $2 AND id = $3 RETURNING device', [o.project, o.sandbox, id]);
  return d.rows[0];
}
