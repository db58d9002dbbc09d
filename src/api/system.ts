// Service endpoints: capability document, health, metrics, reload, diagnostics, the OpenAPI
// document, the interactive reference and the guides.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { capabilityDocument } from '../capabilities.ts';
import { requireAdmin } from '../http/admin.ts';
import { HttpError, type RouteDef, route } from '../http/types.ts';
import { Q } from '../http/declaration.ts';
import { openapiJson } from '../http/openapi.ts';
import { PLANS } from '../auth/scopes.ts';
import { secondsToMonthEnd } from '../auth/quota.ts';
import { ROOT } from '../core/config.ts';

const text = (s: string | Uint8Array, type: string, headers?: Record<string, string>) => ({
  bytes: typeof s === 'string' ? new TextEncoder().encode(s) : s, contentType: type, ...(headers ? { headers } : {}),
});

function doc(file: string) {
  const p = join(ROOT, file);
  if (!existsSync(p)) throw new HttpError(404, 'not_found', `${file} is missing from this installation.`);
  return text(readFileSync(p, 'utf8'), 'text/markdown; charset=utf-8');
}

/** The guides in docs/, reachable from the reference page. */
export const GUIDES = ['routing', 'geo', 'logistics', 'ride', 'webhooks', 'dashboard'];

// The viewer is swagger-ui-dist, served from node_modules by this host: the page loads nothing
// from anywhere else (no CDN, no fonts, validatorUrl off).
const SWAGGER_DIR = (() => {
  try { return join(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'), '..'); } catch { return null; }
})();
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};
const assetCache = new Map<string, Uint8Array>();
const INIT_JS = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/api/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout',
    persistAuthorization: false, tryItOutEnabled: false,
  });
};
`;
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>svc API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/reference/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/reference/assets/favicon-32x32.png">
<style>body{margin:0} nav.guides{font:14px sans-serif;padding:8px 20px;background:#f4f4f4;border-bottom:1px solid #ddd} nav.guides a{margin-right:14px}</style>
</head>
<body>
<nav class="guides">Guides: ${GUIDES.map((g) => `<a href="/reference/guides/${g}">${g}</a>`).join(' ')} <a href="/docs">README</a> <a href="/api/v1/openapi.json">openapi.json</a> <a href="/api/v1/capabilities">capabilities</a></nav>
<div id="swagger-ui"></div>
<script src="/reference/assets/swagger-ui-bundle.js"></script>
<script src="/reference/assets/swagger-ui-standalone-preset.js"></script>
<script src="/reference/assets/init.js"></script>
</body>
</html>
`;
const CACHE = { 'Cache-Control': 'public, max-age=3600' };

const str = { type: 'string' };
const bytes = (contentType: string, description: string) => ({ 200: { description, contentType } });

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/capabilities', scope: null,
    decl: {
      summary: 'What this build can do: every capability, true only when it works end to end', tag: 'service',
      responses: {
        200: {
          description: 'The capability document',
          schema: {
            type: 'object', required: ['version', 'capabilities', 'notes', 'recipes'],
            properties: {
              version: str, product: str, docs: str, reference: str,
              capabilities: { type: 'object', additionalProperties: { type: 'boolean' } },
              notes: { type: 'object', additionalProperties: str },
              recipes: { type: 'object', additionalProperties: { type: 'array', items: str } },
            },
          },
        },
      },
      examples: [{}],
    },
    handler: (_req, ctx) => ({ json: capabilityDocument(ctx.routes, ctx) }),
  }),
  route({
    method: 'GET', path: '//healthz', scope: null,
    decl: {
      summary: 'Liveness and readiness: workers, queue, database, loaded datasets', tag: 'service',
      responses: {
        200: {
          description: 'Healthy',
          schema: {
            type: 'object', required: ['status', 'workers', 'queue', 'database', 'datasets'],
            properties: {
              status: { enum: ['ok', 'degraded'] }, workers: { type: 'integer' }, queue: { type: 'integer' },
              database: { type: 'object', required: ['reachable', 'kind'], properties: { reachable: { type: 'boolean' }, kind: str } },
              datasets: { type: 'array', items: str },
            },
          },
        },
        503: { description: 'Degraded (the same body with status "degraded")' },
      },
      examples: [{}],
    },
    handler: async (_req, ctx) => {
      const database = await ctx.store.ping();
      const workers = ctx.pool.threads;
      const ok = database && workers > 0;
      return {
        status: ok ? 200 : 503,
        json: {
          status: ok ? 'ok' : 'degraded',
          workers,
          queue: ctx.pool.queued,
          database: { reachable: database, kind: ctx.store.kind },
          datasets: ctx.pool.datasets.map((d) => d.name),
        },
      };
    },
  }),
  route({
    method: 'GET', path: '//metrics', scope: null,
    decl: {
      summary: 'Prometheus metrics', tag: 'service', auth: 'admin',
      responses: { ...bytes('text/plain; version=0.0.4', 'Prometheus text exposition'), 403: { description: 'ADMIN_TOKEN is not set' } },
      examples: [{}],
    },
    handler: (req, ctx) => {
      requireAdmin(req, ctx);
      return text(ctx.metrics.render({ queue: ctx.pool.queued, workers: ctx.pool.threads, rejections: ctx.quota.rejections }), 'text/plain; version=0.0.4');
    },
  }),
  route({
    method: 'POST', path: '//admin/reload', scope: null,
    decl: {
      summary: 'Reload the datasets from BUILT_DIR into the worker pool without dropping requests', tag: 'service', auth: 'admin',
      responses: {
        200: { description: 'Reloaded', schema: { type: 'object', required: ['reload'], properties: { reload: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } } } },
        403: { description: 'ADMIN_TOKEN is not set' },
        409: { description: 'The reload failed; the previous datasets keep serving' },
      },
      examples: [{}],
    },
    handler: async (req, ctx) => {
      requireAdmin(req, ctx);
      const r = await ctx.pool.reload();
      return { status: r.ok ? 200 : 409, json: { reload: r } };
    },
  }),
  route({
    // Diagnostics: proves a key works; `pool=1` also round-trips the worker pool (used by bench http).
    method: 'GET', path: '/ping', scope: 'any',
    decl: {
      summary: 'Check a key (and with pool=1 the worker pool)', tag: 'service',
      query: { pool: { schema: Q.bool(false), description: 'Also round-trip the worker pool' } },
      responses: { 200: { description: 'The key works', schema: { type: 'object', required: ['ok'], properties: { ok: { const: true } } } } },
      examples: [{ query: 'pool=1' }],
    },
    handler: async (req, ctx) => {
      if (req.q.pool) return { task: await ctx.pool.run('ping', null, !!req.key?.test) };
      return { json: { ok: true } };
    },
  }),
  route({
    method: 'GET', path: '/usage', scope: 'any',
    decl: {
      summary: "This key's requests this month against its plan", tag: 'service',
      responses: {
        200: {
          description: 'Usage of the calling key',
          schema: {
            type: 'object', required: ['usage'],
            properties: {
              usage: {
                type: 'object', required: ['key_id', 'project', 'plan', 'test', 'month', 'used', 'limit', 'resets_in_s'],
                properties: {
                  key_id: str, project: str, plan: { enum: ['free', 'developer', 'enterprise'] }, test: { type: 'boolean' }, month: str,
                  used: { type: 'integer' }, limit: { type: ['integer', 'null'] }, resets_in_s: { type: 'number' },
                },
              },
            },
          },
        },
      },
      examples: [{}],
    },
    handler: (req, ctx) => {
      const k = req.key!;
      const limit = PLANS[k.plan];
      const now = Date.now();
      return {
        json: {
          usage: {
            key_id: k.id, project: k.project, plan: k.plan, test: k.test,
            month: new Date(now).toISOString().slice(0, 7),
            used: ctx.quota.usage(k.id) ?? 0,
            limit: Number.isFinite(limit) ? limit : null,
            resets_in_s: secondsToMonthEnd(now),
          },
        },
      };
    },
  }),
  route({
    method: 'GET', path: '/openapi.json', scope: null,
    decl: {
      summary: 'This API as an OpenAPI 3.1 document, generated from the route declarations', tag: 'service',
      responses: { 200: { description: 'The OpenAPI document', schema: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { const: '3.1.0' } } } } },
      examples: [{}],
    },
    handler: (_req, ctx) => text(openapiJson(ctx.routes, ctx.config.baseUrl), 'application/json; charset=utf-8'),
  }),
  route({
    method: 'GET', path: '//docs', scope: null,
    decl: { summary: 'The README (Markdown)', tag: 'service', responses: bytes('text/markdown; charset=utf-8', 'README.md'), examples: [{}] },
    handler: () => doc('README.md'),
  }),
  route({
    method: 'GET', path: '//reference', scope: null,
    decl: { summary: 'The interactive API reference (HTML, served entirely from this host)', tag: 'service', responses: bytes('text/html; charset=utf-8', 'The reference page'), examples: [{}] },
    handler: () => text(PAGE, 'text/html; charset=utf-8'),
  }),
  route({
    method: 'GET', path: '//reference/guides/:name', scope: null,
    decl: {
      summary: 'A guide from docs/ (Markdown)', tag: 'service',
      params: { name: { schema: { type: 'string', enum: GUIDES }, required: true } },
      responses: { ...bytes('text/markdown; charset=utf-8', 'The guide'), 404: { description: 'Missing from this installation' } },
      examples: [{ params: { name: 'routing' } }],
    },
    handler: (req) => doc(`docs/${req.params.name}.md`),
  }),
  route({
    method: 'GET', path: '//reference/assets/:file', scope: null,
    decl: {
      summary: 'Files of the reference page viewer (swagger-ui-dist)', tag: 'service',
      params: { file: { schema: { type: 'string', enum: [...Object.keys(ASSETS), 'init.js'] }, required: true } },
      responses: { 200: { description: 'The file', contentType: 'application/octet-stream' }, 404: { description: 'swagger-ui-dist is not installed' } },
      examples: [{ params: { file: 'init.js' } }],
    },
    handler: (req) => {
      const f = req.params.file;
      if (f === 'init.js') return text(INIT_JS, 'text/javascript; charset=utf-8', CACHE);
      let b = assetCache.get(f);
      if (!b) {
        const p = SWAGGER_DIR && join(SWAGGER_DIR, f);
        if (!p || !existsSync(p)) throw new HttpError(404, 'not_found', 'swagger-ui-dist is not installed.');
        assetCache.set(f, (b = readFileSync(p)));
      }
      return text(b, ASSETS[f], CACHE);
    },
  }),
];
