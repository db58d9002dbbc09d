// GET /pickup-points: where a car can stop for a rider. Three tasks answer it, put together here:
// the road points on the rider's side of the road (routing task pickup_roads, OSRM's
// approaches=curb: the traffic side from the country the rider stands in), the named spots nearby
// (GTFS stops of the gazetteer, and the businesses of a POI build when one is loaded), and the
// walking distance from the rider to each (a one-to-many walking matrix). Every part that its data
// does not cover is said so in `notes`; nothing is invented.
import { route, type AppContext, type Req, type RouteDef } from '../../http/types.ts';
import type { TaskReply } from '../../core/task.ts';
import { Q, type Schema } from '../../http/declaration.ts';
import { PICKUP_RADIUS, PICKUP_LIMIT } from '../../core/limits.ts';
import { drivingSideOf, LEFT_HAND_TRAFFIC, type DrivingSide } from './driving-side.ts';

const ready = (ctx: AppContext) => ctx.pool.has('pickup_roads') && ctx.pool.hasDataset('road');
const json = (r: TaskReply) => JSON.parse(Buffer.from(r.body).toString('utf8'));

const nstr = { type: ['string', 'null'] }, nnum = { type: ['number', 'null'] };
const roadPoint: Schema = {
  type: 'object', required: ['lat', 'lng', 'distance_m', 'walk_m', 'road', 'oneway', 'approach', 'heading_deg', 'rider_side', 'curb_side'],
  properties: {
    lat: { type: 'number' }, lng: { type: 'number' }, distance_m: { type: 'number' }, walk_m: nnum, walk_s: nnum,
    road: nstr, ref: nstr, class: nstr, oneway: { type: 'boolean' }, approach: { enum: ['curb', 'oneway', 'either'] },
    heading_deg: { type: 'integer' }, rider_side: { enum: ['left', 'right', 'on_road'] }, curb_side: { type: 'boolean' },
  },
};
const spot: Schema = {
  type: 'object', required: ['id', 'name', 'kind', 'lat', 'lng', 'distance_m', 'walk_m'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, kind: { enum: ['transit_stop', 'business'] }, category: nstr, lat: { type: 'number' }, lng: { type: 'number' }, distance_m: { type: 'number' }, walk_m: nnum, walk_s: nnum, routes: { type: 'array' } },
};

interface Spot { id: string; name: string; kind: 'transit_stop' | 'business'; category: string | null; lat: number; lng: number; distance_m: number; routes?: unknown[] }

/** The country's traffic side (boundaries_at of the gazetteer), or null when no gazetteer answers. */
async function countryAt(ctx: AppContext, lat: number, lng: number, sandbox: boolean): Promise<string | null> {
  if (!ctx.pool.has('boundaries_at') || !ctx.pool.hasDataset('gazetteer')) return null;
  const r = await ctx.pool.run('boundaries_at', { lat, lng }, sandbox);
  if (r.status !== 200) return null;
  return (json(r).country?.country_code as string | undefined) ?? null;
}

async function spotsNear(ctx: AppContext, req: Req, lat: number, lng: number, radius: number, limit: number, notes: string[]): Promise<Spot[]> {
  const sandbox = !!req.key?.test;
  const out: Spot[] = [];
  const jobs: Promise<void>[] = [];
  if (ctx.pool.has('transit_nearby') && ctx.pool.hasDataset('gazetteer')) {
    jobs.push(ctx.pool.run('transit_nearby', { lat, lng, radius, limit }, sandbox).then((r) => {
      if (r.status !== 200) return;
      for (const s of json(r).results as any[]) if (s.name) out.push({ id: s.id, name: s.name, kind: 'transit_stop', category: s.type ?? 'bus_stop', lat: s.lat, lng: s.lng, distance_m: s.distance_m, routes: s.routes ?? [] });
    }));
  } else notes.push('No gazetteer is loaded: transit stops are not listed.');
  if (ctx.pool.has('businesses_search') && ctx.pool.hasDataset('pois')) {
    jobs.push(ctx.pool.run('businesses_search', { lat, lng, radius, limit: Math.min(50, limit * 2) }, sandbox).then((r) => {
      if (r.status !== 200) return;
      for (const b of json(r).results as any[]) if (b.name) out.push({ id: b.id, name: b.name, kind: 'business', category: b.category ?? null, lat: b.lat, lng: b.lng, distance_m: b.distance_m });
    }));
  } else notes.push('No POI build is loaded: businesses are not listed as pickup spots (npm run graph-build -- pois).');
  await Promise.all(jobs);
  return out.sort((a, b) => a.distance_m - b.distance_m || (a.id < b.id ? -1 : 1)).slice(0, limit);
}

/** Walking speed of the foot profile (OSRM foot.lua: 5 km/h), for the straight bits off the walking graph. */
const WALK_MPS = 5 / 3.6;

/**
 * Walking metres and seconds from the rider to each point (walking matrix), null where no walk
 * route exists: along the walking graph, plus the straight bits from the rider onto it and from it
 * to the point (the matrix counts from where each point meets the graph).
 */
async function walking(ctx: AppContext, lat: number, lng: number, to: { lat: number; lng: number }[], sandbox: boolean, notes: string[]) {
  if (!to.length) return [];
  const r = await ctx.pool.run('route_matrix', { sources: [[lat, lng]], destinations: to.map((p): [number, number] => [p.lat, p.lng]), mode: 'walk', radius: PICKUP_RADIUS.max }, sandbox);
  if (r.status !== 200) {
    notes.push(`Walking distances are not available here: ${json(r).error?.message ?? 'no walking graph covers the point'}`);
    return to.map(() => ({ walk_m: null, walk_s: null }));
  }
  const m = json(r) as { durations_s: (number | null)[][]; distances_m: (number | null)[][]; sources: ({ distance_m: number } | null)[]; destinations: ({ distance_m: number } | null)[] };
  const from = m.sources[0]?.distance_m ?? 0;
  return to.map((_, j) => {
    const d = m.distances_m[0][j], t = m.durations_s[0][j];
    if (d === null || t === null) return { walk_m: null, walk_s: null };
    const off = from + (m.destinations[j]?.distance_m ?? 0);
    return { walk_m: Math.round(d + off), walk_s: Math.round(t + off / WALK_MPS) };
  });
}

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/pickup-points', scope: 'geo', capabilities: ['pickup_points'], ready,
    note: "GET /api/v1/pickup-points?lat&lng&radius: drivable road points near the rider with the direction that puts the rider on the car's kerb side (OSRM approaches=curb; left-hand traffic in " + [...LEFT_HAND_TRAFFIC].join(', ') + ', right-hand elsewhere), named spots nearby (GTFS stops, POI-build businesses) and the walking distance to each.',
    offNote: () => 'No driving road extract is loaded: no road point can be offered.',
    decl: {
      summary: 'Where a car can stop for a rider: road points on the rider\'s side, named spots, walking distances', tag: 'fleet',
      description: "Each road point is the point of a drivable road (motorways left out) nearest the rider, with `heading_deg`, the direction a car must travel there so that the rider is on its kerb side (OSRM's approaches=curb): on a two-way road, with the rider on the car's right where traffic keeps right and on its left where it keeps left. The side is the country's (left in " + [...LEFT_HAND_TRAFFIC].join(', ') + '; right in the rest of Africa), found from the country polygons of the gazetteer; `driving_side` overrides it. A oneway road is driven the way it allows; `curb_side` says whether the rider is then on the kerb side. Named spots are GTFS stops and, with a POI build, named businesses. walk_m/walk_s come from the walking graph (null where no walking route exists).',
      query: {
        lat: { schema: Q.num({ min: -90, max: 90 }), required: true, description: "Rider's latitude" },
        lng: { schema: Q.num({ min: -180, max: 180 }), required: true, aliases: ['lon'], description: "Rider's longitude" },
        radius: { schema: Q.num({ min: PICKUP_RADIUS.min, max: PICKUP_RADIUS.max, default: PICKUP_RADIUS.default }), description: 'Metres around the rider' },
        limit: { schema: Q.int({ min: 1, max: PICKUP_LIMIT.max, default: PICKUP_LIMIT.default }), description: 'Road points, and named spots, each' },
        driving_side: { schema: Q.enum(['left', 'right']), description: "Traffic keeps to this side (default: the country's rule)" },
      },
      pairAliases: { location: ['lat', 'lng'] },
      responses: {
        200: {
          description: 'Road points (nearest first) and named spots',
          schema: {
            type: 'object', required: ['rider', 'driving_side', 'driving_side_rule', 'points', 'spots', 'notes'],
            properties: {
              rider: { type: 'object' }, extract: nstr, driving_side: { enum: ['left', 'right'] }, driving_side_rule: { type: 'string' }, country_code: nstr,
              points: { type: 'array', items: roadPoint }, spots: { type: 'array', items: spot }, notes: { type: 'array', items: { type: 'string' } },
            },
          },
        },
        400: { description: 'Invalid parameter, or no driving road extract covers the point (out_of_coverage)' },
      },
      examples: [{ query: 'lat=5.5560&lng=-0.1969&radius=200', summary: 'A rider in Accra (right-hand traffic)' }],
    },
    async handler(req, ctx) {
      const { lat, lng, radius, limit } = req.q as { lat: number; lng: number; radius: number; limit: number };
      const sandbox = !!req.key?.test;
      const notes: string[] = [];
      const country = await countryAt(ctx, lat, lng, sandbox);
      let side: DrivingSide, rule: string;
      if (req.q.driving_side) { side = req.q.driving_side; rule = 'given (driving_side)'; }
      else if (country) { side = drivingSideOf(country); rule = `${country} drives on the ${side}`; }
      else { side = 'right'; rule = 'country unknown here (no country polygon at the point): right-hand traffic assumed; pass driving_side to choose'; }
      const [roads, spots] = await Promise.all([
        ctx.pool.run('pickup_roads', { at: [lat, lng], radius, driving_side: side, limit }, sandbox),
        spotsNear(ctx, req, lat, lng, radius, limit, notes),
      ]);
      if (roads.status !== 200) return { task: roads };
      const r = json(roads) as { extract: string; points: { lat: number; lng: number }[] };
      if (!r.points.length) notes.push(`No drivable road within ${radius} m of the rider.`);
      const walk = await walking(ctx, lat, lng, [...r.points, ...spots], sandbox, notes);
      const points = r.points.map((p, i) => ({ ...p, ...walk[i] }));
      const named = spots.map((s, i) => ({ ...s, ...walk[r.points.length + i] }));
      return { json: { rider: { lat, lng }, extract: r.extract, country_code: country, driving_side: side, driving_side_rule: rule, points, spots: named, notes } };
    },
  }),
];
