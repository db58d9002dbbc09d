// The per-project audit log: every change made from the dashboard, the webhook API or the CLI,
// with who made it. Details never carry a secret (keys, webhook secrets, passwords).
import type pg from 'pg';

type Q = { query: (text: string, values?: unknown[]) => Promise<pg.QueryResult<any>> };

export interface AuditEntry {
  project: string;
  /** 'account:<email>', 'key:<key id>' or 'cli'. */
  actor: string;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown>;
  ip?: string | null;
}

export async function audit(q: Q, e: AuditEntry): Promise<void> {
  await q.query(
    'INSERT INTO audit_log (project_id, actor, action, target, detail, ip) VALUES ($1, $2, $3, $4, $5, $6)',
    [e.project, e.actor, e.action, e.target ?? null, JSON.stringify(e.detail ?? {}), e.ip ?? null],
  );
}

export async function auditTrail(q: Q, project: string, limit = 50): Promise<any[]> {
  const r = await q.query('SELECT id, actor, action, target, detail, ip, at FROM audit_log WHERE project_id = $1 ORDER BY at DESC, id DESC LIMIT $2', [project, limit]);
  return r.rows;
}
