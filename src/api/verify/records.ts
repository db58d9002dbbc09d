// Address verifications in the database: their JSON, and the evaluation that moves a pending one
// to verified, failed or expired. Evaluation is idempotent — it recomputes the evidence from the
// stored pings and changes the row only while it is still pending (`WHERE status = 'pending'`), so
// the sweep, a read and a clock move may all run it, on any server, and only the first to see an
// outcome records it and queues its webhook (in the same transaction).
import type pg from 'pg';
import { HttpError } from '../../http/types.ts';
import type { Store } from '../../store/index.ts';
import type { Owner } from '../logistics/owner.ts';
import { isId } from '../logistics/ids.ts';
import { emitEvent } from '../../webhooks/events.ts';
import { evaluateDwell, type Fix } from './dwell.ts';
import { nowFor } from './clock.ts';

type Q = { query: (text: string, values?: unknown[]) => Promise<pg.QueryResult<any>> };

/** Pings one evaluation reads at most: 14 days of one fix a minute is 20,160. */
export const MAX_EVAL_PINGS = 100_000;

export const AVR_COLS = `id, sandbox, product, subject_id, device, external_ref, address, components, country, pin_lat, pin_lng, resolution,
  timezone, radius_m, min_nights, window_start, window_end, consent_at, status, reason, evidence, confidence, completed_at, created_at, updated_at`;

const iso = (d: Date | string | null) => (d === null ? null : d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const DAY = 86_400_000;

/** Why a verification left pending, in words (the code is `reason`). */
export const REASONS: Record<string, string> = {
  enough_nights: 'The device dwelt at the pin on enough distinct nights.',
  not_enough_nights: 'Pings arrived in the window, but not enough nights were spent at the pin.',
  no_pings: 'No ping from the device arrived in the window: nothing is concluded.',
  agent_at_pin: 'The agent visit was within the radius of the pin.',
  visit_far_from_pin: 'The agent visit was farther from the pin than the radius.',
  visit_fix_imprecise: "The agent visit's GPS fix was too imprecise to place it at the pin.",
  no_visit: 'No agent visit was submitted within the window.',
  cancelled_by_caller: 'Cancelled through the API.',
};

export function verificationJson(r: any, o: { trail: boolean; visits?: any[] }) {
  const windowDays = Math.round((new Date(r.window_end).getTime() - new Date(r.window_start).getTime()) / DAY);
  const out: Record<string, unknown> = {
    id: r.id,
    object: 'address_verification',
    livemode: !r.sandbox,
    product: r.product,
    status: r.status,
    reason: r.reason,
    reason_message: r.reason ? REASONS[r.reason] ?? null : null,
    subject_id: r.subject_id,
    device: r.device,
    external_ref: r.external_ref,
    address: { text: r.address, components: r.components, country: r.country, resolution: r.resolution },
    pin: { lat: r.pin_lat, lng: r.pin_lng },
    parameters: {
      window_days: windowDays, radius_m: r.radius_m, timezone: r.timezone,
      ...(r.product === 'digital' ? { min_nights: r.min_nights } : {}),
    },
    window: { start: iso(r.window_start), end: iso(r.window_end) },
    consent: { given: true, at: iso(r.consent_at) },
    evidence: r.evidence,
    confidence: r.confidence,
    completed_at: iso(r.completed_at),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
  if (o.visits) out.visits = o.visits.map(visitJson);
  // The raw trail stays behind the tracking scope: a key holding it gets where to read it.
  if (o.trail && r.product === 'digital' && r.device) {
    const until = r.completed_at && new Date(r.completed_at) < new Date(r.window_end) ? r.completed_at : r.window_end;
    out.trail_url = `/api/v1/track/${encodeURIComponent(r.device)}?trail=1&since=${encodeURIComponent(iso(r.window_start)!)}&until=${encodeURIComponent(iso(until)!)}`;
  }
  return out;
}

export const visitJson = (v: any) => ({
  seq: v.seq, photo_url: v.photo_url, lat: v.lat, lng: v.lng, accuracy_m: v.accuracy_m, visited_at: iso(v.visited_at),
  agent: v.agent, notes: v.notes, distance_m: v.distance_m, accepted: v.accepted, created_at: iso(v.created_at),
});

export async function loadVerification(q: Q, o: Owner, id: string, forUpdate = false): Promise<any | null> {
  if (!isId('avr', id)) return null;
  const r = await q.query(`SELECT ${AVR_COLS} FROM address_verifications WHERE project_id = $1 AND sandbox = $2 AND id = $3${forUpdate ? ' FOR UPDATE' : ''}`, [o.project, o.sandbox, id]);
  return r.rows[0] ?? null;
}

export async function loadVisits(q: Q, o: Owner, id: string): Promise<any[]> {
  const r = await q.query(
    `SELECT seq, photo_url, lat, lng, accuracy_m, visited_at, agent, notes, distance_m, accepted, created_at FROM address_verification_visits
     WHERE project_id = $1 AND sandbox = $2 AND verification_id = $3 ORDER BY seq`, [o.project, o.sandbox, id]);
  return r.rows;
}

export interface Outcome { status: string; reason: string | null; evidence: unknown; confidence: number | null; completed_at: Date | null }

/**
 * Records an outcome if the row is still pending; a terminal outcome queues the
 * address_verification.completed event in the same transaction. Returns the row as stored
 * afterwards (unchanged when another evaluation got there first). `before` writes in the same
 * transaction (a visit); if the row is no longer pending it is rolled back with a 409.
 */
export async function recordOutcome(store: Store, o: Owner, id: string, out: Outcome, evaluatedAt: Date, before?: (c: pg.PoolClient) => Promise<void>): Promise<any | null> {
  return store.tx(async (c) => {
    if (before) await before(c);
    const u = await c.query(
      `UPDATE address_verifications SET status = $4, reason = $5, evidence = $6, confidence = $7, completed_at = $8, evaluated_at = $9, updated_at = now()
       WHERE project_id = $1 AND sandbox = $2 AND id = $3 AND status = 'pending' RETURNING ${AVR_COLS}`,
      [o.project, o.sandbox, id, out.status, out.reason, JSON.stringify(out.evidence), out.confidence, out.completed_at, evaluatedAt],
    );
    const row = u.rows[0];
    if (!row) {
      // Another evaluation or request completed it first; what `before` wrote must not stay.
      const now = await loadVerification(c, o, id);
      if (before) throw new HttpError(409, 'conflict', `Verification ${id} is already ${now?.status ?? 'deleted'}.`);
      return now;
    }
    if (row.status !== 'pending') {
      const visits = row.product === 'field' ? await loadVisits(c, o, id) : undefined;
      await emitEvent(c, o, 'address_verification.completed', { address_verification: verificationJson(row, { trail: false, visits }) });
    }
    return row;
  });
}

/** The outcome the stored pings (digital) or the clock (field: only expiry) give now. */
export async function assess(store: Store, o: Owner, row: any, now: number): Promise<Outcome> {
  const end = new Date(row.window_end).getTime();
  const over = now >= end;
  if (row.product === 'field') {
    return over
      ? { status: 'expired', reason: 'no_visit', evidence: row.evidence, confidence: null, completed_at: new Date(end) }
      : { status: 'pending', reason: null, evidence: row.evidence, confidence: row.confidence, completed_at: null };
  }
  const r = await store.pool.query<any[]>({
    text: `SELECT (extract(epoch FROM ts) * 1000)::int8, lat, lng, accuracy_m FROM pings
           WHERE project_id = $1 AND sandbox = $2 AND device = $3 AND ts >= $4 AND ts <= $5 ORDER BY ts LIMIT $6`,
    values: [o.project, o.sandbox, row.device, row.window_start, new Date(Math.min(now, end)), MAX_EVAL_PINGS],
    rowMode: 'array',
  });
  const fixes: Fix[] = r.rows.map((x) => ({ ts: Number(x[0]), lat: x[1], lng: x[2], accuracy_m: x[3] }));
  const d = evaluateDwell(fixes, { lat: row.pin_lat, lng: row.pin_lng, radius_m: row.radius_m, min_nights: row.min_nights, timezone: row.timezone });
  const evidence = { ...d.evidence, truncated: fixes.length >= MAX_EVAL_PINGS };
  if (d.verified_at !== null) return { status: 'verified', reason: 'enough_nights', evidence, confidence: d.confidence, completed_at: new Date(d.verified_at) };
  if (!over) return { status: 'pending', reason: null, evidence, confidence: d.confidence, completed_at: null };
  // Nothing at all arrived: expired, with no confidence either way (nothing is invented).
  if (fixes.length === 0) return { status: 'expired', reason: 'no_pings', evidence, confidence: null, completed_at: new Date(end) };
  return { status: 'failed', reason: 'not_enough_nights', evidence, confidence: d.confidence, completed_at: new Date(end) };
}

/** Evaluates one verification (a no-op unless pending) and returns the row as stored. */
export async function evaluate(store: Store, o: Owner, row: any): Promise<any> {
  if (row.status !== 'pending') return row;
  // Real time before the pings are read: a ping received after it makes the row due again.
  const evaluatedAt = new Date();
  const now = await nowFor(store, o);
  const out = await assess(store, o, row, now);
  return (await recordOutcome(store, o, row.id, out, evaluatedAt)) ?? row;
}

/**
 * Pending verifications that may have moved: window over (on the key's clock: the sandbox offset
 * for test rows), or, for digital ones, pings received since their last evaluation.
 */
export const DUE = `v.status = 'pending' AND (
  v.window_end <= now() + coalesce((SELECT c.offset_ms FROM sandbox_clocks c WHERE v.sandbox AND c.project_id = v.project_id), 0) * interval '1 millisecond'
  OR (v.product = 'digital' AND EXISTS (SELECT 1 FROM devices d WHERE d.project_id = v.project_id AND d.sandbox = v.sandbox AND d.device = v.device AND d.last_received_at > v.evaluated_at)))`;

/** Evaluates due verifications (all, or one owner's); returns how many left pending. */
export async function sweep(store: Store, only?: Owner, batch = 200): Promise<number> {
  let completed = 0;
  const seen = new Set<string>();
  for (;;) {
    const r = await store.query(
      `SELECT project_id, sandbox, ${AVR_COLS.replace('id, sandbox, ', '')}, id FROM address_verifications v
       WHERE ${DUE} ${only ? 'AND v.project_id = $2 AND v.sandbox = $3' : ''} ORDER BY v.window_end LIMIT $1`,
      only ? [batch, only.project, only.sandbox] : [batch],
    );
    const fresh = r.rows.filter((x) => !seen.has(`${x.project_id}\u0000${x.sandbox}\u0000${x.id}`));
    for (const row of fresh) {
      seen.add(`${row.project_id}\u0000${row.sandbox}\u0000${row.id}`);
      const after = await evaluate(store, { project: row.project_id, sandbox: row.sandbox }, row);
      if (after.status !== 'pending') completed++;
    }
    // Rows still due after their evaluation (pings arriving meanwhile) wait for the next sweep.
    if (r.rows.length < batch || fresh.length === 0) return completed;
  }
}
