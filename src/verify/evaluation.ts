// Address verifications' evaluation, which moves a pending one to verified, failed or expired.
// Evaluation is idempotent — it recomputes the evidence from the stored pings and changes the row
// only while it is still pending (store/verifications.ts setOutcome), so the sweep, a read and a
// clock move may all run it, on any server, and only the first to see an outcome records it and
// queues its webhook (in the same transaction).
import type pg from 'pg';
import type { Store } from '../store/index.ts';
import type { Tenant } from '../store/db.ts';
import { verificationById, visitsOf, setOutcome, dueAcross, type OutcomeRow } from '../store/verifications.ts';
import { fixesBetween } from '../store/pings.ts';
import { emitEvent } from '../webhooks/events.ts';
import { Conflict } from '../core/errors.ts';
import { evaluateDwell } from './dwell.ts';
import { nowFor } from './clock.ts';
import { verificationJson } from './json.ts';

/** Pings one evaluation reads at most: 14 days of one fix a minute is 20,160. */
export const MAX_EVAL_PINGS = 100_000;

export type Outcome = OutcomeRow;

/**
 * Records an outcome if the row is still pending; a terminal outcome queues the
 * address_verification.completed event in the same transaction. Returns the row as stored
 * afterwards (unchanged when another evaluation got there first). `before` writes in the same
 * transaction (a visit); if the row is no longer pending it is rolled back with a Conflict (409).
 */
export async function recordOutcome(store: Store, o: Tenant, id: string, out: Outcome, evaluatedAt: Date, before?: (c: pg.PoolClient) => Promise<void>): Promise<any | null> {
  return store.tx(async (c) => {
    if (before) await before(c);
    const row = await setOutcome(c, o, id, out, evaluatedAt);
    if (!row) {
      // Another evaluation or request completed it first; what `before` wrote must not stay.
      const now = await verificationById(c, o, id);
      if (before) throw new Conflict(`Verification ${id} is already ${now?.status ?? 'deleted'}.`);
      return now;
    }
    if (row.status !== 'pending') {
      const visits = row.product === 'field' ? await visitsOf(c, o, id) : undefined;
      await emitEvent(c, o, 'address_verification.completed', { address_verification: verificationJson(row, { trail: false, visits }) });
    }
    return row;
  });
}

/** The outcome the stored pings (digital) or the clock (field: only expiry) give now. */
export async function assess(store: Store, o: Tenant, row: any, now: number): Promise<Outcome> {
  const end = new Date(row.window_end).getTime();
  const over = now >= end;
  if (row.product === 'field') {
    return over
      ? { status: 'expired', reason: 'no_visit', evidence: row.evidence, confidence: null, completed_at: new Date(end) }
      : { status: 'pending', reason: null, evidence: row.evidence, confidence: row.confidence, completed_at: null };
  }
  const fixes = await fixesBetween(store, o, row.device, row.window_start, new Date(Math.min(now, end)), MAX_EVAL_PINGS);
  const d = evaluateDwell(fixes, { lat: row.pin_lat, lng: row.pin_lng, radius_m: row.radius_m, min_nights: row.min_nights, timezone: row.timezone });
  const evidence = { ...d.evidence, truncated: fixes.length >= MAX_EVAL_PINGS };
  if (d.verified_at !== null) return { status: 'verified', reason: 'enough_nights', evidence, confidence: d.confidence, completed_at: new Date(d.verified_at) };
  if (!over) return { status: 'pending', reason: null, evidence, confidence: d.confidence, completed_at: null };
  // Nothing at all arrived: expired, with no confidence either way (nothing is invented).
  if (fixes.length === 0) return { status: 'expired', reason: 'no_pings', evidence, confidence: null, completed_at: new Date(end) };
  return { status: 'failed', reason: 'not_enough_nights', evidence, confidence: d.confidence, completed_at: new Date(end) };
}

/** Evaluates one verification (a no-op unless pending) and returns the row as stored. */
export async function evaluate(store: Store, o: Tenant, row: any): Promise<any> {
  if (row.status !== 'pending') return row;
  // Real time before the pings are read: a ping received after it makes the row due again.
  const evaluatedAt = new Date();
  const now = await nowFor(store, o);
  const out = await assess(store, o, row, now);
  return (await recordOutcome(store, o, row.id, out, evaluatedAt)) ?? row;
}

/** Evaluates due verifications (all, or one owner's); returns how many left pending. */
export async function sweep(store: Store, only?: Tenant, batch = 200): Promise<number> {
  let completed = 0;
  const seen = new Set<string>();
  for (;;) {
    const rows = await dueAcross(store, batch, only);
    const fresh = rows.filter((x) => !seen.has(`${x.project_id}\u0000${x.sandbox}\u0000${x.id}`));
    for (const row of fresh) {
      seen.add(`${row.project_id}\u0000${row.sandbox}\u0000${row.id}`);
      const after = await evaluate(store, { project: row.project_id, sandbox: row.sandbox }, row);
      if (after.status !== 'pending') completed++;
    }
    // Rows still due after their evaluation (pings arriving meanwhile) wait for the next sweep.
    if (rows.length < batch || fresh.length === 0) return completed;
  }
}
