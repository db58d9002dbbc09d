// The dashboard in real headless Chromium (Debian's /usr/bin/chromium through playwright-core):
// sign up, create a project and a key, call the API with the key, see the usage chart move,
// see a refused request, revoke the key and see 401, sign out and sign in again.
// UPDATE_SCREENSHOTS=1 also writes the screenshots shown in docs/dashboard.md and README.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, REPO, type TestServer } from '../helpers/server.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO, 'docs', 'img') : null;

describe.skipIf(!existsSync(CHROMIUM))('dashboard in headless Chromium', () => {
  let db: TestDb, s: TestServer, browser: Browser, page: Page;
  const email = `dev${Date.now()}@example.com`;
  const password = 'correct horse battery';

  beforeAll(async () => {
    db = freshPglite();
    s = await startTestServer(db, { SKIP_BUILD: '1', BURST_RPS: '0' });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('dialog', (d) => void d.accept());
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => { await browser?.close(); await s?.close(); await db?.drop(); });

  const shot = async (name: string) => { if (SHOTS) await page.screenshot({ path: join(SHOTS, name), fullPage: true }); };
  const api = (path: string, key: string) => fetch(s.url + path, { headers: { authorization: `Bearer ${key}` } });
  const usedOf = async (display: string) => Number(await page.locator('figure.chart', { hasText: display }).getAttribute('data-used'));

  it('signs up, creates a project and a key, sees usage and refusals, revokes, signs in again', async () => {
    // No external request: every URL the page loads is on this server.
    const hosts = new Set<string>();
    page.on('request', (r) => hosts.add(new URL(r.url()).host));

    await page.goto(s.url + '/dashboard');
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');
    await shot('dashboard-login.png');
    await page.click('text=Create one');
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', password);
    await page.click('button[type=submit]');
    await page.waitForURL(s.url + '/dashboard');
    await expect(page.locator('main').innerText()).resolves.toContain('No project yet');

    await page.fill('#create-project input[name=name]', 'acme-web');
    await page.click('#create-project button');
    await page.waitForURL(/\/dashboard\/projects\/acme-web$/);

    // A key with every default scope, and one that holds only geo (for a refusal).
    await page.fill('#create-key input[name=name]', 'checkout backend');
    await page.click('#create-key button[type=submit]');
    const key = (await page.locator('#secret').innerText()).trim();
    expect(key).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);
    await shot('dashboard-new-key.png');
    await page.click('summary:has-text("Create a key")');
    await page.fill('#create-key input[name=name]', 'geo only');
    for (const sc of ['routing', 'maps', 'logistics', 'tracking', 'fleet', 'traffic', 'weather']) await page.uncheck(`#create-key input[value=${sc}]`);
    await page.click('#create-key input[value=test]');
    await page.click('#create-key button[type=submit]');
    const geoKey = (await page.locator('#secret').innerText()).trim();
    expect(geoKey).toMatch(/^svc_test_/);

    // The secret is shown once: a reload of the project page does not carry it.
    await page.goto(s.url + '/dashboard/projects/acme-web');
    const html = await page.content();
    expect(html).not.toContain(key);
    expect(html).not.toContain(geoKey);
    const display = key.slice(0, 13);
    expect(await usedOf(display)).toBe(0);

    for (let i = 0; i < 7; i++) expect((await api('/api/v1/ping', key)).status).toBe(200);
    expect((await api('/api/v1/usage', key)).status).toBe(200);
    expect((await api('/api/v1/route?from=6.45,3.39&to=6.46,3.40', geoKey)).status).toBe(403);

    await page.reload();
    expect(await usedOf(display)).toBe(8);
    expect(await page.locator('figure.chart', { hasText: display }).innerText()).toContain('8 of 1,000 requests');
    // Refusals reach the database on the next flush (every second): reload until the table shows them.
    await expect.poll(async () => { await page.reload(); return page.locator('table.refusals').count(); }, { timeout: 15_000, interval: 500 }).toBeGreaterThan(0);
    const refused = await page.locator('table.refusals').innerText();
    expect(refused).toContain('403');
    expect(refused).toContain('GET /route');
    await page.fill(`tr[data-key-id] input[name=name] >> nth=0`, 'checkout api');
    await page.click('tr[data-key-id] >> nth=0 >> text=Rename');
    await page.waitForURL(/acme-web$/);
    await shot('dashboard-project.png');

    // Revoke: the key answers 401 within about a second.
    await page.click('tr[data-key-id] >> nth=0 >> button:has-text("Revoke")');
    await page.waitForURL(/acme-web$/);
    await expect(page.locator('tr[data-key-id] >> nth=0').innerText()).resolves.toContain('revoked');
    let status = 0;
    for (let i = 0; i < 60 && status !== 401; i++) {
      status = (await api('/api/v1/ping', key)).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(401);

    const audit = await page.locator('table.audit').innerText();
    for (const a of ['project.create', 'key.create', 'key.rename', 'key.revoke']) expect(audit).toContain(a);
    expect(audit).not.toContain(key);

    // Sign out, then in again.
    await page.click('text=Sign out');
    await page.waitForURL(/\/dashboard\/login$/);
    await page.goto(s.url + '/dashboard/projects/acme-web');
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');
    await page.fill('input[name=email]', email);
    await page.fill('input[name=password]', 'wrong password!');
    await page.click('button[type=submit]');
    await expect(page.locator('[role=alert]').innerText()).resolves.toContain('Wrong email or password');
    await page.fill('input[name=password]', password);
    await page.click('button[type=submit]');
    await page.waitForURL(s.url + '/dashboard');
    await expect(page.locator('ul.projects').innerText()).resolves.toContain('acme-web');

    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'svc_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/dashboard' });
    expect([...hosts]).toEqual([new URL(s.url).host]);
  }, 120_000);

  it('shows a webhook endpoint and its event log', async () => {
    await page.goto(s.url + '/dashboard/projects/acme-web');
    await page.click('summary:has-text("Add an endpoint")');
    await page.fill('#create-webhook input[name=url]', 'https://hooks.example.com/svc');
    await page.click('#create-webhook button[type=submit]');
    expect((await page.locator('#secret').innerText()).trim()).toMatch(/^whsec_/);
    await page.click('text=event log');
    await expect(page.locator('h1').innerText()).resolves.toContain('https://hooks.example.com/svc');
    await shot('dashboard-webhook.png');
  }, 60_000);
});
