// A trip link's page in real headless Chromium (Debian's /usr/bin/chromium through playwright-core,
// WebGL on SwiftShader): our map drawn from our tiles with only the link's token, the device's marker
// where its last ping is, moved when the device moves, and the page saying the trip has ended once
// the link is revoked; not one request leaves this host and none is refused.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildTestTiles, trunkVertex } from '../maps/fixture.ts';
import { PALETTES } from '../../src/core/maps/style.ts';

declare const window: any;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const freePort = () => new Promise<number>((res) => { const srv = createServer().listen(0, '127.0.0.1', () => { const p = (srv.address() as any).port; srv.close(() => res(p)); }); });

let db: TestDb;
let s: TestServer;
let browser: Browser;
let key: string;
let road: [number, number];
const outside: string[] = [];
const refused: string[] = [];

beforeAll(async () => {
  db = freshPglite();
  const built = join(db.dataDir, 'built');
  await buildTestTiles(built);
  // as a ping is stored: to 1e-7°
  road = trunkVertex(built).map((x) => Math.round(x * 1e7) / 1e7) as [number, number];
  const port = await freePort();
  s = await startTestServer(db, { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` });
  key = await s.key({ plan: 'enterprise' });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'] });
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await db?.drop();
});

const ping = (lat: number, lng: number) => s.post('/api/v1/track/ping', { device: 'moto-3', lat, lng, ts: new Date().toISOString() }, key);

async function landPixels(page: Page, colour: string): Promise<number> {
  const img = await loadImage(await page.screenshot());
  const cv = createCanvas(img.width, img.height), c2 = cv.getContext('2d');
  c2.drawImage(img, 0, 0);
  const d = c2.getImageData(0, 0, img.width, img.height).data, want = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - want[0]) <= 28 && Math.abs(d[i + 1] - want[1]) <= 28 && Math.abs(d[i + 2] - want[2]) <= 28) n++;
  return n;
}

describe('the trip page in headless Chromium', () => {
  it('draws the map with the link\'s token, follows the device, and ends when the link is revoked', async () => {
    expect((await ping(road[0], road[1])).status).toBe(202);
    const link = (await (await s.post('/api/v1/trip-links', { device: 'moto-3', label: 'Your rider Kofi' }, key)).json() as any).link;
    const ctx = await browser.newContext({ viewport: { width: 600, height: 400 } });
    const host = new URL(s.url).host;
    await ctx.route('**/*', (route) => {
      const u = new URL(route.request().url());
      if (u.host === host) return route.continue();
      outside.push(u.href);
      return route.abort();
    });
    const page = await ctx.newPage();
    page.on('response', (r) => { if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`); });
    const res = await page.goto(link.url);
    expect(res!.status()).toBe(200);
    expect(await page.content()).not.toMatch(/svc_(live|test)_/);
    await page.waitForSelector(`body[data-lat="${road[0]}"]`, { timeout: 60_000 });
    await page.evaluate(() => window.svcMap.whenIdle());
    expect(await page.locator('.maplibregl-marker').count()).toBe(1);
    expect(await page.locator('#label').innerText()).toBe('Your rider Kofi');
    expect(await landPixels(page, PALETTES.day.land)).toBeGreaterThan(20_000); // our tiles, opened by the token
    // the device moves ~100 m: the marker follows within one poll
    const moved = [Math.round((road[0] + 0.001) * 1e7) / 1e7, road[1]];
    await ping(moved[0], moved[1]);
    await page.waitForSelector(`body[data-lat="${moved[0]}"]`, { timeout: 15_000 });
    expect(await page.locator('.maplibregl-marker').count()).toBe(1);
    // revoked: the page says so at its next poll (a node trusts a link's row for 2 s)
    expect((await s.request('DELETE', `/api/v1/trip-links/${link.id}`, undefined, key)).status).toBe(200);
    await page.waitForSelector('body[data-ended="1"]', { timeout: 15_000 });
    expect(await page.locator('#state').innerText()).toMatch(/ended/);
    // only the feed's 410 after the revocation; every style, tile, glyph and sprite request was answered
    expect(refused.filter((r) => !/^410 .*\/position$/.test(r))).toEqual([]);
    expect(refused.length).toBeGreaterThan(0);
    expect(outside).toEqual([]);
    await ctx.close();
  }, 300_000);
});
