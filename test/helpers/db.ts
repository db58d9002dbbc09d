// Test databases: a fresh PostgreSQL database per suite when DATABASE_URL is set
// (dropped afterwards), and a fresh PGlite folder always.
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestDb {
  kind: 'postgres' | 'pglite';
  /** DATABASE_URL to use, or null for embedded PGlite. */
  url: string | null;
  /** DATA_DIR for the suite (PGlite lives in its db/ folder). */
  dataDir: string;
  drop(): Promise<void>;
}

export const HAS_PG = !!process.env.DATABASE_URL;

export async function freshPostgres(): Promise<TestDb> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const name = `svc_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(process.env.DATABASE_URL!);
  u.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-pg-'));
  return {
    kind: 'postgres', url: u.toString(), dataDir,
    async drop() {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function freshPglite(): TestDb {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-lite-'));
  return { kind: 'pglite', url: null, dataDir, async drop() { rmSync(dataDir, { recursive: true, force: true }); } };
}

/** Every backend this run can test: PGlite always, real PostgreSQL when DATABASE_URL is set. */
export const BACKENDS: ('postgres' | 'pglite')[] = HAS_PG ? ['postgres', 'pglite'] : ['pglite'];

export const freshDb = (kind: 'postgres' | 'pglite') => (kind === 'postgres' ? freshPostgres() : Promise.resolve(freshPglite()));
