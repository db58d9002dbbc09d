// The burst limit and the monthly quota decided by src/auth/limits.ts, on an injected clock
// and an in-memory stand-in for the key_usage table (the same three statements PostgreSQL
// runs; the real database is exercised by the store, API and multi-node suites).
import { describe, it, expect } from 'vitest';
import { Limits, monthOf, secondsToMonthEnd, type Verdict } from '../../src/auth/limits.ts';
import type { KeyInfo } from '../../src/http/types.ts';
import type { Store } from '../../src/store/index.ts';

/** key_usage as a Map, answering the statements Limits sends. */
function fakeStore() {
  const rows = new Map<string, number>(); // `${key}|${month}` → count
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
        const [ids, months, counts, month, watch] = v as [string[], string[], number[], string, string[]];
        const out: any[] = [];
        ids.forEach((id, i) => {
          const k = `${id}|${months[i]}`;
          rows.set(k, (rows.get(k) ?? 0) + counts[i]);
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
        return { rows: [{ count: String(c + 1) }] };
      }
      throw new Error(`unexpected statement: ${sql}`);
    },
  };
  return { store: store as unknown as Store, rows, log, setFail: (f: boolean) => { fail = f; } };
}

const key = (plan: KeyInfo['plan'], id = `key_${plan}`): KeyInfo => ({ id, project: 'p', plan, scopes: [], test: false });
const T0 = Date.UTC(2026, 10, 24, 12, 0, 0); // 24 Nov 2026 12:00 UTC
const admit = async (l: Limits, k: KeyInfo): Promise<Verdict> => l.admit(k);

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
    const l = new Limits(store, 5, 500, () => now, 0);
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
    const l = new Limits(store, 2, 500, () => now, 0);
    const a = key('enterprise', 'key_a'), b = key('enterprise', 'key_b');
    expect([(await admit(l, a)).ok, (await admit(l, a)).ok, (await admit(l, a)).ok]).toEqual([true, true, false]);
    expect((await admit(l, b)).ok).toBe(true);
    const off = new Limits(store, 0, 500, () => now, 0);
    for (let i = 0; i < 100; i++) expect((await admit(off, a)).ok).toBe(true);
  });
});

describe('monthly quota', () => {
  it('refuses the Free plan after exactly 1,000 with Retry-After to the month end, counted in the database', async () => {
    const now = T0;
    const { store, rows, log } = fakeStore();
    const l = new Limits(store, 0, 500, () => now, 1000);
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
    const l = new Limits(store, 0, 500, () => now, 10);
    const k = key('free');
    rows.set('key_free|2026-11', 900);
    for (let i = 0; i < 90; i++) expect((await admit(l, k)).ok).toBe(true);
    expect(log.filter((x) => x === 'exact')).toHaveLength(0); // 990 reached in memory
    expect(rows.get('key_free|2026-11')).toBe(900); // not flushed yet
    expect((await admit(l, k)).ok).toBe(true); // 991: remaining 10 ≤ margin → flush, then exact
    expect(log).toContain('flush');
    expect(rows.get('key_free|2026-11')).toBe(991);
    for (let i = 0; i < 9; i++) expect((await admit(l, k)).ok).toBe(true);
    expect((await admit(l, k)).ok).toBe(false);
    expect(rows.get('key_free|2026-11')).toBe(1000);
  });

  it('sees what another node counted: the flush reads the shared count back', async () => {
    const now = T0;
    const { store, rows } = fakeStore();
    // The margin covers what the other node may admit between two reads (here: 100 each).
    const a = new Limits(store, 0, 500, () => now, 200);
    const b = new Limits(store, 0, 500, () => now, 200);
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
    const l = new Limits(store, 0, 500, () => now, 1000);
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
    const l = new Limits(store, 0, 500, () => now, 0);
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
    const l = new Limits(store, 0, 500, () => now, 0);
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
    const l = new Limits(store, 0, 500, () => now, 1000);
    const k = key('free');
    expect((await admit(l, k)).ok).toBe(true);
    setFail(true);
    expect((await admit(l, k)).ok).toBe(true);
    expect(l.usage(k.id)).toBe(2);
  });
});
