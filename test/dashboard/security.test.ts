// Dashboard security over plain HTTP: cookie flags, CSRF on every form, cross-site Origin,
// login lockout, members see only their projects, secrets never stored or shown twice,
// and the first account created with the CLI while the server runs.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BACKENDS, freshDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, REPO, type TestServer } from '../helpers/server.ts';
import { hashKey } from '../../src/auth/keys.ts';
import { hashPassword, verifyPassword } from '../../src/auth/accounts.ts';
import { throttled, failedAttempt } from '../../src/api/dashboard/session.ts';

/** A cookie-keeping client for the dashboard's forms. */
class Client {
  jar = new Map<string, string>();
  constructor(private base: string, private extra: Record<string, string> = {}) {}
  async req(method: string, path: string, form?: Record<string, string | string[]>, headers: Record<string, string> = {}) {
    const body = form ? new URLSearchParams(Object.entries(form).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v] as [string, string]]))).toString() : undefined;
    const r = await fetch(this.base + path, {
      method, body, redirect: 'manual',
      headers: { cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...this.extra, ...headers },
    });
    for (const c of r.headers.getSetCookie()) {
      const [kv] = c.split(';');
      const i = kv.indexOf('=');
      const v = kv.slice(i + 1);
      if (v === '') this.jar.delete(kv.slice(0, i)); else this.jar.set(kv.slice(0, i), v);
    }
    return { status: r.status, location: r.headers.get('location'), cookies: r.headers.getSetCookie(), text: await r.text(), headers: r.headers };
  }
  csrf(html: string) { return /name="_csrf" value="([^"]+)"/.exec(html)![1]; }
  async signup(email: string, password: string) {
    const p = await this.req('GET', '/dashboard/signup');
    return this.req('POST', '/dashboard/signup', { _csrf: this.csrf(p.text), email, password });
  }
  async login(email: string, password: string) {
    const p = await this.req('GET', '/dashboard/login');
    return this.req('POST', '/dashboard/login', { _csrf: this.csrf(p.text), email, password });
  }
  async form(path: string, fields: Record<string, string | string[]>) {
    const home = await this.req('GET', '/dashboard');
    return this.req('POST', path, { _csrf: this.csrf(home.text), ...fields });
  }
}

it('passwords are scrypt hashes and verify only with the right password', async () => {
  const h = await hashPassword('a long passphrase');
  expect(h).toMatch(/^scrypt\$32768\$8\$1\$/);
  expect(h).not.toContain('a long passphrase');
  expect(await verifyPassword('a long passphrase', h)).toBe(true);
  expect(await verifyPassword('a long passphrasE', h)).toBe(false);
});

it('one address is refused after 20 failed sign-ins in 15 minutes, then let in again', () => {
  const ip = '203.0.113.7', t = 1_000_000;
  for (let i = 0; i < 19; i++) failedAttempt(ip, t + i);
  expect(throttled(ip, t + 100)).toBe(0);
  failedAttempt(ip, t + 200);
  expect(throttled(ip, t + 300)).toBeGreaterThan(890);
  expect(throttled('203.0.113.8', t + 300)).toBe(0); // another address
  expect(throttled(ip, t + 15 * 60_000 + 1)).toBe(0);
});

for (const kind of BACKENDS) {
  describe(`dashboard security on ${kind}`, () => {
    let db: TestDb, s: TestServer;
    beforeAll(async () => {
      db = await freshDb(kind);
      s = await startTestServer(db, { SKIP_BUILD: '1' });
    }, 120_000);
    afterAll(async () => { await s?.close(); await db?.drop(); });

    it('session cookie: HttpOnly, SameSite=Lax, Secure only over TLS; pages carry a strict CSP', async () => {
      const a = new Client(s.url);
      const r = await a.signup('cookie@example.com', 'password 123456');
      expect(r.status).toBe(303);
      const c = r.cookies.find((x) => x.startsWith('svc_session='))!;
      expect(c).toMatch(/HttpOnly/);
      expect(c).toMatch(/SameSite=Lax/);
      expect(c).not.toMatch(/Secure/);
      const tls = new Client(s.url, { 'x-forwarded-proto': 'https' });
      const r2 = await tls.login('cookie@example.com', 'password 123456');
      expect(r2.cookies.find((x) => x.startsWith('svc_session='))).toMatch(/; Secure/);
      const home = await a.req('GET', '/dashboard');
      expect(home.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(home.headers.get('x-frame-options')).toBe('DENY');
      expect(home.headers.get('cache-control')).toBe('no-store');
      // The session row holds a hash, not the cookie value.
      const value = a.jar.get('svc_session')!;
      const rows = await s.app.ctx.store.query('SELECT id_hash FROM sessions');
      expect(rows.rows.some((x) => x.id_hash === value)).toBe(false);
    });

    it('every form needs the CSRF token, and a cross-site Origin is refused', async () => {
      const a = new Client(s.url);
      await a.signup('csrf@example.com', 'password 123456');
      expect((await a.req('POST', '/dashboard/projects', { name: 'csrf-proj' })).status).toBe(403);
      expect((await a.req('POST', '/dashboard/projects', { name: 'csrf-proj', _csrf: 'x'.repeat(43) })).status).toBe(403);
      const home = await a.req('GET', '/dashboard');
      expect((await a.req('POST', '/dashboard/projects', { name: 'csrf-proj', _csrf: a.csrf(home.text) }, { origin: 'https://evil.example' })).status).toBe(403);
      const ok = await a.req('POST', '/dashboard/projects', { name: 'csrf-proj', _csrf: a.csrf(home.text) });
      expect(ok.status).toBe(303);
      expect(ok.location).toBe('/dashboard/projects/csrf-proj');
      // Sign-in form without its double-submit token.
      const b = new Client(s.url);
      expect((await b.req('POST', '/dashboard/login', { email: 'csrf@example.com', password: 'password 123456' })).status).toBe(403);
    });

    it('locks an account after 5 failed sign-ins, even for the right password', async () => {
      const a = new Client(s.url);
      await a.signup('lock@example.com', 'password 123456');
      const b = new Client(s.url);
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await b.login('lock@example.com', 'wrong password')).status);
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      const r = await b.login('lock@example.com', 'password 123456');
      expect(r.status).toBe(429);
      expect(r.text).toContain('locked');
      expect(r.cookies.some((x) => x.startsWith('svc_session='))).toBe(false);
    });

    it('members see only their projects; keys are stored as hashes and shown once', async () => {
      const a = new Client(s.url), b = new Client(s.url);
      await a.signup('alice@example.com', 'password 123456');
      await b.signup('bob@example.com', 'password 123456');
      await a.form('/dashboard/projects', { name: 'alice-proj' });
      const created = await a.form('/dashboard/projects/alice-proj/keys', { name: 'k1', type: 'live', scopes: ['geo', 'routing'] });
      expect(created.status).toBe(200);
      const key = /id="secret" class="secret-value">([^<]+)</.exec(created.text)![1];
      expect(key).toMatch(/^svc_live_/);
      const again = await a.req('GET', '/dashboard/projects/alice-proj');
      expect(again.text).not.toContain(key);
      const stored = await s.app.ctx.store.query("SELECT hash, display FROM api_keys WHERE project_id = 'alice-proj'");
      expect(stored.rows[0].hash).toBe(hashKey(key));
      expect(JSON.stringify(stored.rows)).not.toContain(key);

      // Bob: not a member, so alice-proj does not exist for him, for reading and for changing.
      expect((await b.req('GET', '/dashboard/projects/alice-proj')).status).toBe(404);
      expect((await b.form('/dashboard/projects/alice-proj/keys', { type: 'live', scopes: 'geo' })).status).toBe(404);
      expect((await b.req('GET', '/dashboard')).text).not.toContain('alice-proj');
      // A taken project id cannot be claimed.
      expect((await b.form('/dashboard/projects', { name: 'alice-proj' })).status).toBe(400);
      // Alice adds Bob; now he sees it.
      expect((await a.form('/dashboard/projects/alice-proj/members', { email: 'bob@example.com' })).status).toBe(303);
      expect((await b.req('GET', '/dashboard/projects/alice-proj')).status).toBe(200);
      // A key of another project cannot be revoked through this one.
      await b.form('/dashboard/projects', { name: 'bob-proj' });
      const kid = (await s.app.ctx.store.query("SELECT id FROM api_keys WHERE project_id = 'alice-proj'")).rows[0].id;
      expect((await b.form(`/dashboard/projects/bob-proj/keys/${kid}/revoke`, {})).status).toBe(404);
      expect((await s.app.ctx.store.query('SELECT revoked_at FROM api_keys WHERE id = $1', [kid])).rows[0].revoked_at).toBeNull();
    });

    it('invalid input answers an HTML 400, never a 500', async () => {
      const a = new Client(s.url);
      await a.signup('bad@example.com', 'password 123456');
      expect((await a.form('/dashboard/projects', { name: 'X' })).status).toBe(400);
      await a.form('/dashboard/projects', { name: 'bad-proj' });
      expect((await a.form('/dashboard/projects/bad-proj/keys', { type: 'admin', scopes: 'geo' })).status).toBe(400);
      expect((await a.form('/dashboard/projects/bad-proj/keys', { type: 'live', scopes: 'root' })).status).toBe(400);
      expect((await a.form('/dashboard/projects/bad-proj/webhooks', { url: 'http://127.0.0.1/x', events: 'pod.created' })).status).toBe(400);
      expect((await a.form('/dashboard/projects/bad-proj/webhooks', { url: 'https://hooks.example.com/x', events: 'nope' })).status).toBe(400);
      expect((await a.form('/dashboard/projects/bad-proj/keys', { type: 'browser', scopes: 'maps' })).status).toBe(400); // no origins
      expect((await a.form('/dashboard/projects/bad-proj/keys', { type: 'browser', scopes: 'maps', origins: 'not a url' })).status).toBe(400);
      expect((await a.signup('not-an-email', 'password 123456')).status).toBe(400);
      expect((await a.signup('short@example.com', 'short')).status).toBe(400);
    });

    it('the CLI creates the first account while the server runs, owner of an existing project', async () => {
      await s.key({ project: 'ops' });
      const env = { ...process.env, DATA_DIR: db.dataDir, DATABASE_URL: db.url ?? '', SVC_PASSWORD: 'operator password 1', LOG_LEVEL: 'silent' };
      // Asynchronously: with PGlite this very process serves the database the CLI connects to.
      const r = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'account', 'create', '--email', 'Ops@Example.com', '--project', 'ops'], { cwd: REPO, env, encoding: 'utf8', timeout: 30_000 });
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('created account');
      expect(r.stdout).not.toContain('operator password');
      const c = new Client(s.url);
      expect((await c.login('ops@example.com', 'operator password 1')).status).toBe(303);
      const p = await c.req('GET', '/dashboard/projects/ops');
      expect(p.status).toBe(200);
      expect(p.text).toContain('member.add');
    }, 60_000);
  });
}
