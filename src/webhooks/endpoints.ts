// Webhook endpoints of a project, shared by the API (/api/v1/webhooks) and the dashboard.
// An endpoint is live or test (sandbox): events from test keys reach test endpoints only.
import type { Store } from '../store/index.ts';
import { randomBase62 } from '../auth/keys.ts';
import { audit } from '../store/audit.ts';
import { InvalidField, LimitReached } from '../core/errors.ts';
import { checkWebhookUrl } from './target.ts';
import { EVENT_TYPES } from './events.ts';
import { newSecret } from './sign.ts';

export const MAX_ENDPOINTS = 20;
export interface Mode { project: string; sandbox: boolean }

const COLS = 'id, project_id, sandbox, url, events, description, enabled, created_at, updated_at';
const iso = (d: Date | string | null) => (d instanceof Date ? d.toISOString() : d);

export function endpointJson(r: any, secret?: string) {
  return {
    id: r.id, object: 'webhook_endpoint', mode: r.sandbox ? 'test' : 'live', url: r.url, events: r.events,
    description: r.description, enabled: r.enabled, created_at: iso(r.created_at), updated_at: iso(r.updated_at),
    ...(secret ? { secret } : {}),
  };
}

export function checkEvents(v: unknown): string[] {
  const list = (Array.isArray(v) ? v : [v]).filter((x) => x !== undefined && x !== '').map(String);
  if (!list.length) throw new InvalidField('events', `needs at least one of ${EVENT_TYPES.join(', ')}`);
  const bad = list.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (bad.length) throw new InvalidField('events', `has unknown type '${bad[0]}'; known: ${EVENT_TYPES.join(', ')}`);
  return [...new Set(list)];
}

export const isEndpointId = (s: string) => /^whe_[0-9A-Za-z]{20}$/.test(s);

export async function createEndpoint(store: Store, m: Mode, o: { url: string; events: unknown; description?: string | null }, actor: string, allowPrivate: boolean, ip?: string) {
  const url = checkWebhookUrl(o.url, allowPrivate);
  const events = checkEvents(o.events);
  const secret = newSecret();
  const id = `whe_${randomBase62(20)}`;
  const row = await store.tx(async (c) => {
    const n = await c.query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE project_id = $1 AND deleted_at IS NULL', [m.project]);
    if (n.rows[0].n >= MAX_ENDPOINTS) throw new LimitReached(`A project may have at most ${MAX_ENDPOINTS} webhook endpoints.`);
    const r = await c.query(
      `INSERT INTO webhook_endpoints (id, project_id, sandbox, url, secret, events, description) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLS}`,
      [id, m.project, m.sandbox, url, secret, events, o.description ?? null]);
    await audit(c, { project: m.project, actor, action: 'webhook.create', target: id, detail: { url, events, mode: m.sandbox ? 'test' : 'live' }, ip });
    return r.rows[0];
  });
  return endpointJson(row, secret);
}

/** Endpoints of a project; `sandbox` undefined = both modes (the dashboard). */
export async function listEndpoints(store: Store, project: string, sandbox?: boolean) {
  const r = await store.query(
    `SELECT ${COLS} FROM webhook_endpoints WHERE project_id = $1 AND deleted_at IS NULL ${sandbox === undefined ? '' : 'AND sandbox = $2'} ORDER BY created_at, id`,
    sandbox === undefined ? [project] : [project, sandbox]);
  return r.rows.map((x) => endpointJson(x));
}

export async function getEndpoint(store: Store, project: string, sandbox: boolean | undefined, id: string) {
  if (!isEndpointId(id)) return null;
  const r = await store.query(
    `SELECT ${COLS} FROM webhook_endpoints WHERE project_id = $1 AND id = $2 AND deleted_at IS NULL ${sandbox === undefined ? '' : 'AND sandbox = $3'}`,
    sandbox === undefined ? [project, id] : [project, id, sandbox]);
  return r.rows[0] ?? null;
}

export async function updateEndpoint(store: Store, m: { project: string; sandbox?: boolean }, id: string,
  p: { url?: string; events?: unknown; description?: string | null; enabled?: boolean }, actor: string, allowPrivate: boolean, ip?: string) {
  const url = p.url === undefined ? undefined : checkWebhookUrl(p.url, allowPrivate);
  const events = p.events === undefined ? undefined : checkEvents(p.events);
  return store.tx(async (c) => {
    const r = await c.query(
      `UPDATE webhook_endpoints SET url = coalesce($3, url), events = coalesce($4, events),
         description = CASE WHEN $5::boolean THEN $6 ELSE description END, enabled = coalesce($7, enabled), updated_at = now()
       WHERE project_id = $1 AND id = $2 AND deleted_at IS NULL ${m.sandbox === undefined ? '' : 'AND sandbox = $8'} RETURNING ${COLS}`,
      [m.project, id, url ?? null, events ?? null, p.description !== undefined, p.description ?? null, p.enabled ?? null, ...(m.sandbox === undefined ? [] : [m.sandbox])]);
    if (!r.rows[0]) return null;
    await audit(c, { project: m.project, actor, action: 'webhook.update', target: id, detail: { url, events, enabled: p.enabled, description: p.description }, ip });
    return endpointJson(r.rows[0]);
  });
}

export async function deleteEndpoint(store: Store, m: { project: string; sandbox?: boolean }, id: string, actor: string, ip?: string): Promise<boolean> {
  if (!isEndpointId(id)) return false;
  return store.tx(async (c) => {
    const r = await c.query(
      `UPDATE webhook_endpoints SET deleted_at = now(), enabled = false, updated_at = now()
       WHERE project_id = $1 AND id = $2 AND deleted_at IS NULL ${m.sandbox === undefined ? '' : 'AND sandbox = $3'}`,
      m.sandbox === undefined ? [m.project, id] : [m.project, id, m.sandbox]);
    if (!r.rowCount) return false;
    await audit(c, { project: m.project, actor, action: 'webhook.delete', target: id, ip });
    return true;
  });
}

/** The endpoint's deliveries, newest first, each with its event and every attempt. */
export async function deliveries(store: Store, endpointId: string, limit = 50) {
  const r = await store.query(
    `SELECT d.id::text AS id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.last_status, d.last_error, d.replay,
            d.created_at, d.delivered_at,
            coalesce((SELECT json_agg(json_build_object('attempt', a.attempt, 'at', a.at, 'status', a.status_code, 'error', a.error,
                       'duration_ms', a.duration_ms) ORDER BY a.attempt) FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS log
     FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
     WHERE d.endpoint_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
    [endpointId, limit]);
  return r.rows.map((x) => ({
    id: x.id, event_id: x.event_id, type: x.type, status: x.status, attempts: x.attempts, replay: x.replay,
    next_attempt_at: x.status === 'pending' ? iso(x.next_attempt_at) : null, last_status: x.last_status, last_error: x.last_error,
    created_at: iso(x.created_at), delivered_at: iso(x.delivered_at), attempt_log: x.log,
  }));
}

/**
 * Queue an event again for one endpoint: one event by id, or every event of the endpoint's
 * project and mode since a time (at most 1000). The event keeps its id; receivers deduplicate.
 */
export async function replay(store: Store, endpoint: { id: string; project_id: string; sandbox: boolean; events: string[] },
  o: { event_id?: string; since?: Date }, actor: string, ip?: string): Promise<number> {
  return store.tx(async (c) => {
    const r = await c.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, replay)
       SELECT id, $1, true FROM webhook_events
       WHERE project_id = $2 AND sandbox = $3 AND ($4::text IS NULL OR id = $4) AND ($5::timestamptz IS NULL OR created_at >= $5)
         AND ($4::text IS NOT NULL OR type = ANY ($6))
       ORDER BY created_at LIMIT 1000`,
      [endpoint.id, endpoint.project_id, endpoint.sandbox, o.event_id ?? null, o.since ?? null, endpoint.events]);
    await audit(c, { project: endpoint.project_id, actor, action: 'webhook.replay', target: endpoint.id, detail: { event_id: o.event_id, since: o.since?.toISOString(), queued: r.rowCount }, ip });
    return r.rowCount ?? 0;
  });
}
