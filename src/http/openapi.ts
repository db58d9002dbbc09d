// The OpenAPI 3.1 document, generated from the route declarations (operation.ts): every
// operation with its parameters, body, responses and examples, the two ways to send a key,
// and the error envelope every failure shares. Built once per route table and cached.
import type { RouteDef } from './types.ts';
import type { Declaration, QueryParam, Schema } from './operation.ts';
import { ATTRIBUTION } from '../core/attribution.ts';

/** The error body of every non-2xx answer. */
export const ERROR_ENVELOPE: Schema = {
  type: 'object', required: ['error'],
  properties: {
    error: {
      type: 'object', required: ['code', 'message'],
      properties: { code: { type: 'string', examples: ['invalid_parameter'] }, message: { type: 'string' } },
    },
    attribution: { type: 'string' },
  },
};

const REASONS: Record<number, string> = {
  400: 'Invalid request', 401: 'Missing, unknown or revoked key', 403: 'The key lacks the scope', 404: 'Not found',
  409: 'Conflict', 413: 'Body too large', 429: 'Quota or burst limit reached (Retry-After)', 500: 'Internal error', 501: 'Not implemented', 503: 'Unavailable',
};

/** "/places/:id" → "/api/v1/places/{id}"; absolute "//healthz" → "/healthz". */
export function openapiPath(path: string): string {
  const p = path.startsWith('//') ? path.slice(1) : `/api/v1${path}`;
  return p.replace(/:(\w+)/g, '{$1}');
}

function parameters(d: Declaration) {
  const out: Record<string, unknown>[] = [];
  for (const [name, p] of Object.entries(d.params ?? {})) {
    out.push({ name, in: 'path', required: true, schema: p.schema, ...(p.description ? { description: p.description } : {}) });
  }
  const pairOf = new Map<string, string[]>();
  for (const [pair, [a, b]] of Object.entries(d.pairAliases ?? {})) {
    for (const k of [a, b]) pairOf.set(k, [...(pairOf.get(k) ?? []), pair]);
  }
  for (const [name, p] of Object.entries(d.query ?? {}) as [string, QueryParam][]) {
    const aliases = p.aliases?.length ? ` Also accepted as ${p.aliases.map((a) => `\`${a}\``).join(', ')}.` : '';
    const pairs = pairOf.get(name);
    // A parameter a pair alias can supply is not required on its own.
    const required = !!p.required && !pairs;
    const pairNote = pairs ? ` May be given together with its partner as ${pairs.map((x) => `\`${x}=LAT,LNG\``).join(' or ')}.` : '';
    const desc = `${p.description ?? ''}${aliases}${pairNote}`.trim();
    const array = p.schema.type === 'array';
    out.push({
      name, in: 'query', required, schema: p.schema, ...(desc ? { description: desc } : {}),
      ...(array ? { style: 'form', explode: false } : {}),
    });
  }
  for (const pair of Object.keys(d.pairAliases ?? {})) {
    out.push({ name: pair, in: 'query', required: false, schema: { type: 'string', format: 'latlng', examples: ['-1.2921,36.8219'] }, description: `LAT,LNG in one parameter (instead of ${d.pairAliases![pair].join(' and ')})` });
  }
  return out;
}

function examplesOf(r: RouteDef, kind: 'body' | 'request') {
  const out: Record<string, { summary?: string; value: unknown }> = {};
  r.decl!.examples.forEach((e, i) => {
    const value = kind === 'body' ? e.body : `${openapiPath(r.path).replace(/\{(\w+)\}/g, (_m, k) => encodeURIComponent(e.params?.[k] ?? k))}${e.query ? `?${e.query}` : ''}`;
    if (value === undefined) return;
    out[`example${i + 1}`] = { ...(e.summary ? { summary: e.summary } : {}), value };
  });
  return out;
}

function operation(r: RouteDef, operationIds: Set<string>, usedErrors: Set<number>) {
  const d = r.decl!;
  const responses: Record<string, unknown> = {};
  for (const [status, resp] of Object.entries(d.responses)) {
    const n = Number(status);
    const type = resp.contentType ?? 'application/json';
    const schema = resp.schema ?? (n >= 400 ? { $ref: '#/components/schemas/Error' } : undefined);
    responses[status] = { description: resp.description, ...(schema || type !== 'application/json' ? { content: { [type]: schema ? { schema: schema } : {} } } : {}) };
  }
  const errors = [400, ...(r.scope !== null || d.auth === 'admin' ? [401] : []), ...(r.scope !== null && r.scope !== 'any' ? [403] : []), ...(r.scope !== null ? [429] : []), 500];
  for (const e of errors) {
    if (responses[e]) continue;
    responses[e] = { $ref: `#/components/responses/E${e}` };
    usedErrors.add(e);
  }
  let id = `${r.method.toLowerCase()}${openapiPath(r.path).replace(/^\/api\/v1/, '').replace(/[{}]/g, '').split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('')}`;
  while (operationIds.has(id)) id += '_';
  operationIds.add(id);
  const requests = examplesOf(r, 'request');
  const security = d.auth === 'admin' ? [{ admin: [] }] : r.scope === null ? [] : [{ bearer: [] }, ...(r.keyInQuery ? [{ key: [] }] : [])];
  return {
    operationId: id,
    summary: d.summary,
    description: [
      d.description, r.note,
      r.scope && r.scope !== 'any' ? `Scope: \`${r.scope}\`.` : r.scope === 'any' ? 'Any valid key.' : d.auth === 'admin' ? 'Operator endpoint: `Authorization: Bearer $ADMIN_TOKEN`.' : 'No key needed.',
      Object.keys(requests).length ? `Example requests:\n${Object.values(requests).map((x) => `- \`${r.method} ${x.value}\``).join('\n')}` : '',
    ].filter(Boolean).join('\n\n'),
    tags: [d.tag ?? 'service'],
    security,
    parameters: parameters(d),
    ...(d.body ? { requestBody: { required: true, content: { [d.body['x-form'] ? 'application/x-www-form-urlencoded' : 'application/json']: { schema: d.body, ...(Object.keys(examplesOf(r, 'body')).length ? { examples: examplesOf(r, 'body') } : {}) } } } } : {}),
    responses,
    ...(r.capabilities?.length ? { 'x-capabilities': r.capabilities } : {}),
  };
}

/** The whole document for a route table (undeclared routes are left out). */
export function openapiDocument(routes: RouteDef[], baseUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const ids = new Set<string>();
  const tags = new Set<string>();
  const used = new Set<number>();
  for (const r of routes) {
    if (!r.decl) continue;
    const p = openapiPath(r.path);
    (paths[p] ??= {})[r.method.toLowerCase()] = operation(r, ids, used);
    tags.add(r.decl.tag ?? 'service');
  }
  const errorResponses = Object.fromEntries(Object.entries(REASONS).filter(([s]) => used.has(Number(s))).map(([s, description]) => [`E${s}`, { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]));
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'svc maps, address and logistics API',
      version: '1.0.0',
      summary: 'Maps, addresses and logistics for the 54 African countries',
      description: [
        'Every path under `/api/v1` is also served under `/v1` (the same operation).',
        'Send the key as `Authorization: Bearer svc_live_…` (or `svc_test_…` for the Lagos sandbox); routes that list the `key` scheme also accept `?key=`.',
        'Every failure is `{"error":{"code","message"}}`; every JSON answer carries `attribution` and every response the `X-Attribution` header.',
        `Attribution: ${ATTRIBUTION}.`,
      ].join('\n\n'),
      license: { name: 'Data licences: ODbL 1.0, CC BY 4.0, public domain (see attribution)', identifier: 'ODbL-1.0' },
    },
    servers: [{ url: baseUrl, description: 'This server' }],
    tags: [...tags].sort().map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer svc_live_…` or `svc_test_…`.' },
        key: { type: 'apiKey', in: 'query', name: 'key', description: 'The API key as `?key=` (only on routes that list this scheme).' },
        admin: { type: 'http', scheme: 'bearer', description: 'The operator token (ADMIN_TOKEN).' },
      },
      schemas: { Error: ERROR_ENVELOPE },
      responses: errorResponses,
    },
  };
}

const TAGS: Record<string, string> = {
  service: 'Capabilities, health, usage, documentation and operator endpoints',
  geo: 'Geocoding, places and nearby layers',
  routing: 'Routes over the road graphs',
  logistics: 'Stops, delivery codes, proof of delivery, disputes and trip outcomes',
  tracking: 'GPS pings and trails',
  fleet: 'Fleet and geofences',
  verify: 'Address verification products (digital presence at night, field agent visit) and the sandbox clock',
};

const cache = new WeakMap<RouteDef[], string>();
/** The document as JSON text, built once per route table. */
export function openapiJson(routes: RouteDef[], baseUrl: string): string {
  let s = cache.get(routes);
  if (!s) cache.set(routes, (s = JSON.stringify(openapiDocument(routes, baseUrl))));
  return s;
}
