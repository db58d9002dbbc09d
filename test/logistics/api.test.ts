// The proof layer over HTTP on both backends: stops, delivery codes, tracking, POD,
// disputes, trip outcomes, geofences and fleet; project and sandbox isolation on every
// endpoint; and junk input that must never produce a 500.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { BACKENDS, freshDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ATTRIBUTION } from '../../src/core/attribution.ts';
import { checkResponse } from '../helpers/responses.ts';

const LEKKI = { lat: 6.4281, lng: 3.4219 };
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(BACKENDS)('proof layer over HTTP (%s)', (backend) => {
  let db: TestDb;
  let s: TestServer;
  let live: string; // project acme, live
  let test: string; // project acme, sandbox
  let other: string; // project rival, live
  const send = async (method: string, path: string, key: string | null, body?: unknown) => {
    const r = await fetch(s.url + '/api/v1' + path, {
      method, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    });
    await checkResponse(s.app.ctx.routes, method, '/api/v1' + path, r);
    const text = await r.text();
    let json: any = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: r.status, body: json, text };
  };
  const post = (p: string, b: unknown, k = live) => send('POST', p, k, b);
  const get = (p: string, k = live) => send('GET', p, k);
  const del = (p: string, k = live) => send('DELETE', p, k);

  beforeAll(async () => {
    db = await freshDb(backend);
    s = await startTestServer(db, { BURST_RPS: '0' });
    live = await s.key({ project: 'acme' });
    test = await s.key({ project: 'acme', test: true });
    other = await s.key({ project: 'rival' });
  });
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });

  describe('stops and delivery codes', () => {
    it('creates a stop unconfirmed, with a delivery code that resolves', async () => {
      const r = await post('/stops', { ...LEKKI, address: '12 Admiralty Way, Lekki', external_ref: 'order-1', country: 'ng' });
      expect(r.status).toBe(201);
      const st = r.body.stop;
      expect(st.id).toMatch(/^stp_/);
      expect(st.pinConfirmed).toBe(false);
      expect(st.delivery_code).toMatch(/^NG-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
      expect(st.pin).toMatchObject({ lat: LEKKI.lat, lng: LEKKI.lng, confirmed_at: null });
      expect(st.pin_history).toEqual([]);
      expect(r.body.attribution).toBe(ATTRIBUTION);

      const d = await get(`/delivery/${st.delivery_code}`);
      expect(d.status).toBe(200);
      expect(d.body.delivery).toMatchObject({ code: st.delivery_code, stop_id: st.id, lat: LEKKI.lat, lng: LEKKI.lng, address: '12 Admiralty Way, Lekki', pinConfirmed: false });
      // People type codes in lower case without hyphens.
      expect((await get(`/delivery/${st.delivery_code.toLowerCase().replace(/-/g, '')}`)).status).toBe(200);
      // One character off: the check catches it (400), not a lookup miss.
      const code: string = st.delivery_code;
      const i = code.length - 2;
      const typo = code.slice(0, i) + (code[i] === '2' ? '3' : '2') + code.slice(i + 1);
      const t = await get(`/delivery/${typo}`);
      expect(t.status).toBe(400);
      expect(t.body.error.message).toMatch(/'code'.*check character/);
      expect((await get('/delivery/ZZ-2222-2222')).status).toBe(400);
      expect((await get('/delivery/hello')).status).toBe(400);
    });

    it('answers 404 for a well-formed code nobody holds', async () => {
      // Find a code with a valid check character that no stop has.
      const { newCode } = await import('../../src/api/logistics/delivery-code.ts');
      const r = await get(`/delivery/${newCode('GH')}`);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    });

    it('only /stops/confirm sets pinConfirmed, and every confirmation is kept', async () => {
      const c = (await post('/stops', { ...LEKKI, external_ref: 'order-2' })).body.stop;
      expect(c.delivery_code).toMatch(/^ZZ-/); // no country given: neutral prefix
      const a = await post('/stops/confirm', { stop_id: c.id, lat: 6.4285, lng: 3.4222, accuracy_m: 8, confirmed_by: 'recipient' });
      expect(a.status).toBe(200);
      expect(a.body.stop).toMatchObject({ id: c.id, pinConfirmed: true, pin: { lat: 6.4285, lng: 3.4222, accuracy_m: 8, confirmed_by: 'recipient' } });
      expect(a.body.stop.pin.confirmed_at).toMatch(/^\d{4}-/);
      expect(a.body.stop.moved_from_requested_m).toBeGreaterThan(30);
      const b = await post('/stops/confirm', { external_ref: 'order-2', lat: 6.4286, lng: 3.4223, confirmed_at: '2026-01-02T03:04:05Z', confirmed_by: 'driver' });
      expect(b.status).toBe(200);
      expect(b.body.stop.pin_history.map((h: any) => [h.seq, h.confirmed_by])).toEqual([[1, 'recipient'], [2, 'driver']]);
      expect(b.body.stop.pin.confirmed_at).toBe('2026-01-02T03:04:05.000Z');
      const g = await get(`/stops/${c.id}`);
      expect(g.body.stop.pinConfirmed).toBe(true);
      expect(g.body.stop.pin_history).toHaveLength(2);
      expect(g.body.stop.requested_pin).toEqual(LEKKI);
      expect((await get(`/delivery/${c.delivery_code}`)).body.delivery).toMatchObject({ pinConfirmed: true, lat: 6.4286 });
      // A pinConfirmed field on create is ignored: creation never confirms.
      const x = await post('/stops', { ...LEKKI, pinConfirmed: true });
      expect(x.body.stop.pinConfirmed).toBe(false);
    });

    it('names the field on bad input and answers 404/409 where due', async () => {
      const cases: [string, unknown, number, RegExp][] = [
        ['/stops', { lat: 91, lng: 0 }, 400, /'lat'/],
        ['/stops', { lat: 6 }, 400, /'lng' is required/],
        ['/stops', { lat: '6', lng: 3 }, 400, /'lat' must be a number/],
        ['/stops', { ...LEKKI, country: 'US' }, 400, /'country'/],
        ['/stops', { ...LEKKI, address: 'x'.repeat(501) }, 400, /'address'/],
        ['/stops', { ...LEKKI, external_ref: 'order-1' }, 409, /'external_ref'/],
        ['/stops', [], 400, /JSON object/],
        ['/stops/confirm', { lat: 1, lng: 1 }, 400, /'stop_id'/],
        ['/stops/confirm', { stop_id: 'stp_nope', lat: 1, lng: 1 }, 404, /stop/],
        ['/stops/confirm', { stop_id: 'stp_' + 'A'.repeat(20), lat: 1, lng: 1 }, 404, /stop/],
        ['/stops/confirm', { external_ref: 'nobody', lat: 1, lng: 1 }, 404, /nobody/],
        ['/stops/confirm', { external_ref: 'order-1', lat: 1, lng: 1, accuracy_m: -1 }, 400, /'accuracy_m'/],
        ['/stops/confirm', { external_ref: 'order-1', lat: 1, lng: 1, confirmed_at: 'yesterday' }, 400, /'confirmed_at'/],
      ];
      for (const [p, b, st, re] of cases) {
        const r = await post(p, b);
        expect(r.status, `${p} ${JSON.stringify(b).slice(0, 80)}`).toBe(st);
        expect(r.body.error.message).toMatch(re);
      }
      expect((await get('/stops/stp_missing')).status).toBe(404);
    });
  });

  describe('tracking', () => {
    const t0 = Date.now() - 3600_000;

    it('a trail is empty until a real ping arrives', async () => {
      const r = await get('/track/van-empty?trail=1');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ device: 'van-empty', last: null, trail: [] });
    });

    it('takes single pings and batches, idempotent on (device, ts)', async () => {
      const one = await post('/track/ping', { device: 'van-1', lat: 6.45, lng: 3.39, ts: iso(t0), speed_mps: 4.5, heading_deg: 90, accuracy_m: 5 });
      expect(one.status).toBe(202);
      expect(one.body).toMatchObject({ accepted: 1, duplicates: 0 });
      const pings = Array.from({ length: 300 }, (_, i) => ({ lat: 6.45 + i * 1e-4, lng: 3.39, ts: t0 + (i + 1) * 1000 }));
      const b = await post('/track/ping', { device: 'van-1', pings });
      expect(b.body).toMatchObject({ accepted: 300, duplicates: 0 });
      // The same batch again plus the first ping, and a batch with an internal duplicate.
      const again = await post('/track/ping', { device: 'van-1', pings: [...pings, { lat: 1, lng: 1, ts: t0 }] });
      expect(again.status).toBe(202);
      expect(again.body).toMatchObject({ accepted: 0, duplicates: 301 });
      const dup = await post('/track/ping', { pings: [{ device: 'van-2', lat: 1, lng: 1, ts: t0 }, { device: 'van-2', lat: 1, lng: 1, ts: t0 }] });
      expect(dup.body).toMatchObject({ accepted: 1, duplicates: 1 });
    });

    it('concurrent requests share commits but each gets its own exact counts', async () => {
      // 30 requests at once, every ping sent by two of them: 150 unique pings in all.
      const reqs = Array.from({ length: 30 }, (_, r) => ({
        device: 'van-group',
        pings: Array.from({ length: 10 }, (_, i) => ({ lat: 1, lng: 1, ts: t0 + (Math.floor(r / 2) * 10 + i) * 1000 })),
      }));
      const out = await Promise.all(reqs.map((b) => post('/track/ping', b)));
      for (const r of out) {
        expect(r.status).toBe(202);
        expect(r.body.accepted + r.body.duplicates).toBe(10);
      }
      expect(out.reduce((a, r) => a + r.body.accepted, 0)).toBe(150);
      expect((await get('/track/van-group?trail=1&limit=1000')).body.trail).toHaveLength(150);
    });

    it('answers last position and the trail in time order, with since/until/limit paging', async () => {
      // Out-of-order arrival must still read back in time order.
      await post('/track/ping', { device: 'van-3', pings: [3, 1, 2].map((k) => ({ lat: k, lng: k, ts: t0 + k * 1000 })) });
      const r = await get('/track/van-3?trail=1');
      expect(r.body.trail.map((p: any) => p.lat)).toEqual([1, 2, 3]);
      expect(r.body.last).toMatchObject({ lat: 3, lng: 3, ts: iso(t0 + 3000), speed_mps: null });
      expect(r.body.trail[0]).toEqual({ lat: 1, lng: 1, ts: iso(t0 + 1000), speed_mps: null, heading_deg: null, accuracy_m: null });
      // Without trail=1: only the last position.
      const n = await get('/track/van-3');
      expect(n.body.trail).toBeUndefined();
      expect(n.body.last.lat).toBe(3);

      const full = await get('/track/van-1?trail=1&limit=10000');
      expect(full.body.trail).toHaveLength(301);
      expect(full.body.last).toMatchObject({ speed_mps: null });
      const ts = full.body.trail.map((p: any) => Date.parse(p.ts));
      expect(ts).toEqual([...ts].sort((a, b) => a - b));
      expect(full.body.trail[0]).toMatchObject({ speed_mps: 4.5, heading_deg: 90, accuracy_m: 5 });
      // Latest N by default; with since, the first N from since, and a cursor to continue.
      const latest = await get('/track/van-1?trail=1&limit=5');
      expect(latest.body.trail.map((p: any) => p.ts)).toEqual(full.body.trail.slice(-5).map((p: any) => p.ts));
      expect(latest.body.page).toMatchObject({ count: 5, has_more: true });
      let since = iso(t0);
      const seen: string[] = [];
      for (let k = 0; k < 10 && since; k++) {
        const pg = await get(`/track/van-1?trail=1&limit=100&since=${encodeURIComponent(since)}`);
        seen.push(...pg.body.trail.map((p: any) => p.ts));
        since = pg.body.page.has_more ? pg.body.page.next_since : '';
      }
      expect(seen).toEqual(full.body.trail.map((p: any) => p.ts));
      const win = await get(`/track/van-1?trail=1&since=${t0 + 10_000}&until=${encodeURIComponent(iso(t0 + 19_000))}`);
      expect(win.body.trail).toHaveLength(10);
    });

    it('a repeated trail read never serves a stale trail; a late ping joins the trail but not last', async () => {
      const dev = 'van-cache';
      await post('/track/ping', { device: dev, pings: [{ lat: 1, lng: 1, ts: t0 + 10_000 }, { lat: 2, lng: 2, ts: t0 + 20_000 }] });
      const a = await get(`/track/${dev}?trail=1`);
      expect((await get(`/track/${dev}?trail=1`)).text).toBe(a.text);
      await post('/track/ping', { device: dev, lat: 3, lng: 3, ts: t0 + 30_000 });
      const b = await get(`/track/${dev}?trail=1`);
      expect(b.body.trail.map((p: any) => p.lat)).toEqual([1, 2, 3]);
      expect(b.body.last.lat).toBe(3);
      // An older ping arriving late: in the trail, in time order; last stays the newest.
      await post('/track/ping', { device: dev, lat: 1.5, lng: 1.5, ts: t0 + 15_000 });
      const c = await get(`/track/${dev}?trail=1`);
      expect(c.body.trail.map((p: any) => p.lat)).toEqual([1, 1.5, 2, 3]);
      expect(c.body.last.lat).toBe(3);
      const v = (await get('/fleet/vehicles')).body.vehicles.find((x: any) => x.device === dev);
      expect(v.last).toMatchObject({ lat: 3, ts: iso(t0 + 30_000) });
      // The sandbox's cache entry is its own.
      expect((await get(`/track/${dev}?trail=1`, test)).body.trail).toEqual([]);
      // Coordinates are kept to 1e-7 degrees.
      await post('/track/ping', { device: dev, lat: 6.123456789, lng: 3.000000049, ts: t0 + 40_000 });
      expect((await get(`/track/${dev}`)).body.last).toMatchObject({ lat: 6.1234568, lng: 3 });
    });

    it('serves the trail as GeoJSON', async () => {
      const g = await get('/track/van-3?trail=1&format=geojson');
      expect(g.status).toBe(200);
      expect(g.body.type).toBe('Feature');
      expect(g.body.geometry).toEqual({ type: 'LineString', coordinates: [[1, 1], [2, 2], [3, 3]] });
      expect(g.body.properties.coordTimes).toHaveLength(3);
      expect((await get('/track/van-empty?format=geojson')).body.geometry).toBeNull();
    });

    it('stores what PostgreSQL can hold: sub-normal speeds round to 0, a batch never poisons', async () => {
      // `real` refuses magnitudes below ~1e-38; values are stored to two decimals instead.
      const k = await s.key({ project: 'pg-types' }); // its own project: the fleet list below stays as it was
      const tiny = { speed_mps: 1e-50, heading_deg: 1e-50, accuracy_m: 1e-50 };
      const one = await post('/track/ping', { device: 'van-tiny', lat: 1e-50, lng: 3.4, ts: t0, ...tiny }, k);
      expect(one.status, one.text).toBe(202);
      const trail = (await get('/track/van-tiny?trail=1', k)).body.trail;
      expect(trail[0]).toMatchObject({ lat: 0, speed_mps: 0, heading_deg: 0, accuracy_m: 0 });
      expect((await post('/track/ping', { device: 'van-tiny', lat: 1, lng: 1, ts: t0 + 1, speed_mps: 12.3456 }, k)).status).toBe(202);
      expect((await get('/track/van-tiny?trail=1', k)).body.trail[1].speed_mps).toBeCloseTo(12.35, 5);
      // One such ping in a 1,000-ping batch: the batch commits, and its retry is all duplicates.
      const batch = { device: 'van-batch-tiny', pings: Array.from({ length: 1000 }, (_, i) => ({ lat: 6.4, lng: 3.4, ts: t0 + i, ...(i === 500 ? tiny : { speed_mps: 3 }) })) };
      const first = await post('/track/ping', batch, k);
      expect(first.status, first.text).toBe(202);
      expect(first.body.accepted).toBe(1000);
      const again = await post('/track/ping', batch, k);
      expect(again.body).toMatchObject({ accepted: 0, duplicates: 1000 });
    });

    it('refuses unpaired UTF-16 surrogates in any stored string with a 400 naming the field', async () => {
      const lone = [
        ['/stops', `{"lat":6.4,"lng":3.4,"address":"a\\ud800b"}`, /'address'/],
        ['/stops', `{"lat":6.4,"lng":3.4,"external_ref":"\\udc00"}`, /'external_ref'/],
        ['/integrations/logistics-partner/trip-outcome', `{"trip_id":"t-sur","outcome":"delivered","pins":[{"lat":1,"lng":1,"note":"x\\ud800"}]}`, /'pins\[0\]\.note'/],
        ['/track/ping', `{"device":"v","lat":1,"lng":1,"ts":${t0},"extra":"\\ud800"}`, /'extra'/],
        ['/geofence/zones', `{"name":"z\\udbff","polygon":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}}`, /'name'/],
      ] as const;
      const k = await s.key({ project: 'pg-types' });
      for (const [path, body, re] of lone) {
        const r = await post(path, body, k);
        expect(r.status, `${path} ${body}`).toBe(400);
        expect(r.body.error.message, body).toMatch(re);
        expect(r.body.error.message).toMatch(/surrogate/);
      }
      // A proper pair (an emoji) is stored and read back unchanged.
      const ok = await post('/stops', `{"lat":6.4,"lng":3.4,"address":"Gate \\ud83d\\ude9a 4"}`, k);
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body.stop.address).toBe('Gate \u{1F69A} 4');
      const nul = await post('/stops', { lat: 6.4, lng: 3.4, address: 'a\u0000b' }, k);
      expect(nul.status).toBe(400);
      expect(nul.body.error.message).toMatch(/'address' contains control characters/);
    });

    it('rejects implausible pings and bad query parameters', async () => {
      const bad: [unknown, RegExp][] = [
        [{ device: 'v', lat: 95, lng: 0, ts: Date.now() }, /'lat'/],
        [{ device: 'v', lat: 0, lng: 0, ts: Date.now() + 3600_000 }, /'ts'.*future/],
        [{ device: 'v', lat: 0, lng: 0, ts: 1_700_000_000 }, /'ts'/],
        [{ device: 'v', lat: 0, lng: 0, ts: '1e999' }, /'ts'/],
        [{ device: 'v', lat: 0, lng: 0 }, /'ts' is required/],
        [{ device: 'ping', lat: 0, lng: 0, ts: Date.now() }, /reserved/],
        [{ pings: Array.from({ length: 1001 }, (_, i) => ({ device: 'v', lat: 0, lng: 0, ts: t0 + i })) }, /at most 1000/],
      ];
      for (const [b, re] of bad) {
        const r = await post('/track/ping', b);
        expect(r.status, JSON.stringify(b).slice(0, 60)).toBe(400);
        expect(r.body.error.message).toMatch(re);
      }
      // A bad ping anywhere rejects the whole batch: nothing half-written.
      const r = await post('/track/ping', { device: 'van-half', pings: [{ lat: 0, lng: 0, ts: t0 }, { lat: 0, lng: 200, ts: t0 + 1 }] });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(/'pings\[1\]\.lng'/);
      expect((await get('/track/van-half?trail=1')).body.trail).toEqual([]);
      for (const q of ['limit=0', 'limit=10001', 'limit=abc', 'since=yesterday', 'format=kml', `since=${t0 + 5000}&until=${t0}`]) {
        expect((await get(`/track/van-1?trail=1&${q}`)).status, q).toBe(400);
      }
      expect((await get('/track/van-1?trail=maybe')).status).toBe(400);
      expect((await get('/track/bad%20device?trail=1')).status).toBe(400);
    });

    it('lists the fleet with last positions', async () => {
      const r = await get('/fleet/vehicles');
      expect(r.status).toBe(200);
      const byDev = Object.fromEntries(r.body.vehicles.map((v: any) => [v.device, v]));
      expect(Object.keys(byDev).sort()).toEqual(['van-1', 'van-2', 'van-3', 'van-cache', 'van-group']);
      expect(byDev['van-3'].last).toMatchObject({ lat: 3, lng: 3, ts: iso(t0 + 3000) });
      expect(byDev['van-1'].last.ts).toBe(iso(t0 + 300_000));
      const p1 = await get('/fleet/vehicles?limit=2');
      expect(p1.body.vehicles).toHaveLength(2);
      expect(p1.body.has_more).toBe(true);
      const p2 = await get(`/fleet/vehicles?limit=2&after=${p1.body.next_after}`);
      expect(p2.body.vehicles.map((v: any) => v.device)).toEqual(['van-3', 'van-cache']);
      expect(p2.body.has_more).toBe(true);
      expect((await get('/fleet/vehicles?limit=0')).status).toBe(400);
    });
  });

  describe('proof of delivery and disputes', () => {
    let stop: any;
    const deliveredAt = Date.now() - 20 * 60_000;
    beforeAll(async () => {
      stop = (await post('/stops', { ...LEKKI, country: 'NG' })).body.stop;
      await post('/stops/confirm', { stop_id: stop.id, ...LEKKI, accuracy_m: 5 });
      // The driver's phone: a trail through the delivery time, and one ping far outside the window.
      const pings = Array.from({ length: 61 }, (_, i) => ({ lat: LEKKI.lat + (i - 30) * 1e-5, lng: LEKKI.lng, ts: deliveredAt + (i - 30) * 60_000 / 2 }));
      await post('/track/ping', { device: 'rider-7', pings: [...pings, { lat: 0, lng: 0, ts: deliveredAt - 5 * 3600_000 }] });
    });

    it('stores metadata with the distance from the confirmed pin', async () => {
      const r = await post('/pod', { stop_id: stop.id, photo_url: 'https://cdn.shop.example.com/pod/1.jpg', recipient_name: 'Ada', delivered_at: iso(deliveredAt), lat: LEKKI.lat + 0.0002, lng: LEKKI.lng, device: 'rider-7' });
      expect(r.status).toBe(201);
      expect(r.body.pod).toMatchObject({ stored: true, stop_id: stop.id, delivery_code: stop.delivery_code, far_from_pin: false, flags: [], recipient_name: 'Ada', pin: { confirmed: true } });
      expect(r.body.pod.id).toMatch(/^pod_/);
      expect(r.body.pod.distance_from_pin_m).toBeGreaterThan(20);
      expect(r.body.pod.distance_from_pin_m).toBeLessThan(25);
      expect((await get(`/pod/${r.body.pod.id}`)).body.pod.id).toBe(r.body.pod.id);
      // By delivery code, far away: flagged.
      const far = await post('/pod', { delivery_code: stop.delivery_code.toLowerCase(), photo_url: 'https://cdn.shop.example.com/pod/2.jpg', delivered_at: iso(deliveredAt), lat: LEKKI.lat + 0.01, lng: LEKKI.lng });
      expect(far.status).toBe(201);
      expect(far.body.pod).toMatchObject({ far_from_pin: true, flags: ['far_from_pin'] });
      expect(far.body.pod.distance_from_pin_m).toBeGreaterThan(1000);
    });

    it('rejects unsafe photo addresses and bad fields', async () => {
      const base = { stop_id: stop.id, delivered_at: iso(deliveredAt), ...LEKKI };
      for (const u of ['http://cdn.shop.com/a.jpg', 'https://u:p@cdn.shop.com/a.jpg', 'https://127.0.0.1/a.jpg', 'https://10.0.0.8/a.jpg', 'https://[::1]/a.jpg', 'https://nas.local/a.jpg', 'https://169.254.169.254/a', 'file:///etc/passwd']) {
        const r = await post('/pod', { ...base, photo_url: u });
        expect(r.status, u).toBe(400);
        expect(r.body.error.message).toMatch(/'photo_url'/);
      }
      const cases: [unknown, number, RegExp][] = [
        [{ ...base, photo_url: undefined }, 400, /'photo_url' is required/],
        [{ ...base, photo_url: 'https://cdn.shop.com/a.jpg', delivered_at: undefined }, 400, /'delivered_at'/],
        [{ ...base, photo_url: 'https://cdn.shop.com/a.jpg', stop_id: undefined }, 400, /'stop_id'/],
        [{ ...base, photo_url: 'https://cdn.shop.com/a.jpg', stop_id: undefined, delivery_code: 'NG-2222-2222' }, 400, /'delivery_code'/],
        [{ ...base, photo_url: 'https://cdn.shop.com/a.jpg', partner: 'Bad Slug' }, 400, /'partner'/],
        [{ ...base, photo_url: 'https://cdn.shop.com/a.jpg', stop_id: 'stp_' + 'x'.repeat(20) }, 404, /stop/],
      ];
      for (const [b, st, re] of cases) {
        const r = await post('/pod', b);
        expect(r.status, JSON.stringify(b)).toBe(st);
        expect(r.body.error.message).toMatch(re);
      }
    });

    it('test keys: validated, answered stored:false, nothing written', async () => {
      const ts = (await post('/stops', LEKKI, test)).body.stop;
      const before = await s.app.ctx.store.query('SELECT count(*)::int AS n FROM pods');
      const r = await post('/pod', { stop_id: ts.id, photo_url: 'https://cdn.shop.example.com/pod/t.jpg', delivered_at: iso(deliveredAt), ...LEKKI }, test);
      expect(r.status).toBe(200);
      expect(r.body.pod).toMatchObject({ stored: false, id: null, stop_id: ts.id, distance_from_pin_m: 0 });
      expect((await post('/pod', { stop_id: ts.id, photo_url: 'http://x.com/a', delivered_at: iso(deliveredAt), ...LEKKI }, test)).status).toBe(400);
      const after = await s.app.ctx.store.query('SELECT count(*)::int AS n FROM pods');
      expect(after.rows[0].n).toBe(before.rows[0].n);
    });

    it('opens a dispute with an evidence pack: stop, pins, POD and the trail around delivery', async () => {
      const pod = (await post('/pod', { stop_id: stop.id, photo_url: 'https://cdn.shop.example.com/pod/3.jpg', delivered_at: iso(deliveredAt), ...LEKKI, device: 'rider-7' })).body.pod;
      const r = await post('/disputes', { pod_id: pod.id, reason: 'Customer says nothing arrived', category: 'not_delivered', partner: 'my-shop' });
      expect(r.status).toBe(201);
      const d = r.body.dispute;
      expect(d).toMatchObject({ status: 'open', pod_id: pod.id, stop_id: stop.id, category: 'not_delivered', partner: 'my-shop' });
      expect(d.evidence.stop).toMatchObject({ id: stop.id, pinConfirmed: true });
      expect(d.evidence.pins).toHaveLength(1);
      expect(d.evidence.pod.id).toBe(pod.id);
      // ±30 minutes around delivery: all 61 pings of the approach, not the one 5 h earlier.
      expect(d.evidence.trail).toHaveLength(61);
      expect(d.evidence.trail_window).toMatchObject({ device: 'rider-7', points: 61 });
      const times = d.evidence.trail.map((p: any) => Date.parse(p.ts));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      const g = await get(`/disputes/${d.id}`);
      expect(g.status).toBe(200);
      expect(g.body.dispute).toEqual(d);
      // On a stop: the stop's latest POD is taken in.
      const byStop = await post('/disputes', { stop_id: stop.id, reason: 'Wrong gate' });
      expect(byStop.status).toBe(201);
      expect(byStop.body.dispute.evidence.pod).not.toBeNull();
      // A stop without POD still opens, with an empty trail.
      const bare = (await post('/stops', LEKKI)).body.stop;
      const e = await post('/disputes', { stop_id: bare.id, reason: 'x' });
      expect(e.body.dispute.evidence).toMatchObject({ pod: null, trail: [], pins: [] });
      expect((await post('/disputes', { pod_id: pod.id })).status).toBe(400);
      expect((await post('/disputes', { pod_id: 'pod_nope', reason: 'x' })).status).toBe(404);
      expect((await post('/disputes', { pod_id: pod.id, reason: 'x', category: 'angry' })).status).toBe(400);
      expect((await get('/disputes/dsp_nope')).status).toBe(404);
    });
  });

  describe('trip outcomes', () => {
    it('records a survey and answers UX-only hints, never prices', async () => {
      const st = (await post('/stops', LEKKI)).body.stop;
      const r = await post('/integrations/logistics-partner/trip-outcome', {
        trip_id: 'trip-9', outcome: 'failed', device: 'rider-7',
        pins: [{ stop_id: st.id, lat: LEKKI.lat + 0.005, lng: LEKKI.lng, found: false, accuracy_m: 80, role: 'dropoff' }],
      });
      expect(r.status).toBe(200);
      const codes = r.body.hints.map((h: any) => h.code).sort();
      expect(codes).toEqual(['add_directions', 'confirm_pin', 'offer_reschedule', 'pin_drift', 'poor_gps_fix']);
      expect(r.body.hints_use).toBe('user_experience_only');
      expect(JSON.stringify({ ...r.body, attribution: undefined })).not.toMatch(/\b(price|fare|surge|fee|amount|currency|cost)s?\b/i);
      // Re-posting replaces; a shop's own slug works; bad slugs do not.
      expect((await post('/integrations/logistics-partner/trip-outcome', { trip_id: 'trip-9', outcome: 'delivered', pins: [] })).status).toBe(200);
      const rows = await s.app.ctx.store.query("SELECT outcome FROM trip_outcomes WHERE trip_id = 'trip-9'");
      expect(rows.rows).toEqual([{ outcome: 'delivered' }]);
      expect((await post('/integrations/my-shop/trip-outcome', { trip_id: 't', outcome: 'delivered', pins: [] })).status).toBe(200);
      for (const slug of ['Bad_Slug', '-x', 'a'.repeat(41), 'x%20y']) {
        const b = await post(`/integrations/${slug}/trip-outcome`, { trip_id: 't', outcome: 'delivered', pins: [] });
        expect(b.status, slug).toBe(400);
        expect(b.body.error.message).toMatch(/'slug'/);
      }
      expect((await post('/integrations/logistics-partner/trip-outcome', { trip_id: 't', outcome: 'great', pins: [] })).body.error.message).toMatch(/'outcome'/);
      expect((await post('/integrations/logistics-partner/trip-outcome', { trip_id: 't', outcome: 'delivered', pins: [{ lat: 1 }] })).body.error.message).toMatch(/'pins\[0\]\.lng'/);
      expect((await post('/integrations/logistics-partner/trip-outcome', { trip_id: 't', outcome: 'delivered', pins: [{ stop_id: 'stp_nope', lat: 1, lng: 1 }] })).status).toBe(404);
    });
  });

  describe('geofences', () => {
    const ring = [[3.38, 6.44], [3.41, 6.44], [3.41, 6.47], [3.38, 6.47], [3.38, 6.44]];
    const hole = [[3.39, 6.45], [3.40, 6.45], [3.40, 6.46], [3.39, 6.46], [3.39, 6.45]];

    it('creates, lists, checks (holes excluded), deletes', async () => {
      const z = await post('/geofence/zones', { name: 'Island depot', polygon: { type: 'Polygon', coordinates: [ring, hole] } });
      expect(z.status).toBe(201);
      expect(z.body.zone).toMatchObject({ name: 'Island depot', bbox: [3.38, 6.44, 3.41, 6.47] });
      const id = z.body.zone.id;
      expect((await get('/geofence/zones')).body.zones.map((x: any) => x.id)).toContain(id);
      expect((await get(`/geofence/zones/${id}`)).body.zone.polygon.coordinates).toHaveLength(2);
      expect((await get('/geofence/check?lat=6.445&lng=3.385')).body.inside).toEqual([{ id, name: 'Island depot' }]);
      expect((await get('/geofence/check?lat=6.455&lng=3.395')).body.inside).toEqual([]); // in the hole
      expect((await get('/geofence/check?lat=6.50&lng=3.385')).body.inside).toEqual([]);
      // By a device's last position.
      await post('/track/ping', { device: 'geo-van', lat: 6.445, lng: 3.385, ts: Date.now() - 1000 });
      const d = await get('/geofence/check?device=geo-van');
      expect(d.body).toMatchObject({ point: { lat: 6.445, lng: 3.385, device: 'geo-van' }, inside: [{ id }] });
      expect((await get('/geofence/check?device=nobody')).status).toBe(404);
      expect((await get('/geofence/check?lat=91&lng=0')).status).toBe(400);
      expect((await get('/geofence/check?lng=0')).status).toBe(400);
      expect((await del(`/geofence/zones/${id}`)).body).toMatchObject({ deleted: true, id });
      expect((await del(`/geofence/zones/${id}`)).status).toBe(404);
      expect((await get('/geofence/check?lat=6.445&lng=3.385')).body.inside).toEqual([]);
    });

    it('bounds cost per request: paginated listing, a vertex budget, checks that follow every change', async () => {
      const k = await s.key({ project: 'geo-bounds' });
      const sq = (x: number, y: number, d = 0.01) => ({ type: 'Polygon', coordinates: [[[x, y], [x + d, y], [x + d, y + d], [x, y + d], [x, y]]] });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await post('/geofence/zones', { name: `z${i}`, polygon: sq(3 + i * 0.001, 6) }, k)).body.zone.id);
      // Overlapping squares: a point inside all five lists them in creation order.
      expect((await get('/geofence/check?lat=6.005&lng=3.0085', k)).body.inside.map((z: any) => z.id)).toEqual(ids);
      expect((await get('/geofence/check?lat=6.005&lng=3.0005', k)).body.inside.map((z: any) => z.id)).toEqual([ids[0]]);
      // Pages of 2 walk every zone once, in order.
      const seen: string[] = [];
      let cursor: string | null = null, pages = 0;
      do {
        const r: any = await get(`/geofence/zones?limit=2${cursor ? `&cursor=${cursor}` : ''}`, k);
        expect(r.status).toBe(200);
        expect(r.body.zones.length).toBeLessThanOrEqual(2);
        seen.push(...r.body.zones.map((z: any) => z.id));
        cursor = r.body.next_cursor;
        pages++;
      } while (cursor);
      expect(seen).toEqual(ids);
      expect(pages).toBe(3);
      expect((await get('/geofence/zones', k)).body.zones).toHaveLength(5); // default page holds 20
      expect((await get('/geofence/zones?limit=101', k)).status).toBe(400);
      expect((await get('/geofence/zones?cursor=garbage', k)).body.error.message).toMatch(/'cursor'/);
      // A forged cursor whose time or id PostgreSQL would refuse is a 400 too, never a 500.
      for (const forged of [['1', ids[0]], ['2026-99-99 00:00:00+00', ids[0]], ['2026-01-01 00:00:00+00', 'zon_\u0000']]) {
        expect((await get(`/geofence/zones?cursor=${Buffer.from(JSON.stringify(forged)).toString('base64url')}`, k)).status).toBe(400);
      }
      // A deletion is seen by the next check (the in-memory index follows the database).
      await del(`/geofence/zones/${ids[2]}`, k);
      expect((await get('/geofence/check?lat=6.005&lng=3.0085', k)).body.inside.map((z: any) => z.id)).toEqual([ids[0], ids[1], ids[3], ids[4]]);
      // Vertex budget: 500,000 positions per project; zones of 10,000 positions fit 49 more times (5 small ones hold 20).
      const big = (i: number) => {
        const ring: number[][] = [];
        for (let j = 0; j < 9999; j++) { const a = (2 * Math.PI * j) / 9999; ring.push([10 + i * 0.1 + 0.04 * Math.cos(a), 5 + 0.04 * Math.sin(a)]); }
        ring.push(ring[0]);
        return { type: 'Polygon', coordinates: [ring] };
      };
      const k2 = await s.key({ project: 'geo-budget' });
      for (let i = 0; i < 50; i++) { const r = await post("/geofence/zones", { name: `big${i}`, polygon: big(i) }, k2); expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(201); }
      const over = await post('/geofence/zones', { name: 'one more', polygon: sq(3, 6) }, k2);
      expect(over.status).toBe(409);
      expect(over.body.error.code).toBe('limit_reached');
      expect(over.body.error.message).toMatch(/500000 polygon positions/);
      const page = await get('/geofence/zones', k2);
      expect(page.body.zones).toHaveLength(20);
      expect(typeof page.body.next_cursor).toBe('string');
      expect((await get('/geofence/check?lat=5&lng=10.1', k2)).body.inside.map((z: any) => z.name)).toEqual(['big1']);
    }, 120_000);

    it('validates zones', async () => {
      const cases: [unknown, RegExp][] = [
        [{ polygon: { type: 'Polygon', coordinates: [ring] } }, /'name'/],
        [{ name: 'x' }, /'polygon' is required/],
        [{ name: 'x', polygon: { type: 'Polygon', coordinates: [ring.slice(0, 4)] } }, /closed/],
        [{ name: 'x', polygon: { type: 'Polygon', coordinates: [[[0, 0], [1, 1], [0, 0]]] } }, /at least 4/],
        [{ name: 'x', polygon: { type: 'Polygon', coordinates: [[[0, 0], [1, 100], [1, 1], [0, 0]]] } }, /latitude/],
        [{ name: 'x', polygon: 'POLYGON((0 0, 1 1))' }, /'polygon' must be an object/],
      ];
      for (const [b, re] of cases) {
        const r = await post('/geofence/zones', b);
        expect(r.status).toBe(400);
        expect(r.body.error.message).toMatch(re);
      }
    });
  });

  describe('isolation', () => {
    it("another project's ids are 404 on every endpoint, and its data never shows", async () => {
      const st = (await post('/stops', { ...LEKKI, external_ref: 'iso-1' })).body.stop;
      await post('/stops/confirm', { stop_id: st.id, ...LEKKI });
      const pod = (await post('/pod', { stop_id: st.id, photo_url: 'https://cdn.shop.example.com/p.jpg', delivered_at: iso(Date.now() - 1000), ...LEKKI })).body.pod;
      const dsp = (await post('/disputes', { pod_id: pod.id, reason: 'x' })).body.dispute;
      const zone = (await post('/geofence/zones', { name: 'z', polygon: { type: 'Polygon', coordinates: [[[3.38, 6.44], [3.41, 6.44], [3.41, 6.47], [3.38, 6.44]]] } })).body.zone;
      await post('/track/ping', { device: 'iso-van', lat: 6.45, lng: 3.39, ts: Date.now() - 1000 });

      for (const k of [other, test]) {
        expect((await get(`/stops/${st.id}`, k)).status).toBe(404);
        expect((await post('/stops/confirm', { stop_id: st.id, lat: 1, lng: 1 }, k)).status).toBe(404);
        expect((await post('/stops/confirm', { external_ref: 'iso-1', lat: 1, lng: 1 }, k)).status).toBe(404);
        expect((await get(`/delivery/${st.delivery_code}`, k)).status).toBe(404);
        expect((await post('/pod', { stop_id: st.id, photo_url: 'https://cdn.shop.example.com/p.jpg', delivered_at: iso(Date.now()), ...LEKKI }, k)).status).toBe(404);
        expect((await post('/pod', { delivery_code: st.delivery_code, photo_url: 'https://cdn.shop.example.com/p.jpg', delivered_at: iso(Date.now()), ...LEKKI }, k)).status).toBe(404);
        expect((await get(`/pod/${pod.id}`, k)).status).toBe(404);
        expect((await post('/disputes', { pod_id: pod.id, reason: 'x' }, k)).status).toBe(404);
        expect((await post('/disputes', { stop_id: st.id, reason: 'x' }, k)).status).toBe(404);
        expect((await get(`/disputes/${dsp.id}`, k)).status).toBe(404);
        expect((await post('/integrations/logistics-partner/trip-outcome', { trip_id: 'i', outcome: 'delivered', pins: [{ stop_id: st.id, lat: 1, lng: 1 }] }, k)).status).toBe(404);
        expect((await get(`/geofence/zones/${zone.id}`, k)).status).toBe(404);
        expect((await del(`/geofence/zones/${zone.id}`, k)).status).toBe(404);
        expect((await get('/geofence/zones', k)).body.zones).toEqual([]);
        expect((await get('/geofence/check?lat=6.445&lng=3.39', k)).body.inside).toEqual([]);
        expect((await get('/geofence/check?device=iso-van', k)).status).toBe(404);
        const t = await get('/track/iso-van?trail=1', k);
        expect(t.body).toMatchObject({ last: null, trail: [] });
        expect((await get('/fleet/vehicles', k)).body.vehicles.map((v: any) => v.device)).not.toContain('iso-van');
      }
      // Still there for the owner (nothing above changed it).
      expect((await get(`/geofence/zones/${zone.id}`)).status).toBe(200);
      expect((await get(`/stops/${st.id}`)).body.stop.pin_history).toHaveLength(1);
    });

    it('the sandbox and live data never mix: same device name, separate trails', async () => {
      await post('/track/ping', { device: 'shared', lat: 1, lng: 1, ts: Date.now() - 2000 }, test);
      await post('/track/ping', { device: 'shared', lat: 2, lng: 2, ts: Date.now() - 2000 }, live);
      expect((await get('/track/shared?trail=1', test)).body.trail.map((p: any) => p.lat)).toEqual([1]);
      expect((await get('/track/shared?trail=1', live)).body.trail.map((p: any) => p.lat)).toEqual([2]);
    });
  });

  describe('junk input never yields a 500', () => {
    it('fuzzes every POST body and query of the proof layer', async () => {
      const junk: unknown[] = [
        null, 0, -1, 1e308, 'NaN', 'Infinity', '', ' ', true, [], [[]], {}, { a: { b: { c: [1, { d: null }] } } },
        '\u0000', 'x'.repeat(5000), -0, 9007199254740993, { __proto__: { lat: 1 } }, { constructor: 1 }, [1, 2, 3], { $gt: '' },
      ];
      const keys = ['lat', 'lng', 'ts', 'device', 'pings', 'stop_id', 'external_ref', 'photo_url', 'delivered_at', 'delivery_code', 'pod_id',
        'reason', 'trip_id', 'outcome', 'pins', 'name', 'polygon', 'accuracy_m', 'speed_mps', 'confirmed_at', 'country', 'category', 'partner'];
      const posts = ['/stops', '/stops/confirm', '/track/ping', '/pod', '/disputes', '/integrations/logistics-partner/trip-outcome', '/geofence/zones'];
      let seed = 7;
      const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
      const statuses = new Set<number>();
      for (const p of posts) {
        for (const j of junk) {
          const r = await post(p, j === undefined ? 'null' : JSON.stringify(j));
          expect(r.status, `${p} ${JSON.stringify(j)?.slice(0, 40)}`).toBeLessThan(500);
          statuses.add(r.status);
        }
        for (let i = 0; i < 40; i++) {
          const b: Record<string, unknown> = { lat: 6.4, lng: 3.4, ts: Date.now() - 1000, device: 'fz', photo_url: 'https://a.example.com/x.jpg', delivered_at: Date.now() - 1000, reason: 'x', trip_id: 't', outcome: 'delivered', pins: [], name: 'n' };
          for (let m = 0; m < 3; m++) b[keys[rnd(keys.length)]] = junk[rnd(junk.length)];
          const r = await post(p, b);
          expect(r.status, `${p} ${JSON.stringify(b).slice(0, 120)}`).toBeLessThan(500);
        }
      }
      for (const q of ['/track/x?trail=1&since=99999999999999999999', '/track/x?limit=1e3', '/track/%E0%A4%A?trail=1', '/geofence/check?lat=NaN&lng=1',
        '/geofence/check?lat=1e999&lng=1', '/fleet/vehicles?after=%00', '/delivery/%00', '/delivery/' + 'A'.repeat(500), '/stops/' + 'x'.repeat(300),
        '/disputes/%27%20OR%201=1', '/pod/pod_%27', '/geofence/zones/zon_x', '/track/x?since=-1']) {
        const r = await get(q);
        expect(r.status, q).toBeLessThan(500);
      }
      expect(statuses.has(400)).toBe(true);
    });
  });
});
