// Monthly plan quotas and a per-key burst limit.
//
// Quotas are shared by every node on one database. Far from its limit a key is counted in
// memory and flushed to key_usage every flushMs (one statement for all keys, which also reads
// back the count every node has flushed), so the hot path never waits on the database. Once
// a key's remaining quota, as last read, falls to `syncMargin` or below, each request is
// counted in PostgreSQL by one conditional increment (`count < limit`), so two nodes can never
// admit more than the limit between them. The margin must exceed what the other nodes may
// admit between two reads (their request rate × flushMs); the default, 1000, makes every
// Free key exact from its first request. The burst limit stays per node.
// A restart loses at most the last flush interval of far-from-limit counts.
import type { Store } from '../store/index.ts';
import { addUsage, countOneUnder, monthCount } from '../store/usage.ts';
import type { KeyInfo } from './key-info.ts';
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
  /** Monthly limit of the key's plan (Infinity: counted, never refused). */
  limit: number;
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

export class Quota {
  private counters = new Map<string, Counter>();
  private loading = new Map<string, Promise<Counter>>();
  private buckets = new Map<string, { tokens: number; at: number }>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  rejections = { quota_exceeded: 0, rate_limited: 0, overloaded: 0 };

  constructor(
    private store: Store,
    private burstRps: number,
    private flushMs = 500,
    private now = () => Date.now(),
    private syncMargin = 1000,
  ) {}

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
      p = monthCount(this.store, key.id, month)
        .then((count) => {
          const fresh = { month, base: count, pending: 0, limit: PLANS[key.plan] };
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
    const v = this.decide(key, await this.counter(key));
    return v instanceof Promise ? await v : v;
  }

  private decide(key: KeyInfo, cur: Counter): Verdict | Promise<Verdict> {
    const now = this.now();
    const rps = key.burstRps ?? this.burstRps;
    if (rps > 0) {
      const b = this.buckets.get(key.id) ?? { tokens: rps, at: now };
      b.tokens = Math.min(rps, b.tokens + ((now - b.at) / 1000) * rps);
      b.at = now;
      this.buckets.set(key.id, b);
      if (b.tokens < 1) {
        this.rejections.rate_limited++;
        return {
          ok: false,
          code: 'rate_limited',
          message: `Too many requests: this key may send ${rps} requests per second.`,
          retryAfter: Math.max(1, Math.ceil((1 - b.tokens) / rps)),
        };
      }
      b.tokens -= 1;
    }
    const limit = PLANS[key.plan];
    cur.limit = limit;
    if (cur.base + cur.pending >= limit) return this.overQuota(key, now);
    if (limit - (cur.base + cur.pending) <= this.syncMargin) return this.admitExact(key, cur);
    cur.pending++;
    return ADMITTED;
  }

  private overQuota(key: KeyInfo, now: number): Verdict {
    this.rejections.quota_exceeded++;
    return {
      ok: false,
      code: 'quota_exceeded',
      message: `Monthly quota of ${PLANS[key.plan]} requests for the ${key.plan} plan is used up; it resets at the start of next month (UTC).`,
      retryAfter: secondsToMonthEnd(now),
    };
  }

  /** Near the limit: count this request in PostgreSQL, only if the shared count is still under it. */
  private async admitExact(key: KeyInfo, cur: Counter): Promise<Verdict> {
    if (cur.pending) await this.flush();
    try {
      const count = await countOneUnder(this.store, key.id, cur.month, cur.limit, new Date(this.now()).toISOString().slice(0, 10));
      if (count === null) {
        cur.base = Math.max(cur.base, cur.limit);
        return this.overQuota(key, this.now());
      }
      cur.base = Math.max(cur.base, count);
      return ADMITTED;
    } catch (e) {
      // The database is unreachable: admit and count in memory rather than fail the request.
      log.error('usage_exact', { error: String(e) });
      cur.pending++;
      return ADMITTED;
    }
  }

  usage(keyId: string): number | undefined {
    const c = this.counters.get(keyId);
    return c ? c.base + c.pending : undefined;
  }

  /**
   * Persist pending counts and read back every node's count for the keys held here (limited
   * plans only: an unlimited key's count decides nothing); concurrent callers share one flush.
   */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    const batch: [string, string, number][] = [];
    const watch: string[] = [];
    const month = monthOf(this.now());
    for (const [id, c] of this.counters) {
      if (c.pending) {
        batch.push([id, c.month, c.pending]);
        c.base += c.pending;
        c.pending = 0;
      } else if (c.limit !== Infinity && c.month === month) watch.push(id);
    }
    if (!batch.length && !watch.length) return Promise.resolve();
    const learn = (rows: { key_id: string; month: string; count: string }[]) => {
      for (const row of rows) {
        const c = this.counters.get(row.key_id);
        // Counts only grow: a smaller read is one that raced this node's own newer flush.
        if (c && c.month === row.month) c.base = Math.max(c.base, Number(row.count));
      }
    };
    // The month's counts come back with every node's, so quotas hold across nodes; the day is the
    // flush's: at most one flush interval of requests lands on the next day.
    this.flushing = addUsage(this.store, batch, month, watch, new Date(this.now()).toISOString().slice(0, 10))
      .then(learn)
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
