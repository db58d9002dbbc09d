// Turns probes into speed samples: claims stored probe traces (and windows of live tracking
// pings), has a worker map-match them to directed road edges (task traffic_samples), and stores
// the samples and the weekly profile in one transaction with the probes marked done. A node that
// dies mid-way leaves its claim to expire, so an acknowledged probe is processed by some node.
import { createHash } from 'node:crypto';
import type { Engine } from '../pool.ts';
import type { Store } from '../store/index.ts';
import { log } from '../core/log.ts';

/** Pings join traffic this long after their timestamp, so late uploads of a window are in. */
export const PING_LAG_MS = 60_000;
/** A gap longer than this between two pings of a device starts a new trace. */
const TRACE_GAP_MS = 120_000;
const CLAIM_EXPIRY_S = 60;
const PROBES_PER_TICK = 200;

export interface Trace { device: string; points: [number, number, number][] }
export interface Sample { extract: string; profile: string; edge: number; dir: number; ts: number; speed_kph: number; device: string }

/** One-way: samples and profiles keep only this, never the caller's device or trace id. */
export const deviceHash = (project: string, kind: string, id: string) =>
  createHash('sha256').update(`${project}\u0000${kind}\u0000${id}`).digest('base64url').slice(0, 22);

export class ProbeProcessor {
  now = () => Date.now();
  constructor(private store: Store, private engine: Engine) {}

  /** One round: returns how many traces were matched and samples stored. */
  async tick(): Promise<{ traces: number; samples: number }> {
    const probes = await this.claimProbes();
    const pings = await this.pingTraces();
    const traces: Trace[] = [
      ...probes.map((p) => ({ device: deviceHash(p.project_id, 'trace', p.trace_id), points: p.points as [number, number, number][] })),
      ...pings,
    ];
    let samples: Sample[] = [];
    if (traces.length) {
      const reply = await this.engine.run('traffic_samples', { traces });
      const body = JSON.parse(new TextDecoder().decode(reply.body));
      if (reply.status !== 200) throw new Error(`traffic_samples answered ${reply.status}: ${body?.error?.message}`);
      samples = body.samples as Sample[];
    }
    await this.store.tx(async (c) => {
      if (samples.length) {
        const col = <K extends keyof Sample>(k: K) => samples.map((s) => s[k]);
        const dows = samples.map((s) => new Date(s.ts).getUTCDay()), hours = samples.map((s) => new Date(s.ts).getUTCHours());
        await c.query(
          `INSERT INTO traffic_samples (extract, profile, edge, dir, ts, speed_kph, device)
             SELECT e, p, ed, d, timestamptz 'epoch' + ms * interval '1 millisecond', k, dv
             FROM unnest($1::text[], $2::text[], $3::int[], $4::int2[], $5::float8[], $6::real[], $7::text[]) AS t(e, p, ed, d, ms, k, dv)`,
          [col('extract'), col('profile'), col('edge'), col('dir'), col('ts'), col('speed_kph'), col('device')],
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
      if (probes.length) await c.query('UPDATE traffic_probes SET processed_at = now() WHERE id = ANY($1::bigint[])', [probes.map((p) => p.id)]);
    });
    return { traces: traces.length, samples: samples.length };
  }

  private async claimProbes(): Promise<{ id: string; project_id: string; trace_id: string; points: unknown }[]> {
    const { rows } = await this.store.pool.query(
      `UPDATE traffic_probes SET claimed_at = now() WHERE id IN (
         SELECT id FROM traffic_probes
          WHERE processed_at IS NULL AND (claimed_at IS NULL OR claimed_at < now() - $1 * interval '1 second')
          ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id, project_id, trace_id, points`, [CLAIM_EXPIRY_S, PROBES_PER_TICK]);
    return rows;
  }

  /**
   * Live keys' pings up to PING_LAG_MS ago, in windows behind a shared cursor. A node takes a
   * window by moving the cursor with a compare-and-set, so two nodes never read the same pings.
   */
  private async pingTraces(): Promise<Trace[]> {
    const end = new Date(this.now() - PING_LAG_MS);
    await this.store.pool.query(
      `INSERT INTO traffic_cursor (name, ts) VALUES ('pings', $1) ON CONFLICT (name) DO NOTHING`, [end]);
    const { rows: cur } = await this.store.pool.query(`SELECT ts FROM traffic_cursor WHERE name = 'pings'`);
    const from: Date = cur[0].ts;
    if (end <= from) return [];
    const moved = await this.store.pool.query(
      `UPDATE traffic_cursor SET ts = $1 WHERE name = 'pings' AND ts = $2`, [end, from]);
    if (moved.rowCount !== 1) return [];
    const { rows } = await this.store.pool.query(
      `SELECT project_id, device, (extract(epoch FROM ts) * 1000)::float8 AS ms, lat, lng FROM pings
        WHERE NOT sandbox AND ts > $1 AND ts <= $2 ORDER BY project_id, device, ts`, [from, end]);
    const traces: Trace[] = [];
    let cur2: Trace | null = null, key = '', last = 0;
    for (const r of rows) {
      const k = `${r.project_id}\u0000${r.device}`;
      if (k !== key || r.ms - last > TRACE_GAP_MS) {
        if (cur2 && cur2.points.length >= 2) traces.push(cur2);
        cur2 = { device: deviceHash(r.project_id, 'device', r.device), points: [] };
        key = k;
      }
      cur2!.points.push([r.lat, r.lng, r.ms]);
      last = r.ms;
    }
    if (cur2 && cur2.points.length >= 2) traces.push(cur2);
    return traces;
  }
}

export function logProcessError(e: unknown) {
  log.error('traffic_process', { error: String((e as Error)?.message ?? e) });
}
