// Two server processes on one PostgreSQL behave as one service: a shared monthly quota,
// revocation seen by both within a second, usage that survives a restart of either.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { HAS_PG, freshPostgres, type TestDb } from '../helpers/db.ts';
import { startServerProcess, type ServerProcess } from '../../bench/lib/server-process.ts';
import { Store } from '../../src/store/index.ts';
import { createKey, revokeKey } from '../../src/auth/keys.ts';

const freePort = () => new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const p = (probe.address() as AddressInfo).port;
    probe.close(() => resolve(p));
  });
});

describe.skipIf(!HAS_PG)('two nodes on one PostgreSQL', () => {
  let db: TestDb;
  let store: Store;
  let built: string;
  const nodes: ServerProcess[] = [];
  const ports: number[] = [];
  const start = (i: number, dataDir: string) => startServerProcess({
    DATABASE_URL: db.url!, SKIP_BUILD: '1', WORKERS: '1', BUILT_DIR: built, BURST_RPS: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir,
  }, ports[i]);

  beforeAll(async () => {
    db = await freshPostgres();
    built = mkdtempSync(join(tmpdir(), 'svc-mn-built-'));
    store = await Store.open({ databaseUrl: db.url, dbDir: join(db.dataDir, 'db') });
    ports.push(await freePort(), await freePort());
    nodes.push(...(await Promise.all([0, 1].map((i) => start(i, mkdtempSync(join(tmpdir(), `svc-mn-${i}-`)))))));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await store?.close();
    await db?.drop();
    rmSync(built, { recursive: true, force: true });
  });

  const ping = (node: number, key: string) => fetch(`${nodes[node].base}/api/v1/ping`, { headers: { authorization: `Bearer ${key}` } });

  it('a Free key gets 1,000 requests across both nodes, then 429 on both', async () => {
    const { key } = await createKey(store, { project: 'mn', plan: 'free', test: false });
    let ok = 0, refused = 0;
    // Waves of 20 concurrent requests, half to each node, until both refuse.
    while (refused < 20) {
      const wave = await Promise.all(Array.from({ length: 20 }, (_, i) => ping(i % 2, key)));
      for (const r of wave) {
        if (r.status === 200) ok++;
        else {
          expect(r.status).toBe(429);
          expect(((await r.json()) as any).error.code).toBe('quota_exceeded');
          refused++;
        }
      }
      expect(ok).toBeLessThanOrEqual(1010);
    }
    expect(ok).toBeGreaterThanOrEqual(1000);
    expect(ok).toBeLessThanOrEqual(1010);
    expect((await ping(0, key)).status).toBe(429);
    expect((await ping(1, key)).status).toBe(429);
  }, 120_000);

  it('a revoked key is refused by both nodes within 1 s', async () => {
    const { key } = await createKey(store, { project: 'mn', plan: 'developer', test: false });
    expect((await ping(0, key)).status).toBe(200);
    expect((await ping(1, key)).status).toBe(200);
    await revokeKey(store, key);
    const t0 = Date.now();
    const refusedAt = await Promise.all([0, 1].map(async (n) => {
      while ((await ping(n, key)).status !== 401) {
        if (Date.now() - t0 > 5000) return Infinity;
        await new Promise((r) => setTimeout(r, 20));
      }
      return Date.now() - t0;
    }));
    for (const ms of refusedAt) expect(ms).toBeLessThanOrEqual(1000);
  }, 30_000);

  it('usage survives a restart of either node', async () => {
    const { key, row } = await createKey(store, { project: 'mn', plan: 'developer', test: false });
    for (let i = 0; i < 10; i++) await Promise.all(Array.from({ length: 15 }, (_, j) => ping(j % 2, key)));
    await nodes[0].stop(); // SIGTERM: drains and flushes
    nodes[0] = await start(0, mkdtempSync(join(tmpdir(), 'svc-mn-0b-')));
    await nodes[1].stop();
    nodes[1] = await start(1, mkdtempSync(join(tmpdir(), 'svc-mn-1b-')));
    const r = await store.query('SELECT count FROM key_usage WHERE key_id = $1', [row.id]);
    expect(Number(r.rows[0].count)).toBe(150);
    const u: any = await (await fetch(`${nodes[1].base}/api/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(u.usage.used).toBe(151);
  }, 120_000);
});
