// API keys (table api_keys, and the projects row a first key creates). Only a key's hash is kept.
import type { Db } from './db.ts';

/** A key as the CLI and the dashboard list it. */
const ROW_COLS = 'id, project_id AS project, display, plan, scopes, test, created_at, revoked_at, origins, burst_rps';
/** A key as the authenticator caches it. */
const AUTH_COLS = 'id, project_id, hash, plan, scopes, test, revoked_at, updated_at, origins, burst_rps';

export interface NewKey {
  id: string; project: string; display: string; hash: string; plan: string; scopes: string[]; test: boolean;
  origins: string[] | null; burstRps: number | null;
}

/** Inserts a key, creating its project when it does not exist (run inside a transaction). */
export async function insertKey(q: Db, k: NewKey): Promise<any> {
  await q.query('INSERT INTO projects (id, name) VALUES ($1, $1) ON CONFLICT DO NOTHING', [k.project]);
  const r = await q.query(
    `INSERT INTO api_keys (id, project_id, display, hash, plan, scopes, test, origins, burst_rps)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     RETURNING ${ROW_COLS}`,
    [k.id, k.project, k.display, k.hash, k.plan, k.scopes, k.test, k.origins, k.burstRps],
  );
  return r.rows[0];
}

/** Keys of a project, or of every project, oldest first. */
export async function keyRows(q: Db, project?: string): Promise<any[]> {
  const r = await q.query(
    `SELECT ${ROW_COLS}
     FROM api_keys ${project ? 'WHERE project_id = $1' : ''} ORDER BY created_at, id`,
    project ? [project] : [],
  );
  return r.rows;
}

/** Revokes the key with this hash or id (revoking twice keeps the first time); its row, or undefined. */
export async function revokeKeyRow(q: Db, by: { hash: string } | { id: string }): Promise<any | undefined> {
  const r = await q.query(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()), updated_at = now()
     WHERE ${'hash' in by ? 'hash' : 'id'} = $1
     RETURNING ${ROW_COLS}`,
    ['hash' in by ? by.hash : by.id],
  );
  return r.rows[0];
}

export async function keyCount(q: Db): Promise<number> {
  const n = await q.query('SELECT count(*)::int AS n FROM api_keys');
  return n.rows[0].n;
}

/** Keys changed since a time (the authenticator's refresh). */
export async function keysUpdatedSince(q: Db, since: Date): Promise<any[]> {
  const r = await q.query(`SELECT ${AUTH_COLS} FROM api_keys WHERE updated_at >= $1`, [since]);
  return r.rows;
}

export async function keyByHash(q: Db, hash: string): Promise<any | undefined> {
  const r = await q.query(`SELECT ${AUTH_COLS} FROM api_keys WHERE hash = $1`, [hash]);
  return r.rows[0];
}
