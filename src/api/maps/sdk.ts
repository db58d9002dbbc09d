// The browser side: the embed page, the SDK (svc.js wrapping MapLibre GL JS, served from
// node_modules/maplibre-gl/dist on this host), the geocoder adapter script and its endpoint.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppContext, RouteDef } from '../../http/types.ts';
import { route } from '../../http/types.ts';
import { HttpError } from '../../http/types.ts';
import { Q } from '../../http/declaration.ts';
import { ROOT } from '../../core/config.ts';
import { GEOCODE_LIMIT } from '../../core/limits.ts';
import { tileSet } from './tileset.ts';
import { browserGuard } from './guard.ts';

const ASSETS = join(ROOT, 'src', 'api', 'maps', 'assets');
const MAPLIBRE = join(ROOT, 'node_modules', 'maplibre-gl', 'dist');
const LIB_FILES = { 'maplibre-gl.mjs': 'text/javascript; charset=utf-8', 'maplibre-gl-worker.mjs': 'text/javascript; charset=utf-8', 'maplibre-gl.css': 'text/css; charset=utf-8' } as const;
const SCRIPT_CACHE = 'public, max-age=300';
const LIB_CACHE = 'public, max-age=86400';

const cache = new Map<string, Uint8Array>();
function asset(file: string, ctx?: AppContext): Uint8Array {
  const k = `${file}|${ctx?.config.baseUrl ?? ''}|${ctx?.config.tilesUrl ?? ''}`;
  let b = cache.get(k);
  if (!b) {
    const text = readFileSync(file, 'utf8');
    b = new TextEncoder().encode(ctx ? text.replaceAll('__SVC_BASE_URL__', ctx.config.baseUrl).replaceAll('__SVC_TILES_URL__', ctx.config.tilesUrl) : text);
    cache.set(k, b);
  }
  return b;
}

const mapsReady = (ctx: AppContext) => tileSet(ctx) !== null;
const geoReady = (ctx: AppContext) => ctx.pool.has('geocode') && ctx.pool.hasDataset('gazetteer');

/** Our result type → the alt platform's `types`. */
const TYPES: Record<string, string[]> = {
  country: ['country', 'political'], city: ['locality', 'political'], town: ['locality', 'political'], village: ['locality', 'political'],
  locality: ['locality', 'political'], street: ['route'], airport: ['airport', 'point_of_interest', 'establishment'],
  port: ['point_of_interest', 'establishment'], river: ['natural_feature'], lake: ['natural_feature'],
  bus_stop: ['bus_station', 'transit_station', 'point_of_interest', 'establishment'],
};
const HEALTH = ['hospital', 'clinic', 'health_centre', 'health_post', 'dispensary', 'pharmacy', 'doctors', 'dentist', 'health_other'];

/** One of our geocode results → the alt platform's result shape, our fields under `svc`. */
export function altResult(r: any): Record<string, unknown> {
  const types = TYPES[r.type] ?? (HEALTH.includes(r.type) ? [r.type === 'pharmacy' ? 'pharmacy' : r.type === 'hospital' ? 'hospital' : 'health', 'point_of_interest', 'establishment'] : [String(r.type)]);
  const components: Record<string, unknown>[] = [{ long_name: r.name, short_name: r.name, types }];
  if (r.country_code && r.type !== 'country') components.push({ long_name: r.country_code, short_name: r.country_code, types: ['country', 'political'] });
  return {
    formatted_address: r.address ?? r.name,
    geometry: { location: { lat: r.lat, lng: r.lng }, location_type: 'APPROXIMATE' },
    place_id: r.id, types, address_components: components,
    ...(r.partial_match ? { partial_match: true } : {}),
    svc: r,
  };
}

function embedHtml(ctx: AppContext, o: { lat: number; lng: number; zoom: number; theme: string; marker: boolean; key: string }): string {
  const js = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');
  const base = ctx.config.baseUrl;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Map</title>
<link rel="stylesheet" href="${base}/sdk/v1/lib/maplibre-gl.css">
<style>html,body,#map{margin:0;padding:0;width:100%;height:100%}body{background:${o.theme === 'dark' ? '#0d1b2a' : '#aad3df'}}</style>
</head><body><div id="map" role="region" aria-label="Map"></div>
<script src="${base}/sdk/v1/svc.js"></script>
<script>
var o = ${js(o)};
var map = new svc.Map({ container: 'map', center: [o.lat, o.lng], zoom: o.zoom, theme: o.theme, key: o.key, preserveDrawingBuffer: true });
if (o.marker) map.addMarker({ lat: o.lat, lng: o.lng });
map.whenIdle().then(function () { document.body.setAttribute('data-idle', '1'); });
window.svcMap = map;
</script>
</body></html>
`;
}

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '//embed/map', scope: 'maps', keyInQuery: true,
    capabilities: ['map_embed'], ready: mapsReady,
    note: 'An HTML map page for an iframe (lat, lng, zoom, theme, marker, key), drawn by MapLibre GL JS from our tiles, attribution visible.',
    decl: {
      summary: 'An embeddable map page (HTML, for an iframe)', tag: 'maps',
      description: 'Use a browser key (restricted to your site) as key=; the page loads only from this host.',
      query: {
        lat: { schema: Q.num({ min: -85, max: 85 }), required: true },
        lng: { schema: Q.num({ min: -180, max: 180 }), required: true },
        zoom: { schema: Q.num({ min: 0, max: 19, default: 12 }) },
        theme: { schema: Q.enum(['day', 'dark', 'night'], 'day') },
        marker: { schema: Q.bool(false), description: '1 = a marker at the centre' },
        key: { schema: { type: 'string', pattern: '^svc_(live|test)_[0-9A-Za-z]{32,64}$' }, description: 'The key the page uses for tiles (a browser key)' },
      },
      responses: { 200: { description: 'HTML page', contentType: 'text/html; charset=utf-8', schema: { type: 'string' } } },
      examples: [{ query: 'lat=-5.6333&lng=32.7667&zoom=13&marker=1', summary: 'Sikonge, Tanzania' }],
    },
    handler(req, ctx) {
      browserGuard(req);
      if (!mapsReady(ctx)) throw new HttpError(503, 'not_loaded', 'The tile set is not built.');
      // The page needs a key for its tiles: the one given, else the header's (server-rendered iframes).
      const key = req.q.key ?? req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
      const html = embedHtml(ctx, { lat: req.q.lat, lng: req.q.lng, zoom: req.q.zoom, theme: req.q.theme === 'day' ? 'day' : 'dark', marker: !!req.q.marker, key });
      return { bytes: new TextEncoder().encode(html), contentType: 'text/html; charset=utf-8', headers: { 'Cache-Control': 'private, max-age=300' } };
    },
  }),
  route({
    method: 'GET', path: '//sdk/v1/svc.js', scope: null,
    capabilities: ['browser_map_sdk'], ready: mapsReady,
    note: 'svc.js: new svc.Map({container, center, zoom, theme, key}) on MapLibre GL JS served from this host; setTheme, addMarker, fitBounds, drawRoute; geocoder.js adapter.',
    decl: {
      summary: 'The browser SDK (svc.Map over MapLibre GL JS)', tag: 'maps',
      responses: { 200: { description: 'JavaScript', contentType: 'text/javascript; charset=utf-8', schema: { type: 'string' } } },
      examples: [{}],
    },
    handler: (_req, ctx) => ({ bytes: asset(join(ASSETS, 'svc.js'), ctx), contentType: 'text/javascript; charset=utf-8', headers: { 'Cache-Control': SCRIPT_CACHE } }),
  }),
  route({
    method: 'GET', path: '//sdk/v1/geocoder.js', scope: null,
    decl: {
      summary: 'The browser geocoder adapter (svc.Geocoder; also a maplibre-gl-geocoder API)', tag: 'maps',
      responses: { 200: { description: 'JavaScript', contentType: 'text/javascript; charset=utf-8', schema: { type: 'string' } } },
      examples: [{}],
    },
    handler: (_req, ctx) => ({ bytes: asset(join(ASSETS, 'geocoder.js'), ctx), contentType: 'text/javascript; charset=utf-8', headers: { 'Cache-Control': SCRIPT_CACHE } }),
  }),
  route({
    method: 'GET', path: '//sdk/v1/lib/:file', scope: null,
    decl: {
      summary: 'MapLibre GL JS files the SDK loads (served from this host)', tag: 'maps',
      params: { file: { schema: { type: 'string', enum: Object.keys(LIB_FILES) }, required: true } },
      responses: { 200: { description: 'JavaScript or CSS (text/javascript or text/css)', contentType: 'text/javascript' } },
      examples: [{ params: { file: 'maplibre-gl.css' } }],
    },
    handler(req) {
      const f = req.params.file as keyof typeof LIB_FILES;
      return { bytes: asset(join(MAPLIBRE, f)), contentType: LIB_FILES[f], headers: { 'Cache-Control': LIB_CACHE } };
    },
  }),
  route({
    method: 'GET', path: '//sdk/v1/geocode', scope: 'geo', keyInQuery: true, ready: geoReady,
    decl: {
      summary: 'Geocoding for the browser adapter: alt-platform status and results', tag: 'maps',
      query: {
        address: { schema: Q.str({ minLength: 1, maxLength: 200 }), required: true, aliases: ['q'] },
        country: { schema: Q.country() },
        limit: { schema: Q.int({ min: 1, max: GEOCODE_LIMIT.max, default: GEOCODE_LIMIT.default }) },
        key: { schema: { type: 'string' }, description: 'A browser key' },
      },
      responses: { 200: { description: 'status OK or ZERO_RESULTS and results', schema: { type: 'object', required: ['status', 'results'], properties: { status: { enum: ['OK', 'ZERO_RESULTS'] }, results: { type: 'array' } } } } },
      examples: [{ query: 'address=Nairobi' }],
    },
    async handler(req, ctx) {
      browserGuard(req);
      const r = await ctx.pool.run('geocode', { q: req.q.address, limit: req.q.limit, country: req.q.country }, !!req.key?.test);
      const body = JSON.parse(Buffer.from(r.body).toString('utf8'));
      if (r.status !== 200) throw new HttpError(r.status, body.error?.code ?? 'internal', body.error?.message ?? 'Geocoding failed.');
      const results = (body.results ?? []).map(altResult);
      return { json: { status: results.length ? 'OK' : 'ZERO_RESULTS', results } };
    },
  }),
];
