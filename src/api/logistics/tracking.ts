// POST /track/ping (one ping or a batch of up to 1,000) and GET /track/:device.
// A whole batch is validated before anything is written: one bad ping rejects the
// request with a 400 naming it ("pings[17].lat"), so a retry never half-applies.
import { HttpError, type RouteDef, type Req, type Reply, type AppContext, route } from '../../http/types.ts';
import { ATTRIBUTION } from '../../core/attribution.ts';
import { MAX_TRACE_ACCURACY_M, MAX_TRACE_POINTS } from '../../core/limits.ts';
import { B, Q, type Schema } from '../../http/declaration.ts';
import { owner } from './owner.ts';
import { F, time, invalid, measured, DEVICE_PATTERN, DEVICE_HINT, type Obj } from './validate.ts';
import { ingest, readTrail, pingVersion, type Ping } from '../../store/pings.ts';
import { TrailCache } from './trail-cache.ts';
import { nowFor } from '../../verify/clock.ts';
import type { Store } from '../../store/index.ts';

export const MAX_BATCH = 1000;
const MAX_TRAIL = 10_000;
/** Pings one ?matched=1 read matches (the matcher's per-request limit). */
const MAX_MATCH_POINTS = MAX_TRACE_POINTS;
/** Fastest plausible ground speed: 150 m/s (540 km/h) covers everything that drives or flies low. */
const MAX_SPEED = 150;

const e7 = (x: number) => Math.round(x * 1e7) / 1e7 + 0;

const PING_FIELDS = {
  device: F.device, lat: F.lat, lng: F.lng, ts: F.time,
  speed_mps: B.num({ min: 0, max: MAX_SPEED, description: 'Ground speed, m/s (stored to 0.01)' }),
  heading_deg: B.num({ min: 0, max: 360, description: 'Heading, degrees (stored to 0.01)' }),
  accuracy_m: F.accuracy,
};
/** One ping, or `{"device"?, "pings": [...]}` (up to MAX_BATCH) naming the device once for all. */
export const PING_BODY: Schema = {
  type: 'object',
  properties: { ...PING_FIELDS, pings: B.arr(B.obj(PING_FIELDS, ['lat', 'lng', 'ts']), { min: 1, max: MAX_BATCH }) },
  if: { required: ['pings'] },
  then: { required: ['pings'] },
  else: { required: ['device', 'lat', 'lng', 'ts'] },
};

function toPing(p: Obj, path: string, defDevice: string | undefined, now: number): Ping {
  const device = (p.device as string | undefined) ?? defDevice;
  if (device === undefined) throw new HttpError(400, 'missing_parameter', `Field '${path}device' is required.`);
  // GET /track/ping would hit the ingest route's path, so that name could never be read back.
  if (device === 'ping') throw invalid(`${path}device`, "must not be 'ping' (reserved)");
  return {
    device,
    // Stored to 1e-7° (1.1 cm), as OSM does: no GPS is finer, and it keeps trails compact.
    lat: e7(p.lat as number),
    lng: e7(p.lng as number),
    ts: time(p.ts, `${path}ts`, now)!,
    speed_mps: measured(p.speed_mps as number | undefined),
    heading_deg: measured(p.heading_deg as number | undefined),
    accuracy_m: measured(p.accuracy_m as number | undefined),
  };
}

/** The pings of a body that passed PING_BODY. */
export function pingsOf(b: Obj, now = Date.now()): Ping[] {
  if (!Array.isArray(b.pings)) return [toPing(b, '', undefined, now)];
  return (b.pings as Obj[]).map((p, i) => toPing(p, `pings[${i}].`, b.device as string | undefined, now));
}

/** `since`/`until`: RFC 3339 or epoch milliseconds. */
function timeParam(v: string | undefined, name: string): number | null {
  if (v === undefined) return null;
  const ms = /^\d{1,15}$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(ms) || (!/^\d+$/.test(v) && !/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/i.test(v)) || ms > 8.64e15) {
    throw new HttpError(400, 'invalid_parameter', `Parameter '${name}' must be an RFC 3339 time such as '2026-05-01T10:00:00Z' or Unix epoch milliseconds.`);
  }
  return ms;
}

const pingJson: Schema = {
  type: 'object', required: ['lat', 'lng', 'ts'],
  properties: { lat: { type: 'number' }, lng: { type: 'number' }, ts: { type: 'string' }, speed_mps: { type: ['number', 'null'] }, heading_deg: { type: ['number', 'null'] }, accuracy_m: { type: ['number', 'null'] } },
};
const pageJson: Schema = { type: 'object', required: ['count', 'limit', 'has_more'], properties: { count: { type: 'integer' }, limit: { type: 'integer' }, has_more: { type: 'boolean' }, next_since: { type: ['string', 'null'] } } };

const ATTR = JSON.stringify(ATTRIBUTION);
// One cache per store: two servers in one process (the tests) must never share entries.
const caches = new WeakMap<Store, TrailCache>();
const cacheFor = (store: Store) => {
  let c = caches.get(store);
  if (!c) caches.set(store, (c = new TrailCache()));
  return c;
};
const JSON_TYPE = 'application/json; charset=utf-8';

export const routes: RouteDef[] = [
  route({
    method: 'POST', path: '/track/ping', scope: 'tracking', capabilities: ['track_ping'],
    note: 'POST /api/v1/track/ping takes one ping or {"pings":[…]} (up to 1,000); idempotent on (device, ts); 202 only after commit.',
    decl: {
      summary: 'Record GPS pings (one, or a batch of up to 1,000)', tag: 'tracking',
      description: 'The whole batch is validated before anything is written; a retry never half-applies. speed_mps, heading_deg and accuracy_m are stored to two decimals (so 1e-50 is stored as 0); lat/lng to 1e-7°.',
      body: PING_BODY,
      responses: {
        202: { description: 'Committed', schema: { type: 'object', required: ['accepted', 'duplicates', 'received'], properties: { accepted: { type: 'integer' }, duplicates: { type: 'integer' }, received: { type: 'integer' } } } },
        400: { description: 'Invalid ping, named by its path (pings[17].lat)' },
      },
      examples: [
        { body: { device: 'example-van-1', lat: 6.4281, lng: 3.4219, ts: '2026-01-01T00:00:00Z' } },
        { body: { device: 'example-van-1', pings: [{ lat: 6.4281, lng: 3.4219, ts: '2026-01-01T00:00:00Z', speed_mps: 4.5 }, { lat: 6.4290, lng: 3.4225, ts: '2026-01-01T00:00:05Z' }] }, summary: 'A batch' },
      ],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      // Test keys run on their project's sandbox clock: pings are checked against it ("5 minutes
      // ahead" of simulated time), so a verification window can be played through.
      const pings = pingsOf(req.body, o.sandbox ? await nowFor(ctx.store, o) : Date.now());
      const accepted = await ingest(ctx.store, o, pings);
      return { status: 202, json: { accepted, duplicates: pings.length - accepted, received: pings.length } };
    },
  }),
  route({
    method: 'GET', path: '/track/:device', scope: 'tracking', capabilities: ['track_trail'],
    note: 'GET /api/v1/track/{device}?trail=1 answers the last position and the trail in time order; empty until a real ping arrives. ?matched=1 answers the trail matched to the roads.',
    decl: {
      summary: 'Last position of a device, and its trail in time order', tag: 'tracking',
      params: { device: { schema: Q.str({ pattern: DEVICE_PATTERN, hint: DEVICE_HINT }), required: true } },
      query: {
        trail: { schema: Q.bool(false), description: 'Include the trail (`?trail` alone counts)' },
        format: { schema: Q.enum(['json', 'geojson'], 'json'), description: 'geojson: a Feature (LineString) with coordTimes' },
        since: { schema: Q.str({ maxLength: 40 }), description: 'RFC 3339 or epoch ms: the first page from here on (page forward with next_since)' },
        until: { schema: Q.str({ maxLength: 40 }), description: 'RFC 3339 or epoch ms: the latest page up to here' },
        limit: { schema: Q.int({ min: 1, max: MAX_TRAIL, default: 1000 }), description: 'Pings per page' },
        matched: { schema: Q.bool(false), description: `The trail (since/until/limit, at most ${MAX_MATCH_POINTS} pings) matched to the roads, as POST /route/match answers` },
        mode: { schema: Q.enum(['driving', 'walk', 'cycle'], 'driving'), description: 'Road network for matched=1' },
      },
      responses: {
        200: {
          description: 'Last position (null until a real ping arrives) and, with trail, the page; format=geojson answers a Feature',
          schema: {
            anyOf: [
              { type: 'object', required: ['device', 'last'], properties: { device: { type: 'string' }, last: { anyOf: [{ type: 'null' }, pingJson] }, trail: { type: 'array', items: pingJson }, page: pageJson } },
              // matched=1: the page and POST /route/match's body (matched: null when fewer than two pings)
              { type: 'object', required: ['device', 'page'], properties: { device: { type: 'string' }, page: pageJson, matchings: { type: 'array' }, points: { type: 'array' }, confidence: { type: 'number' }, matched: { type: 'null' } } },
              { type: 'object', required: ['type', 'geometry', 'properties'], properties: { type: { const: 'Feature' }, geometry: { type: ['object', 'null'] }, properties: { type: 'object', required: ['device', 'coordTimes'] } } },
            ],
          },
        },
      },
      examples: [{ params: { device: 'example-van-1' }, query: 'trail=1' }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const device = req.params.device;
      const withTrail: boolean = req.q.trail;
      const format: string = req.q.format;
      const since = timeParam(req.q.since, 'since'), until = timeParam(req.q.until, 'until');
      if (since !== null && until !== null && since > until) throw new HttpError(400, 'invalid_parameter', "Parameter 'since' must not be after 'until'.");
      const limit: number = req.q.limit;
      if (req.q.matched) return matchedTrail(req, ctx, o, device, since, until, Math.min(limit, MAX_MATCH_POINTS));
      // Without a trail only the newest ping is read (a page of zero plus the look-ahead row).
      const wantTrail = withTrail || format === 'geojson';
      // JSON trails are cached under the device's ping count (see trail-cache.ts); the count
      // is read before the rows, so an entry can only be newer than its version, never older.
      const cache = withTrail && format === 'json' ? cacheFor(ctx.store) : null;
      const cacheKey = `${o.project}\u0000${o.sandbox}\u0000${device}\u0000${since}\u0000${until}\u0000${limit}`;
      const version = cache ? await pingVersion(ctx.store, o, device) : '';
      const hit = cache?.get(cacheKey, version);
      if (hit) return { status: 200, bytes: hit, contentType: JSON_TYPE };
      const t = await readTrail(ctx.store, o, wantTrail ? { device, since, until, limit } : { device, since: null, until: null, limit: 0 });
      const page = { count: t.points.length, limit, has_more: t.hasMore, ...(t.hasMore && since !== null ? { next_since: nextSince(t.points) } : {}) };
      if (format === 'geojson') {
        const pts = t.points.map((p) => JSON.parse(p) as { lat: number; lng: number; ts: string });
        const coords = pts.map((p) => [p.lng, p.lat]);
        // A LineString needs two positions; one ping is a Point, none is a null geometry.
        const geometry = coords.length >= 2 ? { type: 'LineString', coordinates: coords } : coords.length === 1 ? { type: 'Point', coordinates: coords[0] } : null;
        return { json: { type: 'Feature', geometry, properties: { device, coordTimes: pts.map((p) => p.ts), last: t.last ? JSON.parse(t.last) : null, ...page } } };
      }
      // The stored JSON of each ping goes out as is: no parse/stringify of 10,000 points.
      const head = JSON.stringify({ device }).slice(0, -1);
      const trail = withTrail ? `,"trail":[${t.points.join(',')}],"page":${JSON.stringify(page)}` : '';
      const body = Buffer.from(`${head},"last":${t.last ?? 'null'}${trail},"attribution":${ATTR}}`);
      cache?.set(cacheKey, version, body);
      return { status: 200, bytes: body, contentType: JSON_TYPE };
    },
  }),
];

/**
 * ?matched=1: the device's trail (the page since/until/limit selects, at most MAX_MATCH_POINTS pings)
 * matched to the roads by the `route_match` task (workers/routing/match/match.ts; mode=driving|walk|cycle).
 * Answers the task's body with the device and the page in front of it.
 */
async function matchedTrail(req: Req, ctx: AppContext, o: ReturnType<typeof owner>, device: string, since: number | null, until: number | null, limit: number): Promise<Reply> {
  const mode: string = req.q.mode;
  const t = await readTrail(ctx.store, o, { device, since, until, limit });
  const page = { count: t.points.length, limit, has_more: t.hasMore };
  const pts = t.points.map((p) => JSON.parse(p) as { lat: number; lng: number; ts: string; accuracy_m?: number | null });
  if (pts.length < 2) return { json: { device, page, matched: null, note: 'Fewer than two pings in the range: nothing to match.' } };
  const reply = await ctx.pool.run('route_match', {
    mode,
    points: pts.map((p) => ({ lat: p.lat, lng: p.lng, ts: Date.parse(p.ts) / 1000, ...(p.accuracy_m ? { accuracy_m: Math.min(MAX_TRACE_ACCURACY_M, p.accuracy_m) } : {}) })),
  }, o.sandbox);
  if (reply.status !== 200) return { task: reply };
  const head = Buffer.from(`{"device":${JSON.stringify(device)},"page":${JSON.stringify(page)},`);
  return { status: 200, bytes: Buffer.concat([head, Buffer.from(reply.body).subarray(1)]), contentType: JSON_TYPE };
}

/** Just after the page's newest ping: where the next page starts. */
function nextSince(points: string[]): string | null {
  if (!points.length) return null;
  const ts = Date.parse((JSON.parse(points[points.length - 1]) as { ts: string }).ts);
  return new Date(ts + 1).toISOString();
}
