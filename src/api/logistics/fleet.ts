// GET /fleet/vehicles: the project's devices with their last position, from the
// devices table the ingest statement keeps current (no scan over the pings).
import type { RouteDef } from '../../http/types.ts';
import { bad } from '../../http/params.ts';
import { owner } from './owner.ts';
import { DEVICE_RE } from './validate.ts';

export const routes: RouteDef[] = [
  {
    method: 'GET', path: '/fleet/vehicles', scope: 'fleet', capabilities: ['fleet_vehicles'], example: {},
    note: 'GET /api/v1/fleet/vehicles lists the project\'s tracked devices with last position, speed and last-seen time (from real pings only).',
    handler: async (req, ctx) => {
      const o = owner(req);
      const q = req.query;
      const lim = q.get('limit')?.trim();
      if (lim && !/^\d{1,5}$/.test(lim)) throw bad('limit', 'must be a whole number 1-1000');
      const limit = lim ? Number(lim) : 100;
      if (limit < 1 || limit > 1000) throw bad('limit', 'must be between 1 and 1000');
      const after = q.get('after')?.trim() || null;
      if (after !== null && !DEVICE_RE.test(after)) throw bad('after', 'must be a device identifier from a previous page');
      const r = await ctx.store.query(
        `SELECT device, last_ts, lat, lng, speed_mps, heading_deg, accuracy_m, first_seen, last_received_at FROM devices
         WHERE project_id = $1 AND sandbox = $2 AND ($3::text IS NULL OR device > $3) ORDER BY device LIMIT $4`,
        [o.project, o.sandbox, after, limit + 1],
      );
      const rows = r.rows.slice(0, limit);
      const now = Date.now();
      return {
        json: {
          vehicles: rows.map((v) => ({
            device: v.device,
            last: { lat: v.lat, lng: v.lng, ts: v.last_ts.toISOString(), speed_mps: v.speed_mps, heading_deg: v.heading_deg, accuracy_m: v.accuracy_m },
            last_seen: v.last_ts.toISOString(),
            seconds_since_seen: Math.max(0, Math.round((now - v.last_ts.getTime()) / 1000)),
            first_seen: v.first_seen.toISOString(),
          })),
          has_more: r.rows.length > limit,
          next_after: r.rows.length > limit ? rows[rows.length - 1].device : null,
        },
      };
    },
  },
];
