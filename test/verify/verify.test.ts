// Address verification products end to end on a real server: the dwell model on its own, then
// digital verifications played through on the sandbox clock with simulated pings (verified,
// failed, expired), the webhook at a loopback receiver, field visits (verified, rejected as too
// far), consent, 404s, cancel, delete with the subject's pings, sandbox/live separation, and a
// pending verification completed by the evaluator after a restart.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { BACKENDS, freshDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { evaluateDwell, nightOf, cleanFixes, type Fix } from '../../src/verify/dwell.ts';
import { instantOf, localParts, zoneFor, offsetAt } from '../../src/verify/timezone.ts';
import { join } from 'node:path';
import { freshPglite } from '../helpers/db.ts';
import { buildTestGazetteer } from '../maps/fixture.ts';

const PIN = { lat: 6.6018, lng: 3.3515 }; // Ikeja, Lagos (WAT, UTC+1)
const ZONE = 'Africa/Lagos';
const M = 60_000, H = 3_600_000, DAY = 86_400_000;
/** A point `m` metres north of the pin. */
const north = (m: number) => ({ lat: PIN.lat + m / 111_320, lng: PIN.lng });

/** 20:00 local of the first evening at or after `ms`. */
function nextEvening(ms: number): number {
  const p = localParts(ms, ZONE);
  const today = instantOf(p.y, p.m, p.d, 20, ZONE);
  return today >= ms ? today : instantOf(p.y, p.m, p.d + 1, 20, ZONE);
}

/** A night at one place: a fix every 10 minutes from 21:00 to 01:00 local (4 h). */
const night = (evening: number, at: { lat: number; lng: number }, accuracy = 12): Fix[] =>
  Array.from({ length: 25 }, (_, i) => ({ ts: evening + H + i * 10 * M, lat: at.lat, lng: at.lng, accuracy_m: accuracy }));

describe('the dwell model', () => {
  const p = { lat: PIN.lat, lng: PIN.lng, radius_m: 100, min_nights: 3, timezone: ZONE };
  const e0 = Date.parse('2026-05-04T19:00:00Z'); // 20:00 WAT

  it('reads nights in local time: after midnight belongs to the evening before, daytime to none', () => {
    expect(nightOf(Date.parse('2026-05-04T19:30:00Z'), ZONE)).toBe('2026-05-04'); // 20:30 WAT
    expect(nightOf(Date.parse('2026-05-05T03:00:00Z'), ZONE)).toBe('2026-05-04'); // 04:00 WAT
    expect(nightOf(Date.parse('2026-05-05T05:30:00Z'), ZONE)).toBeNull(); // 06:30 WAT
    expect(nightOf(Date.parse('2026-05-04T18:30:00Z'), ZONE)).toBeNull(); // 19:30 WAT
    // In UTC the same 20:30 WAT would be 19:30: daytime.
    expect(nightOf(Date.parse('2026-05-04T19:30:00Z'), 'Etc/UTC')).toBeNull();
    expect(zoneFor('NG', 6.6, 3.35)).toBe('Africa/Lagos');
    expect(zoneFor('CD', -11.66, 27.48)).toBe('Africa/Lubumbashi');
    expect(zoneFor(null, 0, 45)).toBe('Etc/GMT-3');
  });

  it('reads zone offsets per UTC hour exactly as the zone database does, through the daylight-saving changes', () => {
    for (const zone of ['Africa/Cairo', 'Africa/Casablanca']) {
      for (let t = Date.parse('2026-01-01T00:00:00Z'); t < Date.parse('2027-01-01T00:00:00Z'); t += 30 * M) {
        const p = localParts(t, zone);
        expect(offsetAt(t, zone), `${zone} ${new Date(t).toISOString()}`).toBe(Date.UTC(p.y, p.m - 1, p.d, p.hour, p.minute) - t);
      }
    }
  });

  it('verifies on the min_nights-th night that reaches the minimum dwell, at the fix that reached it', () => {
    const fixes = [0, 1, 2].flatMap((d) => night(e0 + d * DAY, north(20)));
    const r = evaluateDwell(fixes, p);
    expect(r.evidence.nights_at_pin).toBe(3);
    expect(r.evidence.dwell_hours_at_pin).toBe(12);
    expect(r.verified_at).toBe(e0 + 2 * DAY + H + 120 * M);
    expect(r.confidence).toBe(1);
    expect(r.evidence.distance_m).toMatchObject({ min: 20, median: 20 });
    expect(evaluateDwell(fixes.slice(0, 50), p).verified_at).toBeNull(); // two nights only
  });

  it('counts nothing across gaps over an hour, for a lone fix, or for fixes outside the radius', () => {
    const sparse = [0, 1, 2].map((i) => ({ ts: e0 + H + i * 61 * M, ...north(10), accuracy_m: 5 }));
    expect(evaluateDwell(sparse, p).evidence.dwell_hours_at_pin).toBe(0);
    expect(evaluateDwell([{ ts: e0 + H, ...north(10), accuracy_m: 5 }], p).evidence.nights_observed).toBe(1);
    const away = night(e0, north(150));
    const r = evaluateDwell(away, p);
    expect(r.evidence.nights_observed).toBe(1);
    expect(r.evidence.nights_at_pin).toBe(0);
    expect(r.confidence).toBe(0);
  });

  it('drops imprecise fixes and jump-and-return outliers, and says how many', () => {
    const fixes = night(e0, north(10));
    fixes[5] = { ...fixes[5], accuracy_m: 250 };
    fixes[9] = { ...fixes[9], ...north(40_000) }; // 40 km away for one fix
    const c = cleanFixes(fixes);
    expect(c.inaccurate).toBe(1);
    expect(c.outliers).toBe(1);
    const r = evaluateDwell(fixes, p);
    expect(r.evidence.rejected).toEqual({ inaccurate: 1, outliers: 1 });
    expect(r.evidence.distance_m!.max).toBeLessThan(11);
  });

  it('invents nothing without pings', () => {
    const r = evaluateDwell([], p);
    expect(r.confidence).toBeNull();
    expect(r.evidence).toMatchObject({ pings_in_window: 0, nights_observed: 0, distance_m: null, first_ping_at: null });
  });
});

for (const kind of BACKENDS) {
  describe(`address verification products on ${kind}`, () => {
    let db: TestDb, s: TestServer, rx: Receiver, live: string;
    const call = async (method: string, path: string, key: string, body?: unknown) => {
      const r = await s.request(method, path, body, key);
      return { status: r.status, body: await r.json() as any };
    };
    const order = (key: string, extra: Record<string, unknown> = {}) =>
      call('POST', '/api/v1/verify/addresses', key, { product: 'digital', subject_id: 'cust-1', address: '12 Allen Avenue, Ikeja, Lagos', country: 'NG', ...PIN, consent: true, ...extra });
    const clock = async (key: string) => Date.parse((await call('GET', '/api/v1/sandbox/clock', key)).body.now);
    /** Moves the sandbox clock to just after `ms` (never back). */
    const advanceTo = async (key: string, ms: number) => {
      const now = await clock(key);
      if (ms > now) expect((await call('POST', '/api/v1/sandbox/clock', key, { advance_s: Math.ceil((ms - now) / 1000) + 60 })).status).toBe(200);
    };
    const ping = async (key: string, device: string, fixes: Fix[]) => {
      const r = await call('POST', '/api/v1/track/ping', key, { device, pings: fixes.map((f) => ({ lat: f.lat, lng: f.lng, ts: new Date(f.ts).toISOString(), accuracy_m: f.accuracy_m })) });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
    };
    /** Plays one night: the clock moves past its last fix, then the phone uploads it. */
    const playNight = async (key: string, device: string, at: { lat: number; lng: number }) => {
      const evening = nextEvening(await clock(key));
      const fixes = night(evening, at);
      await advanceTo(key, fixes[fixes.length - 1].ts);
      await ping(key, device, fixes);
      return fixes;
    };

    beforeAll(async () => {
      db = await freshDb(kind);
      s = await startTestServer(db, { SKIP_BUILD: '1', WEBHOOK_ALLOW_PRIVATE: '1', BURST_RPS: '0', VERIFY_SWEEP_MS: '200' });
      rx = await startReceiver();
      live = await s.key({ project: 'kyc' });
    }, 120_000);
    afterAll(async () => { await rx?.close(); await s?.close(); await db?.drop(); });

    it('lists the products with what they check, how long they take and their states', async () => {
      const r = await call('GET', '/api/v1/verify/products', live);
      expect(r.status).toBe(200);
      expect(r.body.products.map((p: any) => p.id)).toEqual(['digital', 'field']);
      for (const p of r.body.products) expect(Object.keys(p.states)).toEqual(['pending', 'verified', 'failed', 'expired', 'cancelled']);
      expect(r.body.products[0].parameters.window_days.default).toBe(14);
      const caps = await (await fetch(s.url + '/api/v1/capabilities')).json() as any;
      expect(caps.capabilities.verify_products).toBe(true);
    });

    it('refuses an order without consent, or with consent false (400), and unknown ids (404)', async () => {
      const { consent: _c, ...noConsent } = { product: 'digital', subject_id: 'cust-1', address: 'Ikeja, Lagos', ...PIN, consent: true };
      let r = await call('POST', '/api/v1/verify/addresses', live, noConsent);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain("'consent'");
      r = await order(live, { consent: false });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_parameter');
      expect((await order(live, { address: undefined })).status).toBe(400);
      expect((await order(live, { min_nights: 20, window_days: 10 })).status).toBe(400);
      expect((await order(live, { timezone: 'Mars/Olympus' })).status).toBe(400);
      expect((await order(live, { product: 'field', device: 'x' })).status).toBe(400);
      for (const id of ['avr_' + 'A'.repeat(20), 'nope']) {
        expect((await call('GET', `/api/v1/verify/addresses/${id}`, live)).status).toBe(404);
        expect((await call('POST', `/api/v1/verify/addresses/${id}/cancel`, live)).status).toBe(404);
        expect((await call('DELETE', `/api/v1/verify/addresses/${id}`, live)).status).toBe(404);
      }
    });

    it('digital, test key: three nights at the pin on the sandbox clock → verified, webhook received', async () => {
      const test = await s.key({ project: 'kyc-verified', test: true });
      const hook = (await call('POST', '/api/v1/webhooks', test, { url: rx.url + '/verified', events: ['address_verification.completed'] })).body.webhook;
      expect(hook.secret).toMatch(/^whsec_/);
      const o = await order(test, { subject_id: 'cust-v', device: 'phone-v' });
      expect(o.status).toBe(201);
      const v = o.body.address_verification;
      expect(v).toMatchObject({ status: 'pending', livemode: false, product: 'digital', device: 'phone-v', parameters: { window_days: 14, min_nights: 3, radius_m: 100, timezone: 'Africa/Lagos' } });
      // A ping from before the order does not count: consent starts with the order.
      await ping(test, 'phone-v', night(nextEvening(Date.parse(v.window.start) - 3 * DAY), PIN));
      const nights: Fix[][] = [];
      for (let i = 0; i < 3; i++) nights.push(await playNight(test, 'phone-v', north(15)));
      // The evaluator finds the new pings on its own (no read): the webhook arrives.
      await rx.waitFor((g) => g.some((x) => x.headers['user-agent'] === 'svc-webhooks/1' && JSON.parse(x.body).data?.address_verification?.id === v.id));
      const ev = JSON.parse(rx.got.find((x) => JSON.parse(x.body).data?.address_verification?.id === v.id)!.body);
      expect(ev).toMatchObject({ type: 'address_verification.completed', livemode: false, project: 'kyc-verified' });
      expect(ev.data.address_verification).toMatchObject({ status: 'verified', reason: 'enough_nights' });
      expect(ev.data.address_verification.trail_url).toBeUndefined();
      const got = (await call('GET', `/api/v1/verify/addresses/${v.id}`, test)).body.address_verification;
      expect(got).toMatchObject({ status: 'verified', reason: 'enough_nights', confidence: 1 });
      expect(got.evidence).toMatchObject({ nights_observed: 3, nights_at_pin: 3, dwell_hours_at_pin: 12, pings_in_window: 75 });
      expect(got.evidence.distance_m.median).toBeCloseTo(15, 0);
      // Completed when the third night reached two hours at the pin.
      expect(got.completed_at).toBe(new Date(nights[2][12].ts).toISOString());
      expect(got.trail_url).toContain('/api/v1/track/phone-v?trail=1');
      // Without the tracking scope, no way to the trail.
      const noTrack = await s.key({ project: 'kyc-verified', test: true, scopes: ['logistics'] });
      expect((await call('GET', `/api/v1/verify/addresses/${v.id}`, noTrack)).body.address_verification.trail_url).toBeUndefined();
      // Sandbox rows are invisible to live keys of the same project.
      const liveSame = await s.key({ project: 'kyc-verified' });
      expect((await call('GET', `/api/v1/verify/addresses/${v.id}`, liveSame)).status).toBe(404);
      expect((await call('GET', '/api/v1/verify/addresses', liveSame)).body.address_verifications).toEqual([]);
      // Live keys run on real time and cannot move it.
      expect((await call('POST', '/api/v1/sandbox/clock', liveSame, { advance_s: 60 })).status).toBe(403);
      expect((await call('GET', '/api/v1/sandbox/clock', liveSame)).body.simulated).toBe(false);
      // Completed means completed: no cancel, and the event was sent once.
      expect((await call('POST', `/api/v1/verify/addresses/${v.id}/cancel`, test)).status).toBe(409);
      await new Promise((r) => setTimeout(r, 500));
      expect(rx.got.filter((x) => JSON.parse(x.body).data?.address_verification?.id === v.id)).toHaveLength(1);
    }, 60_000);

    it('digital, test key: nights elsewhere → failed when the window ends, with distance statistics', async () => {
      const test = await s.key({ project: 'kyc-failed', test: true });
      const v = (await order(test, { subject_id: 'cust-f', window_days: 5, min_nights: 2 })).body.address_verification;
      await playNight(test, 'cust-f', north(20)); // one night at the pin
      for (let i = 0; i < 3; i++) await playNight(test, 'cust-f', north(2000)); // then 2 km away
      expect((await call('GET', `/api/v1/verify/addresses/${v.id}`, test)).body.address_verification.status).toBe('pending');
      await advanceTo(test, Date.parse(v.window.end));
      const got = (await call('GET', `/api/v1/verify/addresses/${v.id}`, test)).body.address_verification;
      expect(got).toMatchObject({ status: 'failed', reason: 'not_enough_nights', completed_at: v.window.end, confidence: 0.13 });
      expect(got.evidence).toMatchObject({ nights_observed: 4, nights_at_pin: 1 });
      expect(got.evidence.distance_m.median).toBeGreaterThan(1900);
      expect(got.evidence.nights.map((n: any) => n.counted)).toEqual([true, false, false, false]);
    }, 60_000);

    it('digital, test key: no ping at all → expired, nothing invented', async () => {
      const test = await s.key({ project: 'kyc-expired', test: true });
      const v = (await order(test, { subject_id: 'cust-e' })).body.address_verification;
      const moved = await call('POST', '/api/v1/sandbox/clock', test, { advance_s: 15 * 86400 });
      expect(moved.body).toMatchObject({ simulated: true, completed: 1 });
      const got = (await call('GET', `/api/v1/verify/addresses/${v.id}`, test)).body.address_verification;
      expect(got).toMatchObject({ status: 'expired', reason: 'no_pings', confidence: null, completed_at: v.window.end });
      expect(got.evidence).toMatchObject({ pings_in_window: 0, nights_observed: 0, distance_m: null });
      const listed = (await call('GET', '/api/v1/verify/addresses?status=expired', test)).body.address_verifications;
      expect(listed.map((x: any) => x.id)).toEqual([v.id]);
    });

    it('field, live key: a visit at the pin → verified; too far → failed (rejected); the photo URL is checked', async () => {
      const hook = (await call('POST', '/api/v1/webhooks', live, { url: rx.url + '/field', events: ['address_verification.completed'] })).body.webhook;
      expect(hook.id).toBeTruthy();
      const a = (await order(live, { product: 'field', subject_id: 'cust-a' })).body.address_verification;
      expect(a.parameters).toMatchObject({ window_days: 7, radius_m: 50 });
      const visit = (id: string, at: { lat: number; lng: number }, extra: Record<string, unknown> = {}) =>
        call('POST', `/api/v1/verify/addresses/${id}/visits`, live, { photo_url: 'https://cdn.example.com/v/1.jpg', ...at, accuracy_m: 6, visited_at: new Date().toISOString(), agent: 'agent-7', ...extra });
      expect((await visit(a.id, north(10), { photo_url: 'https://169.254.169.254/latest' })).status).toBe(400);
      expect((await visit(a.id, north(10), { photo_url: 'http://cdn.example.com/v/1.jpg' })).status).toBe(400);
      expect((await visit(a.id, north(10), { visited_at: '2020-01-01T00:00:00Z' })).status).toBe(400); // before the order
      let r = await visit(a.id, north(20));
      expect(r.status).toBe(201);
      expect(r.body.address_verification).toMatchObject({ status: 'verified', reason: 'agent_at_pin', livemode: true });
      expect(r.body.address_verification.visits).toMatchObject([{ seq: 1, accepted: true, agent: 'agent-7' }]);
      expect(r.body.address_verification.confidence).toBeCloseTo(0.8, 1);
      expect((await visit(a.id, north(20))).status).toBe(409); // one visit decides

      const b = (await order(live, { product: 'field', subject_id: 'cust-b' })).body.address_verification;
      r = await visit(b.id, north(400));
      expect(r.status).toBe(201);
      expect(r.body.address_verification).toMatchObject({ status: 'failed', reason: 'visit_far_from_pin', confidence: 0 });
      expect(r.body.address_verification.evidence.distance_m).toBeGreaterThan(390);
      const c = (await order(live, { product: 'field', subject_id: 'cust-c' })).body.address_verification;
      expect((await visit(c.id, north(5), { accuracy_m: 300 })).body.address_verification).toMatchObject({ status: 'failed', reason: 'visit_fix_imprecise' });

      const d = (await order(live, { subject_id: 'cust-d' })).body.address_verification;
      expect((await visit(d.id, north(5))).status).toBe(409); // digital takes no visits
      await rx.waitFor((g) => g.filter((x) => x.body.includes('"livemode":true') && x.body.includes('address_verification.completed')).length >= 3);
      const types = rx.got.filter((x) => JSON.parse(x.body).livemode === true).map((x) => JSON.parse(x.body).data.address_verification.status);
      expect(types.sort()).toEqual(['failed', 'failed', 'verified']);
    });

    it('cancel: pending → cancelled (once); the list pages with a cursor', async () => {
      const k = await s.key({ project: 'kyc-list' });
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await order(k, { subject_id: `list-${i}` })).body.address_verification.id);
      let r = await call('POST', `/api/v1/verify/addresses/${ids[1]}/cancel`, k);
      expect(r.status).toBe(200);
      expect(r.body.address_verification).toMatchObject({ status: 'cancelled', reason: 'cancelled_by_caller' });
      expect((await call('POST', `/api/v1/verify/addresses/${ids[1]}/cancel`, k)).status).toBe(409);
      const p1 = (await call('GET', '/api/v1/verify/addresses?limit=2', k)).body;
      expect(p1.address_verifications.map((x: any) => x.id)).toEqual(ids.slice(0, 2));
      const p2 = (await call('GET', `/api/v1/verify/addresses?limit=2&cursor=${p1.next_cursor}`, k)).body;
      expect(p2.address_verifications.map((x: any) => x.id)).toEqual(ids.slice(2));
      expect(p2.next_cursor).toBeNull();
      expect((await call('GET', '/api/v1/verify/addresses?cursor=bogus', k)).status).toBe(400);
      expect((await call('GET', '/api/v1/verify/addresses?subject_id=list-2', k)).body.address_verifications.map((x: any) => x.id)).toEqual([ids[2]]);
    });

    it("delete: the verification, and on request the subject's pings (the cached trail too)", async () => {
      const k = await s.key({ project: 'kyc-delete' });
      const v = (await order(k, { subject_id: 'cust-del' })).body.address_verification;
      const now = Date.now();
      await ping(k, 'cust-del', [{ ts: now - 2 * M, ...PIN, accuracy_m: 5 }, { ts: now - M, ...PIN, accuracy_m: 5 }]);
      const before = await call('GET', '/api/v1/track/cust-del?trail=1', k);
      expect(before.body.trail).toHaveLength(2);
      let r = await call('DELETE', `/api/v1/verify/addresses/${v.id}?delete_pings=true`, k);
      expect(r.body).toMatchObject({ deleted: true, id: v.id, pings_deleted: 2 });
      expect((await call('GET', `/api/v1/verify/addresses/${v.id}`, k)).status).toBe(404);
      // (Another query than the cached one, so its entry stays in the cache for the check below.)
      const after = await call('GET', '/api/v1/track/cust-del?trail=1&limit=500', k);
      expect(after.body).toMatchObject({ last: null, trail: [] });
      // Two new pings bring the count back to 2: the old cached trail must not come back.
      await ping(k, 'cust-del', [{ ts: now - 30_000, ...PIN, accuracy_m: 5 }, { ts: now - 20_000, ...PIN, accuracy_m: 5 }]);
      const again = await call('GET', '/api/v1/track/cust-del?trail=1', k);
      expect(again.body.trail.map((p: any) => p.ts)).toEqual([new Date(now - 30_000).toISOString(), new Date(now - 20_000).toISOString()]);
      // Without delete_pings the pings stay.
      const w = (await order(k, { subject_id: 'cust-del' })).body.address_verification;
      r = await call('DELETE', `/api/v1/verify/addresses/${w.id}`, k);
      expect(r.body.pings_deleted).toBe(0);
      expect((await call('GET', '/api/v1/track/cust-del?trail=1', k)).body.trail).toHaveLength(2);
    });

    it('evaluations racing on one verification record one outcome and queue one event', async () => {
      const test = await s.key({ project: 'kyc-race', test: true });
      await call('POST', '/api/v1/webhooks', test, { url: rx.url + '/race', events: ['address_verification.completed'] });
      const v = (await order(test, { subject_id: 'cust-race', min_nights: 1 })).body.address_verification;
      await playNight(test, 'cust-race', PIN);
      // Reads, a cancel and the background sweep all evaluate the now verified row at once.
      const all = await Promise.all([
        ...Array.from({ length: 6 }, () => call('GET', `/api/v1/verify/addresses/${v.id}`, test)),
        call('POST', `/api/v1/verify/addresses/${v.id}/cancel`, test),
        call('GET', '/api/v1/verify/addresses', test),
      ]);
      expect(all.slice(0, 6).map((r) => r.body.address_verification.status)).toEqual(Array(6).fill('verified'));
      expect(all[6].status).toBe(409);
      const events = await s.app.ctx.store.query("SELECT payload FROM webhook_events WHERE project_id = 'kyc-race' AND type = 'address_verification.completed'");
      expect(events.rows.map((e) => JSON.parse(e.payload).data.address_verification.id)).toEqual([v.id]);
    });

    it('fuzzes every POST body of the verification endpoints: never a 5xx', async () => {
      const test = await s.key({ project: 'kyc-fuzz', test: true });
      const field = (await order(live, { product: 'field', subject_id: 'fz' })).body.address_verification;
      const junk: unknown[] = [
        null, 0, -1, 1e308, 'NaN', 'Infinity', '', ' ', true, false, [], [[]], {}, { a: { b: [1, { d: null }] } }, '\u0000', 'x'.repeat(5000),
        -0, 9007199254740993, { __proto__: { lat: 1 } }, { constructor: 1 }, 'Mars/Olympus', '2026-13-45T99:99:99Z', 'https://127.0.0.1/x',
      ];
      const keys = ['product', 'subject_id', 'device', 'address', 'components', 'country', 'lat', 'lng', 'consent', 'window_days', 'min_nights',
        'radius_m', 'timezone', 'external_ref', 'photo_url', 'visited_at', 'accuracy_m', 'agent', 'advance_s'];
      const base = { product: 'digital', subject_id: 'fz', address: 'Ikeja', ...PIN, consent: true, photo_url: 'https://a.example.com/x.jpg', visited_at: new Date().toISOString(), advance_s: 60 };
      const posts: [string, string][] = [['/api/v1/verify/addresses', live], [`/api/v1/verify/addresses/${field.id}/visits`, live], ['/api/v1/sandbox/clock', test], ['/api/v1/verify/addresses', test]];
      let seed = 11;
      const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
      for (const [p, k] of posts) {
        for (const j of junk) {
          const r = await fetch(s.url + p, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' }, body: JSON.stringify(j) });
          expect(r.status, `${p} ${JSON.stringify(j)?.slice(0, 40)}`).toBeLessThan(500);
        }
        for (let i = 0; i < 40; i++) {
          const b: Record<string, unknown> = { ...base };
          for (let m = 0; m < 3; m++) b[keys[rnd(keys.length)]] = junk[rnd(junk.length)];
          const r = await fetch(s.url + p, { method: 'POST', headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' }, body: JSON.stringify(b) });
          expect(r.status, `${p} ${JSON.stringify(b).slice(0, 160)}`).toBeLessThan(500);
        }
      }
      const cursor = (v: unknown) => '?cursor=' + Buffer.from(JSON.stringify(v)).toString('base64url');
      for (const q of ['?limit=0', '?limit=1e3', '?cursor=%00', '?cursor=' + 'A'.repeat(400), '?status=nope', '?subject_id=%00',
        cursor(['1', 'avr_' + 'A'.repeat(20)]), cursor(['2026-01-01 00:00:00+00', 'avr_\u0000']), cursor(['2026-99-99 00:00:00+00', 'avr_' + 'A'.repeat(20)])]) {
        expect((await s.get('/api/v1/verify/addresses' + q, live)).status, q).toBe(400);
      }
    }, 120_000);

    it('a pending verification is completed by the evaluator after a restart', async () => {
      const test = await s.key({ project: 'kyc-restart', test: true });
      const v = (await order(test, { subject_id: 'cust-r', min_nights: 1 })).body.address_verification;
      await s.close();
      // A server whose evaluator sweeps only at start: the pings below are evaluated by nobody yet.
      s = await startTestServer(db, { SKIP_BUILD: '1', WEBHOOK_ALLOW_PRIVATE: '1', BURST_RPS: '0', VERIFY_SWEEP_MS: '3600000' });
      await playNight(test, 'cust-r', PIN);
      const status = async () => (await s.app.ctx.store.query("SELECT status FROM address_verifications WHERE project_id = 'kyc-restart' AND id = $1", [v.id])).rows[0].status;
      expect(await status()).toBe('pending');
      await s.close();
      s = await startTestServer(db, { SKIP_BUILD: '1', WEBHOOK_ALLOW_PRIVATE: '1', BURST_RPS: '0', VERIFY_SWEEP_MS: '3600000' });
      const t0 = Date.now();
      while ((await status()) === 'pending' && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
      expect(await status()).toBe('verified');
    }, 60_000);
  });
}

describe('the address is resolved by address verification when the gazetteer is loaded', () => {
  let db: TestDb, s: TestServer, key: string;
  beforeAll(async () => {
    db = freshPglite();
    await buildTestGazetteer(join(db.dataDir, 'built'));
    s = await startTestServer(db, { SKIP_BUILD: '1', BURST_RPS: '0' });
    key = await s.key({ project: 'kyc-geo' });
  }, 600_000);
  afterAll(async () => { await s?.close(); await db?.drop(); });

  const order = async (body: Record<string, unknown>) => {
    const r = await s.request('POST', '/api/v1/verify/addresses', { product: 'field', subject_id: 'geo-1', consent: true, ...body }, key);
    expect(r.status).toBe(201);
    return ((await r.json()) as any).address_verification;
  };

  it('keeps the verdict with the order, and reads nights in the country of the pin', async () => {
    const v = await order({ product: 'digital', address: 'Allen Avenue, Ikeja, Lagos', ...PIN });
    expect(v.address.resolution).toMatchObject({ country_code: 'NG' });
    expect(v.address.resolution.granularity).not.toBe('none');
    expect(v.address.country).toBe('NG');
    expect(v.parameters.timezone).toBe('Africa/Lagos');
    const k = await order({ components: { street: 'Ngong Road', locality: 'Nairobi' }, lat: -1.3, lng: 36.78 });
    expect(k.parameters.timezone).toBe('Africa/Nairobi');
  });

  it('says when the pin is far from the address', async () => {
    const v = await order({ address: 'Allen Avenue, Ikeja, Lagos', lat: 5.5735, lng: -0.1925 }); // a pin in Accra
    expect(v.address.resolution.issues.map((i: any) => i.code)).toContain('pin_far_from_address');
    expect(v.address.resolution.pin_consistent).toBe(false);
    expect(v.parameters.timezone).toBe('Africa/Accra');
  });
});
