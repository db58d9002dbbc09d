// Ping ingest and trail reads against the pings table. Ingest is one statement per
// request: a multi-row INSERT over unnest() arrays with ON CONFLICT DO NOTHING (the
// (project, sandbox, device, ts) key makes retries idempotent), chained in the same
// statement to the per-device last-position upsert. One statement is one implicit
// transaction, so the 202 goes out only after it committed.
import type { Store } from './store.ts';
import type { Db, Tenant } from './db.ts';

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
  SELECT project_id, sandbox, device, timestamptz 'epoch' + ms * interval '1 millisecond' AS ts,
         lat, lng, speed_mps, heading_deg, accuracy_m, j
  FROM unnest($1::text[], $2::bool[], $3::text[], $4::bigint[], $5::float8[], $6::float8[], $7::real[], $8::real[], $9::real[], $10::text[])
    AS t(project_id, sandbox, device, ms, lat, lng, speed_mps, heading_deg, accuracy_m, j)
), ins AS (
  INSERT INTO pings (project_id, sandbox, device, ts, lat, lng, speed_mps, heading_deg, accuracy_m, j)
  SELECT * FROM input
  ON CONFLICT DO NOTHING
  RETURNING project_id, sandbox, device, ts, lat, lng, speed_mps, heading_deg, accuracy_m
), last AS (
  INSERT INTO devices (project_id, sandbox, device, last_ts, lat, lng, speed_mps, heading_deg, accuracy_m, pings_total)
  SELECT DISTINCT ON (project_id, sandbox, device) project_id, sandbox, device, ts, lat, lng, speed_mps, heading_deg, accuracy_m,
         count(*) OVER (PARTITION BY project_id, sandbox, device)
  FROM ins ORDER BY project_id, sandbox, device, ts DESC
  ON CONFLICT (project_id, sandbox, device) DO UPDATE SET
    pings_total = devices.pings_total + EXCLUDED.pings_total,
    last_received_at = now(),
    -- A late (older) ping joins the trail but does not move the last position.
    last_ts = greatest(devices.last_ts, EXCLUDED.last_ts),
    lat = CASE WHEN EXCLUDED.last_ts > devices.last_ts THEN EXCLUDED.lat ELSE devices.lat END,
    lng = CASE WHEN EXCLUDED.last_ts > devices.last_ts THEN EXCLUDED.lng ELSE devices.lng END,
    speed_mps = CASE WHEN EXCLUDED.last_ts > devices.last_ts THEN EXCLUDED.speed_mps ELSE devices.speed_mps END,
    heading_deg = CASE WHEN EXCLUDED.last_ts > devices.last_ts THEN EXCLUDED.heading_deg ELSE devices.heading_deg END,
    accuracy_m = CASE WHEN EXCLUDED.last_ts > devices.last_ts THEN EXCLUDED.accuracy_m ELSE devices.accuracy_m END
)
SELECT project_id, sandbox, device, (extract(epoch FROM ts) * 1000)::int8 AS ms FROM ins`;

export interface Batch { o: Tenant; pings: Ping[] }

const keyOf = (project: string, sandbox: boolean, device: string, ms: number) => `${project}\u0000${sandbox ? 1 : 0}\u0000${device}\u0000${ms}`;

/**
 * Insert several requests' pings in one statement (one transaction, one commit) and
 * return, per request, how many of its pings were new. A ping sent twice in the same
 * statement counts as new for the first request that carried it.
 */
export async function insertBatches(store: Store, batches: Batch[]): Promise<number[]> {
  const rows: { b: number; project: string; sandbox: boolean; p: Ping }[] = [];
  for (let b = 0; b < batches.length; b++) for (const p of batches[b].pings) rows.push({ b, project: batches[b].o.project, sandbox: batches[b].o.sandbox, p });
  // A fixed lock order (project, sandbox, device, ts): concurrent statements that overlap
  // (retries of one batch) take their index and row locks in the same order, never a cycle.
  rows.sort((x, y) => (x.project < y.project ? -1 : x.project > y.project ? 1
    : x.sandbox !== y.sandbox ? (x.sandbox ? 1 : -1)
    : x.p.device < y.p.device ? -1 : x.p.device > y.p.device ? 1 : x.p.ts - y.p.ts));
  const n = rows.length;
  const pr = new Array<string>(n), sb = new Array<boolean>(n), dev = new Array<string>(n), ts = new Array<number>(n);
  const la = new Array<number>(n), ln = new Array<number>(n), sp = new Array<number | null>(n), hd = new Array<number | null>(n);
  const ac = new Array<number | null>(n), js = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const { project, sandbox, p } = rows[i];
    pr[i] = project; sb[i] = sandbox; dev[i] = p.device; ts[i] = p.ts; la[i] = p.lat; ln[i] = p.lng;
    sp[i] = p.speed_mps; hd[i] = p.heading_deg; ac[i] = p.accuracy_m; js[i] = renderPing(p);
  }
  let inserted: any[];
  for (let attempt = 0; ; attempt++) {
    try {
      inserted = (await store.pool.query<any[]>({ text: INGEST, values: [pr, sb, dev, ts, la, ln, sp, hd, ac, js], rowMode: 'array' })).rows;
      break;
    } catch (e: any) {
      // Deadlock or serialization failure: the statement rolled back as a whole; run it again.
      if ((e?.code === '40P01' || e?.code === '40001') && attempt < 3) continue;
      throw e;
    }
  }
  const fresh = new Set<string>();
  for (const r of inserted) fresh.add(keyOf(r[0], r[1], r[2], Number(r[3])));
  const accepted = new Array<number>(batches.length).fill(0);
  for (let b = 0; b < batches.length; b++) {
    const { o, pings } = batches[b];
    for (const p of pings) {
      const k = keyOf(o.project, o.sandbox, p.device, p.ts);
      if (fresh.delete(k)) accepted[b]++;
    }
  }
  return accepted;
}

/**
 * Group commit for ping requests. Up to `lanes` statements run at once; requests that
 * arrive while all lanes are busy wait and leave together in the next statement (up to
 * `maxRows` pings), so under load many requests share one commit (one WAL flush) instead
 * of queueing for a connection each. An idle server sends a request at once: no timer,
 * no added latency. Every request is still answered only after its statement committed.
 */
export class Ingestor {
  private queue: { batch: Batch; resolve: (n: number) => void; reject: (e: unknown) => void }[] = [];
  private running = 0;

  constructor(private store: Store, private lanes = 4, private maxRows = 5000) {}

  submit(o: Tenant, pings: Ping[]): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ batch: { o, pings }, resolve, reject });
      this.pump();
    });
  }

  private pump() {
    while (this.running < this.lanes && this.queue.length) {
      const take: typeof this.queue = [];
      let rows = 0;
      while (this.queue.length && (take.length === 0 || rows + this.queue[0].batch.pings.length <= this.maxRows)) {
        const item = this.queue.shift()!;
        rows += item.batch.pings.length;
        take.push(item);
      }
      this.running++;
      insertBatches(this.store, take.map((t) => t.batch)).then(
        (acc) => take.forEach((t, i) => t.resolve(acc[i])),
        (e) => take.forEach((t) => t.reject(e)),
      ).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }
}

const ingestors = new WeakMap<Store, Ingestor>();

/** Store the pings (group-committed with concurrent requests); returns how many were new. */
export function ingest(store: Store, o: Tenant, pings: Ping[]): Promise<number> {
  let g = ingestors.get(store);
  if (!g) ingestors.set(store, (g = new Ingestor(store)));
  return g.submit(o, pings);
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
export async function readTrail(store: Store, o: Tenant, q: TrailQuery): Promise<Trail> {
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

/**
 * The trail cache's version of a device: its stored-ping count and when its devices row was
 * created ('' when it never pinged). Deleting a subject's pings (DELETE /verify/addresses/{id}
 * ?delete_pings=true) deletes the row too; the count restarts with a new row, so the creation
 * time keeps a version from before the deletion from ever matching again.
 */
export async function pingVersion(store: Store, o: Tenant, device: string): Promise<string> {
  const r = await store.pool.query<any[]>({
    text: `SELECT pings_total || '@' || (extract(epoch FROM first_seen) * 1000000)::int8 FROM devices WHERE project_id = $1 AND sandbox = $2 AND device = $3`,
    values: [o.project, o.sandbox, device],
    rowMode: 'array',
  });
  return r.rows.length ? String(r.rows[0][0]) : '';
}

/** Pings of one device in [from, to], oldest first (evidence packs). */
export async function trailWindow(store: Store, o: Tenant, device: string, from: Date, to: Date, limit: number): Promise<unknown[]> {
  const r = await store.pool.query<any[]>({
    text: `SELECT j FROM pings WHERE project_id = $1 AND sandbox = $2 AND device = $3 AND ts >= $4 AND ts <= $5 ORDER BY ts LIMIT $6`,
    values: [o.project, o.sandbox, device, from, to, limit],
    rowMode: 'array',
  });
  return r.rows.map((row) => JSON.parse(row[0]));
}

/** Fixes of one device in [from, to], oldest first: [epoch ms, lat, lng, accuracy_m] (dwell evidence). */
export async function fixesBetween(store: Store, o: Tenant, device: string, from: Date, to: Date, limit: number): Promise<{ ts: number; lat: number; lng: number; accuracy_m: number | null }[]> {
  const r = await store.pool.query<any[]>({
    text: `SELECT (extract(epoch FROM ts) * 1000)::int8, lat, lng, accuracy_m FROM pings
           WHERE project_id = $1 AND sandbox = $2 AND device = $3 AND ts >= $4 AND ts <= $5 ORDER BY ts LIMIT $6`,
    values: [o.project, o.sandbox, device, from, to, limit],
    rowMode: 'array',
  });
  return r.rows.map((x) => ({ ts: Number(x[0]), lat: x[1], lng: x[2], accuracy_m: x[3] }));
}

/** Deletes every ping of a device and its last-position row; how many pings went. */
export async function deleteDevicePings(q: Db, o: Tenant, device: string): Promise<number> {
  const n = (await q.query('DELETE FROM pings WHERE project_id = $1 AND sandbox = $2 AND device = $3', [o.project, o.sandbox, device])).rowCount ?? 0;
  await q.query('DELETE FROM devices WHERE project_id = $1 AND sandbox = $2 AND device = $3', [o.project, o.sandbox, device]);
  return n;
}
