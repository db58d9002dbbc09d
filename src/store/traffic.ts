// Traffic data (tables traffic_probes, traffic_cursor, traffic_samples, traffic_profile,
// traffic_profile_devices): claiming probes and ping windows for map matching, storing the
// matched speed samples and the weekly profile, and reading them back for publication.
import type pg from 'pg';
import type { Store } from './store.ts';

export interface Sample { extract: string; profile: string; edge: number; dir: number; ts: number; speed_kph: number; from_m: number; to_m: number; device: string }
export interface ClaimedProbe { id: string; project_id: string; trace_id: string; points: unknown }

/**
 * Claims up to `limit` unprocessed probes (or ones whose claim is older than `expiryS`): a node
 * that dies mid-way leaves its claim to expire, so every probe is processed by some node.
 */
export async function claimProbes(store: Store, expiryS: number, limit: number): Promise<ClaimedProbe[]> {
  const { rows } = await store.pool.query(
    `UPDATE traffic_probes SET claimed_at = now() WHERE id IN (
       SELECT id FROM traffic_probes
        WHERE processed_at IS NULL AND (claimed_at IS NULL OR claimed_at < now() - $1 * interval '1 second')
        ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING id, project_id, trace_id, points`, [expiryS, limit]);
  return rows;
}

/**
 * Takes the window of pings from the shared cursor up to `end` by moving the cursor with a
 * compare-and-set, so two nodes never read the same pings. Null when there is nothing new or
 * another node took the window first.
 */
export async function takePingWindow(store: Store, end: Date): Promise<{ from: Date; end: Date } | null> {
  await store.pool.query(
    `INSERT INTO traffic_cursor (name, ts) VALUES ('pings', $1) ON CONFLICT (name) DO NOTHING`, [end]);
  const { rows: cur } = await store.pool.query(`SELECT ts FROM traffic_cursor WHERE name = 'pings'`);
  const from: Date = cur[0].ts;
  if (end <= from) return null;
  const moved = await store.pool.query(
    `UPDATE traffic_cursor SET ts = $1 WHERE name = 'pings' AND ts = $2`, [end, from]);
  return moved.rowCount === 1 ? { from, end } : null;
}

/** Live keys' pings in (from, end], by project, device and time. */
export async function livePings(store: Store, from: Date, end: Date): Promise<{ project_id: string; device: string; ms: number; lat: number; lng: number }[]> {
  const { rows } = await store.pool.query(
    `SELECT project_id, device, (extract(epoch FROM ts) * 1000)::float8 AS ms, lat, lng FROM pings
      WHERE NOT sandbox AND ts > $1 AND ts <= $2 ORDER BY project_id, device, ts`, [from, end]);
  return rows;
}

/**
 * Stores matched samples and adds them to the weekly profile (hour of week, distinct devices
 * counted once per slot); inside the transaction that marks their probes processed.
 */
export async function storeSamples(c: pg.PoolClient, samples: Sample[]): Promise<void> {
  const col = <K extends keyof Sample>(k: K) => samples.map((s) => s[k]);
  const dows = samples.map((s) => new Date(s.ts).getUTCDay()), hours = samples.map((s) => new Date(s.ts).getUTCHours());
  await c.query(
    `INSERT INTO traffic_samples (extract, profile, edge, dir, ts, speed_kph, device, from_m, to_m)
       SELECT e, p, ed, d, timestamptz 'epoch' + ms * interval '1 millisecond', k, dv, f, t
       FROM unnest($1::text[], $2::text[], $3::int[], $4::int2[], $5::float8[], $6::real[], $7::text[], $8::real[], $9::real[]) AS t(e, p, ed, d, ms, k, dv, f, t)`,
    [col('extract'), col('profile'), col('edge'), col('dir'), col('ts'), col('speed_kph'), col('device'), col('from_m'), col('to_m')],
  );
  await c.query(
    `WITH s AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int2[], $5::int2[], $6::int2[], $7::float8[], $8::text[])
         AS t(extract, profile, edge, dir, dow, hour, kph, device)
     ), d AS (
       INSERT INTO traffic_profile_devices (extract, profile, edge, dir, dow, hour, device)
       SELECT DISTINCT extract, profile, edge, dir, dow, hour, device FROM s
       ON CONFLICT DO NOTHING
       RETURNING extract, profile, edge, dir, dow, hour
     ), nd AS (
       SELECT extract, profile, edge, dir, dow, hour, count(*)::int AS c FROM d GROUP BY 1, 2, 3, 4, 5, 6
     ), agg AS (
       SELECT extract, profile, edge, dir, dow, hour, count(*)::int AS n, sum(kph) AS sk FROM s GROUP BY 1, 2, 3, 4, 5, 6
     )
     INSERT INTO traffic_profile (extract, profile, edge, dir, dow, hour, n, sum_kph, devices)
     SELECT agg.extract, agg.profile, agg.edge, agg.dir, agg.dow, agg.hour, agg.n, agg.sk, coalesce(nd.c, 0)
       FROM agg LEFT JOIN nd USING (extract, profile, edge, dir, dow, hour)
     ON CONFLICT (extract, profile, edge, dir, dow, hour) DO UPDATE SET
       n = traffic_profile.n + EXCLUDED.n, sum_kph = traffic_profile.sum_kph + EXCLUDED.sum_kph,
       devices = traffic_profile.devices + EXCLUDED.devices`,
    [col('extract'), col('profile'), col('edge'), col('dir'), dows, hours, col('speed_kph'), col('device')],
  );
}

export async function markProbesProcessed(c: pg.PoolClient, ids: string[]): Promise<void> {
  await c.query('UPDATE traffic_probes SET processed_at = now() WHERE id = ANY($1::bigint[])', [ids]);
}

/** Samples taken in (from, to]. */
export async function samplesBetween(store: Store, from: Date, to: Date): Promise<{ extract: string; profile: string; edge: number; dir: number; ms: number; speed_kph: number; device: string; from_m: number | null; to_m: number | null }[]> {
  const { rows } = await store.pool.query(
    `SELECT extract, profile, edge, dir, (extract(epoch FROM ts) * 1000)::float8 AS ms, speed_kph, device, from_m, to_m
       FROM traffic_samples WHERE ts > $1 AND ts <= $2`,
    [from, to],
  );
  return rows;
}

/** Weekly profile slots seen by at least `minDevices` distinct devices, with their mean speed. */
export async function profileSpeeds(store: Store, minDevices: number): Promise<{ extract: string; profile: string; edge: number; dir: number; dow: number; hour: number; kph: number }[]> {
  const { rows } = await store.pool.query(
    `SELECT extract, profile, edge, dir, dow, hour, sum_kph / n AS kph FROM traffic_profile WHERE devices >= $1`, [minDevices]);
  return rows;
}
