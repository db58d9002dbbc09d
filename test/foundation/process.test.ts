// The service as a process, as ops run it: first start prints keys once, the keys CLI
// works against the running server's embedded database, SIGTERM exits 0, state persists.
import { describe, it, expect, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, REPO, type ServerProcess } from '../../bench/lib/server-process.ts';
import { MALLOC_ENV } from '../../src/core/malloc.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-proc-'));
const env = { SKIP_BUILD: '1', WORKERS: '1', DATA_DIR: dataDir, DATABASE_URL: '' };
const cli = (...args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', ...args], { cwd: REPO, env: { ...process.env, ...env }, encoding: 'utf8' });

describe('npm start', () => {
  it('runs the server with the allocator setting that gives large freed blocks back (src/core/malloc.ts)', () => {
    const start: string = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts.start;
    for (const [k, v] of Object.entries(MALLOC_ENV)) expect(start).toContain(`${k}=${v} node `);
  });
});

describe('npm start runs src/main.ts as one bundle', () => {
  const bundle = join(REPO, 'node_modules', '.cache', 'svc', 'main.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'svc-bundle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const startStop = async (port: number) => {
    const s = await startServerProcess({ ...env, DATA_DIR: dir }, port, { entry: 'npm-start', settleMs: 0 });
    // modules that find files beside themselves (migrations, dashboard assets) ran from the bundle
    expect((await fetch(`${s.base}/dashboard/login`)).status).toBe(200);
    await s.stop();
  };

  it('rebuilds the bundle when a source file changed, and only then', async () => {
    await startStop(19413);
    const built = statSync(bundle).mtimeMs;
    await startStop(19414);
    expect(statSync(bundle).mtimeMs).toBe(built); // nothing changed: the same file serves
    const src = join(REPO, 'src', 'core', 'log.ts');
    const t = new Date(); // after the bundle was written, seconds ago
    utimesSync(src, t, t); // content unchanged; git does not see it
    await startStop(19415);
    expect(statSync(bundle).mtimeMs).toBeGreaterThan(built);
  });
});

describe('service process with the embedded database', () => {
  let srv: ServerProcess | null = null;
  afterAll(async () => {
    await srv?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints keys on first start, manages keys while running, stops cleanly and keeps state', async () => {
    srv = await startServerProcess(env, 19411, { entry: 'npm-start' });
    expect(srv.keys?.test).toMatch(/^svc_test_/);
    expect(srv.keys?.live).toMatch(/^svc_live_/);

    const out = cli('create', '--project', 'shop', '--plan', 'free', '--scopes', 'geo');
    const key = out.trim().split('\n').pop()!;
    expect(key).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);
    const ping = await fetch(`${srv.base}/api/v1/ping`, { headers: { authorization: `Bearer ${key}` } });
    expect(ping.status).toBe(200);
    expect(cli('list', '--project', 'shop')).toContain(key.slice(0, 13));

    const live = srv.keys!.live;
    for (let i = 0; i < 3; i++) await fetch(`${srv.base}/api/v1/ping`, { headers: { authorization: `Bearer ${live}` } });

    expect(cli('revoke', key)).toMatch(/revoked key_/);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await fetch(`${srv.base}/api/v1/ping`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);

    // SIGHUP reloads the built files in place; the service keeps answering.
    srv.child.kill('SIGHUP');
    await new Promise((r) => setTimeout(r, 1500));
    expect((await fetch(`${srv.base}/api/v1/ping?pool=1`, { headers: { authorization: `Bearer ${live}` } })).status).toBe(200);

    // SIGTERM: drain, flush usage, close pool and database, exit 0.
    const exited = new Promise<number | null>((r) => srv!.child.once('exit', (code) => r(code)));
    srv.child.kill('SIGTERM');
    expect(await exited).toBe(0);

    // Second start on the same folder: no new keys, usage kept.
    srv = await startServerProcess(env, 19412, { entry: 'npm-start' });
    expect(srv.keys).toBeNull();
    const u: any = await (await fetch(`${srv.base}/api/v1/usage`, { headers: { authorization: `Bearer ${live}` } })).json();
    expect(u.usage.used).toBe(5); // 3 pings + the ping after SIGHUP + this request
  });
});
