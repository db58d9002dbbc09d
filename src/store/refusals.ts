// Requests refused to a known key (table key_refusals), for the dashboard's "refused recently".
import type { Db } from './db.ts';

export interface RefusalRow { key_id: string; project: string; at: Date; status: number; code: string; route: string }

/** Inserts a batch in one statement. */
export async function insertRefusals(q: Db, batch: RefusalRow[]): Promise<void> {
  await q.query(
    `INSERT INTO key_refusals (key_id, project_id, at, status, code, route)
     SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::int[], $5::text[], $6::text[])`,
    [batch.map((b) => b.key_id), batch.map((b) => b.project), batch.map((b) => b.at), batch.map((b) => b.status), batch.map((b) => b.code), batch.map((b) => b.route)],
  );
}

/** Deletes refusals older than `days`. */
export async function pruneRefusals(q: Db, days: number): Promise<void> {
  await q.query(`DELETE FROM key_refusals WHERE at < now() - make_interval(days => $1)`, [days]);
}
