// The last known position of each device (table devices, kept by the ping writer).

import type { Db, Tenant } from './db.ts';

/** Devices in name order after `after` (null: from the start), at most `limit`. */
export async function devicesPage(q: Db, o: Tenant, after: string | null, limit: number): Promise<any[]> {
  const r = await q.query(
    `SELECT device, last_ts, lat, lng, speed_mps, heading_deg, accuracy_m, first_seen, last_received_at FROM devices
     WHERE project_id = $1 AND sandbox = $2 AND ($3::text IS NULL OR device > $3) ORDER BY device LIMIT $4`,
    [o.project, o.sandbox, after, limit],
  );
  return r.rows;
}

/** A device's last position, or null when it sent no pings. */
export async function deviceLast(q: Db, o: Tenant, device: string): Promise<{ lat: number; lng: number; last_ts: Date } | null> {
  const r = await q.query('SELECT lat, lng, last_ts FROM devices WHERE project_id = $1 AND sandbox = $2 AND device = $3', [o.project, o.sandbox, device]);
  return r.rows[0] ?? null;
}
