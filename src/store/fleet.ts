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

/** A device's last position with its motion and accuracy, as a trip link's feed shows it. */
export interface DevicePosition { device: string; last_ts: Date; lat: number; lng: number; speed_mps: number | null; heading_deg: number | null; accuracy_m: number | null }

/** A device's last position with speed, heading and accuracy, or undefined when it sent no pings. */
export async function devicePosition(q: Db, o: Tenant, device: string): Promise<DevicePosition | undefined> {
  const r = await q.query(
    'SELECT device, last_ts, lat, lng, speed_mps, heading_deg, accuracy_m FROM devices WHERE project_id = $1 AND sandbox = $2 AND device = $3',
    [o.project, o.sandbox, device],
  );
  return r.rows[0];
}

/** A box of latitudes and longitudes around a point, and the point (nearest first is planar distance scaled by cos). */
export interface Around { lat: number; lng: number; dLat: number; dLng: number; cos: number }

/**
 * Devices seen since `since` inside the box, nearest the point in a straight line first (planar
 * distance in degrees with longitude scaled by cos(lat): an ordering, not a distance), at most `limit`.
 */
export async function freshDevicesNear(q: Db, o: Tenant, since: Date, a: Around, limit: number): Promise<DevicePosition[]> {
  const r = await q.query(
    `SELECT device, last_ts, lat, lng, speed_mps, heading_deg, accuracy_m FROM devices
     WHERE project_id = $1 AND sandbox = $2 AND last_ts >= $3 AND lat BETWEEN $4 AND $5 AND lng BETWEEN $6 AND $7
     ORDER BY (lat - $8) * (lat - $8) + ((lng - $9) * $10) * ((lng - $9) * $10), device LIMIT $11`,
    [o.project, o.sandbox, since, a.lat - a.dLat, a.lat + a.dLat, a.lng - a.dLng, a.lng + a.dLng, a.lat, a.lng, a.cos, limit],
  );
  return r.rows;
}

/** How many of a project's devices were seen since `since` (fresh), before it (stale), and fresh inside the box. */
export async function deviceCounts(q: Db, o: Tenant, since: Date, a: Around): Promise<{ fresh: number; stale: number; in_box: number }> {
  const r = await q.query(
    `SELECT count(*) FILTER (WHERE last_ts >= $3)::int AS fresh, count(*) FILTER (WHERE last_ts < $3)::int AS stale,
            count(*) FILTER (WHERE last_ts >= $3 AND lat BETWEEN $4 AND $5 AND lng BETWEEN $6 AND $7)::int AS in_box
     FROM devices WHERE project_id = $1 AND sandbox = $2`,
    [o.project, o.sandbox, since, a.lat - a.dLat, a.lat + a.dLat, a.lng - a.dLng, a.lng + a.dLng],
  );
  return r.rows[0];
}
