// Webhook endpoints of a project, shared by the API (/api/v1/webhooks) and the dashboard.
// An endpoint is live or test (sandbox): events from test keys reach test endpoints only.
import type { Store } from '../store/index.ts';
import { randomBase62 } from '../auth/keys.ts';
import { audit } from '../store/audit.ts';
import { deleteEndpointRow, deliveryRows, endpointCount, endpointRow, endpointRows, insertEndpoint, queueReplay, updateEndpointRow } from '../store/webhooks.ts';
import { InvalidField, LimitReached } from '../core/errors.ts';
import { checkWebhookUrl } from './target.ts';
import { EVENT_TYPES } from './events.ts';
import { newSecret } from './sign.ts';

export const MAX_ENDPOINTS = 20;
export interface Mode { project: string; sandbox: boolean }

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
    if ((await endpointCount(c, m.project)) >= MAX_ENDPOINTS) throw new LimitReached(`A project may have at most ${MAX_ENDPOINTS} webhook endpoints.`);
    const inserted = await insertEndpoint(c, { id, project: m.project, sandbox: m.sandbox, url, secret, events, description: o.description ?? null });
    await audit(c, { project: m.project, actor, action: 'webhook.create', target: id, detail: { url, events, mode: m.sandbox ? 'test' : 'live' }, ip });
    return inserted;
  });
  return endpointJson(row, secret);
}

/** Endpoints of a project; `sandbox` undefined = both modes (the dashboard). */
export async function listEndpoints(store: Store, project: string, sandbox?: boolean) {
  return (await endpointRows(store, { project, sandbox })).map((x) => endpointJson(x));
}

export async function getEndpoint(store: Store, project: string, sandbox: boolean | undefined, id: string) {
  if (!isEndpointId(id)) return null;
  return endpointRow(store, { project, sandbox }, id);
}

export async function updateEndpoint(store: Store, m: { project: string; sandbox?: boolean }, id: string,
  p: { url?: string; events?: unknown; description?: string | null; enabled?: boolean }, actor: string, allowPrivate: boolean, ip?: string) {
  const url = p.url === undefined ? undefined : checkWebhookUrl(p.url, allowPrivate);
  const events = p.events === undefined ? undefined : checkEvents(p.events);
  return store.tx(async (c) => {
    const row = await updateEndpointRow(c, m, id,
      { url: url ?? null, events: events ?? null, setDescription: p.description !== undefined, description: p.description ?? null, enabled: p.enabled ?? null });
    if (!row) return null;
    await audit(c, { project: m.project, actor, action: 'webhook.update', target: id, detail: { url, events, enabled: p.enabled, description: p.description }, ip });
    return endpointJson(row);
  });
}

export async function deleteEndpoint(store: Store, m: { project: string; sandbox?: boolean }, id: string, actor: string, ip?: string): Promise<boolean> {
  if (!isEndpointId(id)) return false;
  return store.tx(async (c) => {
    if (!(await deleteEndpointRow(c, m, id))) return false;
    await audit(c, { project: m.project, actor, action: 'webhook.delete', target: id, ip });
    return true;
  });
}

/** The endpoint's deliveries, newest first, each with its event and every attempt. */
export async function deliveries(store: Store, endpointId: string, limit = 50) {
  return (await deliveryRows(store, endpointId, limit)).map((x) => ({
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
    const queued = await queueReplay(c, endpoint, o);
    await audit(c, { project: endpoint.project_id, actor, action: 'webhook.replay', target: endpoint.id, detail: { event_id: o.event_id, since: o.since?.toISOString(), queued }, ip });
    return queued;
  });
}
