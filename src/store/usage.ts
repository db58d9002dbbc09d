// Request counts per key (tables key_usage per month, key_usage_daily per day for the
// dashboard's chart): the quota's persistence. Both tables move in the same statement.
import type { Db } from './db.ts';

export async function monthCount(q: Db, keyId: string, month: string): Promise<number> {
  const r = await q.query('SELECT count FROM key_usage WHERE key_id = $1 AND month = $2', [keyId, month]);
  return Number(r.rows[0]?.count ?? 0);
}

/** Counts one request for the month and the day only while the month's count is under limit: the new count, or null when at the limit. */
export async function countOneUnder(q: Db, keyId: string, month: string, limit: number, day: string): Promise<number | null> {
  const r = await q.query(
    `WITH m AS (
       INSERT INTO key_usage (key_id, month, count) VALUES ($1, $2, 1)
       ON CONFLICT (key_id, month) DO UPDATE SET count = key_usage.count + 1 WHERE key_usage.count < $3
       RETURNING count),
     d AS (
       -- The dashboard's daily chart counts what the month counted, in the same statement.
       INSERT INTO key_usage_daily (key_id, day, count) SELECT $1, $4::date, 1 FROM m
       ON CONFLICT (key_id, day) DO UPDATE SET count = key_usage_daily.count + 1)
     SELECT count FROM m`,
    [keyId, month, limit, day],
  );
  return r.rows[0] ? Number(r.rows[0].count) : null;
}

/**
 * Adds counts ([key, month, n]) to the months and to `day`, and reads back the new counts with
 * every node's count of `watch` keys for `month`, so quotas hold across nodes.
 */
export async function addUsage(q: Db, batch: [string, string, number][], month: string, watch: string[], day: string): Promise<{ key_id: string; month: string; count: string }[]> {
  const r = await q.query(
    `WITH up AS (
       INSERT INTO key_usage (key_id, month, count)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
       ON CONFLICT (key_id, month) DO UPDATE SET count = key_usage.count + EXCLUDED.count
       RETURNING key_id, month, count),
     daily AS (
       INSERT INTO key_usage_daily (key_id, day, count)
       SELECT k, $6::date, n FROM unnest($1::text[], $3::bigint[]) AS u(k, n)
       ON CONFLICT (key_id, day) DO UPDATE SET count = key_usage_daily.count + EXCLUDED.count)
     SELECT key_id, month, count FROM up
     UNION ALL
     SELECT key_id, month, count FROM key_usage WHERE month = $4 AND key_id = ANY($5::text[])`,
    [batch.map((b) => b[0]), batch.map((b) => b[1]), batch.map((b) => b[2]), month, watch, day],
  );
  return r.rows;
}
