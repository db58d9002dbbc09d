// Outgoing webhooks end to end on a real server: endpoints managed over /api/v1/webhooks,
// events emitted by the logistics writes, signed deliveries to a loopback receiver
// (WEBHOOK_ALLOW_PRIVATE=1), retries with back-off, the delivery log, replay, test/live separation.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { BACKENDS, freshDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { verifySignature, signatureHeader } from '../../src/webhooks/sign.ts';
import { checkWebhookUrl } from '../../src/webhooks/target.ts';
import { RETRY_SCHEDULE_S } from '../../src/webhooks/dispatcher.ts';

const call = (s: TestServer, method: string, path: string, key: string, body?: unknown): Promise<Omit<Response, 'json'> & { json(): Promise<any> }> =>
  fetch(s.url + path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

describe('signatures', () => {
  it('verifies its own header and refuses a changed body, secret or an old timestamp', () => {
    const body = '{"id":"evt_1","type":"pod.created"}';
    const h = signatureHeader('whsec_abc', body);
    expect(h).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature('whsec_abc', h, body)).toBe(true);
    expect(verifySignature('whsec_abc', h, body + ' ')).toBe(false);
    expect(verifySignature('whsec_abd', h, body)).toBe(false);
    const old = signatureHeader('whsec_abc', body, Math.floor(Date.now() / 1000) - 3600);
    expect(verifySignature('whsec_abc', old, body)).toBe(false);
  });

  it('retries for about 24 hours in all', () => {
    const total = RETRY_SCHEDULE_S.reduce((a, b) => a + b, 0);
    expect(total / 3600).toBeGreaterThan(23);
    expect(total / 3600).toBeLessThan(25);
  });

  it('refuses private, loopback and plain-http targets unless the operator allows them', () => {
    for (const u of ['http://example.com/h', 'https://127.0.0.1/h', 'https://10.1.2.3/h', 'https://localhost/h', 'https://[::1]/h', 'https://169.254.169.254/latest', 'https://u:p@example.com/h']) {
      expect(() => checkWebhookUrl(u, false), u).toThrow();
    }
    expect(checkWebhookUrl('https://hooks.example.com/svc', false)).toBe('https://hooks.example.com/svc');
    expect(checkWebhookUrl('http://127.0.0.1:9/h', true)).toBe('http://127.0.0.1:9/h');
  });
});

for (const kind of BACKENDS) {
  describe(`webhooks on ${kind}`, () => {
    let db: TestDb, s: TestServer, rx: Receiver, live: string, test: string, other: string;

    beforeAll(async () => {
      db = await freshDb(kind);
      s = await startTestServer(db, { SKIP_BUILD: '1', WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_BACKOFF_SCALE: '0.005', BURST_RPS: '0' });
      rx = await startReceiver();
      live = await s.key({ project: 'hooks' });
      test = await s.key({ project: 'hooks', test: true });
      other = await s.key({ project: 'elsewhere' });
    }, 120_000);
    afterAll(async () => { await rx?.close(); await s?.close(); await db?.drop(); });

    it('trip_outcome_webhook is on: the delivery machinery is registered and running', async () => {
      const c = (await (await fetch(s.url + '/api/v1/capabilities')).json() as any);
      expect(c.capabilities.trip_outcome_webhook).toBe(true);
      expect(c.notes.trip_outcome_webhook).toMatch(/Svc-Signature/);
    });

    it('private targets are refused by a server without the operator override', async () => {
      const sdb = await freshDb('pglite');
      const strict = await startTestServer(sdb, { SKIP_BUILD: '1' });
      try {
        const k = await strict.key();
        const r = await call(strict, 'POST', '/api/v1/webhooks', k, { url: rx.url, events: ['pod.created'] });
        expect(r.status).toBe(400);
        expect((await r.json() as any).error.message).toMatch(/url/);
      } finally { await strict.close(); await sdb.drop(); }
    }, 60_000);

    it('creates, lists, reads, updates and deletes endpoints; validation names the field', async () => {
      let r = await call(s, 'POST', '/api/v1/webhooks', live, { url: rx.url, events: ['nope.event'] });
      expect(r.status).toBe(400);
      r = await call(s, 'POST', '/api/v1/webhooks', live, { url: 'ftp://x.example.com', events: ['pod.created'] });
      expect(r.status).toBe(400);
      r = await call(s, 'POST', '/api/v1/webhooks', live, { url: rx.url + '/tmp', events: ['pod.created'], description: 'tmp' });
      expect(r.status).toBe(201);
      const w = (await r.json() as any).webhook;
      expect(w.secret).toMatch(/^whsec_/);
      expect(w.mode).toBe('live');
      r = await call(s, 'GET', `/api/v1/webhooks/${w.id}`, live);
      const got = (await r.json() as any).webhook;
      expect(got.secret).toBeUndefined(); // shown once
      expect((await call(s, 'GET', `/api/v1/webhooks/${w.id}`, other)).status).toBe(404); // another project
      expect((await call(s, 'GET', `/api/v1/webhooks/${w.id}`, test)).status).toBe(404); // the other mode
      r = await call(s, 'PATCH', `/api/v1/webhooks/${w.id}`, live, { enabled: false, events: ['dispute.opened'] });
      expect((await r.json() as any).webhook).toMatchObject({ enabled: false, events: ['dispute.opened'] });
      const listed = (await (await call(s, 'GET', '/api/v1/webhooks', live)).json() as any).webhooks;
      expect(listed.map((x: any) => x.id)).toContain(w.id);
      expect((await call(s, 'DELETE', `/api/v1/webhooks/${w.id}`, live)).status).toBe(200);
      expect((await call(s, 'GET', `/api/v1/webhooks/${w.id}`, live)).status).toBe(404);
      const trail = await s.app.ctx.store.query("SELECT action FROM audit_log WHERE project_id = 'hooks' AND target = $1 ORDER BY id", [w.id]);
      expect(trail.rows.map((x) => x.action)).toEqual(['webhook.create', 'webhook.update', 'webhook.delete']);
    });

    it('delivers every event type, signed, to subscribed endpoints of the same mode only', async () => {
      const secretOf: Record<string, string> = {};
      const mk = async (key: string, path: string, events: string[]) => {
        const w = (await (await call(s, 'POST', '/api/v1/webhooks', key, { url: rx.url + path, events })).json() as any).webhook;
        secretOf[path] = w.secret;
        return w;
      };
      await mk(live, '/live', ['trip_outcome.recorded', 'pod.created', 'dispute.opened', 'stop.pin_confirmed']);
      await mk(test, '/test', ['trip_outcome.recorded', 'stop.pin_confirmed']);
      await mk(other, '/other', ['trip_outcome.recorded', 'stop.pin_confirmed']);
      rx.got.length = 0;

      // Live: a stop, its pin confirmation, a POD, a dispute and a trip outcome.
      const stop = (await (await call(s, 'POST', '/api/v1/stops', live, { lat: 6.4281, lng: 3.4219, address: '1 Test Close', country: 'NG' })).json() as any).stop;
      expect((await call(s, 'POST', '/api/v1/stops/confirm', live, { stop_id: stop.id, lat: 6.4282, lng: 3.4220 })).status).toBe(200);
      const pod = (await (await call(s, 'POST', '/api/v1/pod', live, { stop_id: stop.id, photo_url: 'https://cdn.example.com/p.jpg', delivered_at: new Date().toISOString(), lat: 6.4282, lng: 3.422 })).json() as any).pod;
      expect(pod.id).toMatch(/^pod_/);
      expect((await call(s, 'POST', '/api/v1/disputes', live, { pod_id: pod.id, reason: 'not received' })).status).toBe(201);
      expect((await call(s, 'POST', '/api/v1/integrations/logistics-partner/trip-outcome', live, { trip_id: 'trip-live-1', outcome: 'delivered', pins: [{ lat: 6.4, lng: 3.4, found: true }] })).status).toBe(200);
      // Test key: one trip outcome, to the test endpoint only.
      expect((await call(s, 'POST', '/api/v1/integrations/logistics-partner/trip-outcome', test, { trip_id: 'trip-test-1', outcome: 'failed', pins: [{ lat: 6.4, lng: 3.4 }] })).status).toBe(200);

      await rx.waitFor((g) => g.filter((x) => x.headers['user-agent'] === 'svc-webhooks/1').length >= 5);
      await new Promise((r) => setTimeout(r, 300)); // nothing more should arrive
      const live5 = rx.got.filter((g) => JSON.parse(g.body).livemode === true);
      const test1 = rx.got.filter((g) => JSON.parse(g.body).livemode === false);
      expect(live5.map((g) => JSON.parse(g.body).type).sort()).toEqual(['dispute.opened', 'pod.created', 'stop.pin_confirmed', 'trip_outcome.recorded']);
      expect(test1.map((g) => JSON.parse(g.body).type)).toEqual(['trip_outcome.recorded']);
      expect(rx.got.every((g) => JSON.parse(g.body).project === 'hooks')).toBe(true); // 'elsewhere' wrote nothing
      for (const g of live5) expect(verifySignature(secretOf['/live'], String(g.headers['svc-signature']), g.body)).toBe(true);
      expect(verifySignature(secretOf['/test'], String(test1[0].headers['svc-signature']), test1[0].body)).toBe(true);
      expect(verifySignature(secretOf['/live'], String(test1[0].headers['svc-signature']), test1[0].body)).toBe(false);
      const trip = JSON.parse(live5.find((g) => JSON.parse(g.body).type === 'trip_outcome.recorded')!.body);
      expect(trip).toMatchObject({ object: 'event', livemode: true, data: { trip_outcome: { trip_id: 'trip-live-1', outcome: 'delivered' } } });
      expect(trip.id).toBe(live5.find((g) => JSON.parse(g.body).type === 'trip_outcome.recorded')!.headers['svc-event-id']);
      const conf = JSON.parse(live5.find((g) => JSON.parse(g.body).type === 'stop.pin_confirmed')!.body);
      expect(conf.data.stop).toMatchObject({ id: stop.id, pinConfirmed: true });
    }, 60_000);

    it('retries a failing endpoint with back-off, logs every attempt, and replays on request', async () => {
      const w = (await (await call(s, 'POST', '/api/v1/webhooks', live, { url: rx.url + '/flaky', events: ['trip_outcome.recorded'] })).json() as any).webhook;
      // Only this endpoint should see the next event: disable the others of the project's live mode.
      for (const x of (await (await call(s, 'GET', '/api/v1/webhooks', live)).json() as any).webhooks) {
        if (x.id !== w.id) await call(s, 'PATCH', `/api/v1/webhooks/${x.id}`, live, { enabled: false });
      }
      rx.got.length = 0;
      rx.script.push(500, 503, 200);
      expect((await call(s, 'POST', '/api/v1/integrations/logistics-partner/trip-outcome', live, { trip_id: 'trip-flaky', outcome: 'delivered', pins: [{ lat: 6.4, lng: 3.4 }] })).status).toBe(200);
      await rx.waitFor((g) => g.length >= 3);
      const gaps = [rx.got[1].at - rx.got[0].at, rx.got[2].at - rx.got[1].at];
      // Scaled schedule: 30 s and 60 s times 0.005 = 150 ms and 300 ms (plus up to 10% jitter).
      expect(gaps[0]).toBeGreaterThanOrEqual(140);
      expect(gaps[1]).toBeGreaterThanOrEqual(290);
      expect(rx.got.map((g) => g.headers['svc-delivery-attempt'])).toEqual(['1', '2', '3']);
      const ids = new Set(rx.got.map((g) => JSON.parse(g.body).id));
      expect(ids.size).toBe(1); // the same event each time

      let log: any;
      for (let i = 0; i < 40; i++) {
        log = (await (await call(s, 'GET', `/api/v1/webhooks/${w.id}/deliveries`, live)).json() as any).deliveries;
        if (log[0]?.status === 'delivered') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(log[0]).toMatchObject({ status: 'delivered', attempts: 3, last_status: 200 });
      expect(log[0].attempt_log.map((a: any) => a.status)).toEqual([500, 503, 200]);

      rx.got.length = 0;
      const r = await call(s, 'POST', `/api/v1/webhooks/${w.id}/replay`, live, { event_id: log[0].event_id });
      expect(r.status).toBe(202);
      expect((await r.json() as any).queued).toBe(1);
      await rx.waitFor((g) => g.length >= 1);
      expect(JSON.parse(rx.got[0].body).id).toBe(log[0].event_id);
      expect((await call(s, 'POST', `/api/v1/webhooks/${w.id}/replay`, live, { event_id: 'evt_missing' })).status).toBe(404);
    }, 60_000);

    it('a rolled-back write emits nothing', async () => {
      const before = (await s.app.ctx.store.query('SELECT count(*)::int AS n FROM webhook_events')).rows[0].n;
      // Unknown stop: the confirmation transaction finds nothing and answers 404.
      expect((await call(s, 'POST', '/api/v1/stops/confirm', live, { stop_id: 'stp_AAAAAAAAAAAAAAAAAAAA', lat: 6.4, lng: 3.4 })).status).toBe(404);
      expect((await s.app.ctx.store.query('SELECT count(*)::int AS n FROM webhook_events')).rows[0].n).toBe(before);
    });
  });
}
