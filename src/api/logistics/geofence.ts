// Geofence zones on the caller's account (GeoJSON Polygons) and point checks against
// them. Zones are validated on the way in (closed rings of ≥ 4 positions, ranges,
// size limits), so the check can trust them. Cost per request is bounded: a project holds
// at most MAX_ZONES zones and VERTEX_BUDGET positions in all, listings are paginated, and a
// check runs against an in-memory index of the project's zones (zone-index.ts), rebuilt only
// when the project's zones change.
import { HttpError, type RouteDef, route } from '../../http/types.ts';
import { B, Q, type Schema } from '../../http/declaration.ts';
import { owner, notFound, type Owner } from './owner.ts';
import { object, invalid, DEVICE_PATTERN, DEVICE_HINT, type Obj } from './validate.ts';
import { bbox, ringArea } from './geo-math.ts';
import { newId, isId } from './ids.ts';
import { encodeCursor, decodeCursor } from './page-cursor.ts';
import { buildZoneSet, ZoneCache } from './zone-index.ts';
import type { Db } from '../../store/db.ts';
import { allZones, deleteZone, insertZone, zoneById, zonesPage, zonesVersion, zoneUsage } from '../../store/zones.ts';
import { deviceLast } from '../../store/fleet.ts';

const MAX_RINGS = 50;
const MAX_POSITIONS = 10_000;
export const MAX_ZONES = 1000;
/** Positions (all rings of all zones) a project may hold: 50 zones of the largest size. */
export const VERTEX_BUDGET = 500_000;
/** Zones per page of GET /geofence/zones (default, and most a client may ask for). */
export const PAGE_DEFAULT = 20;
export const PAGE_MAX = 100;
/** Zone indexes kept in memory, across projects, counted in positions (16 bytes each). */
const cache = new ZoneCache(4_000_000);

const countPositions = (rings: number[][][]) => rings.reduce((n, r) => n + r.length, 0);

export function parsePolygon(v: unknown, field = 'polygon'): number[][][] {
  let g = object(v, field) as Obj;
  // A Feature wrapping a Polygon is accepted too: that is what drawing tools export.
  if (g.type === 'Feature') g = object(g.geometry, `${field}.geometry`);
  const f = field;
  if (g.type !== 'Polygon') throw invalid(`${f}.type`, "must be 'Polygon' (GeoJSON)");
  const rings = g.coordinates;
  if (!Array.isArray(rings) || rings.length === 0) throw invalid(`${f}.coordinates`, 'must be a non-empty array of linear rings');
  if (rings.length > MAX_RINGS) throw invalid(`${f}.coordinates`, `may hold at most ${MAX_RINGS} rings`);
  let total = 0;
  const out: number[][][] = [];
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r];
    const rf = `${f}.coordinates[${r}]`;
    if (!Array.isArray(ring)) throw invalid(rf, 'must be an array of [lng, lat] positions');
    if (ring.length < 4) throw invalid(rf, 'must hold at least 4 positions (a closed triangle)');
    total += ring.length;
    if (total > MAX_POSITIONS) throw invalid(`${f}.coordinates`, `may hold at most ${MAX_POSITIONS} positions in all`);
    const pts: number[][] = [];
    for (let i = 0; i < ring.length; i++) {
      const p = ring[i];
      const pf = `${rf}[${i}]`;
      if (!Array.isArray(p) || p.length < 2 || p.length > 3) throw invalid(pf, 'must be a [lng, lat] position');
      const [x, y] = p;
      if (typeof x !== 'number' || !Number.isFinite(x) || x < -180 || x > 180) throw invalid(pf, 'has a longitude outside -180..180 (positions are [lng, lat])');
      if (typeof y !== 'number' || !Number.isFinite(y) || y < -90 || y > 90) throw invalid(pf, 'has a latitude outside -90..90 (positions are [lng, lat])');
      pts.push([x, y]);
    }
    const a = pts[0], z = pts[pts.length - 1];
    if (a[0] !== z[0] || a[1] !== z[1]) throw invalid(rf, 'must be closed: its last position must equal its first');
    if (ringArea(pts) === 0) throw invalid(rf, 'has zero area');
    out.push(pts);
  }
  const bb = bbox(out);
  if (bb.maxLng - bb.minLng > 180) throw invalid(f, 'spans more than 180° of longitude (antimeridian-crossing zones are not supported)');
  return out;
}

function zoneJson(r: any, withPolygon = true) {
  return {
    id: r.id, object: 'zone', name: r.name,
    ...(withPolygon ? { polygon: r.polygon } : {}),
    bbox: [r.min_lng, r.min_lat, r.max_lng, r.max_lat],
    created_at: r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at,
  };
}

/** The project's zones as an index: rebuilt only when its zones changed (read on every check, so any node's change counts). */
async function zoneSet(store: Db, o: Owner) {
  const version = await zonesVersion(store, o);
  const key = `${o.project}|${o.sandbox}`;
  let set = cache.get(key, version);
  if (!set) {
    set = buildZoneSet(await allZones(store, o));
    cache.set(key, version, set);
  }
  return set;
}

const ZONE: Schema = {
  type: 'object', required: ['id', 'object', 'name', 'bbox', 'created_at'],
  properties: { id: { type: 'string' }, object: { const: 'zone' }, name: { type: 'string' }, polygon: { type: 'object' }, bbox: { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 }, created_at: { type: 'string' } },
};
const zoneReply = (description: string) => ({ description, schema: { type: 'object', required: ['zone'], properties: { zone: ZONE } } });
const ZONE_ID = { schema: { type: 'string', maxLength: 64 }, required: true, description: 'zon_…' };

export const routes: RouteDef[] = [
  route({
    method: 'POST', path: '/geofence/zones', scope: 'fleet', capabilities: ['geofence_check'],
    note: 'POST/GET/DELETE /api/v1/geofence/zones manage the account\'s GeoJSON Polygon zones (validated: closed rings, ranges, ≤ 10,000 positions).',
    decl: {
      summary: 'Create a geofence zone (GeoJSON Polygon)', tag: 'fleet',
      body: B.obj({
        name: B.text(200),
        polygon: { type: 'object', description: `GeoJSON Polygon (or a Feature wrapping one): closed rings of [lng, lat] positions, at most ${MAX_RINGS} rings and ${MAX_POSITIONS} positions, less than 180° wide` },
      }, ['name', 'polygon']),
      responses: { 201: zoneReply('The zone'), 409: { description: `The project already holds ${MAX_ZONES} zones` } },
      examples: [{ body: { name: 'Example depot', polygon: { type: 'Polygon', coordinates: [[[3.38, 6.44], [3.40, 6.44], [3.40, 6.46], [3.38, 6.46], [3.38, 6.44]]] } } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const b = req.body;
      const name: string = b.name;
      const rings = parsePolygon(b.polygon);
      const bb = bbox(rings);
      const polygon = { type: 'Polygon', coordinates: rings };
      const vertices = countPositions(rings);
      const zone = await insertZone(ctx.store, o, {
        id: newId('zon'), name, polygon, minLat: bb.minLat, minLng: bb.minLng, maxLat: bb.maxLat, maxLng: bb.maxLng,
        vertices, maxZones: MAX_ZONES, vertexBudget: VERTEX_BUDGET,
      });
      if (!zone) {
        const u = await zoneUsage(ctx.store, o);
        if (u.n >= MAX_ZONES) throw new HttpError(409, 'limit_reached', `A project may hold at most ${MAX_ZONES} zones; delete some first.`);
        throw new HttpError(409, 'limit_reached',
          `A project may hold at most ${VERTEX_BUDGET} polygon positions in all; it holds ${u.v} and this zone has ${vertices}. Simplify the polygon or delete zones first.`);
      }
      return { status: 201, json: { zone: zoneJson(zone) } };
    },
  }),
  route({
    method: 'GET', path: '/geofence/zones', scope: 'fleet', capabilities: ['geofence_check'],
    decl: {
      summary: "The project's zones, a page at a time", tag: 'fleet',
      query: {
        limit: { schema: Q.int({ min: 1, max: PAGE_MAX, default: PAGE_DEFAULT }), description: 'Zones per page' },
        cursor: { schema: Q.str({ maxLength: 400 }), description: "The previous page's next_cursor" },
      },
      responses: { 200: { description: 'Zones oldest first; next_cursor is null on the last page', schema: { type: 'object', required: ['zones', 'next_cursor'], properties: { zones: { type: 'array', items: ZONE }, next_cursor: { type: ['string', 'null'] } } } } },
      examples: [{}, { query: 'limit=5' }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const limit: number = req.q.limit;
      const after = req.q.cursor ? decodeCursor(req.q.cursor, 'zon') : null;
      const rows = await zonesPage(ctx.store, o, after, limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const next = rows.length > limit ? encodeCursor(last.at, last.id) : null;
      return { json: { zones: page.map((z) => zoneJson(z)), next_cursor: next } };
    },
  }),
  route({
    method: 'GET', path: '/geofence/zones/:id', scope: 'fleet', capabilities: ['geofence_check'],
    decl: {
      summary: 'One zone', tag: 'fleet',
      params: { id: ZONE_ID },
      responses: { 200: zoneReply('The zone'), 404: { description: 'Unknown zone' } },
      examples: [{ after: 'POST /geofence/zones', params: { id: '{{zone.id}}' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const id = req.params.id;
      if (!isId('zon', id)) throw notFound('zone', id);
      const zone = await zoneById(ctx.store, o, id);
      if (!zone) throw notFound('zone', id);
      return { json: { zone: zoneJson(zone) } };
    },
  }),
  route({
    method: 'DELETE', path: '/geofence/zones/:id', scope: 'fleet', capabilities: ['geofence_check'],
    decl: {
      summary: 'Delete a zone', tag: 'fleet',
      params: { id: ZONE_ID },
      responses: { 200: { description: 'Deleted', schema: { type: 'object', required: ['deleted', 'id'], properties: { deleted: { const: true }, id: { type: 'string' } } } }, 404: { description: 'Unknown zone' } },
      examples: [{ after: 'POST /geofence/zones', params: { id: '{{zone.id}}' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const id = req.params.id;
      if (!isId('zon', id)) throw notFound('zone', id);
      if (!(await deleteZone(ctx.store, o, id))) throw notFound('zone', id);
      return { json: { deleted: true, id } };
    },
  }),
  route({
    method: 'GET', path: '/geofence/check', scope: 'fleet', capabilities: ['geofence_check'],
    note: 'GET /api/v1/geofence/check?lat&lng (or &device for its last position) lists the caller\'s zones containing the point (polygons with holes).',
    decl: {
      summary: "The caller's zones containing a point (or a device's last position)", tag: 'fleet',
      description: 'Give lat and lng, or device alone for its last position.',
      query: {
        lat: { schema: Q.num({ min: -90, max: 90 }) },
        lng: { schema: Q.num({ min: -180, max: 180 }), aliases: ['lon'] },
        device: { schema: Q.str({ pattern: DEVICE_PATTERN, hint: DEVICE_HINT }) },
      },
      responses: {
        200: {
          description: 'Zones containing the point',
          schema: {
            type: 'object', required: ['point', 'inside'],
            properties: {
              point: { type: 'object', required: ['lat', 'lng'], properties: { lat: { type: 'number' }, lng: { type: 'number' }, device: { type: 'string' }, ts: { type: ['string', 'null'] } } },
              inside: { type: 'array', items: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } } },
            },
          },
        },
        404: { description: 'The device has sent no pings' },
      },
      examples: [{ query: 'lat=6.45&lng=3.39' }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const q = req.q;
      const deviceName: string | undefined = q.device;
      let la: number, ln: number, at: string | null = null;
      if (deviceName !== undefined && q.lat === undefined && q.lng === undefined) {
        const d = await deviceLast(ctx.store, o, deviceName);
        if (!d) throw new HttpError(404, 'not_found', `Device '${deviceName}' has sent no pings in this project.`);
        la = d.lat; ln = d.lng; at = d.last_ts.toISOString();
      } else {
        if (q.lat === undefined) throw new HttpError(400, 'missing_parameter', "Parameter 'lat' is required.");
        if (q.lng === undefined) throw new HttpError(400, 'missing_parameter', "Parameter 'lng' is required.");
        la = q.lat; ln = q.lng;
      }
      const inside = (await zoneSet(ctx.store, o)).contains(ln, la);
      return { json: { point: { lat: la, lng: ln, ...(deviceName ? { device: deviceName, ts: at } : {}) }, inside } };
    },
  }),
];
