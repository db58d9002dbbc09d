// Ping ingest and trail reads against the pings table. Ingest is one statement per
// request: a multi-row INSERT over unnest() arrays with ON CONFLICT DO NOTHING (the
// (project, sandbox, device, ts) key makes retries idempotent), chained in the same
// statement to the per-device last-position upsert. One statement is one implicit
// transaction, so the 202 goes out only after it committed.
import type { Store } from '../../store/index.ts';
import type { Owner } from './owner.ts';

export interface Ping {
  device: string;
  ts: number; // epoch ms
  lat: number;
  lng: number;
  speed_mps: number | null;
  heading_deg: number | null;
  accuracy_m: number | null;
}

/**
 * The API's JSON for one ping. Stored with the row (column j) so trail reads never
 * format numbers or dates; the same function renders every ping, so the shape is one.
 */
export function renderPing(p: Ping): string {
  return `{"lat":${p.lat},"lng":${p.lng},"ts":"${new Date(p.ts).toISOString()}","speed_mps":${p.speed_mps},"heading_deg":${p.heading_deg},"accuracy_m":${p.accuracy_m}}`;
}

const INGEST = `
WITH input AS (
  SELECT device, timestamptz 'epoch' + ms * interval '1 millisecond' AS ts, lat, lng, speed_mps, heading_deg, accuracy_m, j
  FROM unnest($3::text[], $4::bigint[], $5::float8[], $6::float8[], $7::real[], $8::real[], $9::real[], $10::text[])
    AS t(device, ms, lat, lng, speed_mps, heading_deg, accuracy_m, j)
), ins AS (
  INSERT INTO pings (project_id, sandbox, device, ts, lat, lng, speed_mps, heading_deg, accuracy_m, j)
  SELECT $1, $2, device, ts, lat, lng, speed_mps, heading_deg, accuracy_m, j FROM input
  ON CONFLICT DO NOTHING
  RETURNING device, ts, lat, lng, speed_mps, heading_deg, accuracy_m
), last AS (
  INSERT INTO devices (project_id, sandbox, device, last_ts, lat, lng, speed_mps, heading_deg, accuracy_m)
  SELECT DISTINCT ON (device) $1, $2, device, ts, lat, lng, speed_mps, heading_deg, accuracy_m
  FROM ins ORDER BY device, ts DESC
  ON CONFLICT (project_id, sandbox, device) DO UPDATE SET
    last_ts = EXCLUDED.last_ts, lat = EXCLUDED.lat, lng = EXCLUDED.lng, speed_mps = EXCLUDED.speed_mps,
    heading_deg = EXCLUDED.heading_deg, accuracy_m = EXCLUDED.accuracy_m, last_received_at = now()
  WHERE devices.last_ts < EXCLUDED.last_ts
)
SELECT count(*)::int AS accepted FROM ins`;

/** Insert the pings; returns how many were new (the rest were already stored). */
export async function ingest(store: Store, o: Owner, pings: Ping[]): Promise<number> {
  // A fixed order (device, ts) makes concurrent overlapping batches take their index and
  // row locks in the same order, so two retries of one batch cannot deadlock each other.
  pings.sort((a, b) => (a.device < b.device ? -1 : a.device > b.device ? 1 : a.ts - b.ts));
  const n = pings.length;
  const dev = new Array<string>(n), ts = new Array<number>(n), la = new Array<number>(n), ln = new Array<number>(n);
  const sp = new Array<number | null>(n), hd = new Array<number | null>(n), ac = new Array<number | null>(n), js = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const p = pings[i];
    dev[i] = p.device; ts[i] = p.ts; la[i] = p.lat; ln[i] = p.lng; sp[i] = p.speed_mps; hd[i] = p.heading_deg; ac[i] = p.accuracy_m;
    js[i] = renderPing(p);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await store.query(INGEST, [o.project, o.sandbox, dev, ts, la, ln, sp, hd, ac, js]);
      return r.rows[0].accepted;
    } catch (e: any) {
      // Deadlock or serialization failure: the statement rolled back as a whole; run it again.
      if ((e?.code === '40P01' || e?.code === '40001') && attempt < 3) continue;
      throw e;
    }
  }
}

export interface TrailQuery {
  device: string;
  since: number | null;
  until: number | null;
  limit: number;
}

export interface Trail {
  /** JSON text of the newest ping of the device (whatever the window), or null. */
  last: string | null;
  /** JSON text of each ping in the page, oldest first. */
  points: string[];
  hasMore: boolean;
}

const toTs = (i: number) => `timestamptz 'epoch' + $${i}::bigint * interval '1 millisecond'`;

/**
 * With `since`: the first `limit` pings from since onwards (page forward with the last ts).
 * Without: the latest `limit` pings up to `until`. Either way the page is in time order.
 * Reads limit + 1 rows to learn whether more exist, without a second scan.
 */
export async function readTrail(store: Store, o: Owner, q: TrailQuery): Promise<Trail> {
  const fromStart = q.since !== null;
  const page = store.pool.query<any[]>({
    text: `SELECT j FROM pings WHERE project_id = $1 AND sandbox = $2 AND device = $3
             AND ($4::bigint IS NULL OR ts >= ${toTs(4)}) AND ($5::bigint IS NULL OR ts <= ${toTs(5)})
           ORDER BY ts ${fromStart ? 'ASC' : 'DESC'} LIMIT $6`,
    values: [o.project, o.sandbox, q.device, q.since, q.until, q.limit + 1],
    rowMode: 'array',
  });
  // The newest ping overall; when the page is the latest one it is the page's first row.
  const needLast = fromStart || q.until !== null;
  const last = needLast
    ? store.pool.query<any[]>({ text: 'SELECT j FROM pings WHERE project_id = $1 AND sandbox = $2 AND device = $3 ORDER BY ts DESC LIMIT 1', values: [o.project, o.sandbox, q.device], rowMode: 'array' })
    : null;
  const rows = (await page).rows;
  const hasMore = rows.length > q.limit;
  const points = new Array<string>(Math.min(rows.length, q.limit));
  if (fromStart) for (let i = 0; i < points.length; i++) points[i] = rows[i][0];
  else for (let i = 0; i < points.length; i++) points[points.length - 1 - i] = rows[i][0];
  const lastText = last ? ((await last).rows[0]?.[0] ?? null) : (rows[0]?.[0] ?? null);
  return { last: lastText, points, hasMore };
}

/** Pings of one device in [from, to], oldest first (evidence packs). */
export async function trailWindow(store: Store, o: Owner, device: string, from: Date, to: Date, limit: number): Promise<unknown[]> {
  const r = await store.pool.query<any[]>({
    text: `SELECT j FROM pings WHERE project_id = $1 AND sandbox = $2 AND device = $3 AND ts >= $4 AND ts <= $5 ORDER BY ts LIMIT $6`,
    values: [o.project, o.sandbox, device, from, to, limit],
    rowMode: 'array',
  });
  return r.rows.map((row) => JSON.parse(row[0]));
}
