// The burst limit and the monthly quota decided by src/auth/quota.ts, on an injected clock
// and an in-memory stand-in for the key_usage table (the same three statements PostgreSQL
// runs; the real database is exercised by the store, API and multi-node suites).
import { describe, it, expect, vi, afterEach } from 'vitest';
import { Quota, monthOf, secondsToMonthEnd, type Verdict } from '../../src/auth/quota.ts';
import type { KeyInfo } from '../../src/http/types.ts';
import type { Store } from '../../src/store/index.ts';
import { log as logger } from '../../src/core/log.ts';

/** key_usage as a Map, answering the statements Quota sends. */
function fakeStore() {
  const rows = new Map<string, number>(); // `${key}|${month}` → count
  const daily = new Map<string, number>(); // `${key}|${day}` → count
  const log: string[] = [];
  let fail = false;
  const store = {
    async query(sql: string, v: any[]) {
      if (fail) throw new Error('database down');
      if (sql.startsWith('SELECT count FROM key_usage')) {
        log.push('load');
        const c = rows.get(`${v[0]}|${v[1]}`);
        return { rows: c === undefined ? [] : [{ count: String(c) }] };
      }
      if (sql.includes('WITH up AS')) {
        log.push('flush');
        const [ids, months, counts, month, watch, day] = v as [string[], string[], number[], string, string[], string];
        const out: any[] = [];
        ids.forEach((id, i) => {
          const k = `${id}|${months[i]}`;
          rows.set(k, (rows.get(k) ?? 0) + counts[i]);
          daily.set(`${id}|${day}`, (daily.get(`${id}|${day}`) ?? 0) + counts[i]);
          out.push({ key_id: id, month: months[i], count: String(rows.get(k)) });
        });
        for (const id of watch) {
          const c = rows.get(`${id}|${month}`);
          if (c !== undefined) out.push({ key_id: id, month, count: String(c) });
        }
        return { rows: out };
      }
      if (sql.includes('WHERE key_usage.count < $3')) {
        log.push('exact');
        const k = `${v[0]}|${v[1]}`;
        const c = rows.get(k) ?? 0;
        if (c >= v[2]) return { rows: [] };
        rows.set(k, c + 1);
        daily.set(`${v[0]}|${v[3]}`, (daily.get(`${v[0]}|${v[3]}`) ?? 0) + 1);
        return { rows: [{ count: String(c + 1) }] };
      }
      throw new Error(`unexpected statement: ${sql}`);
    },
  };
  return { store: store as unknown as Store, rows, daily, log, setFail: (f: boolean) => { fail = f; } };
}

const key = (plan: KeyInfo['plan'], id = `key_${plan}`): KeyInfo => ({ id, project: 'p', plan, scopes: [], test: false });
const T0 = Date.UTC(2026, 10, 24, 12, 0, 0); // 24 Nov 2026 12:00 UTC
const admit = async (l: Quota, k: KeyInfo): Promise<Verdict> => l.admit(k);

describe('month arithmetic', () => {
  it('names the UTC month and counts the seconds to its end', () => {
    expect(monthOf(T0)).toBe('2026-11');
    expect(monthOf(Date.UTC(2026, 11, 31, 23, 59, 59))).toBe('2026-12');
    expect(monthOf(Date.UTC(2027, 0, 1, 0, 0, 0))).toBe('2027-01');
    expect(monthOf(Date.UTC(2026, 10, 30, 23, 59, 59, 999))).toBe('2026-11');
    expect(monthOf(Date.UTC(2026, 10, 1))).toBe('2026-11');
    expect(secondsToMonthEnd(Date.UTC(2026, 10, 30, 23, 59, 0))).toBe(60);
    expect(secondsToMonthEnd(Date.UTC(2026, 10, 30, 23, 59, 59, 500))).toBe(1);
    expect(secondsToMonthEnd(Date.UTC(2026, 11, 1) - 1)).toBe(1); // never 0
    expect(secondsToMonthEnd(T0)).toBe(6 * 86400 + 12 * 3600);
  });
});

describe('burst limit on an injected clock', () => {
  it('admits exactly BURST_RPS at once, then one per 1/BURST_RPS s, with Retry-After', async () => {
    let now = T0;
    const { store } = fakeStore();
    const l = new Quota(store, 5, 500, () => now, 0);
    const k = key('enterprise');
    const first: Verdict[] = [];
    for (let i = 0; i < 8; i++) first.push(await admit(l, k));
    expect(first.map((v) => v.ok)).toEqual([true, true, true, true, true, false, false, false]);
    const refused = first[5] as Extract<Verdict, { ok: false }>;
    expect(refused.code).toBe('rate_limited');
    expect(refused.retryAfter).toBe(1);
    expect(refused.message).toMatch(/5 requests per second/);
    expect(l.rejections.rate_limited).toBe(3);
    now += 199; // 0.995 of a token: still none
    expect((await admit(l, k)).ok).toBe(false);
    now += 1; // 200 ms: exactly one token
    expect((await admit(l, k)).ok).toBe(true);
    expect((await admit(l, k)).ok).toBe(false);
    now += 10_000; // the bucket holds at most one second's worth
    const after: boolean[] = [];
    for (let i = 0; i < 7; i++) after.push((await admit(l, k)).ok);
    expect(after).toEqual([true, true, true, true, true, false, false]);
    // Refused requests are not counted against the quota.
    expect(l.usage(k.id)).toBe(11);
  });

  it('keeps one bucket per key, and BURST_RPS 0 disables it', async () => {
    const now = T0;
    const { store } = fakeStore();
    const l = new Quota(store, 2, 500, () => now, 0);
    const a = key('enterprise', 'key_a'), b = key('enterprise', 'key_b');
    expect([(await admit(l, a)).ok, (await admit(l, a)).ok, (await admit(l, a)).ok]).toEqual([true, true, false]);
    expect((await admit(l, b)).ok).toBe(true);
    const off = new Quota(store, 0, 500, () => now, 0);
    for (let i = 0; i < 100; i++) expect((await admit(off, a)).ok).toBe(true);
  });
});

describe('monthly quota', () => {
  it('refuses the Free plan after exactly 1,000 with Retry-After to the month end, counted in the database', async () => {
    const now = T0;
    const { store, rows, log } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 1000);
    const k = key('free');
    let ok = 0;
    for (let i = 0; i < 1005; i++) if ((await admit(l, k)).ok) ok++;
    expect(ok).toBe(1000);
    expect(rows.get('key_free|2026-11')).toBe(1000);
    const v = (await admit(l, k)) as Extract<Verdict, { ok: false }>;
    expect(v).toMatchObject({ ok: false, code: 'quota_exceeded', retryAfter: secondsToMonthEnd(now) });
    expect(v.message).toMatch(/1000 requests for the free plan/);
    expect(l.rejections.quota_exceeded).toBe(6);
    // Within the margin every request is one conditional increment.
    expect(log.filter((x) => x === 'exact').length).toBeGreaterThanOrEqual(1000);
  });

  it('counts in memory far from the limit and switches to exact counting within the margin', async () => {
    const now = T0;
    const { store, rows, log } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 10);
    const k = key('free');
    rows.set('key_free|2026-11', 900);
    for (let i = 0; i < 90; i++) expect((await admit(l, k)).ok).toBe(true);
    expect(log.filter((x) => x === 'exact')).toHaveLength(0); // 990 reached in memory
    expect(rows.get('key_free|2026-11')).toBe(900); // not flushed yet
    expect((await admit(l, k)).ok).toBe(true); // 991: remaining 10 ≤ margin → flush, then exact
    expect(log).toContain('flush');
    expect(rows.get('key_free|2026-11')).toBe(991);
    for (let i = 0; i < 9; i++) expect((await admit(l, k)).ok).toBe(true);
    expect(l.usage(k.id)).toBe(1000); // each exact count reads back the shared count
    expect((await admit(l, k)).ok).toBe(false);
    expect(rows.get('key_free|2026-11')).toBe(1000);
  });

  it('sees what another node counted: the flush reads the shared count back', async () => {
    const now = T0;
    const { store, rows } = fakeStore();
    // The margin covers what the other node may admit between two reads (here: 100 each).
    const a = new Quota(store, 0, 500, () => now, 200);
    const b = new Quota(store, 0, 500, () => now, 200);
    const k = key('free');
    for (let i = 0; i < 400; i++) await admit(a, k);
    for (let i = 0; i < 500; i++) await admit(b, k);
    await a.flush();
    await b.flush();
    expect(rows.get('key_free|2026-11')).toBe(900);
    expect(a.usage(k.id)).toBe(400);
    await a.flush(); // nothing pending on a: it still reads the count b flushed
    expect(a.usage(k.id)).toBe(900);
    let ok = 0;
    for (let i = 0; i < 200; i++) if ((await admit(i % 2 ? a : b, k)).ok) ok++;
    expect(ok).toBe(100);
    expect(rows.get('key_free|2026-11')).toBe(1000);
  });

  it('never refuses an unlimited plan and never asks the database per request for it', async () => {
    const now = T0;
    const { store, log } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 1000);
    const k = key('enterprise');
    for (let i = 0; i < 5000; i++) expect((await admit(l, k)).ok).toBe(true);
    expect(log).toEqual(['load']);
    await l.flush();
    expect(log).toEqual(['load', 'flush']);
    await l.flush(); // nothing pending and nothing to watch: no statement
    expect(log).toEqual(['load', 'flush']);
  });

  it('starts a new count when the month rolls over, after flushing the old one', async () => {
    let now = Date.UTC(2026, 10, 30, 23, 59, 59);
    const { store, rows } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 0);
    const k = key('developer');
    for (let i = 0; i < 3; i++) await admit(l, k);
    now = Date.UTC(2026, 11, 1, 0, 0, 1);
    await admit(l, k);
    expect(rows.get('key_developer|2026-11')).toBe(3);
    expect(l.usage(k.id)).toBe(1);
    await l.stop();
    expect(rows.get('key_developer|2026-12')).toBe(1);
  });

  it('keeps counts whose flush failed and writes them on the next one', async () => {
    const now = T0;
    const { store, rows, setFail } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 0);
    const k = key('developer');
    for (let i = 0; i < 7; i++) await admit(l, k);
    setFail(true);
    await l.flush();
    expect(l.usage(k.id)).toBe(7);
    setFail(false);
    await l.flush();
    expect(rows.get('key_developer|2026-11')).toBe(7);
  });

  it('admits (and counts in memory) when the database cannot be reached near the limit', async () => {
    const now = T0;
    const { store, setFail } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 1000);
    const k = key('free');
    expect((await admit(l, k)).ok).toBe(true);
    setFail(true);
    expect((await admit(l, k)).ok).toBe(true);
    expect(l.usage(k.id)).toBe(2);
  });
});

describe('month cache boundaries', () => {
  it('a cached month ends exactly at the first of the next', () => {
    expect(monthOf(Date.UTC(2026, 10, 15))).toBe('2026-11');
    expect(monthOf(Date.UTC(2026, 11, 1))).toBe('2026-12');
    expect(monthOf(Date.UTC(2026, 11, 1) - 1)).toBe('2026-11');
    expect(monthOf(Date.UTC(2026, 10, 1))).toBe('2026-11');
    expect(monthOf(Date.UTC(2026, 10, 1) - 1)).toBe('2026-10');
  });
});

describe('per-key burst limits', () => {
  it('a key may carry its own rate; null means the server default', async () => {
    const now = T0;
    const { store } = fakeStore();
    const l = new Quota(store, 10, 500, () => now, 0);
    const own = { ...key('enterprise', 'key_own'), burstRps: 2 };
    const dflt = { ...key('enterprise', 'key_dflt'), burstRps: null };
    const seen: boolean[] = [];
    for (let i = 0; i < 3; i++) seen.push((await admit(l, own)).ok);
    expect(seen).toEqual([true, true, false]);
    let ok = 0;
    for (let i = 0; i < 12; i++) if ((await admit(l, dflt)).ok) ok++;
    expect(ok).toBe(10);
  });

  it('a refusal says the rate and to retry within a second', async () => {
    let now = T0;
    const { store } = fakeStore();
    const l = new Quota(store, 1, 500, () => now, 0);
    const k = key('enterprise');
    expect((await admit(l, k)).ok).toBe(true);
    expect(await admit(l, k)).toEqual({ ok: false, code: 'rate_limited', message: 'Too many requests: this key may send 1 requests per second.', retryAfter: 1 });
    now += 999;
    expect((await admit(l, k)).ok).toBe(false);
    now += 1;
    expect((await admit(l, k)).ok).toBe(true);
  });
});

describe('counting', () => {
  afterEach(() => { vi.useRealTimers(); vi.restoreAllMocks(); });

  it('loads a stored count once, however many requests wait for it', async () => {
    const now = T0;
    const { store, rows, log } = fakeStore();
    rows.set('key_developer|2026-11', 5);
    const l = new Quota(store, 0, 500, () => now, 0);
    const k = key('developer');
    expect(l.usage(k.id)).toBeUndefined();
    const vs = await Promise.all([l.admit(k), l.admit(k), l.admit(k)]);
    expect(vs.map((v) => v.ok)).toEqual([true, true, true]);
    expect(log).toEqual(['load']);
    expect(l.usage(k.id)).toBe(8);
    // Once loaded, a decision is synchronous.
    expect(l.admit(k)).toEqual({ ok: true });
  });

  it('counts the day as well as the month, in memory and exactly', async () => {
    const now = T0;
    const { store, daily } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 0);
    const dev = key('developer');
    for (let i = 0; i < 4; i++) await admit(l, dev);
    await l.flush();
    expect(daily.get('key_developer|2026-11-24')).toBe(4);
    const exact = new Quota(store, 0, 500, () => now, 1000);
    const free = key('free');
    for (let i = 0; i < 3; i++) await admit(exact, free);
    expect(daily.get('key_free|2026-11-24')).toBe(3);
  });

  it('flushes on its interval once started, without holding the process, and not after stop', async () => {
    vi.useFakeTimers();
    const now = T0;
    const { store, rows } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 0);
    const k = key('developer');
    for (let i = 0; i < 3; i++) await admit(l, k);
    l.start();
    expect((l as unknown as { timer: NodeJS.Timeout }).timer.hasRef()).toBe(false);
    await vi.advanceTimersByTimeAsync(499);
    expect(rows.get('key_developer|2026-11')).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(rows.get('key_developer|2026-11')).toBe(3);
    await admit(l, k);
    await l.stop();
    expect(rows.get('key_developer|2026-11')).toBe(4);
    await admit(l, k);
    await vi.advanceTimersByTimeAsync(5000);
    expect(rows.get('key_developer|2026-11')).toBe(4);
    expect(l.usage(k.id)).toBe(5);
  });

  it('stop without start still flushes', async () => {
    const now = T0;
    const { store, rows } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 0);
    await admit(l, key('developer'));
    await l.stop();
    expect(rows.get('key_developer|2026-11')).toBe(1);
  });

  it('a key refused by the database stays refused without asking again', async () => {
    const now = T0;
    const { store, rows, log } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 1000);
    const k = key('free');
    expect((await admit(l, k)).ok).toBe(true);
    rows.set('key_free|2026-11', 1000); // another node used the rest
    const v = await admit(l, k);
    expect(v).toEqual({
      ok: false, code: 'quota_exceeded', retryAfter: secondsToMonthEnd(now),
      message: 'Monthly quota of 1000 requests for the free plan is used up; it resets at the start of next month (UTC).',
    });
    expect(l.usage(k.id)).toBe(1000);
    const asked = log.length;
    expect(l.admit(k)).toMatchObject({ ok: false, code: 'quota_exceeded' });
    expect(log.length).toBe(asked);
    expect(l.rejections).toEqual({ quota_exceeded: 2, rate_limited: 0, overloaded: 0 });
  });

  it('exact counting uses the current plan: an upgraded key is admitted past its old limit', async () => {
    const now = T0;
    const { store, rows } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 100_000);
    rows.set('key_up|2026-11', 1000);
    expect((await admit(l, key('free', 'key_up'))).ok).toBe(false);
    expect((await admit(l, key('developer', 'key_up'))).ok).toBe(true);
    expect(rows.get('key_up|2026-11')).toBe(1001);
  });

  it('reads back only limited keys of the current month, and a count never shrinks', async () => {
    let now = T0;
    const { store, rows, log } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 0);
    const k = key('developer');
    for (let i = 0; i < 10; i++) await admit(l, k);
    await l.flush();
    rows.set('key_developer|2026-11', 5); // an older read racing a newer flush
    await l.flush();
    expect(l.usage(k.id)).toBe(10);
    rows.set('key_developer|2026-11', 25); // other nodes counted more
    await l.flush();
    expect(l.usage(k.id)).toBe(25);
    expect(log.filter((x) => x === 'flush')).toHaveLength(3);
    now = Date.UTC(2026, 11, 2); // a new month: last month's count is not watched
    await l.flush();
    expect(log.filter((x) => x === 'flush')).toHaveLength(3);
  });

  it('logs a failed flush and a failed exact count by name', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const now = T0;
    const { store, setFail } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 0);
    await admit(l, key('developer'));
    setFail(true);
    await l.flush();
    expect(errors).toHaveBeenLastCalledWith('usage_flush', { error: 'Error: database down' });
    const exact = new Quota(store, 0, 500, () => now, 1000);
    setFail(false);
    await admit(exact, key('free'));
    setFail(true);
    await admit(exact, key('free'));
    expect(errors).toHaveBeenLastCalledWith('usage_exact', { error: 'Error: database down' });
    expect(errors).toHaveBeenCalledTimes(2);
  });
});

describe('counting around other requests', () => {
  it('uses the real clock by default', async () => {
    const { store, rows } = fakeStore();
    const l = new Quota(store, 0);
    await admit(l, key('developer'));
    await l.flush();
    expect(rows.get(`key_developer|${monthOf(Date.now())}`)).toBe(1);
  });

  it('refuses at the limit from memory once the count is known, without asking the database', async () => {
    const now = T0;
    const { store, log } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 0);
    const k = key('free');
    for (let i = 0; i < 1000; i++) expect((await admit(l, k)).ok).toBe(true);
    expect(l.usage(k.id)).toBe(1000);
    expect(l.admit(k)).toMatchObject({ ok: false, code: 'quota_exceeded' });
    expect(log).toEqual(['load']);
  });

  it('a flush asked for during another runs after it, with what was counted meanwhile', async () => {
    const now = T0;
    const { store, rows, log } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 0);
    const k = key('developer');
    for (let i = 0; i < 3; i++) await admit(l, k);
    const first = l.flush();
    expect(l.admit(k)).toEqual({ ok: true });
    const second = l.flush();
    await Promise.all([first, second]);
    expect(rows.get('key_developer|2026-11')).toBe(4);
    expect(log.filter((x) => x === 'flush')).toHaveLength(2);
  });

  it("a key's count in memory survives another key's first load, which flushes nothing", async () => {
    const now = T0;
    const { store, rows } = fakeStore();
    const l = new Quota(store, 0, 500, () => now, 0);
    const a = key('developer', 'key_a'), b = key('developer', 'key_b');
    for (let i = 0; i < 3; i++) await admit(l, a);
    const loadingB = l.admit(b); // B is loading: A takes the slow path
    expect((await admit(l, a)).ok).toBe(true);
    await loadingB;
    expect(rows.get('key_a|2026-11')).toBeUndefined();
    expect([l.usage(a.id), l.usage(b.id)]).toEqual([4, 1]);
  });

  it('a flush answered after the month rolled over touches only the old month', async () => {
    let now = Date.UTC(2026, 10, 30, 23, 59, 59);
    const fake = fakeStore();
    let hold: (() => void) | null = null;
    let fail = false;
    // The flush statement waits until released; loads answer at once.
    const store = {
      async query(sql: string, v: any[]) {
        if (sql.includes('WITH up AS')) {
          await new Promise<void>((r) => { hold = r; });
          if (fail) throw new Error('database down');
        }
        return fake.store.query(sql, v);
      },
    } as unknown as Store;
    vi.spyOn(logger, 'error').mockImplementation(() => {});
    for (const failing of [false, true]) {
      fail = failing;
      now = Date.UTC(2026, 10, 30, 23, 59, 59);
      const l = new Quota(store, 0, 500, () => now, 0);
      const k = key('developer', `key_${failing}`);
      fake.rows.set(`${k.id}|2026-11`, 500);
      for (let i = 0; i < 3; i++) await admit(l, k);
      const flushing = l.flush();
      now = Date.UTC(2026, 11, 1, 0, 0, 1);
      expect((await admit(l, k)).ok).toBe(true); // December, loaded while November's flush is in flight
      hold!();
      await flushing;
      expect(l.usage(k.id), failing ? 'failed flush' : 'flush').toBe(1);
      fail = false;
      const next = l.flush();
      hold!();
      await next;
      expect([fake.rows.get(`${k.id}|2026-11`), fake.rows.get(`${k.id}|2026-12`)], failing ? 'failed flush' : 'flush').toEqual([failing ? 500 : 503, 1]);
    }
    vi.restoreAllMocks();
  });
});
