// Monthly plan quotas and a per-key burst limit, both decided in memory.
// Usage is counted here and flushed to key_usage in one statement per key at least
// every second (and on shutdown), so the hot path never waits on the database and a
// restart loses at most the last flush interval.
import type { Store } from '../store/index.ts';
import type { KeyInfo } from '../http/types.ts';
import { PLANS } from './scopes.ts';
import { log } from '../core/log.ts';

export type Verdict = { ok: true } | { ok: false; code: 'quota_exceeded' | 'rate_limited'; message: string; retryAfter: number };
const ADMITTED: Verdict = Object.freeze({ ok: true });

interface Counter {
  month: string;
  /** Count persisted (or loaded) so far. */
  base: number;
  /** Counted since the last flush. */
  pending: number;
}

let cached = { from: 0, to: 0, month: '' };
/** 'YYYY-MM' (UTC) of a time; cached per month because the hot path asks on every request. */
export function monthOf(ms: number): string {
  if (ms >= cached.from && ms < cached.to) return cached.month;
  const d = new Date(ms);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const to = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  cached = { from, to, month: d.toISOString().slice(0, 7) };
  return cached.month;
}

/** Seconds until 00:00 UTC on the first of next month. */
export function secondsToMonthEnd(ms: number): number {
  const d = new Date(ms);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - ms) / 1000));
}

export class Limits {
  private counters = new Map<string, Counter>();
  private loading = new Map<string, Promise<Counter>>();
  private buckets = new Map<string, { tokens: number; at: number }>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  rejections = { quota_exceeded: 0, rate_limited: 0 };

  constructor(private store: Store, private burstRps: number, private flushMs = 500, private now = () => Date.now()) {}

  start() {
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  private async counter(key: KeyInfo): Promise<Counter> {
    const month = monthOf(this.now());
    const c = this.counters.get(key.id);
    if (c && c.month === month) return c;
    if (c && c.pending) await this.flush(); // month rolled over: persist the old month first
    let p = this.loading.get(key.id);
    if (!p) {
      p = this.store
        .query('SELECT count FROM key_usage WHERE key_id = $1 AND month = $2', [key.id, month])
        .then((r) => {
          const fresh = { month, base: Number(r.rows[0]?.count ?? 0), pending: 0 };
          this.counters.set(key.id, fresh);
          return fresh;
        })
        .finally(() => this.loading.delete(key.id));
      this.loading.set(key.id, p);
    }
    return p;
  }

  /** Decide and, when allowed, count one request. */
  admit(key: KeyInfo): Verdict | Promise<Verdict> {
    const c = this.counters.get(key.id);
    // Hot path: counter in memory for this month: decide synchronously.
    if (c && !this.loading.size && c.month === monthOf(this.now())) return this.decide(key, c);
    return this.admitSlow(key);
  }

  private async admitSlow(key: KeyInfo): Promise<Verdict> {
    return this.decide(key, await this.counter(key));
  }

  private decide(key: KeyInfo, cur: Counter): Verdict {
    const now = this.now();
    if (this.burstRps > 0) {
      const b = this.buckets.get(key.id) ?? { tokens: this.burstRps, at: now };
      b.tokens = Math.min(this.burstRps, b.tokens + ((now - b.at) / 1000) * this.burstRps);
      b.at = now;
      this.buckets.set(key.id, b);
      if (b.tokens < 1) {
        this.rejections.rate_limited++;
        return {
          ok: false,
          code: 'rate_limited',
          message: `Too many requests: this key may send ${this.burstRps} requests per second.`,
          retryAfter: Math.max(1, Math.ceil((1 - b.tokens) / this.burstRps)),
        };
      }
      b.tokens -= 1;
    }
    const limit = PLANS[key.plan];
    if (cur.base + cur.pending >= limit) {
      this.rejections.quota_exceeded++;
      return {
        ok: false,
        code: 'quota_exceeded',
        message: `Monthly quota of ${limit} requests for the ${key.plan} plan is used up; it resets at the start of next month (UTC).`,
        retryAfter: secondsToMonthEnd(now),
      };
    }
    cur.pending++;
    return ADMITTED;
  }

  usage(keyId: string): number | undefined {
    const c = this.counters.get(keyId);
    return c ? c.base + c.pending : undefined;
  }

  /** Persist pending counts; concurrent callers share one flush. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    const batch: [string, string, number][] = [];
    for (const [id, c] of this.counters) {
      if (c.pending) {
        batch.push([id, c.month, c.pending]);
        c.base += c.pending;
        c.pending = 0;
      }
    }
    if (!batch.length) return Promise.resolve();
    this.flushing = this.store
      .query(
        // One statement for the month and the day (the dashboard's chart), so the two never disagree.
        // The day is the flush's: at most one flush interval of requests lands on the next day.
        `WITH m AS (
           INSERT INTO key_usage (key_id, month, count)
           SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
           ON CONFLICT (key_id, month) DO UPDATE SET count = key_usage.count + EXCLUDED.count)
         INSERT INTO key_usage_daily (key_id, day, count)
         SELECT k, $4::date, n FROM unnest($1::text[], $3::bigint[]) AS u(k, n)
         ON CONFLICT (key_id, day) DO UPDATE SET count = key_usage_daily.count + EXCLUDED.count`,
        [batch.map((b) => b[0]), batch.map((b) => b[1]), batch.map((b) => b[2]), new Date(this.now()).toISOString().slice(0, 10)],
      )
      .then(() => undefined)
      .catch((e) => {
        // Put the counts back so the next flush retries them.
        for (const [id, month, n] of batch) {
          const c = this.counters.get(id);
          if (c && c.month === month) { c.base -= n; c.pending += n; }
        }
        log.error('usage_flush', { error: String(e) });
      })
      .finally(() => { this.flushing = null; });
    return this.flushing;
  }
}
