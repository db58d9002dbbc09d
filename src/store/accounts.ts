// Dashboard accounts and their project memberships (tables accounts, project_members).
import type { Db } from './db.ts';

export interface AccountRow { id: string; email: string }
/** What a sign-in reads: the hash and the failure count of the lock rule. */
export interface LoginRow extends AccountRow { password_hash: string; failed_logins: number; locked_until: Date | null }

/** Inserts an account; undefined when the email is taken. */
export async function insertAccount(q: Db, a: { id: string; email: string; passwordHash: string }): Promise<AccountRow | undefined> {
  const r = await q.query(
    'INSERT INTO accounts (id, email, password_hash) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING RETURNING id, email',
    [a.id, a.email, a.passwordHash]);
  return r.rows[0];
}

export async function accountByEmail(q: Db, email: string): Promise<AccountRow | null> {
  const r = await q.query('SELECT id, email FROM accounts WHERE email = $1', [email]);
  return r.rows[0] ?? null;
}

export async function loginRow(q: Db, email: string): Promise<LoginRow | undefined> {
  const r = await q.query('SELECT id, email, password_hash, failed_logins, locked_until FROM accounts WHERE email = $1', [email]);
  return r.rows[0];
}

export async function loginSucceeded(q: Db, id: string): Promise<void> {
  await q.query('UPDATE accounts SET failed_logins = 0, locked_until = NULL, last_login_at = now() WHERE id = $1', [id]);
}

/** Records a failed sign-in: the new failure count, and a lock of lockMs from now when above 0. */
export async function loginFailed(q: Db, id: string, failed: number, lockMs: number): Promise<void> {
  await q.query(
    `UPDATE accounts SET failed_logins = $2, locked_until = CASE WHEN $3::bigint > 0 THEN now() + make_interval(secs => $3::bigint / 1000.0) ELSE locked_until END WHERE id = $1`,
    [id, failed, lockMs]);
}

/** Sets the password hash and lifts any lock; false when no account has this email. */
export async function setPasswordHash(q: Db, email: string, hash: string): Promise<boolean> {
  const r = await q.query('UPDATE accounts SET password_hash = $2, failed_logins = 0, locked_until = NULL WHERE email = $1', [email, hash]);
  return !!r.rowCount;
}

export async function projectsOfAccount(q: Db, accountId: string): Promise<{ id: string; plan: string; role: string; created_at: Date }[]> {
  const r = await q.query(
    `SELECT p.id, p.plan, m.role, p.created_at FROM project_members m JOIN projects p ON p.id = m.project_id
     WHERE m.account_id = $1 ORDER BY p.created_at, p.id`, [accountId]);
  return r.rows;
}

export async function membership(q: Db, accountId: string, project: string): Promise<{ role: string; plan: string } | null> {
  const r = await q.query(
    'SELECT m.role, p.plan FROM project_members m JOIN projects p ON p.id = m.project_id WHERE m.account_id = $1 AND m.project_id = $2', [accountId, project]);
  return r.rows[0] ?? null;
}

export async function insertMember(q: Db, project: string, accountId: string, role: string): Promise<void> {
  await q.query('INSERT INTO project_members (project_id, account_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [project, accountId, role]);
}
