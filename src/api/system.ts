// Service endpoints: capability document, health, metrics, reload, diagnostics, docs.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { capabilityDocument } from '../capabilities.ts';
import { requireAdmin } from '../http/admin.ts';
import { HttpError, type RouteDef } from '../http/types.ts';
import { displayPath } from '../http/router.ts';
import { PLANS } from '../auth/scopes.ts';
import { secondsToMonthEnd } from '../auth/limits.ts';
import { ROOT } from '../core/config.ts';

const text = (s: string, type: string) => ({ bytes: new TextEncoder().encode(s), contentType: type });

function doc(file: string) {
  const p = join(ROOT, file);
  if (!existsSync(p)) throw new HttpError(404, 'not_found', `${file} is missing from this installation.`);
  return text(readFileSync(p, 'utf8'), 'text/markdown; charset=utf-8');
}

export const routes: RouteDef[] = [
  {
    method: 'GET', path: '/capabilities', scope: null,
    handler: (_req, ctx) => ({ json: capabilityDocument(ctx.routes, ctx) }),
  },
  {
    method: 'GET', path: '//healthz', scope: null,
    handler: async (_req, ctx) => {
      const database = await ctx.store.ping();
      const workers = ctx.engine.threads;
      const ok = database && workers > 0;
      return {
        status: ok ? 200 : 503,
        json: {
          status: ok ? 'ok' : 'degraded',
          workers,
          queue: ctx.engine.queued,
          database: { reachable: database, kind: ctx.store.kind },
          datasets: ctx.engine.datasets.map((d) => d.name),
        },
      };
    },
  },
  {
    method: 'GET', path: '//metrics', scope: null,
    handler: (req, ctx) => {
      requireAdmin(req, ctx);
      return text(ctx.metrics.render({ queue: ctx.engine.queued, workers: ctx.engine.threads, rejections: ctx.limits.rejections }), 'text/plain; version=0.0.4');
    },
  },
  {
    method: 'POST', path: '//admin/reload', scope: null,
    handler: async (req, ctx) => {
      requireAdmin(req, ctx);
      const r = await ctx.engine.reload();
      return { status: r.ok ? 200 : 409, json: { reload: r } };
    },
  },
  {
    // Diagnostics: proves a key works; `pool=1` also round-trips the worker pool (used by bench http).
    method: 'GET', path: '/ping', scope: 'any', example: { query: 'pool=1' },
    handler: async (req, ctx) => {
      if (req.query.get('pool') === '1') return { task: await ctx.engine.run('ping', null, !!req.key?.test) };
      return { json: { ok: true } };
    },
  },
  {
    method: 'GET', path: '/usage', scope: 'any',
    handler: (req, ctx) => {
      const k = req.key!;
      const limit = PLANS[k.plan];
      const now = Date.now();
      return {
        json: {
          usage: {
            key_id: k.id, project: k.project, plan: k.plan, test: k.test,
            month: new Date(now).toISOString().slice(0, 7),
            used: ctx.limits.usage(k.id) ?? 0,
            limit: Number.isFinite(limit) ? limit : null,
            resets_in_s: secondsToMonthEnd(now),
          },
        },
      };
    },
  },
  { method: 'GET', path: '//docs', scope: null, handler: () => doc('README.md') },
  {
    // The endpoint table is generated from the route table, so it cannot drift from what is served.
    method: 'GET', path: '//reference', scope: null,
    handler: (_req, ctx) => {
      const rows = ctx.routes
        .filter((r) => !r.path.startsWith('/_'))
        .map((r) => `| ${r.method} | \`${r.path.startsWith('//') ? '' : '/api/v1'}${displayPath(r.path)}\` | ${r.scope ?? 'none'} | ${(r.capabilities ?? []).join(', ')} | ${r.note ?? ''} |`);
      const guides = ['docs/routing.md', 'docs/geo.md', 'docs/logistics.md', 'docs/webhooks.md', 'docs/dashboard.md']
        .filter((f) => existsSync(join(ROOT, f)))
        .map((f) => readFileSync(join(ROOT, f), 'utf8'));
      const md = ['# svc API reference', '', 'Every path under `/api/v1` is also served under `/v1`. Keys: `Authorization: Bearer svc_live_…|svc_test_…`.', '',
        '| method | path | scope | capabilities | note |', '|---|---|---|---|---|', ...rows, '', ...guides].join('\n');
      return text(md, 'text/markdown; charset=utf-8');
    },
  },
];
