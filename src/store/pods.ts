// Proofs of delivery (table pods).
import type { Db, Tenant } from './db.ts';

export const POD_COLS = `id, stop_id, photo_url, recipient_name, delivered_at, lat, lng, accuracy_m, device, partner, notes,
  pin_lat, pin_lng, pin_confirmed, distance_from_pin_m, flags, created_at`;

export async function podById(q: Db, o: Tenant, id: string): Promise<any | null> {
  const r = await q.query(`SELECT ${POD_COLS} FROM pods WHERE project_id = $1 AND sandbox = $2 AND id = $3`, [o.project, o.sandbox, id]);
  return r.rows[0] ?? null;
}

/** The id of a stop's latest POD (by delivery time), if any. */
export async function latestPodIdOfStop(q: Db, o: Tenant, stopId: string): Promise<string | undefined> {
  const r = await q.query(
    'SELECT id FROM pods WHERE project_id = $1 AND sandbox = $2 AND stop_id = $3 ORDER BY delivered_at DESC LIMIT 1',
    [o.project, o.sandbox, stopId],
  );
  return r.rows[0]?.id;
}

export interface NewPod {
  id: string; stopId: string; photoUrl: string; recipientName: string | null; deliveredAt: string; lat: number; lng: number;
  accuracy: number | null; device: string | null; partner: string | null; notes: string | null;
  pinLat: number; pinLng: number; pinConfirmed: boolean; distanceFromPin: number; flags: string[];
}

export async function insertPod(q: Db, o: Tenant, p: NewPod): Promise<any> {
  const ins = await q.query(
    `INSERT INTO pods (project_id, sandbox, id, stop_id, photo_url, recipient_name, delivered_at, lat, lng, accuracy_m, device,
       partner, notes, pin_lat, pin_lng, pin_confirmed, distance_from_pin_m, flags)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING ${POD_COLS}`,
    [o.project, o.sandbox, p.id, p.stopId, p.photoUrl, p.recipientName, p.deliveredAt, p.lat, p.lng, p.accuracy, p.device,
      p.partner, p.notes, p.pinLat, p.pinLng, p.pinConfirmed, p.distanceFromPin, p.flags],
  );
  return ins.rows[0];
}
