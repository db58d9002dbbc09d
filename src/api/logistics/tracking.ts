// POST /track/ping (one ping or a batch of up to 1,000) and GET /track/:device.
// A whole batch is validated before anything is written: one bad ping rejects the
// request with a 400 naming it ("pings[17].lat"), so a retry never half-applies.
import { HttpError, type RouteDef, type Req, type Reply, type AppContext } from '../../http/types.ts';
import { ATTRIBUTION } from '../../core/attribution.ts';
import { bad } from '../../http/params.ts';
import { owner } from './owner.ts';
import { bodyObject, object, array, string, number, time, has, invalid, DEVICE_RE, DEVICE_HINT, type Obj } from './validate.ts';
import { ingest, readTrail, pingVersion, type Ping } from './pings.ts';
import { TrailCache } from './trail-cache.ts';
import type { Store } from '../../store/index.ts';

export const MAX_BATCH = 1000;
const MAX_TRAIL = 10_000;
/** Pings one ?matched=1 read matches (the matcher's per-request limit). */
const MAX_MATCH_POINTS = 2000;
/** Fastest plausible ground speed: 150 m/s (540 km/h) covers everything that drives or flies low. */
const MAX_SPEED = 150;

const e7 = (x: number) => Math.round(x * 1e7) / 1e7;

function parsePing(p: Obj, path: string, defDevice: string | undefined, now: number): Ping {
  const device = string(p, 'device', `${path}device`, { max: 64 }) ?? defDevice;
  if (device === undefined) throw new HttpError(400, 'missing_parameter', `Field '${path}device' is required.`);
  if (!DEVICE_RE.test(device)) throw invalid(`${path}device`, DEVICE_HINT);
  // GET /track/ping would hit the ingest route's path, so that name could never be read back.
  if (device === 'ping') throw invalid(`${path}device`, "must not be 'ping' (reserved)");
  return {
    device,
    // Stored to 1e-7° (1.1 cm), as OSM does: no GPS is finer, and it keeps trails compact.
    lat: e7(number(p, 'lat', `${path}lat`, { required: true, min: -90, max: 90 })),
    lng: e7(number(p, 'lng', `${path}lng`, { required: true, min: -180, max: 180 })),
    ts: time(p, 'ts', `${path}ts`, { required: true, now })!,
    speed_mps: number(p, 'speed_mps', `${path}speed_mps`, { min: 0, max: MAX_SPEED }) ?? null,
    heading_deg: number(p, 'heading_deg', `${path}heading_deg`, { min: 0, max: 360 }) ?? null,
    accuracy_m: number(p, 'accuracy_m', `${path}accuracy_m`, { min: 0, max: 100_000 }) ?? null,
  };
}

export function parsePings(body: unknown, now = Date.now()): Ping[] {
  const b = bodyObject(body);
  if (!has(b, 'pings')) return [parsePing(b, '', undefined, now)];
  const list = array(b, 'pings', 'pings', { max: MAX_BATCH, min: 1, required: true })!;
  // A batch may name its device once at the top for all its pings.
  let defDevice: string | undefined;
  if (has(b, 'device')) {
    defDevice = string(b, 'device', 'device', { max: 64 });
    if (defDevice !== undefined && !DEVICE_RE.test(defDevice)) throw invalid('device', DEVICE_HINT);
  }
  return list.map((p, i) => parsePing(object(p, `pings[${i}]`), `pings[${i}].`, defDevice, now));
}

function timeParam(q: URLSearchParams, name: string): number | null {
  const v = q.get(name);
  if (v === null || v.trim() === '') return null;
  const s = v.trim();
  const ms = /^\d{1,15}$/.test(s) ? Number(s) : Date.parse(s);
  if (!Number.isFinite(ms) || (!/^\d+$/.test(s) && !/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/i.test(s))) {
    throw bad(name, "must be an RFC 3339 time such as '2026-05-01T10:00:00Z' or Unix epoch milliseconds");
  }
  if (ms > 8.64e15) throw bad(name, 'is out of range');
  return ms;
}

function intParam(q: URLSearchParams, name: string, def: number, min: number, max: number): number {
  const v = q.get(name);
  if (v === null || v.trim() === '') return def;
  if (!/^\d{1,9}$/.test(v.trim())) throw bad(name, `must be a whole number ${min}-${max}`);
  const n = Number(v.trim());
  if (n < min || n > max) throw bad(name, `must be between ${min} and ${max}`);
  return n;
}

const flag = (q: URLSearchParams, name: string) => {
  const v = q.get(name);
  if (v === null) return false;
  const s = v.trim().toLowerCase();
  if (s === '' || s === '1' || s === 'true' || s === 'yes') return true;
  if (s === '0' || s === 'false' || s === 'no') return false;
  throw bad(name, 'must be 1 or 0');
};

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
  {
    method: 'POST', path: '/track/ping', scope: 'tracking', capabilities: ['track_ping'],
    note: 'POST /api/v1/track/ping takes one ping or {"pings":[…]} (up to 1,000); idempotent on (device, ts); 202 only after commit.',
    example: { body: { device: 'example-van-1', lat: 6.4281, lng: 3.4219, ts: '2026-01-01T00:00:00Z' } },
    handler: async (req, ctx) => {
      const o = owner(req);
      const pings = parsePings(req.body);
      const accepted = await ingest(ctx.store, o, pings);
      return { status: 202, json: { accepted, duplicates: pings.length - accepted, received: pings.length } };
    },
  },
  {
    method: 'GET', path: '/track/:device', scope: 'tracking', capabilities: ['track_trail'],
    note: 'GET /api/v1/track/{device}?trail=1 answers the last position and the trail in time order; empty until a real ping arrives. ?matched=1 answers the trail matched to the roads.',
    example: { params: { device: 'example-van-1' }, query: 'trail=1' },
    handler: async (req, ctx) => {
      const o = owner(req);
      const device = req.params.device;
      if (!DEVICE_RE.test(device)) throw bad('device', DEVICE_HINT);
      const q = req.query;
      const withTrail = flag(q, 'trail');
      const format = (q.get('format') ?? 'json').trim().toLowerCase() || 'json';
      if (format !== 'json' && format !== 'geojson') throw bad('format', 'must be json or geojson');
      const since = timeParam(q, 'since'), until = timeParam(q, 'until');
      if (since !== null && until !== null && since > until) throw bad('since', "must not be after 'until'");
      const limit = intParam(q, 'limit', 1000, 1, MAX_TRAIL);
      if (flag(q, 'matched')) return matchedTrail(req, ctx, o, device, since, until, Math.min(limit, MAX_MATCH_POINTS));
      // Without a trail only the newest ping is read (a page of zero plus the look-ahead row).
      const wantTrail = withTrail || format === 'geojson';
      // JSON trails are cached under the device's ping count (see trail-cache.ts); the count
      // is read before the rows, so an entry can only be newer than its version, never older.
      const cache = withTrail && format === 'json' ? cacheFor(ctx.store) : null;
      const cacheKey = `${o.project}\u0000${o.sandbox}\u0000${device}\u0000${since}\u0000${until}\u0000${limit}`;
      const version = cache ? await pingVersion(ctx.store, o, device) : 0;
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
  },
];

/**
 * ?matched=1: the device's trail (the page since/until/limit selects, at most MAX_MATCH_POINTS pings)
 * matched to the roads by the `route_match` task (workers/routing/match.ts; mode=driving|walk|cycle).
 * Answers the task's body with the device and the page in front of it.
 */
async function matchedTrail(req: Req, ctx: AppContext, o: ReturnType<typeof owner>, device: string, since: number | null, until: number | null, limit: number): Promise<Reply> {
  const mode = (req.query.get('mode') ?? 'driving').trim().toLowerCase();
  if (!['driving', 'walk', 'cycle'].includes(mode)) throw bad('mode', 'must be driving, walk or cycle');
  const t = await readTrail(ctx.store, o, { device, since, until, limit });
  const page = { count: t.points.length, limit, has_more: t.hasMore };
  const pts = t.points.map((p) => JSON.parse(p) as { lat: number; lng: number; ts: string; accuracy_m?: number | null });
  if (pts.length < 2) return { json: { device, page, matched: null, note: 'Fewer than two pings in the range: nothing to match.' } };
  const reply = await ctx.engine.run('route_match', {
    mode,
    points: pts.map((p) => ({ lat: p.lat, lng: p.lng, ts: Date.parse(p.ts) / 1000, ...(p.accuracy_m ? { accuracy_m: Math.min(1000, p.accuracy_m) } : {}) })),
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
