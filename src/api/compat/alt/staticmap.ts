// /compat/alt/staticmap: the platform's Static Maps request grammar (center as coordinates or an
// address, zoom, size, scale, markers, path, visible) rendered by our static map renderer.
import type { AppContext, Req } from '../../../http/types.ts';
import { Q } from '../../../http/declaration.ts';
import { latlngOf } from '../../../core/points.ts';
import { STATICMAP_LIMITS as L, fitView, type StaticMapSpec } from '../../../core/maps/staticmap.ts';
import { renderStaticMap } from '../../maps/index.ts';
import { parseMarkers, parsePaths } from '../../maps/staticmap-params.ts';
import { browserGuard } from '../../maps/guard.ts';
import { altRoute } from './define.ts';
import { invalid } from './envelope.ts';
import { resolvePlace } from './places.ts';
import { task, ok } from './tasks.ts';
import { decode } from './polyline.ts';

const STYLE = /^(color|label|size|scale|icon|anchor):/i;
/** Addresses a request may geocode (center, markers, visible): each costs a search. */
export const MAX_ADDRESSES = 15;

/** Replaces the address parts of a markers (or visible) value by their coordinates. */
async function placeParts(ctx: AppContext, req: Req, param: string, value: string, budget: { left: number }): Promise<string> {
  const parts = value.split('|').map((p) => p.trim()).filter(Boolean);
  const out = await Promise.all(parts.map(async (p) => {
    if (STYLE.test(p) || latlngOf(p)) return p;
    if (--budget.left < 0) throw invalid(param, `names more than ${MAX_ADDRESSES} addresses`);
    const at = await resolvePlace(ctx, req, param, p);
    if (!at) throw invalid(param, `has '${p.slice(0, 60)}', which could not be geocoded`);
    return `${at.lat},${at.lng}`;
  }));
  return out.join('|');
}

/**
 * Paths, with `enc:` read as the rest of the value: an encoded polyline may itself contain '|'
 * (it is one of its 64 characters), so it cannot be split with the styles.
 */
function pathsOf(values: string[]) {
  const encs: string[] = [];
  const heads = values.map((v) => {
    const i = v.search(/(^|\|)\s*enc:/i);
    if (i < 0) { encs.push(''); return v; }
    encs.push(v.slice(v.indexOf('enc:', i) + 4).trim());
    return v.slice(0, i);
  });
  const paths = parsePaths(heads);
  paths.forEach((p, k) => {
    if (!encs[k]) return;
    try { p.points.push(...decode(encs[k])); } catch { throw invalid('path', 'has an invalid encoded polyline'); }
    if (p.points.length > L.maxPathPoints) throw invalid('path', `has more than ${L.maxPathPoints} points`);
  });
  return paths;
}

const SIZE = /^(\d{1,4})x(\d{1,4})$/;

export const staticmap = altRoute({
  name: 'staticmap',
  scope: 'maps',
  ops: ['staticmap', 'geocode', 'place_by_id'],
  datasets: ['gazetteer'],
  ready: (ctx) => !!ctx.routes.find((r) => r.path === '/staticmap')?.ready?.(ctx),
  empty: {},
  decl: {
    summary: 'Static map (PNG) with the alt platform parameter grammar',
    description: `\`center\` as LAT,LNG or an address, \`zoom\`, \`size\` (≤ ${L.maxWidth}x${L.maxHeight}), \`scale\` 1-2, \`markers=color:red|label:A|LAT,LNG|address…\` (repeatable), \`path=color:0x0000ff|weight:5|LAT,LNG|…\` or \`path=enc:POLYLINE\` (repeatable), \`visible\` (locations kept in view). Without center/zoom the map fits markers, paths and visible. \`format\` png/png8/png32 give PNG; \`maptype\` roadmap only; \`style\`, \`language\`, \`region\` are accepted and not applied (our own style). Errors are JSON in the platform envelope.`,
    query: {
      center: { schema: Q.str({ maxLength: 200 }), description: 'LAT,LNG or an address' },
      zoom: { schema: Q.num({ min: L.minZoom, max: L.maxZoom }), description: `0–${L.maxZoom}` },
      size: { schema: Q.str({ pattern: SIZE.source }), required: true, description: `WIDTHxHEIGHT, at most ${L.maxWidth}x${L.maxHeight}` },
      scale: { schema: { type: 'integer', enum: [...L.scales], default: 1 }, description: '1 or 2' },
      format: { schema: Q.enum(['png', 'png8', 'png32'], 'png'), description: 'PNG (gif and jpg are not offered)' },
      maptype: { schema: Q.enum(['roadmap'], 'roadmap'), description: 'roadmap only (no imagery)' },
      markers: { schema: Q.str({ maxLength: 8192 }), description: 'Styles and locations, | separated; repeatable' },
      path: { schema: Q.str({ maxLength: 16384 }), description: 'Styles and points or enc:POLYLINE, | separated; repeatable' },
      visible: { schema: Q.str({ maxLength: 4096 }), description: 'Locations to keep in view, | separated' },
      style: { schema: Q.str({ maxLength: 2000 }), description: 'Accepted, not applied' },
      language: { schema: Q.str({ maxLength: 20 }), description: 'Accepted, not applied' },
      region: { schema: Q.str({ maxLength: 10 }), description: 'Accepted, not applied' },
    },
    responses: {
      200: { description: 'PNG image', contentType: 'image/png', schema: { type: 'string', format: 'binary' } },
      400: { description: 'INVALID_REQUEST (JSON envelope)' },
    },
    examples: [{ query: 'center=Sikonge&zoom=12&size=400x300&markers=color:red|label:S|-5.6333,32.7667', summary: 'Sikonge, Tanzania' }],
  },
  async handler(req, ctx) {
    const cors = browserGuard(req);
    const q = req.q;
    const m = SIZE.exec(q.size)!;
    const width = Number(m[1]), height = Number(m[2]);
    if (width < L.minSize || height < L.minSize || width > L.maxWidth || height > L.maxHeight) throw invalid('size', `must be from ${L.minSize}x${L.minSize} to ${L.maxWidth}x${L.maxHeight}`);
    const budget = { left: MAX_ADDRESSES };
    const markerValues = await Promise.all(req.query.getAll('markers').map((v) => placeParts(ctx, req, 'markers', v, budget)));
    const markers = parseMarkers(markerValues);
    const paths = pathsOf(req.query.getAll('path'));
    for (const p of paths) {
      if (!p.route) continue;
      // our `route` path style: the route through the points, as on GET /staticmap
      const r = ok(await task(ctx, req, 'route', { from: p.points[0], to: p.points[p.points.length - 1], via: p.points.slice(1, -1), mode: p.route, radius: 1000 }), 'route');
      p.points = (r.route.geometry.coordinates as [number, number][]).map(([lng, lat]) => [lat, lng]);
      delete p.route;
    }
    const visible = q.visible ? parseMarkers([await placeParts(ctx, req, 'visible', q.visible, budget)]).map((x) => [x.lat, x.lng] as [number, number]) : [];
    let center: [number, number] | undefined;
    if (q.center) {
      const at = latlngOf(q.center) ?? (await resolvePlace(ctx, req, 'center', q.center));
      if (!at) throw invalid('center', `'${String(q.center).slice(0, 60)}' could not be geocoded`);
      center = Array.isArray(at) ? at : [at.lat, at.lng];
    }
    let zoom = q.zoom as number | undefined;
    const pts: [number, number][] = [...markers.map((x) => [x.lat, x.lng] as [number, number]), ...paths.flatMap((p) => p.points), ...visible];
    if (!center || zoom === undefined || visible.length) {
      if (!pts.length && !(center && zoom !== undefined)) {
        throw invalid(center ? 'zoom' : 'center', "is required unless markers, path or visible are given");
      }
      if (pts.length) {
        // A given center stays the center: mirror every point through it so the fit is symmetric.
        const c = center;
        const fit = fitView(c ? [...pts, ...pts.map(([a, b]) => [2 * c[0] - a, 2 * c[1] - b] as [number, number])] : pts, width, height);
        center ??= fit.center;
        zoom = zoom === undefined ? fit.zoom : Math.min(zoom, fit.zoom);
      }
    }
    const spec: StaticMapSpec = { center: center!, zoom: zoom!, width, height, scale: q.scale as StaticMapSpec['scale'], theme: 'day', markers, paths };
    const bytes = await renderStaticMap(ctx, spec);
    return { bytes, contentType: 'image/png', headers: { 'Cache-Control': 'public, max-age=86400', ...cors } };
  },
});
