// Migrations, key storage and usage persistence on every backend (PGlite; PostgreSQL when DATABASE_URL is set).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { BACKENDS, freshDb, freshPostgres, HAS_PG, type TestDb } from '../helpers/db.ts';
import { Store } from '../../src/store/index.ts';
import { migrate, migrationFiles } from '../../src/store/migrate.ts';
import { createKey, hashKey, listKeys, revokeKey, bootstrapKeys, KEY_RE } from '../../src/auth/keys.ts';
import { Quota } from '../../src/auth/quota.ts';
import type { KeyInfo } from '../../src/http/types.ts';

describe.each(BACKENDS)('store (%s)', (backend) => {
  let db: TestDb;
  let store: Store;
  beforeAll(async () => {
    db = await freshDb(backend);
    store = await Store.open({ databaseUrl: db.url, dbDir: join(db.dataDir, 'db') });
  });
  afterAll(async () => {
    await store?.close();
    await db?.drop();
  });

  it('applies every migration once; a second run applies nothing', async () => {
    const rows = (await store.query('SELECT version, name FROM schema_migrations ORDER BY version')).rows;
    expect(rows.map((r) => r.name)).toEqual(migrationFiles().map((m) => m.name));
    expect(await migrate(store)).toEqual([]);
  });

  it('numbers every migration differently (versions are the primary key that records them)', () => {
    const versions = migrationFiles().map((m) => m.version);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('creates keys of the documented form and stores only their hash', async () => {
    const boot = await bootstrapKeys(store);
    expect(boot).not.toBeNull();
    expect(boot!.test).toMatch(/^svc_test_[0-9A-Za-z]{40}$/);
    expect(boot!.live).toMatch(/^svc_live_[0-9A-Za-z]{40}$/);
    expect(await bootstrapKeys(store)).toBeNull(); // only on an empty database
    const { key, row } = await createKey(store, { project: 'p1', plan: 'free', test: false, scopes: ['geo', 'payments'] });
    expect(KEY_RE.test(key)).toBe(true);
    expect(row.scopes).toEqual(['geo', 'payments']);
    const all = (await store.query('SELECT * FROM api_keys')).rows;
    const dump = JSON.stringify(all);
    for (const k of [key, boot!.test, boot!.live]) expect(dump).not.toContain(k.slice(9));
    expect(all.some((r) => r.hash === hashKey(key))).toBe(true);
    const listed = await listKeys(store, 'p1');
    expect(listed).toHaveLength(1);
    expect(listed[0].display).toBe(key.slice(0, 13));
    await expect(createKey(store, { project: 'p1', plan: 'gold' as any, test: false })).rejects.toThrow(/plan/);
    await expect(createKey(store, { project: 'p1', plan: 'free', test: false, scopes: ['nope'] })).rejects.toThrow(/scope/);
  });

  it('revokes by key or by id', async () => {
    const a = await createKey(store, { project: 'p2', plan: 'free', test: true });
    const b = await createKey(store, { project: 'p2', plan: 'free', test: true });
    expect((await revokeKey(store, a.key))!.revoked_at).not.toBeNull();
    expect((await revokeKey(store, b.row.id))!.id).toBe(b.row.id);
    expect(await revokeKey(store, 'key_doesnotexist')).toBeNull();
  });

  it('usage counted in memory survives a restart of the counter', async () => {
    const { row } = await createKey(store, { project: 'p3', plan: 'developer', test: false });
    const key: KeyInfo = { id: row.id, project: 'p3', plan: 'developer', scopes: row.scopes, test: false };
    const l1 = new Quota(store, 0);
    for (let i = 0; i < 250; i++) expect((await l1.admit(key)).ok).toBe(true);
    await l1.stop(); // flushes
    const l2 = new Quota(store, 0);
    await l2.admit(key);
    expect(l2.usage(key.id)).toBe(251);
    await l2.stop();
    const r = await store.query('SELECT count FROM key_usage WHERE key_id = $1', [key.id]);
    expect(Number(r.rows[0].count)).toBe(251);
  });
});

describe.skipIf(!HAS_PG)('first start of several nodes on one empty PostgreSQL', () => {
  it('one node creates the default keys, the others find them: no error, no second pair', async () => {
    const db = await freshPostgres();
    const stores: Store[] = [];
    try {
      for (let i = 0; i < 4; i++) stores.push(await Store.open({ databaseUrl: db.url, dbDir: join(db.dataDir, `db${i}`) }));
      const made = await Promise.all(stores.map((s) => bootstrapKeys(s)));
      expect(made.filter((m) => m !== null)).toHaveLength(1);
      expect((await stores[0].query('SELECT count(*)::int AS n FROM api_keys')).rows[0].n).toBe(2);
      // two nodes creating keys of one new project at once: both keys, one project
      await Promise.all(stores.map((s) => createKey(s, { project: 'together', plan: 'free', test: false })));
      expect((await stores[0].query("SELECT count(*)::int AS n FROM api_keys WHERE project_id = 'together'")).rows[0].n).toBe(4);
    } finally {
      for (const s of stores) await s.close();
      await db.drop();
    }
  });
});
