// GET /fleet/vehicles: the project's devices with their last position, from the
// devices table the ingest statement keeps current (no scan over the pings).
import type { RouteDef } from '../../http/types.ts';
import { route } from '../../http/types.ts';
import { Q } from '../../http/declaration.ts';
import { owner } from './owner.ts';
import { DEVICE_PATTERN } from './validate.ts';
import { devicesPage } from '../../store/fleet.ts';

const MAX_PAGE = 1000;

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/fleet/vehicles', scope: 'fleet', capabilities: ['fleet_vehicles'],
    note: 'GET /api/v1/fleet/vehicles lists the project\'s tracked devices with last position, speed and last-seen time (from real pings only).',
    decl: {
      summary: "The project's tracked devices with their last position", tag: 'fleet',
      query: {
        limit: { schema: Q.int({ min: 1, max: MAX_PAGE, default: 100 }), description: 'Devices per page' },
        after: { schema: Q.str({ pattern: DEVICE_PATTERN, hint: 'must be a device identifier from a previous page' }), description: 'next_after of the previous page' },
      },
      responses: {
        200: {
          description: 'A page of devices, by name',
          schema: {
            type: 'object', required: ['vehicles', 'has_more', 'next_after'],
            properties: {
              vehicles: { type: 'array', items: { type: 'object', required: ['device', 'last', 'last_seen', 'seconds_since_seen', 'first_seen'] } },
              has_more: { type: 'boolean' }, next_after: { type: ['string', 'null'] },
            },
          },
        },
      },
      examples: [{}],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const limit: number = req.q.limit;
      const after: string | null = req.q.after ?? null;
      const page = await devicesPage(ctx.store, o, after, limit + 1);
      const rows = page.slice(0, limit);
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
          has_more: page.length > limit,
          next_after: page.length > limit ? rows[rows.length - 1].device : null,
        },
      };
    },
  }),
];
