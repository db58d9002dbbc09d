// Versioned SQL migrations (src/store/migrations/NNN_name.sql), applied in order at start.
// Idempotent: each file runs once, inside a transaction, recorded in schema_migrations;
// an advisory lock keeps two starting processes from applying the same file twice.
import { readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PoolClient } from 'pg';

/** What migrations need of the store: one transaction (the store passes itself; no import back). */
export interface Transactional {
  tx<T>(fn: (c: PoolClient) => Promise<T>): Promise<T>;
}

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK = 7413001;

export function migrationFiles(): { version: number; name: string; sql: string }[] {
  return readdirSync(DIR)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f, sql: readFileSync(join(DIR, f), 'utf8') }));
}

export async function migrate(store: Transactional): Promise<string[]> {
  const applied: string[] = [];
  await store.tx(async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [LOCK]);
    await c.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await c.query('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    for (const m of migrationFiles()) {
      if (done.has(m.version)) continue;
      await c.query(m.sql);
      await c.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.name);
    }
  });
  return applied;
}
