// GET /weather against a loopback upstream that replays a real recorded Open-Meteo answer,
// fails, is slow, or answers garbage: cache per cell, stale-while-revalidate, timeout, breaker.
import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, REPO, type TestServer } from '../helpers/server.ts';
import { weatherUpstream } from '../../src/weather/service.ts';

const RECORDED = readFileSync(join(REPO, 'test/fixtures/open-meteo-forecast-2026-03-02.json'), 'utf8');
/** 2026-03-02 10:30 in the recording's zone (UTC+1). */
const NOW = Date.parse('2026-03-02T09:30:00Z');
const json = (r: Response): Promise<any> => r.json();

type Mode = 'ok' | 'fail' | 'slow' | 'garbage';

describe('GET /weather', () => {
  let db: TestDb, noneDb: TestDb, s: TestServer, none: TestServer, key: string, upstream: Server;
  let mode: Mode = 'ok';
  let hits: URL[] = [];
  const up = () => weatherUpstream(s.app.ctx);

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      hits.push(new URL(req.url!, 'http://x'));
      if (mode === 'fail') { res.writeHead(500).end('{"error":true,"reason":"boom"}'); return; }
      if (mode === 'garbage') { res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":1}'); return; }
      const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(RECORDED);
      if (mode === 'slow') setTimeout(send, 1500); else send();
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    db = freshPglite();
    s = await startTestServer(db, { WEATHER_URL: url, WEATHER_TIMEOUT_MS: '300' });
    key = await s.key();
    noneDb = freshPglite();
    none = await startTestServer(noneDb, {});
  });
  afterAll(async () => {
    await s?.close(); await none?.close(); await db?.drop(); await noneDb?.drop();
    upstream?.closeAllConnections(); upstream?.close();
  });
  beforeEach(() => { mode = 'ok'; hits = []; });

  it('without an upstream: 503 weather_unavailable with Retry-After, and the capability is off', async () => {
    const k = await none.key();
    const r = await none.get('/api/v1/weather?lat=-1.29&lng=36.82', k);
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await json(r)).error.code).toBe('weather_unavailable');
    expect((await json(await none.get('/api/v1/capabilities'))).capabilities.weather).toBe(false);
  });

  it('passes the recorded values through: current hour, daily max/min and the dominant code', async () => {
    expect((await json(await s.get('/api/v1/capabilities'))).capabilities.weather).toBe(false);
    up().now = () => NOW;
    const r = await s.get('/api/v1/weather?lat=50.01&lng=10.02&days=2', key);
    const d = await json(r);
    expect(r.status, JSON.stringify(d)).toBe(200);
    expect(hits).toHaveLength(1);
    expect(hits[0].pathname).toBe('/v1/forecast');
    expect(hits[0].searchParams.get('latitude')).toBe('50.0');
    expect(hits[0].searchParams.get('hourly')).toContain('temperature_2m');
    const w = d.weather;
    expect(w.timezone).toBe('Europe/Berlin');
    expect(w.current).toMatchObject({ time: '2026-03-02T10:00', temperature_c: 4.9, weather_code: 2, condition: 'Partly cloudy', wind_speed_kph: 5.6, wind_direction_deg: 117 });
    expect(w.daily).toHaveLength(2);
    expect(w.daily[0]).toMatchObject({ date: '2026-03-02', temperature_max_c: 13.1, temperature_min_c: -0.7, precipitation_mm: 0, weather_code: 45, condition: 'Fog', wind_speed_max_kph: 14.3 });
    expect(w.daily[1]).toMatchObject({ date: '2026-03-03', temperature_max_c: 12.8, temperature_min_c: -1.1 });
    expect(w.source.stale).toBe(false);
    expect(d.attribution).toBeTruthy();
    expect((await json(await s.get('/api/v1/capabilities'))).capabilities.weather).toBe(true);
  });

  it('caches per 0.1° cell: a second call and a nearby pin in the same cell do not reach the upstream', async () => {
    up().now = () => NOW + 60_000;
    expect((await s.get('/api/v1/weather?lat=50.0&lng=10.0', key)).status).toBe(200);
    expect((await s.get('/api/v1/weather?location=50.04,9.96', key)).status).toBe(200);
    expect(hits).toHaveLength(0);
    expect((await s.get('/api/v1/weather?lat=50.2&lng=10.0', key)).status).toBe(200);
    expect(hits).toHaveLength(1);
  });

  it('serves a stale entry at once while the upstream fails, and says it is stale', async () => {
    up().now = () => NOW + 2 * 3600_000;
    mode = 'fail';
    const r = await s.get('/api/v1/weather?lat=50.0&lng=10.0&days=1', key);
    const d = await json(r);
    expect(r.status, JSON.stringify(d)).toBe(200);
    expect(d.weather.source.stale).toBe(true);
    expect(d.weather.current.time).toBe('2026-03-02T12:00');
    await new Promise((r) => setTimeout(r, 50));
    expect(hits.length).toBeGreaterThanOrEqual(1); // the background refresh was tried
  });

  it('times out a slow upstream with 503 when nothing is cached, then opens the breaker', async () => {
    up().now = () => NOW;
    mode = 'slow';
    const t0 = performance.now();
    const r = await s.get('/api/v1/weather?lat=-6.8&lng=39.3', key);
    expect(r.status).toBe(503);
    expect(performance.now() - t0).toBeLessThan(1200);
    mode = 'garbage';
    for (let i = 0; i < 6; i++) await s.get(`/api/v1/weather?lat=-${10 + i}.0&lng=30.0`, key);
    const before = hits.length;
    const shut = await s.get('/api/v1/weather?lat=-20.0&lng=30.0', key);
    expect(shut.status).toBe(503);
    expect(Number(shut.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(hits.length).toBe(before); // the open breaker did not call the upstream
    up().now = () => NOW + 60_000; // after the open window, one call is let through again
    mode = 'ok';
    expect((await s.get('/api/v1/weather?lat=-20.0&lng=30.0', key)).status).toBe(200);
  });

  it('rejects bad input with 400 naming the parameter', async () => {
    for (const [q, name] of [['lat=91&lng=0', 'lat'], ['lat=1&lng=2&days=8', 'days'], ['lng=2', 'lat'], ['lat=x&lng=2', 'lat']] as const) {
      const r = await s.get(`/api/v1/weather?${q}`, key);
      expect(r.status, q).toBe(400);
      expect((await json(r)).error.message).toContain(`'${name}'`);
    }
  });
});
