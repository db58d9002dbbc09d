// Tiles, TileJSON, day/night styles, glyphs and sprites: lookups in the built tile set
// (graph-build/tiles), answered on the main thread without the worker pool.
import { gunzipSync } from 'node:zlib';
import type { AppContext, Reply, Req, RouteDef } from '../../http/types.ts';
import { route } from '../../http/types.ts';
import { HttpError } from '../../http/types.ts';
import { tileSet, type TileSet } from './tileset.ts';
import { browserGuard, queryKey } from './guard.ts';
import { MAXZOOM } from '../../core/maps/schema.ts';
import { ATTRIBUTION_HTML } from '../../core/maps/style.ts';
import { FONTSTACKS } from '../../core/maps/fonts.ts';
import { encodeEmptyGlyphs } from '../../core/maps/glyph-pbf.ts';

/** Browsers and CDNs may keep tiles and assets a day; the ETag changes with every build. */
export const CACHE_CONTROL = 'public, max-age=86400';
const MVT = 'application/vnd.mapbox-vector-tile';
const ready = (ctx: AppContext) => tileSet(ctx) !== null;

function need(ctx: AppContext): TileSet {
  const t = tileSet(ctx);
  if (!t) throw new HttpError(503, 'not_loaded', 'The tile set is not built; run `npm run graph-build -- tiles` or start without SKIP_BUILD.');
  return t;
}

/** 304 when the client already holds this version. */
function cached(req: Req, etag: string, headers: Record<string, string>): Reply | null {
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim() === etag)) return { status: 304, bytes: new Uint8Array(0), contentType: 'application/octet-stream', headers: { ETag: etag, 'Cache-Control': CACHE_CONTROL, ...headers } };
  return null;
}

const acceptsGzip = (req: Req) => /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
const json = (o: unknown, headers: Record<string, string>): Reply => ({ bytes: new TextEncoder().encode(JSON.stringify(o)), contentType: 'application/json; charset=utf-8', headers });

const binary = { description: 'Bytes', schema: { type: 'string', format: 'binary' } };
/** 304 (If-None-Match matched) has no body. */
const notModified = (contentType: string) => ({ 304: { description: 'Not modified (If-None-Match matched the ETag)', contentType } });
const keyParam = { key: { schema: { type: 'string' }, description: 'API key (browser key or sandbox key) when no Authorization header can be sent' } };

export function tilesUrl(ctx: AppContext): string { return ctx.config.tilesUrl; }

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '//tiles/tiles/:z/:x/:y', scope: 'maps', keyInQuery: true, ready,
    decl: {
      summary: 'A vector tile (Mapbox Vector Tile, gzip)', tag: 'maps',
      description: 'Tiles z0–14 from the built PMTiles archive. 204 when the archive has no data there, 404 outside the tile grid or above z14. Layers and fields: docs/maps.md.',
      params: {
        z: { schema: { type: 'string', pattern: '^[0-9]{1,2}$' }, required: true },
        x: { schema: { type: 'string', pattern: '^[0-9]{1,7}$' }, required: true },
        y: { schema: { type: 'string', pattern: '^[0-9]{1,7}(\\.pbf|\\.mvt)?$' }, required: true, description: 'Row, with or without .pbf' },
      },
      query: keyParam,
      responses: { 200: { ...binary, contentType: MVT }, 204: { description: 'No data in this tile', contentType: MVT }, ...notModified(MVT), 404: { description: 'Outside the tile grid' } },
      examples: [{ params: { z: '0', x: '0', y: '0.pbf' }, summary: 'The world tile' }],
    },
    handler(req, ctx) {
      const cors = browserGuard(req);
      const t = need(ctx);
      const z = Number(req.params.z), x = Number(req.params.x), y = Number(req.params.y.replace(/\.(pbf|mvt)$/, ''));
      const n = 2 ** z;
      if (z > MAXZOOM || x >= n || y >= n) throw new HttpError(404, 'not_found', `No tile ${z}/${x}/${y}: tiles exist for zoom 0–${MAXZOOM} and x, y below 2^zoom.`);
      const r = t.archive.range(z, x, y);
      if (!r) return { status: 204, bytes: new Uint8Array(0), contentType: MVT, headers: { 'Cache-Control': CACHE_CONTROL, ...cors } };
      const etag = `"${t.version}-${r[0].toString(36)}"`;
      const hit = cached(req, etag, cors);
      if (hit) return hit;
      const stored = t.archive.bytes.subarray(r[0], r[0] + r[1]);
      const headers: Record<string, string> = { 'Cache-Control': CACHE_CONTROL, ETag: etag, ...cors };
      if (acceptsGzip(req)) return { bytes: stored, contentType: MVT, headers: { ...headers, 'Content-Encoding': 'gzip' } };
      return { bytes: new Uint8Array(gunzipSync(stored)), contentType: MVT, headers };
    },
  }),
  route({
    method: 'GET', path: '//tiles/tiles.json', scope: 'maps', keyInQuery: true, ready,
    decl: {
      summary: 'TileJSON 3.0 of the vector tile set', tag: 'maps', query: keyParam,
      responses: { 200: { description: 'TileJSON', schema: { type: 'object', required: ['tilejson', 'tiles', 'vector_layers'], properties: { tilejson: { type: 'string' }, tiles: { type: 'array', items: { type: 'string' } }, vector_layers: { type: 'array' } } } } },
      examples: [{ summary: 'TileJSON' }],
    },
    handler(req, ctx) {
      const cors = browserGuard(req);
      const t = need(ctx);
      const key = queryKey(req);
      const h = t.archive.header;
      return json({
        tilejson: '3.0.0', name: 'svc', version: t.version, attribution: ATTRIBUTION_HTML, scheme: 'xyz',
        tiles: [`${tilesUrl(ctx)}/tiles/{z}/{x}/{y}.pbf${key ? `?key=${encodeURIComponent(key)}` : ''}`],
        minzoom: h.minZoom, maxzoom: h.maxZoom, bounds: h.bounds, center: [...h.center, h.centerZoom],
        vector_layers: t.archive.metadata.vector_layers ?? [],
      }, { 'Cache-Control': 'public, max-age=300', ...cors });
    },
  }),
  ...(['day', 'dark'] as const).map((theme): RouteDef => ({
    method: 'GET', path: theme === 'day' ? '//tiles/style.json' : '//tiles/style-dark.json', scope: 'maps', keyInQuery: true, ready,
    decl: {
      summary: theme === 'day' ? 'The day map style (MapLibre style spec v8)' : 'The night map style (MapLibre style spec v8)', tag: 'maps',
      description: 'Every URL in the style (tiles, glyphs, sprites) points at this server and carries the key given as ?key=.',
      query: keyParam,
      responses: { 200: { description: 'Style', schema: { type: 'object', required: ['version', 'sources', 'layers'], properties: { version: { const: 8 }, sources: { type: 'object' }, layers: { type: 'array' } } } } },
      examples: [{ summary: `${theme} style` }],
    },
    handler(req, ctx) {
      const cors = browserGuard(req);
      const t = need(ctx);
      return { bytes: t.style(tilesUrl(ctx), theme, queryKey(req)), contentType: 'application/json; charset=utf-8', headers: { 'Cache-Control': 'public, max-age=300', ...cors } };
    },
  })),
  route({
    method: 'GET', path: '//tiles/glyphs/:fontstack/:range', scope: 'maps', keyInQuery: true, ready,
    decl: {
      summary: 'SDF glyphs of a font stack for 256 code points (MapLibre glyph PBF)', tag: 'maps',
      description: `Font stacks ${Object.values(FONTSTACKS).join(', ')} (Noto: Latin, Arabic, Ethiopic). Ranges without glyphs answer an empty range.`,
      params: {
        fontstack: { schema: { type: 'string', maxLength: 200 }, required: true, description: 'Comma-separated font names; the first one served is used' },
        range: { schema: { type: 'string', pattern: '^[0-9]{1,5}-[0-9]{1,5}\\.pbf$' }, required: true, description: 'e.g. 0-255.pbf' },
      },
      query: keyParam,
      responses: { 200: { ...binary, contentType: 'application/x-protobuf' }, ...notModified('application/x-protobuf'), 404: { description: 'Unknown font stack or invalid range' } },
      examples: [{ params: { fontstack: FONTSTACKS.regular, range: '0-255.pbf' }, summary: 'Basic Latin' }],
    },
    handler(req, ctx) {
      const cors = browserGuard(req);
      const t = need(ctx);
      const [a, b] = req.params.range.replace('.pbf', '').split('-').map(Number);
      if (a % 256 !== 0 || b !== a + 255 || b > 65535) throw new HttpError(404, 'not_found', `Glyph range ${req.params.range} is not a 256-code-point range (e.g. 0-255.pbf).`);
      const stacks = req.params.fontstack.split(',').map((s) => s.trim());
      const name = stacks.find((s) => (Object.values(FONTSTACKS) as string[]).includes(s));
      if (!name) throw new HttpError(404, 'not_found', `Unknown font stack '${req.params.fontstack}'; served: ${Object.values(FONTSTACKS).join(', ')}.`);
      const etag = `"${t.version}-g"`;
      const hit = cached(req, etag, cors);
      if (hit) return hit;
      const bytes = t.file(`glyphs/${name}/${a}-${b}.pbf`) ?? encodeEmptyGlyphs(name, `${a}-${b}`);
      return { bytes, contentType: 'application/x-protobuf', headers: { 'Cache-Control': CACHE_CONTROL, ETag: etag, ...cors } };
    },
  }),
  route({
    method: 'GET', path: '//tiles/sprites/:file', scope: 'maps', keyInQuery: true, ready,
    decl: {
      summary: 'Sprite sheet of the styles (sprite.json/.png, sprite@2x.json/.png)', tag: 'maps',
      params: { file: { schema: { type: 'string', enum: ['sprite.json', 'sprite.png', 'sprite@2x.json', 'sprite@2x.png'] }, required: true } },
      query: keyParam,
      responses: { 200: { ...binary, contentType: 'image/png' }, ...notModified('image/png') },
      examples: [{ params: { file: 'sprite.json' }, summary: 'Sprite index at 1x' }],
    },
    handler(req, ctx) {
      const cors = browserGuard(req);
      const t = need(ctx);
      const f = req.params.file;
      const bytes = t.file(`sprites/${f}`);
      if (!bytes) throw new HttpError(404, 'not_found', `Sprite file ${f} is not built.`);
      const etag = `"${t.version}-s"`;
      const hit = cached(req, etag, cors);
      if (hit) return hit;
      return { bytes, contentType: f.endsWith('.png') ? 'image/png' : 'application/json; charset=utf-8', headers: { 'Cache-Control': CACHE_CONTROL, ETag: etag, ...cors } };
    },
  }),
];
