// Outgoing webhooks (tables webhook_endpoints, webhook_events, webhook_deliveries,
// webhook_attempts): the endpoints of a project, the outbox of events with one delivery per
// subscribed endpoint, and the dispatcher's claims and attempts.
import type { Db } from './db.ts';

const COLS = 'id, project_id, sandbox, url, events, description, enabled, created_at, updated_at';

/** Whose endpoints: a project, in one mode (sandbox) or, when sandbox is undefined, both (the dashboard). */
export interface EndpointScope { project: string; sandbox?: boolean }

export async function endpointCount(q: Db, project: string): Promise<number> {
  const n = await q.query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE project_id = $1 AND deleted_at IS NULL', [project]);
  return n.rows[0].n;
}

export async function insertEndpoint(q: Db, e: { id: string; project: string; sandbox: boolean; url: string; secret: string; events: string[]; description: string | null }): Promise<any> {
  const r = await q.query(
    `INSERT INTO webhook_endpoints (id, project_id, sandbox, url, secret, events, description) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLS}`,
    [e.id, e.project, e.sandbox, e.url, e.secret, e.events, e.description]);
  return r.rows[0];
}

/** Live endpoints, oldest first. */
export async function endpointRows(q: Db, s: EndpointScope): Promise<any[]> {
  const r = await q.query(
    `SELECT ${COLS} FROM webhook_endpoints WHERE project_id = $1 AND deleted_at IS NULL ${s.sandbox === undefined ? '' : 'AND sandbox = $2'} ORDER BY created_at, id`,
    s.sandbox === undefined ? [s.project] : [s.project, s.sandbox]);
  return r.rows;
}

export async function endpointRow(q: Db, s: EndpointScope, id: string): Promise<any | null> {
  const r = await q.query(
    `SELECT ${COLS} FROM webhook_endpoints WHERE project_id = $1 AND id = $2 AND deleted_at IS NULL ${s.sandbox === undefined ? '' : 'AND sandbox = $3'}`,
    s.sandbox === undefined ? [s.project, id] : [s.project, id, s.sandbox]);
  return r.rows[0] ?? null;
}

/** Changes the fields given (description: set when `setDescription`, even to null); the row, or undefined. */
export async function updateEndpointRow(q: Db, s: EndpointScope, id: string,
  p: { url: string | null; events: string[] | null; setDescription: boolean; description: string | null; enabled: boolean | null }): Promise<any | undefined> {
  const r = await q.query(
    `UPDATE webhook_endpoints SET url = coalesce($3, url), events = coalesce($4, events),
       description = CASE WHEN $5::boolean THEN $6 ELSE description END, enabled = coalesce($7, enabled), updated_at = now()
     WHERE project_id = $1 AND id = $2 AND deleted_at IS NULL ${s.sandbox === undefined ? '' : 'AND sandbox = $8'} RETURNING ${COLS}`,
    [s.project, id, p.url, p.events, p.setDescription, p.description, p.enabled, ...(s.sandbox === undefined ? [] : [s.sandbox])]);
  return r.rows[0];
}

/** Marks an endpoint deleted (and disabled); false when there was none. */
export async function deleteEndpointRow(q: Db, s: EndpointScope, id: string): Promise<boolean> {
  const r = await q.query(
    `UPDATE webhook_endpoints SET deleted_at = now(), enabled = false, updated_at = now()
     WHERE project_id = $1 AND id = $2 AND deleted_at IS NULL ${s.sandbox === undefined ? '' : 'AND sandbox = $3'}`,
    s.sandbox === undefined ? [s.project, id] : [s.project, id, s.sandbox]);
  return !!r.rowCount;
}

/** An endpoint's deliveries, newest first, each with its event type and its attempts (`log`). */
export async function deliveryRows(q: Db, endpointId: string, limit: number): Promise<any[]> {
  const r = await q.query(
    `SELECT d.id::text AS id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.last_status, d.last_error, d.replay,
            d.created_at, d.delivered_at,
            coalesce((SELECT json_agg(json_build_object('attempt', a.attempt, 'at', a.at, 'status', a.status_code, 'error', a.error,
                       'duration_ms', a.duration_ms) ORDER BY a.attempt) FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS log
     FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
     WHERE d.endpoint_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
    [endpointId, limit]);
  return r.rows;
}

/**
 * Queues again for one endpoint one event by id, or every event of its project and mode of the
 * types it subscribes to since a time (at most 1000); how many were queued.
 */
export async function queueReplay(q: Db, endpoint: { id: string; project_id: string; sandbox: boolean; events: string[] }, o: { event_id?: string; since?: Date }): Promise<number> {
  const r = await q.query(
    `INSERT INTO webhook_deliveries (event_id, endpoint_id, replay)
     SELECT id, $1, true FROM webhook_events
     WHERE project_id = $2 AND sandbox = $3 AND ($4::text IS NULL OR id = $4) AND ($5::timestamptz IS NULL OR created_at >= $5)
       AND ($4::text IS NOT NULL OR type = ANY ($6))
     ORDER BY created_at LIMIT 1000`,
    [endpoint.id, endpoint.project_id, endpoint.sandbox, o.event_id ?? null, o.since ?? null, endpoint.events]);
  return r.rowCount ?? 0;
}

/**
 * One statement: the event, then a delivery for every enabled endpoint of the same project and
 * mode (test keys reach test endpoints only) that subscribes to the type. How many deliveries.
 */
export async function insertEvent(q: Db, e: { id: string; project: string; sandbox: boolean; type: string; payload: string }): Promise<number> {
  const r = await q.query(
    `WITH e AS (
       INSERT INTO webhook_events (id, project_id, sandbox, type, payload) VALUES ($1, $2, $3, $4, $5) RETURNING id)
     INSERT INTO webhook_deliveries (event_id, endpoint_id)
     SELECT e.id, w.id FROM e, webhook_endpoints w
     WHERE w.project_id = $2 AND w.sandbox = $3 AND w.enabled AND w.deleted_at IS NULL AND $4 = ANY (w.events)`,
    [e.id, e.project, e.sandbox, e.type, e.payload],
  );
  return r.rowCount ?? 0;
}

/** Milliseconds until the earliest pending delivery not leased is due (negative: overdue), or null. */
export async function nextDueMs(q: Db): Promise<number | null> {
  const r = await q.query(
    `SELECT extract(epoch FROM (min(next_attempt_at) - now())) * 1000 AS ms FROM webhook_deliveries WHERE status = 'pending' AND lease_until IS NULL`);
  const ms = r.rows[0]?.ms;
  return ms === null || ms === undefined ? null : Number(ms);
}

/** A leased delivery with what sending it needs. */
export interface ClaimedRow {
  id: string; attempts: number; event_id: string; type: string; body: string; url: string; secret: string; live: boolean; active: boolean;
}

/** Leases up to `limit` due deliveries for `lease` (an interval) and counts the attempt; several dispatchers skip each other's rows. */
export async function claimDeliveries(q: Db, lease: string, limit: number): Promise<ClaimedRow[]> {
  const r = await q.query(
    `UPDATE webhook_deliveries d SET lease_until = now() + $1::interval, attempts = d.attempts + 1
     FROM (SELECT id FROM webhook_deliveries
           WHERE status = 'pending' AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
           ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED) s,
          webhook_events e, webhook_endpoints w
     WHERE d.id = s.id AND e.id = d.event_id AND w.id = d.endpoint_id
     RETURNING d.id::text AS id, d.attempts, e.id AS event_id, e.type, e.payload AS body, w.url, w.secret,
               NOT e.sandbox AS live, (w.enabled AND w.deleted_at IS NULL) AS active`,
    [lease, limit],
  );
  return r.rows;
}

/**
 * Records an attempt and settles its delivery: delivered, failed for good, or pending again in
 * `retryS` seconds; releases the lease. Run inside a transaction.
 */
export async function settleDelivery(q: Db, d: { id: string; attempt: number }, a: { status: number | null; error: string | null; ms: number; response: string | null },
  outcome: { delivered: boolean; failed: boolean; retryS: number }): Promise<void> {
  await q.query(
    `INSERT INTO webhook_attempts (delivery_id, attempt, status_code, error, duration_ms, response) VALUES ($1, $2, $3, $4, $5, $6)`,
    [d.id, d.attempt, a.status, a.error, Math.round(a.ms), a.response],
  );
  await q.query(
    `UPDATE webhook_deliveries SET lease_until = NULL, last_status = $2::int, last_error = $3::text,
       status = CASE WHEN $4::boolean THEN 'delivered' WHEN $5::boolean THEN 'failed' ELSE 'pending' END,
       delivered_at = CASE WHEN $4::boolean THEN now() ELSE NULL END,
       next_attempt_at = CASE WHEN $4::boolean OR $5::boolean THEN next_attempt_at ELSE now() + make_interval(secs => $6::float8) END
     WHERE id = $1`,
    [d.id, a.status, a.error, outcome.delivered, outcome.failed, outcome.retryS],
  );
}
