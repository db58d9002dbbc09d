// GET /fleet/vehicles/nearest: the caller's vehicles ranked by road ETA to a rider. Positions are
// the last real ping of each device (the devices table the ingest keeps current), fresh within
// fresh_s; the ETAs come from the matrix engine on the driving graph (workers/routing/ride/fleet-eta.ts,
// vehicles as sources, the rider as the destination), never from straight-line distance. Which
// vehicle to send stays the caller's decision (SPEC §1: assignment is out of scope).
import { route, type AppContext, type RouteDef } from '../../http/types.ts';
import { Q, type Schema } from '../../http/declaration.ts';
import { haversine } from '../../core/geometry.ts';
import { NEAREST_LIMIT, NEAREST_MAX_ETA_S, NEAREST_FRESH_S, NEAREST_CANDIDATES, SNAP_RADIUS } from '../../core/limits.ts';
import { owner } from '../logistics/owner.ts';
import type { FleetEtaReply } from '../../core/tasks/index.ts';
import { freshDevicesNear, deviceCounts, type DevicePosition } from '../../store/fleet.ts';

/**
 * Fastest road speed assumed when choosing which vehicles to route: one further away in a straight
 * line than max_eta_s at this speed cannot arrive in time, so it is not routed (counted as beyond_reach).
 */
export const MAX_ROAD_SPEED_MPS = 50;

const ready = (ctx: AppContext) => ctx.pool.has('fleet_eta') && ctx.pool.hasDataset('road');

const position: Schema = {
  type: 'object', required: ['lat', 'lng', 'ts'],
  properties: { lat: { type: 'number' }, lng: { type: 'number' }, ts: { type: 'string' }, speed_mps: { type: ['number', 'null'] }, heading_deg: { type: ['number', 'null'] }, accuracy_m: { type: ['number', 'null'] } },
};
const ranked: Schema = {
  type: 'object', required: ['device', 'eta_s', 'distance_m', 'straight_m', 'age_s', 'position'],
  properties: { device: { type: 'string' }, eta_s: { type: 'number' }, distance_m: { type: 'number' }, straight_m: { type: 'number' }, snap_m: { type: 'number' }, age_s: { type: 'integer' }, position },
};
const unreachable: Schema = {
  type: 'object', required: ['device', 'reason', 'straight_m', 'age_s'],
  properties: { device: { type: 'string' }, reason: { enum: ['out_of_coverage', 'no_road', 'no_route'] }, straight_m: { type: 'number' }, age_s: { type: 'integer' } },
};

type Row = DevicePosition;

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/fleet/vehicles/nearest', scope: 'fleet', capabilities: ['fleet_nearest'], ready,
    note: 'GET /api/v1/fleet/vehicles/nearest?lat&lng&limit&max_eta_s&fresh_s ranks the project\'s vehicles (last real ping, fresh within fresh_s) by driving ETA to the rider on the road graph (a one-to-many matrix search), not by straight line; vehicles that cannot reach are listed apart. Assignment stays with the caller.',
    offNote: () => 'No driving road extract is loaded, so no road ETA can be computed (straight-line ranking is not offered).',
    decl: {
      summary: "The project's vehicles nearest a rider by road ETA", tag: 'fleet',
      description: `Ranks by driving time on the road graph from each vehicle's last real position (pings only; none is invented) to the rider. Only vehicles whose last ping is at most fresh_s old are considered; of those, the ${NEAREST_CANDIDATES} nearest in a straight line within max_eta_s × ${MAX_ROAD_SPEED_MPS} m/s are routed. Vehicles with no road within ${SNAP_RADIUS.default} m, outside the rider's road extract, or with no route to the rider are listed under \`unreachable\`; \`counts\` says how many were left out and why.`,
      query: {
        lat: { schema: Q.num({ min: -90, max: 90 }), required: true, description: "Rider's latitude" },
        lng: { schema: Q.num({ min: -180, max: 180 }), required: true, aliases: ['lon'], description: "Rider's longitude" },
        limit: { schema: Q.int({ min: 1, max: NEAREST_LIMIT.max, default: NEAREST_LIMIT.default }), description: 'Vehicles in the ranking' },
        max_eta_s: { schema: Q.int({ min: NEAREST_MAX_ETA_S.min, max: NEAREST_MAX_ETA_S.max, default: NEAREST_MAX_ETA_S.default }), description: 'Leave out vehicles further than this many seconds of driving' },
        fresh_s: { schema: Q.int({ min: NEAREST_FRESH_S.min, max: NEAREST_FRESH_S.max, default: NEAREST_FRESH_S.default }), description: 'Leave out vehicles whose last ping is older than this many seconds' },
      },
      pairAliases: { location: ['lat', 'lng'] },
      responses: {
        200: {
          description: 'Vehicles by ETA, fastest first; the unreachable ones apart',
          schema: {
            type: 'object', required: ['rider', 'vehicles', 'unreachable', 'counts', 'ranking'],
            properties: {
              rider: { type: 'object', required: ['lat', 'lng', 'snapped'] }, extract: { type: 'string' }, ranking: { const: 'road_eta' },
              vehicles: { type: 'array', items: ranked }, unreachable: { type: 'array', items: unreachable },
              counts: {
                type: 'object', required: ['fresh', 'stale', 'routed', 'ranked', 'beyond_max_eta', 'unreachable', 'beyond_reach'],
                properties: Object.fromEntries(['fresh', 'stale', 'routed', 'ranked', 'beyond_max_eta', 'unreachable', 'beyond_reach', 'not_routed'].map((k) => [k, { type: 'integer' }])),
              },
            },
          },
        },
        400: { description: 'Invalid parameter, or the rider is outside every road extract (out_of_coverage) or has no road nearby (no_road)' },
      },
      examples: [{ query: 'lat=5.5560&lng=-0.1969&limit=3&max_eta_s=900', summary: 'A rider in Accra' }],
    },
    async handler(req, ctx) {
      const o = owner(req);
      const { lat, lng, limit, max_eta_s: maxEta, fresh_s: fresh } = req.q as { lat: number; lng: number; limit: number; max_eta_s: number; fresh_s: number };
      const reach = maxEta * MAX_ROAD_SPEED_MPS;
      const dLat = reach / 111_195, dLng = Math.min(180, dLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
      const cutoff = new Date(Date.now() - fresh * 1000);
      // Fresh vehicles in the box around the rider, nearest in a straight line first (planar
      // distance in degrees scaled by cos(lat): an ordering, not a distance).
      const cos = Math.cos((lat * Math.PI) / 180);
      const box = { lat, lng, dLat, dLng, cos };
      const [cand, count] = await Promise.all([
        freshDevicesNear(ctx.store, o, cutoff, box, NEAREST_CANDIDATES + 1),
        deviceCounts(ctx.store, o, cutoff, box),
      ]);
      const now = Date.now();
      const fetched = cand.map((r) => ({ r, straight: haversine(lat, lng, r.lat, r.lng) }));
      const routed = fetched.filter((x) => x.straight <= reach).slice(0, NEAREST_CANDIDATES);
      const { fresh: nFresh, stale, in_box: inBox } = count;
      // fresh = routed + beyond_reach (further than max_eta_s at MAX_ROAD_SPEED_MPS) + not_routed (past NEAREST_CANDIDATES)
      const outside = fetched.filter((x) => x.straight > reach).length;
      const counts = {
        fresh: nFresh, stale, routed: routed.length, ranked: 0, beyond_max_eta: 0, unreachable: 0,
        beyond_reach: nFresh - inBox + outside, not_routed: Math.max(0, inBox - routed.length - outside),
      };
      const age = (r: Row) => Math.max(0, Math.round((now - r.last_ts.getTime()) / 1000));
      // Run even with no vehicle to route: a rider off every road extract, or far from any road, is told so.
      const reply = await ctx.pool.run('fleet_eta', { rider: [lat, lng], vehicles: routed.map((x) => [x.r.lat, x.r.lng]), radius: SNAP_RADIUS.default }, o.sandbox);
      if (reply.status !== 200) return { task: reply };
      const body = JSON.parse(Buffer.from(reply.body).toString('utf8')) as FleetEtaReply;
      const etas = body.vehicles, extract = body.extract;
      const rider = { lat, lng, snapped: body.rider };
      const out: Record<string, unknown>[] = [], bad: Record<string, unknown>[] = [];
      const ok: { x: (typeof routed)[number]; e: { eta_s: number; distance_m: number; snap_m: number } }[] = [];
      routed.forEach((x, i) => {
        const e = etas[i];
        if (!e) return;
        if ('unreachable' in e) { counts.unreachable++; bad.push({ device: x.r.device, reason: e.unreachable, straight_m: Math.round(x.straight), age_s: age(x.r) }); return; }
        if (e.eta_s > maxEta) { counts.beyond_max_eta++; return; }
        ok.push({ x, e });
      });
      ok.sort((a, b) => a.e.eta_s - b.e.eta_s || a.e.distance_m - b.e.distance_m || (a.x.r.device < b.x.r.device ? -1 : 1));
      counts.ranked = ok.length;
      for (const { x, e } of ok.slice(0, limit)) {
        const r = x.r;
        out.push({
          device: r.device, eta_s: e.eta_s, distance_m: e.distance_m, straight_m: Math.round(x.straight), snap_m: e.snap_m, age_s: age(r),
          position: { lat: r.lat, lng: r.lng, ts: r.last_ts.toISOString(), speed_mps: r.speed_mps, heading_deg: r.heading_deg, accuracy_m: r.accuracy_m },
        });
      }
      return { json: { rider, extract, ranking: 'road_eta', vehicles: out, unreachable: bad.slice(0, NEAREST_LIMIT.max), counts } };
    },
  }),
];
