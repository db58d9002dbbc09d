// The embed page and the SDK in real headless Chromium (Debian's /usr/bin/chromium through
// playwright-core, WebGL on SwiftShader): a drawn canvas with road pixels where the tiles have a
// road, the night style changing the colours, a route drawn from a /route-shaped answer, the
// geocoder adapter answering OK for Nairobi, and not one request leaving this host.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildTestTiles, buildTestGazetteer, trunkVertex, REPO } from './fixture.ts';
import { createKey } from '../../src/auth/keys.ts';
import { PALETTES } from '../../src/core/maps/style.ts';

// Page code runs in the browser; the test file has no DOM types.
declare const window: any;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// The customer's site: another origin on loopback (served by the test's route handler), so that
// Chromium's local-network-access rules see no public page reaching into a private address space.
let SHOP = '';
let shopServer: ReturnType<typeof createHttpServer>;
let db: TestDb;
let s: TestServer;
let browser: Browser;
let ctx: BrowserContext;
let key: string;
let road: [number, number];
const outside: string[] = [];

const freePort = () => new Promise<number>((res) => { const srv = createServer().listen(0, '127.0.0.1', () => { const p = (srv.address() as any).port; srv.close(() => res(p)); }); });

beforeAll(async () => {
  db = freshPglite();
  const built = join(db.dataDir, 'built');
  const { builtDir } = await buildTestTiles(built);
  await buildTestGazetteer(builtDir);
  const port = await freePort();
  // A real HTTP server for the customer's page: a page the test fulfilled itself would count
  // as public to Chromium, which then refuses its requests into loopback.
  shopServer = createHttpServer((req, res) => { res.setHeader('content-type', 'text/html'); res.end(shopPage(`http://x${req.url}`)); });
  await new Promise<void>((r) => shopServer.listen(0, '127.0.0.1', () => r()));
  SHOP = `http://127.0.0.1:${(shopServer.address() as any).port}`;
  s = await startTestServer(db, { PORT: String(port), BASE_URL: `http://127.0.0.1:${port}` });
  key = (await createKey(s.app.ctx.store, { project: 'shop', plan: 'enterprise', test: false, origins: [SHOP] })).key;
  road = trunkVertex(built);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'] });
  ctx = await browser.newContext({ viewport: { width: 600, height: 400 } });
  const host = new URL(s.url).host;
  await ctx.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (u.host === host) return route.continue();
    if (u.origin === SHOP) return route.continue();
    outside.push(u.href);
    return route.abort();
  });
}, 600_000);
afterAll(async () => {
  await browser?.close();
  shopServer?.close();
  await s?.close();
  await db?.drop();
});

/** The customer's page, served by the test at http://shop.example/?lat=…&lng=…&zoom=…&theme=… */
function shopPage(url: string): string {
  const q = new URL(url).searchParams;
  return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">
<div id="map" style="width:600px;height:400px"></div>
<script src="${s.url}/sdk/v1/svc.js"></script>
<script src="${s.url}/sdk/v1/geocoder.js"></script>
<script>
window.m = new svc.Map({ container: 'map', center: [${Number(q.get('lat'))}, ${Number(q.get('lng'))}], zoom: ${Number(q.get('zoom'))}, theme: ${JSON.stringify(q.get('theme') ?? 'day')}, key: ${JSON.stringify(key)}, preserveDrawingBuffer: true });
m.whenIdle().then(function () { document.body.setAttribute('data-idle', '1'); });
</script></body></html>`;
}

async function pixels(page: Page) {
  const png = await page.screenshot();
  const img = await loadImage(png);
  const cv = createCanvas(img.width, img.height);
  const c2 = cv.getContext('2d');
  c2.drawImage(img, 0, 0);
  const d = c2.getImageData(0, 0, img.width, img.height).data;
  return { png, px: (x: number, y: number) => { const i = 4 * (y * img.width + x); return [d[i], d[i + 1], d[i + 2]]; }, data: d };
}
const hex = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
const near = (a: number[], b: number[], tol = 28) => a.every((v, i) => Math.abs(v - b[i]) <= tol);
/** Any pixel within r of (x, y) near the colour. */
const around = (p: { px: (x: number, y: number) => number[] }, x: number, y: number, colour: number[], r = 3) => {
  for (let dx = -r; dx <= r; dx++) for (let dy = -r; dy <= r; dy++) if (near(p.px(x + dx, y + dy), colour)) return true;
  return false;
};
const count = (p: { data: Uint8ClampedArray }, colour: number[], tol = 28) => {
  let n = 0;
  for (let i = 0; i < p.data.length; i += 4) if (near([p.data[i], p.data[i + 1], p.data[i + 2]], colour, tol)) n++;
  return n;
};
/** A page that records its errors and failed requests, shown when a wait times out. */
async function newPage(): Promise<Page> {
  const page = await ctx.newPage();
  const log: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') log.push(`console.${m.type()}: ${m.text().slice(0, 300)}`); });
  page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => log.push(`failed: ${r.url().slice(0, 150)} ${r.failure()?.errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) log.push(`${r.status()}: ${r.url().slice(0, 150)}`); });
  (page as any).diag = log;
  return page;
}
async function idle(page: Page) {
  try {
    await page.waitForSelector('body[data-idle="1"]', { timeout: 150_000 });
  } catch (e) {
    throw new Error(`map never idle: ${(e as Error).message.split('\n')[0]}\n${((page as any).diag as string[]).join('\n')}`);
  }
}
const save = (name: string, png: Buffer) => { if (process.env.SAVE_SCREENSHOTS === '1') writeFileSync(join(REPO, 'docs', name), png); };

describe('in headless Chromium', () => {
  it('the embed page draws our roads where the tiles have a road, with the attribution visible; dark changes the colours', async () => {
    expect(road).toBeDefined();
    const page = await newPage();
    const q = `lat=${road[0]}&lng=${road[1]}&zoom=15&key=${key}`;
    await page.goto(`${s.url}/embed/map?${q}`, { referer: `${SHOP}/product/42` });
    await idle(page);
    const day = await pixels(page);
    expect(around(day, 300, 200, hex(PALETTES.day.trunk))).toBe(true);
    expect(count(day, hex(PALETTES.day.land))).toBeGreaterThan(20_000);
    expect(await page.locator('.maplibregl-ctrl-attrib').innerText()).toMatch(/OpenStreetMap/);
    await page.goto(`${s.url}/embed/map?${q}&theme=dark&marker=1`, { referer: `${SHOP}/product/42` });
    await idle(page);
    const dark = await pixels(page);
    expect(count(dark, hex(PALETTES.dark.land))).toBeGreaterThan(20_000);
    // The zoom buttons are white (close to the day land colour); the map itself has none of it.
    expect(count(dark, hex(PALETTES.day.land))).toBeLessThan(count(day, hex(PALETTES.day.land)) / 20);
    expect(await page.locator('.maplibregl-marker').count()).toBe(1);
    // From another site the page (and so the key) is refused.
    const evil = await page.goto(`${s.url}/embed/map?${q}`, { referer: 'http://evil.example/' });
    expect(evil!.status()).toBe(403);
    await page.close();
  }, 300_000);

  it('an SDK page on the customer site: roads, setTheme, drawRoute, and the geocoder adapter answers OK for Nairobi', async () => {
    const page = await newPage();
    await page.goto(`${SHOP}/?lat=${road[0]}&lng=${road[1]}&zoom=15&theme=day`);
    await idle(page);
    const day = await pixels(page);
    expect(around(day, 300, 200, hex(PALETTES.day.trunk))).toBe(true);
    save('maps-day.png', day.png);

    await page.evaluate(() => window.m.setTheme('dark').then(() => window.m.whenIdle()));
    const dark = await pixels(page);
    expect(around(dark, 300, 200, hex(PALETTES.dark.trunk))).toBe(true);
    expect(count(dark, hex(PALETTES.day.land))).toBeLessThan(count(day, hex(PALETTES.day.land)) / 20);
    save('maps-dark.png', dark.png);

    // A /route-shaped answer drawn in its colour across the view.
    await page.evaluate(([lat, lng]) => window.m.drawRoute({ route: { geometry: { type: 'LineString', coordinates: [[lng - 0.01, lat - 0.005], [lng + 0.01, lat + 0.005]] } } }, { color: '#ff00ff', fit: false }), road);
    await page.waitForTimeout(500);
    await page.evaluate(() => window.m.whenIdle());
    expect(count(await pixels(page), [255, 0, 255], 20)).toBeGreaterThan(300);

    const g = await page.evaluate(() => new Promise((res) => new window.svc.Geocoder({ key: window.m.key }).geocode({ address: 'Nairobi' }, (results: any[], status: string) =>
      res({ status, n: results.length, lat: results[0]?.geometry.location.lat(), lng: results[0]?.geometry.location.lng(), addr: results[0]?.formatted_address, types: results[0]?.types }))));
    expect(g).toMatchObject({ status: 'OK' });
    expect(Math.abs((g as any).lat - -1.286)).toBeLessThan(0.1);
    expect(Math.abs((g as any).lng - 36.817)).toBeLessThan(0.1);
    const z = await page.evaluate(() => new Promise((res) => new window.svc.Geocoder({ key: window.m.key }).geocode({ address: 'qqqxxzzv' }, (_r: any[], status: string) => res(status))));
    expect(z).toBe('ZERO_RESULTS');
    const f = await page.evaluate(() => window.svc.Geocoder.prototype.forwardGeocode.call(new window.svc.Geocoder({ key: window.m.key }), { query: 'Nairobi', limit: 2 }));
    expect((f as any).features[0].geometry.coordinates[0]).toBeCloseTo(36.8, 0);
    await page.close();
  }, 300_000);

  it('not one request left this host', () => {
    expect(outside).toEqual([]);
  });
});
