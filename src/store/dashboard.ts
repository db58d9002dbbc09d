// What the dashboard reads and writes about a project: its keys with their month's usage, daily
// usage, refused requests, members, and the project and key edits an owner makes.
import type { Db } from './db.ts';

/** The project's keys, oldest first, each with its count for `month` ('YYYY-MM'). */
export async function keysWithUsage(q: Db, project: string, month: string): Promise<any[]> {
  const r = await q.query(`SELECT k.id, k.display, k.name, k.plan, k.scopes, k.test, k.origins, k.created_at, k.revoked_at, coalesce(u.count, 0)::bigint AS used
                 FROM api_keys k LEFT JOIN key_usage u ON u.key_id = k.id AND u.month = $2 WHERE k.project_id = $1 ORDER BY k.created_at, k.id`, [project, month]);
  return r.rows;
}

/** Requests per key and day ('YYYY-MM-DD') from `fromDay` on. */
export async function dailyUsage(q: Db, project: string, fromDay: string): Promise<{ key_id: string; day: string; count: string }[]> {
  const r = await q.query(`SELECT d.key_id, to_char(d.day, 'YYYY-MM-DD') AS day, d.count FROM key_usage_daily d JOIN api_keys k ON k.id = d.key_id
                 WHERE k.project_id = $1 AND d.day >= $2::date`, [project, fromDay]);
  return r.rows;
}

/** The latest 50 refused requests (403, 429) of the project's keys, newest first. */
export async function recentRefusals(q: Db, project: string): Promise<any[]> {
  const r = await q.query(`SELECT r.at, r.status, r.code, r.route, r.key_id, k.display, k.name FROM key_refusals r LEFT JOIN api_keys k ON k.id = r.key_id
                 WHERE r.project_id = $1 ORDER BY r.at DESC, r.id DESC LIMIT 50`, [project]);
  return r.rows;
}

/** Members with their role, in the order they joined. */
export async function members(q: Db, project: string): Promise<{ email: string; role: string; added_at: Date }[]> {
  const r = await q.query(`SELECT a.email, m.role, m.added_at FROM project_members m JOIN accounts a ON a.id = m.account_id WHERE m.project_id = $1 ORDER BY m.added_at`, [project]);
  return r.rows;
}

/** Creates a project owned by an account (inside a transaction); false when the id is taken. */
export async function createProject(q: Db, id: string, plan: string, ownerAccount: string): Promise<boolean> {
  const r = await q.query('INSERT INTO projects (id, name, plan) VALUES ($1, $1, $2) ON CONFLICT DO NOTHING RETURNING id', [id, plan]);
  if (!r.rows[0]) return false;
  await q.query('INSERT INTO project_members (project_id, account_id, role) VALUES ($1, $2, $3)', [id, ownerAccount, 'owner']);
  return true;
}

/** Names a key just created (no project check: the caller made it). */
export async function nameNewKey(q: Db, keyId: string, name: string): Promise<void> {
  await q.query('UPDATE api_keys SET name = $2, updated_at = now() WHERE id = $1', [keyId, name]);
}

/** Renames a key of the project; false when the project has no such key. */
export async function renameKey(q: Db, project: string, keyId: string, name: string | null): Promise<boolean> {
  const r = await q.query('UPDATE api_keys SET name = $3, updated_at = now() WHERE id = $1 AND project_id = $2 RETURNING id', [keyId, project, name]);
  return !!r.rowCount;
}

export async function projectHasKey(q: Db, project: string, keyId: string): Promise<boolean> {
  const own = await q.query('SELECT id FROM api_keys WHERE id = $1 AND project_id = $2', [keyId, project]);
  return !!own.rows[0];
}
