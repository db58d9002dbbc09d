// The outbox. A business write that should be announced calls emitEvent() with the
// transaction it writes in: the event row and one delivery row per subscribed endpoint
// commit (or roll back) with the write itself, so a crash right after the client's 2xx
// loses no event, and a failed write announces nothing. The dispatcher sends them later.
import type pg from 'pg';
import { randomBase62 } from '../auth/keys.ts';

export const EVENT_TYPES = ['trip_outcome.recorded', 'pod.created', 'dispute.opened', 'stop.pin_confirmed', 'address_verification.completed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

type Q = { query: (text: string, values?: unknown[]) => Promise<pg.QueryResult<any>> };

export interface EventOwner { project: string; sandbox: boolean }

/** The JSON body every endpoint receives for an event. */
export function eventPayload(id: string, type: EventType, o: EventOwner, created: Date, data: Record<string, unknown>) {
  return { id, object: 'event', type, created: created.toISOString(), livemode: !o.sandbox, project: o.project, data };
}

/**
 * Queue one event inside the caller's transaction. Returns its id and how many endpoints will
 * receive it. Must run on the same client as the business write (a pooled query would commit apart).
 */
export async function emitEvent(q: Q, o: EventOwner, type: EventType, data: Record<string, unknown>): Promise<{ id: string; deliveries: number }> {
  const id = `evt_${randomBase62(24)}`;
  const payload = eventPayload(id, type, o, new Date(), data);
  // One statement: the event, then a delivery for every enabled endpoint of the same project and
  // mode (test keys reach test endpoints only) that subscribes to the type.
  const r = await q.query(
    `WITH e AS (
       INSERT INTO webhook_events (id, project_id, sandbox, type, payload) VALUES ($1, $2, $3, $4, $5) RETURNING id)
     INSERT INTO webhook_deliveries (event_id, endpoint_id)
     SELECT e.id, w.id FROM e, webhook_endpoints w
     WHERE w.project_id = $2 AND w.sandbox = $3 AND w.enabled AND w.deleted_at IS NULL AND $4 = ANY (w.events)`,
    [id, o.project, o.sandbox, type, JSON.stringify(payload)],
  );
  return { id, deliveries: r.rowCount ?? 0 };
}
