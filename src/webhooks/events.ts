// The outbox. A business write that should be announced calls emitEvent() with the
// transaction it writes in: the event row and one delivery row per subscribed endpoint
// commit (or roll back) with the write itself, so a crash right after the client's 2xx
// loses no event, and a failed write announces nothing. The dispatcher sends them later.
import type { Db } from '../store/db.ts';
import { insertEvent } from '../store/webhooks.ts';
import { randomBase62 } from '../auth/keys.ts';

export const EVENT_TYPES = ['trip_outcome.recorded', 'pod.created', 'dispute.opened', 'stop.pin_confirmed', 'address_verification.completed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventOwner { project: string; sandbox: boolean }

/** The JSON body every endpoint receives for an event. */
export function eventPayload(id: string, type: EventType, o: EventOwner, created: Date, data: Record<string, unknown>) {
  return { id, object: 'event', type, created: created.toISOString(), livemode: !o.sandbox, project: o.project, data };
}

/**
 * Queue one event inside the caller's transaction. Returns its id and how many endpoints will
 * receive it. Must run on the same client as the business write (a pooled query would commit apart).
 */
export async function emitEvent(q: Db, o: EventOwner, type: EventType, data: Record<string, unknown>): Promise<{ id: string; deliveries: number }> {
  const id = `evt_${randomBase62(24)}`;
  const payload = eventPayload(id, type, o, new Date(), data);
  const deliveries = await insertEvent(q, { id, project: o.project, sandbox: o.sandbox, type, payload: JSON.stringify(payload) });
  return { id, deliveries };
}
