// GET /staticmap: a PNG of our tiles in our style colours, rendered in a worker (task
// `staticmap`, workers/render), with markers, paths (or a route) and the attribution drawn in.
// format=json answers a signed URL on our host that renders the same image without a key.
import type { AppContext, Reply, Req, RouteDef } from '../../http/types.ts';
import { route } from '../../http/types.ts';
import { HttpError } from '../../http/types.ts';
import { Q } from '../../http/declaration.ts';
import { STATICMAP_LIMITS, fitView, type StaticMapSpec, type StaticMarker, type StaticPath } from '../../core/maps/staticmap.ts';
import { THEMES, type Theme } from '../../core/maps/style.ts';
import { decodePolyline, encodePolyline } from '../../core/maps/polyline.ts';
import { parseMarkers, parsePaths, type ParsedPath } from './staticmap-params.ts';
import { sign, verify } from './signing.ts';
import { tileSet } from './tileset.ts';
import { browserGuard } from './guard.ts';

const L = STATICMAP_LIMITS;
/** Rendered images do not change until the tiles are rebuilt: caches may keep them a day. */
const IMAGE_CACHE = 'public, max-age=86400';
const ready = (ctx: AppContext) => tileSet(ctx) !== null && ctx.pool.has('staticmap');

function checkSpec(s: StaticMapSpec): void {
  const bad = (p: string, why: string) => new HttpError(400, 'invalid_parameter', `Parameter '${p}' ${why}.`);
  if (!Number.isInteger(s.width) || !Number.isInteger(s.height) || s.width < L.minSize || s.height < L.minSize || s.width > L.maxWidth || s.height > L.maxHeight) {
    throw bad('size', `must be WIDTHxHEIGHT, each from ${L.minSize} to ${L.maxWidth}`);
  }
  if (!(L.scales as readonly number[]).includes(s.scale)) throw bad('scale', 'must be 1 or 2');
  if (!(s.zoom >= L.minZoom && s.zoom <= L.maxZoom)) throw bad('zoom', `must be from ${L.minZoom} to ${L.maxZoom}`);
  if (!(THEMES as readonly string[]).includes(s.theme)) throw bad('theme', 'must be day or dark');
  if (s.markers.length > L.maxMarkers) throw bad('markers', `has more than ${L.maxMarkers} locations`);
  if (s.paths.length > L.maxPaths) throw bad('path', `is given more than ${L.maxPaths} times`);
  for (const p of s.paths) if (p.points.length > L.maxPathPoints) throw bad('path', `has more than ${L.maxPathPoints} points`);
}

/**
 * Render a static map to PNG bytes in the worker pool. The one entry for every caller (this
 * route, the signed URL, the compat layer's /compat/alt/staticmap). Throws HttpError.
 */
export async function renderStaticMap(ctx: AppContext, spec: StaticMapSpec): Promise<Uint8Array> {
  checkSpec(spec);
  if (!ready(ctx)) throw new HttpError(503, 'not_loaded', 'Static maps need the tile set; it is not built in this installation.');
  const r = await ctx.pool.run('staticmap', spec, false);
  if (r.status !== 200) {
    let e: { code?: string; message?: string } = {};
    try { e = JSON.parse(Buffer.from(r.body).toString('utf8')).error ?? {}; } catch { /* keep the generic message */ }
    throw new HttpError(r.status, e.code ?? 'internal', e.message ?? 'Rendering failed.');
  }
  return r.body;
}

/** Replace each `route` path's points by the route through them (driving, walk or cycle). */
async function resolveRoutes(ctx: AppContext, paths: ParsedPath[], sandbox: boolean): Promise<StaticPath[]> {
  const out: StaticPath[] = [];
  for (const p of paths) {
    const { route, ...rest } = p;
    if (!route) { out.push(rest); continue; }
    if (!ctx.pool.has('route')) throw new HttpError(503, 'not_loaded', 'path=route needs the road graphs, which are not loaded.');
    const pts = p.points;
    const r = await ctx.pool.run('route', { from: pts[0], to: pts[pts.length - 1], via: pts.slice(1, -1), mode: route, radius: 1000 }, sandbox);
    const body = JSON.parse(Buffer.from(r.body).toString('utf8'));
    if (r.status !== 200) throw new HttpError(r.status, body.error?.code ?? 'no_route', `path route: ${body.error?.message ?? 'no route'}`);
    out.push({ ...rest, points: (body.route.geometry.coordinates as [number, number][]).map(([lng, lat]) => [lat, lng]) });
  }
  return out;
}

function sizeOf(v: string): [number, number] {
  const m = /^(\d{1,4})x(\d{1,4})$/.exec(v);
  if (!m) throw new HttpError(400, 'invalid_parameter', "Parameter 'size' must be WIDTHxHEIGHT, e.g. 600x400.");
  return [Number(m[1]), Number(m[2])];
}

/** The signed form: compact JSON with paths as encoded polylines, base64url. */
function packSpec(s: StaticMapSpec): string {
  const j = { c: s.center, z: s.zoom, w: s.width, h: s.height, s: s.scale, t: s.theme, m: s.markers, p: s.paths.map((p) => ({ ...p, points: undefined, e: encodePolyline(p.points) })) };
  return Buffer.from(JSON.stringify(j)).toString('base64url');
}
function unpackSpec(d: string): StaticMapSpec {
  const j = JSON.parse(Buffer.from(d, 'base64url').toString('utf8'));
  return {
    center: j.c, zoom: j.z, width: j.w, height: j.h, scale: j.s, theme: j.t, markers: j.m as StaticMarker[],
    paths: (j.p as any[]).map(({ e, ...rest }) => ({ ...rest, points: decodePolyline(e) })),
  };
}

const png = (bytes: Uint8Array, headers: Record<string, string>): Reply => ({ bytes, contentType: 'image/png', headers: { 'Cache-Control': IMAGE_CACHE, ...headers } });

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/staticmap', scope: 'maps', keyInQuery: true,
    capabilities: ['staticmap'], ready,
    note: 'PNG maps up to 640x640 (scale 1-2, day or dark) drawn from our vector tiles in a worker, with markers, paths or a route, attribution in the corner; format=json answers a signed URL on this host.',
    decl: {
      summary: 'A static map image (PNG), or a signed URL that renders it', tag: 'maps',
      description: 'Markers: `markers=color:red|label:A|LAT,LNG|LAT,LNG` (repeatable). Paths: `path=color:0x0000ffcc|weight:5|LAT,LNG|LAT,LNG` or `path=enc:POLYLINE`; add `route` (or `route:walk`, `route:cycle`) to draw the route through the points. Without center and zoom the map fits the markers and paths. See docs/maps.md.',
      query: {
        center: { schema: Q.latlng(), description: 'LAT,LNG (optional when markers or paths are given)' },
        zoom: { schema: Q.num({ min: L.minZoom, max: L.maxZoom }), description: `0–${L.maxZoom} (tiles go to 14 and are over-zoomed beyond)` },
        size: { schema: Q.str({ pattern: '^[0-9]{1,4}x[0-9]{1,4}$' }), required: true, description: `WIDTHxHEIGHT in logical pixels, at most ${L.maxWidth}x${L.maxHeight}` },
        scale: { schema: { type: 'integer', enum: [...L.scales], default: 1 }, description: 'Pixel density: 2 doubles the pixels (retina)' },
        format: { schema: Q.enum(['png', 'png8', 'png32', 'json'], 'png'), description: 'png (image) or json ({url}: a signed, cacheable URL on this host)' },
        theme: { schema: Q.enum(['day', 'dark', 'night'], 'day'), description: 'day or dark (night is an alias)' },
        markers: { schema: Q.str({ maxLength: 8192 }), description: 'Marker styles and locations, | separated; repeatable' },
        path: { schema: Q.str({ maxLength: 16384 }), description: 'Path styles and points (or enc:POLYLINE, or route), | separated; repeatable' },
        key: { schema: { type: 'string' }, description: 'API key when no Authorization header can be sent (browser key)' },
      },
      responses: {
        200: { description: 'PNG image, or {url} with format=json', contentType: 'image/png', schema: { type: 'string', format: 'binary' } },
        400: { description: 'Invalid size, zoom, scale, markers or path' },
      },
      examples: [
        { query: 'center=-5.6333,32.7667&zoom=13&size=600x400', summary: 'Sikonge, Tanzania' },
        { query: 'center=-5.6333,32.7667&zoom=13&size=600x400&format=json&markers=color:red|label:S|-5.6333,32.7667', summary: 'Signed URL with a marker' },
      ],
    },
    async handler(req, ctx) {
      const cors = browserGuard(req);
      const q = req.q;
      const [width, height] = sizeOf(q.size);
      const markers = parseMarkers(req.query.getAll('markers'));
      const paths = await resolveRoutes(ctx, parsePaths(req.query.getAll('path')), !!req.key?.test);
      let center = q.center as [number, number] | undefined, zoom = q.zoom as number | undefined;
      if (!center || zoom === undefined) {
        const pts: [number, number][] = [...markers.map((m) => [m.lat, m.lng] as [number, number]), ...paths.flatMap((p) => p.points)];
        if (!pts.length) throw new HttpError(400, 'missing_parameter', "Parameters 'center' and 'zoom' are required unless markers or a path are given.");
        const fit = fitView(pts, width, height);
        center ??= fit.center;
        zoom ??= fit.zoom;
      }
      const theme: Theme = q.theme === 'day' ? 'day' : 'dark';
      const spec: StaticMapSpec = { center, zoom, width, height, scale: q.scale as StaticMapSpec['scale'], theme, markers, paths };
      checkSpec(spec);
      if (q.format === 'json') {
        const d = packSpec(spec);
        return { json: { url: `${ctx.config.baseUrl}/api/v1/staticmap/signed?d=${d}&sig=${sign(ctx.config, d)}`, width: width * spec.scale, height: height * spec.scale }, headers: cors };
      }
      return png(await renderStaticMap(ctx, spec), cors);
    },
  }),
  route({
    method: 'GET', path: '/staticmap/signed', scope: null,
    decl: {
      summary: 'The image of a signed static-map URL (from /staticmap?format=json); no key needed', tag: 'maps',
      query: {
        d: { schema: Q.str({ maxLength: 65536 }), required: true, description: 'The map, as signed' },
        sig: { schema: Q.str({ maxLength: 100 }), required: true, description: 'HMAC-SHA256 of d' },
      },
      responses: { 200: { description: 'PNG image', contentType: 'image/png', schema: { type: 'string', format: 'binary' } }, 403: { description: 'Signature does not match' } },
      examples: [],
    },
    async handler(req, ctx) {
      const { d, sig } = req.q;
      if (!verify(ctx.config, d, sig)) throw new HttpError(403, 'forbidden', 'The signature does not match this static map; request a new URL with format=json.');
      let spec: StaticMapSpec;
      try { spec = unpackSpec(d); } catch { throw new HttpError(400, 'invalid_parameter', "Parameter 'd' is not a static map."); }
      return png(await renderStaticMap(ctx, spec), {});
    },
  }),
];
