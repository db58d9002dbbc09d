// Dashboard sign-in sessions (table sessions): only a hash of the cookie value is stored.
import type { Db } from './db.ts';

/** Stores a session, then sweeps everyone's expired ones (cheap here rather than on a timer). */
export async function insertSession(q: Db, s: { idHash: string; accountId: string; csrf: string; hours: number }): Promise<void> {
  await q.query(
    `INSERT INTO sessions (id_hash, account_id, csrf, expires_at) VALUES ($1, $2, $3, now() + make_interval(hours => $4))`,
    [s.idHash, s.accountId, s.csrf, s.hours]);
  await q.query('DELETE FROM sessions WHERE expires_at < now()');
}

/** The live session of a cookie hash with its account, or undefined. */
export async function sessionByHash(q: Db, idHash: string): Promise<{ csrf: string; id: string; email: string } | undefined> {
  const r = await q.query(
    `SELECT s.csrf, a.id, a.email FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id_hash = $1 AND s.expires_at > now()`, [idHash]);
  return r.rows[0];
}

export async function deleteSession(q: Db, idHash: string): Promise<void> {
  await q.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
}

/** Ends every session of an account (after its password changed). */
export async function deleteSessionsOfEmail(q: Db, email: string): Promise<void> {
  await q.query('DELETE FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE email = $1)', [email]);
}
