// Disputes and their evidence packs (table disputes).
import type { Db, Tenant } from './db.ts';

const DISPUTE_COLS = 'id, status, stop_id, pod_id, reason, category, partner, evidence, created_at';

export interface NewDispute { id: string; stopId: string; podId: string | null; reason: string; category: string | null; partner: string | null; evidence: unknown }

export async function insertDispute(q: Db, o: Tenant, d: NewDispute): Promise<any> {
  const ins = await q.query(
    `INSERT INTO disputes (project_id, sandbox, id, stop_id, pod_id, reason, category, partner, evidence)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${DISPUTE_COLS}`,
    [o.project, o.sandbox, d.id, d.stopId, d.podId, d.reason, d.category, d.partner, JSON.stringify(d.evidence)],
  );
  return ins.rows[0];
}

export async function disputeById(q: Db, o: Tenant, id: string): Promise<any | undefined> {
  const r = await q.query(`SELECT ${DISPUTE_COLS} FROM disputes WHERE project_id = $1 AND sandbox = $2 AND id = $3`, [o.project, o.sandbox, id]);
  return r.rows[0];
}
