// The OpenAPI document generated from the declarations, linted by a real linter, and the
// reference page that renders it from this host only.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, REPO, type TestServer } from '../helpers/server.ts';
import { openapiPath } from '../../src/http/openapi.ts';
import { compileRoutes, validateRequest } from '../../src/http/operation.ts';
import { allRoutes } from '../../src/api/index.ts';
import type { RouteDef, Req } from '../../src/http/types.ts';

let db: TestDb;
let s: TestServer;
let doc: any;
beforeAll(async () => {
  db = await freshDb('pglite');
  s = await startTestServer(db);
  const r = await s.get('/api/v1/openapi.json');
  expect(r.status).toBe(200);
  doc = await r.json();
});
afterAll(async () => {
  await s?.close();
  await db?.drop();
});

describe('request validators', () => {
  it('compile for every declared operation: a bad schema fails here, since the server compiles them after it listens', () => {
    expect(() => compileRoutes(allRoutes)).not.toThrow();
    let declared = 0;
    for (const r of allRoutes) if (r.decl) declared++;
    expect(declared).toBeGreaterThan(100);
  });

  it('validate a request that comes before the warm-up compiled its route', () => {
    const r: RouteDef = { method: 'GET', path: '/x', scope: null, decl: { summary: 'x', tag: 'x', query: { n: { schema: { type: 'integer', minimum: 1 }, required: true } } } } as unknown as RouteDef;
    const req: Req = { method: 'GET', path: '/x', params: {}, query: new URLSearchParams('n=0'), headers: {}, body: undefined, q: {}, key: null } as Req;
    expect(() => validateRequest(r, req)).toThrow(/'n' must be at least 1/);
  });
});

describe('GET /api/v1/openapi.json', () => {
  it('holds every declared operation with examples, responses and the error envelope', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.description).toMatch(/\/v1/);
    for (const r of s.app.ctx.routes) {
      const op = doc.paths[openapiPath(r.path)]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path}`).toBeDefined();
      expect(op.summary).toBe(r.decl.summary);
      const ok = Object.keys(op.responses).filter((c) => c.startsWith('2') || c.startsWith('3'));
      expect(ok.length, `${r.method} ${r.path} has a 2xx (or redirect) response`).toBeGreaterThan(0);
      if (r.scope !== null) expect(op.security).toContainEqual({ bearer: [] });
      else if (r.decl.auth !== 'admin') expect(op.security).toEqual([]);
      // JSON bodies, and the dashboard's HTML forms
      if (r.decl.body) expect((op.requestBody.content['application/json'] ?? op.requestBody.content['application/x-www-form-urlencoded']).examples.example1.value).toBeDefined();
      if (r.decl.examples.length) expect(op.description).toMatch(/Example requests:/);
    }
    // Every operation has a working example, except the one whose URL only the server can sign.
    expect(s.app.ctx.routes.filter((r) => !r.decl.examples.length).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /staticmap/signed']);
    expect(doc.paths['/api/v1/geocode'].get.parameters.find((p: any) => p.name === 'q').description).toMatch(/`address`/);
    expect(doc.paths['/api/v1/places/nearby'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['lat', 'lng', 'location', 'latlng', 'category']));
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.key).toMatchObject({ type: 'apiKey', in: 'query', name: 'key' });
  });

  it('passes @redocly/cli lint (recommended rules) with 0 errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-oas-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
      writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
      let out: string;
      try {
        out = execFileSync(join(REPO, 'node_modules/.bin/redocly'), ['lint', '--config', join(dir, 'redocly.yaml'), '--format', 'json', join(dir, 'openapi.json')], {
          encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (e: any) {
        out = e.stdout; // a non-zero exit still prints the report
      }
      const report = JSON.parse(out);
      const errors = report.problems.filter((p: any) => p.severity === 'error').map((p: any) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('GET /reference', () => {
  it('renders the document with swagger-ui served from this host, and links the guides', async () => {
    const r = await s.get('/reference');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/html/);
    const html = await r.text();
    // Nothing on the page points to another host.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(expect.arrayContaining(['/reference/assets/swagger-ui-bundle.js', '/reference/assets/swagger-ui.css', '/reference/assets/init.js', '/api/v1/openapi.json']));
    for (const ref of refs) {
      const a = await fetch(s.url + ref);
      expect(a.status, ref).toBe(200);
    }
    const init = await (await fetch(s.url + '/reference/assets/init.js')).text();
    expect(init).toMatch(/url: '\/api\/v1\/openapi.json'/);
    expect(init).toMatch(/validatorUrl: null/);
    const guide = await s.get('/reference/guides/routing');
    expect(guide.status).toBe(200);
    expect(await guide.text()).toMatch(/^# /m);
    expect((await s.get('/reference/guides/..%2Fpackage')).status).toBe(404); // not canonical
    expect((await s.get('/reference/guides/package')).status).toBe(400);
    expect((await s.get('/reference/assets/package.json')).status).toBe(400);
    expect((await s.get('/docs')).status).toBe(200);
  });
});
