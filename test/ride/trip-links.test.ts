// Trip-tracking links end to end: a signed link to one device's live position, its page and feed
// with no key, the map's style and tiles opened by the link's token (read-only, while it lives),
// then revoked by DELETE or by the stop's proof of delivery, or expired → 410; a forged token → 404.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { BACKENDS, freshDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildTestTiles } from '../maps/fixture.ts';
import { tripToken } from '../../src/api/ride/trip-token.ts';

describe.each(BACKENDS)('trip-tracking links (%s)', (backend) => {
  let db: TestDb;
  let s: TestServer;
  let key: string;
  const now = () => new Date().toISOString();
  beforeAll(async () => {
    db = await freshDb(backend);
    await buildTestTiles(join(db.dataDir, 'built'));
    s = await startTestServer(db);
    key = await s.key({ plan: 'enterprise' });
    expect((await s.post('/api/v1/track/ping', { device: 'van-7', lat: 5.5560, lng: -0.1969, ts: now(), speed_mps: 6.5 }, key)).status).toBe(202);
  }, 300_000);
  afterAll(async () => {
    await s?.close();
    await db?.drop();
  });
  const make = async (body: Record<string, unknown>) => {
    const r = await s.post('/api/v1/trip-links', body, key);
    expect(r.status).toBe(201);
    return (await r.json() as any).link;
  };
  // the link as a stranger opens it: no key
  const open = (url: string) => fetch(url);

  it('the capability is on with the tile set loaded', async () => {
    const c = await (await s.get('/api/v1/capabilities')).json() as any;
    expect(c.capabilities.trip_share).toBe(true);
  });

  it('a link shows the live position with no key, and its token opens only the map', async () => {
    const link = await make({ device: 'van-7', expires_in_s: 600, label: 'Your driver Ama' });
    expect(link).toMatchObject({ object: 'trip_link', device: 'van-7', status: 'active', label: 'Your driver Ama' });
    expect(link.url).toBe(`${s.config.baseUrl}/trip/${link.token}`);
    expect(link.url).not.toContain('svc_live_');
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(590_000);
    const page = await open(`${s.url}/trip/${link.token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('cache-control')).toMatch(/no-store/);
    const html = await page.text();
    expect(html).toContain(link.token);
    expect(html).not.toContain(key);
    expect(html).not.toMatch(/svc_(live|test)_/);
    const feed = await open(`${s.url}/trip/${link.token}/position`);
    expect(feed.status).toBe(200);
    const f = await feed.json() as any;
    expect(f.position).toMatchObject({ lat: 5.556, lng: -0.1969, speed_mps: 6.5 });
    expect(f.link).toMatchObject({ device: 'van-7', status: 'active' });
    // the device moves: the feed follows (its row cache is two seconds)
    await s.post('/api/v1/track/ping', { device: 'van-7', lat: 5.5571, lng: -0.1980, ts: now() }, key);
    const moved = await (await open(`${s.url}/trip/${link.token}/position`)).json() as any;
    expect(moved.position).toMatchObject({ lat: 5.5571, lng: -0.198 });
    // the token opens the style (tiles, glyphs, sprites alike), and nothing that needs another scope
    expect((await open(`${s.url}/tiles/style.json?key=${link.token}`)).status).toBe(200);
    expect((await fetch(`${s.url}/api/v1/track/van-7`, { headers: { authorization: `Bearer ${link.token}` } })).status).toBe(403);
    expect((await fetch(`${s.url}/api/v1/trip-links`, { method: 'POST', body: '{"device":"x"}', headers: { authorization: `Bearer ${link.token}`, 'content-type': 'application/json' } })).status).toBe(403);
  });

  it('DELETE revokes: page, feed and tiles stop at once', async () => {
    const link = await make({ device: 'van-7' });
    expect((await open(`${s.url}/trip/${link.token}/position`)).status).toBe(200);
    const del = await s.request('DELETE', `/api/v1/trip-links/${link.id}`, undefined, key);
    expect(del.status).toBe(200);
    expect((await del.json() as any).link).toMatchObject({ status: 'revoked', revoked_reason: 'revoked' });
    for (const u of [`/trip/${link.token}`, `/trip/${link.token}/position`]) {
      const r = await open(s.url + u);
      expect(r.status, u).toBe(410);
      expect((await r.json() as any).error.code).toBe('link_revoked');
    }
    expect((await open(`${s.url}/tiles/style.json?key=${link.token}`)).status).toBe(401);
    expect((await (await s.get(`/api/v1/trip-links/${link.id}`, key)).json() as any).link.status).toBe('revoked');
  });

  it('an expired link answers 410; a token altered or made with another secret is no link (404)', async () => {
    const link = await make({ device: 'van-7', expires_in_s: 60 });
    // the same link with an expiry in the past, signed by the server's secret
    const expired = tripToken(s.config, link.id, new Date(Date.now() - 1000));
    const r = await open(`${s.url}/trip/${expired}/position`);
    expect(r.status).toBe(410);
    expect((await r.json() as any).error.code).toBe('link_expired');
    expect((await open(`${s.url}/trip/${expired}`)).status).toBe(410);
    // pushing the expiry later without the secret breaks the signature
    const [head, , sig] = link.token.split('.');
    const forged = `${head}.${Math.floor(Date.now() / 1000) + 86400 * 30}.${sig}`;
    expect((await open(`${s.url}/trip/${forged}/position`)).status).toBe(404);
    expect((await open(`${s.url}/trip/svctrip_nope/position`)).status).toBe(400);
  });

  it('the stop\'s proof of delivery ends the trip', async () => {
    const stop = (await (await s.post('/api/v1/stops', { lat: 5.5571, lng: -0.1980, address: '1 Example Close, Osu, Accra' }, key)).json() as any).stop;
    const link = await make({ device: 'van-7', stop_id: stop.id });
    expect((await open(`${s.url}/trip/${link.token}/position`)).status).toBe(200);
    const pod = await s.post('/api/v1/pod', { stop_id: stop.id, photo_url: 'https://example.com/pod/7.jpg', delivered_at: now(), lat: 5.5571, lng: -0.1980 }, key);
    expect(pod.status).toBe(201);
    await new Promise((r) => setTimeout(r, 2100)); // the feed trusts a link's row for two seconds
    const r = await open(`${s.url}/trip/${link.token}/position`);
    expect(r.status).toBe(410);
    expect((await r.json() as any).error.message).toMatch(/delivered/);
    expect((await (await s.get(`/api/v1/trip-links/${link.id}`, key)).json() as any).link).toMatchObject({ status: 'revoked', revoked_reason: 'delivered' });
  });

  it('validation, 404s and other projects', async () => {
    expect((await s.post('/api/v1/trip-links', {}, key)).status).toBe(400);
    expect((await s.post('/api/v1/trip-links', { device: 'van-7', expires_in_s: 10 }, key)).status).toBe(400);
    expect((await s.post('/api/v1/trip-links', { device: 'van-7', stop_id: 'stp_nope' }, key)).status).toBe(404);
    const link = await make({ device: 'van-7' });
    const other = await s.key({ project: 'other' });
    expect((await s.get(`/api/v1/trip-links/${link.id}`, other)).status).toBe(404);
    expect((await s.request('DELETE', `/api/v1/trip-links/${link.id}`, undefined, other)).status).toBe(404);
    expect((await s.get('/api/v1/trip-links/0123456789abcdef01234567', key)).status).toBe(404);
  });
});
