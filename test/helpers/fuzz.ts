// Requests generated from the declarations, for the property test (test/foundation/fuzz.test.ts)
// and `npm run bench -- fuzz`. Each request starts from an operation's example and is kept valid,
// pushed to the schema's boundaries, or made hostile: huge numbers, NaN strings, unicode, NUL,
// unpaired surrogates, arrays for objects, deep nesting, wrong content types, path traversal in
// path parameters. Works for any route that follows the declaration model.
import fc from 'fast-check';
import type { RouteDef } from '../../src/http/types.ts';
import type { Schema, QueryParam } from '../../src/http/operation.ts';
import { ATTRIBUTION_HEADER } from '../../src/core/attribution.ts';
import { exampleRequest } from './examples.ts';

export interface FuzzRequest {
  method: string;
  /** Path and query, already encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Which operation and how the request was made, for failure messages. */
  label: string;
  /** The operation answers errors in its own shape (compat layers: RouteDef.errorBody, or invalidBody for refused requests). */
  ownErrors?: boolean;
  /** Statuses the declaration answers with something other than JSON (a dashboard's HTML error page). */
  notJson?: number[];
}

/** Query values as they appear encoded in a URL. */
const HOSTILE_QUERY = [
  '', 'NaN', 'Infinity', '-Infinity', '-0', '1e309', '-1e309', '99999999999999999999', '1e-320', '-1', '0', '0.5', 'null', 'undefined',
  'true', '%00', 'a%00b', '%ED%A0%80', '%F0%9F%98%80', '%E2%80%AE', 'x'.repeat(3000), '%5B%5D', '%7B%7D', ',', '%3B%3B', '1,2,3', '91,181',
  '-90.0000001,180', '0,0', '1%2C2%3B3%2C4', '%27%20OR%201%3D1', '..%2F..%2Fetc', '%25', '+', 'x&x=y', '%C0%AE%C0%AE',
];
/** Path parameter values (encoded) aimed at traversal and parsers. */
const HOSTILE_PARAM = [
  '..', '.', '%2e%2e', '..%2f..%2fmetrics', '%2F', '%00', 'a%00b', '%ED%A0%80', '%F0%9F%98%80', 'x'.repeat(2000), '%20', '%27', 'null', '-1',
  '1e309', 'svc:', 'svc:gn.%2e%2e', 'stp_', 'zon_' + 'A'.repeat(20), 'avr_' + 'A'.repeat(20), '%C0%AE', '~', '%252e%252e',
];

/** Deeply nested arrays or objects (depth d). */
const nested = (d: number, obj: boolean): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < d; i++) v = obj ? { a: v } : [v];
  return v;
};
const hostileJson = fc.oneof(
  fc.constantFrom<unknown>(
    null, 0, -0, -1, 1e308, -1e308, 5e-324, 1e-50, 9007199254740993, 'NaN', 'Infinity', '', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udc00y',
    '\u202e\u0645', '😀', 'x'.repeat(5000), true, false, [], [[]], {}, { __proto__: { lat: 1 } }, { constructor: { prototype: 1 } },
    '1e999', '../../etc/passwd', '2026-13-45T99:99:99Z', '1970-01-01T00:00:00Z', -8.64e15, 8.64e15,
  ),
  fc.integer({ min: 1, max: 400 }).map((d) => nested(d, false)),
  fc.integer({ min: 1, max: 200 }).map((d) => nested(d, true)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.double(),
  fc.array(fc.constantFrom<unknown>(1, 'a', null, {}), { maxLength: 5 }),
);

const HOSTILE_STRINGS = ['\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\udbff\udbff', '\u202e\u0645😀', '\u0007', 'x'.repeat(5000), '', ' ', 'NaN', "'; DROP TABLE stops; --"];
const HOSTILE_NUMBERS = [1e308, -1e308, 5e-324, 1e-50, -1e-50, 1e-39, 3.4e38, 3.5e38, 9007199254740993, -0, 0.1 + 0.2, 2 ** 31, -(2 ** 63)];
/** A hostile value of the same JSON type as `v` half the time, any hostile value otherwise. */
const hostileLike = (v: unknown) => fc.oneof(
  typeof v === 'string' ? fc.constantFrom<unknown>(...HOSTILE_STRINGS) : typeof v === 'number' ? fc.constantFrom<unknown>(...HOSTILE_NUMBERS) : hostileJson,
  hostileJson,
);
/**
 * The example body with every field its schema declares but the example leaves out filled in
 * (one array item deep), so that optional fields (notes, accuracies) are fuzzed too.
 */
function withDeclared(v: unknown, schema: Schema | undefined): unknown {
  if (!schema || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => withDeclared(x, schema.items as Schema | undefined));
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const out: Record<string, unknown> = { ...(v as object) };
  for (const [k, ps] of Object.entries(props)) {
    if (k in out) { out[k] = withDeclared(out[k], ps); continue; }
    const t = Array.isArray(ps.type) ? ps.type[0] : ps.type;
    if (t === 'string') out[k] = Array.isArray(ps.enum) ? ps.enum[0] : 'x';
    else if (t === 'number' || t === 'integer') out[k] = (ps.minimum as number | undefined) ?? 1;
    else if (t === 'boolean') out[k] = true;
  }
  return out;
}

/** Every path to a leaf of a JSON value. */
function leaves(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (v !== null && typeof v === 'object' && Object.keys(v).length) {
    for (const [k, x] of Object.entries(v)) leaves(x, [...at, Array.isArray(v) ? Number(k) : k], out);
  } else out.push(at);
  return out;
}
const getAt = (v: any, path: (string | number)[]) => path.reduce((o, k) => o?.[k], v);
function setAt(v: unknown, path: (string | number)[], x: unknown): unknown {
  if (!path.length) return x;
  const copy: any = Array.isArray(v) ? [...v] : { ...(v as object) };
  copy[path[0]] = setAt((v as any)[path[0]], path.slice(1), x);
  return copy;
}

/** Values at and just beyond the edges a wire schema declares. */
function boundary(s: Schema): string[] {
  const out: string[] = [];
  const t = s.type;
  if (t === 'integer' || t === 'number') {
    for (const k of ['minimum', 'maximum'] as const) {
      const v = s[k] as number | undefined;
      if (v === undefined) continue;
      out.push(String(v), String(k === 'minimum' ? v - 1 : v + 1), String(k === 'minimum' ? v - 1e-9 : v + 1e-9));
    }
    if (t === 'integer') out.push('1.5');
  }
  if (Array.isArray(s.enum)) out.push(...(s.enum as string[]).slice(0, 4), String((s.enum as string[])[0]).toUpperCase(), 'zzz');
  // Long values only up to what fits a request line: uWS refuses longer heads by closing the
  // connection (an HTTP-level limit, measured separately), which would hide what the operation does.
  if (typeof s.maxLength === 'number' && s.maxLength < 2000) out.push('a'.repeat(s.maxLength), 'a'.repeat(s.maxLength + 1));
  if (s.format === 'latlng') out.push('90,180', '-90,-180', '90.0001,0', '0,180.0001', '1,2,3', '1;2');
  if (t === 'array' && typeof s.maxItems === 'number') out.push(Array.from({ length: s.maxItems + 1 }, () => '1,1').join(s['x-separator'] === ';' ? ';' : ','));
  return out;
}

/** Replace, at a random path inside `v`, one value with `x` (or `v` itself at depth 0). */
function mutateAt(v: unknown, pick: number[], x: unknown): unknown {
  if (pick.length === 0 || v === null || typeof v !== 'object') return x;
  const keys = Object.keys(v as object);
  if (keys.length === 0) return x;
  const k = keys[pick[0] % keys.length];
  const copy: any = Array.isArray(v) ? [...v] : { ...(v as object) };
  copy[k] = mutateAt((v as any)[k], pick.slice(1), x);
  return copy;
}

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '', 'application/json; charset=latin1'];

/** Requests for one operation. `key` is sent as a bearer header (or `?key=` on keyInQuery routes, now and then). */
export function operationRequests(r: RouteDef, userKey: string | null, adminToken: string | null = null): fc.Arbitrary<FuzzRequest> {
  const d = r.decl;
  const key = d.auth === 'admin' ? adminToken : userKey;
  const notJson = Object.entries(d.responses).filter(([, x]) => x.contentType && !x.contentType.startsWith('application/json')).map(([c]) => Number(c));
  const ex = d.examples[0] ?? {};
  const base = exampleRequest(r, ex);
  const queryNames = Object.entries(d.query ?? {}).flatMap(([k, p]: [string, QueryParam]) => [k, ...(p.aliases ?? [])]).concat(Object.keys(d.pairAliases ?? {}));
  const paramNames = Object.keys(d.params ?? {});
  const queryValue = (name: string) => {
    const p = d.query?.[name] ?? Object.values(d.query ?? {}).find((x) => x.aliases?.includes(name));
    const edges = p ? boundary(p.schema) : ['0,0', '91,0'];
    return fc.oneof(fc.constantFrom(...HOSTILE_QUERY), fc.constantFrom(...(edges.length ? edges : ['1'])).map(encodeURIComponent));
  };
  const query = fc.array(
    fc.tuple(fc.constantFrom(...(queryNames.length ? queryNames : ['x'])), fc.constant(null)).chain(([n]) => queryValue(n).map((v) => `${n}=${v}`)),
    { maxLength: 4 },
  );
  const params = fc.dictionary(fc.constantFrom(...(paramNames.length ? paramNames : ['_'])), fc.constantFrom(...HOSTILE_PARAM), { maxKeys: paramNames.length });
  const hasBody = r.method !== 'GET' && r.method !== 'DELETE';
  const exBody0 = ex.body ?? {};
  // Declared fields the example leaves out, added a few at a time (all at once would combine
  // placeholder values that fail a rule before anything else is reached).
  const full = withDeclared(exBody0, d.body);
  const had = new Set(leaves(exBody0).map((p) => JSON.stringify(p)));
  const extra = leaves(full).filter((p) => !had.has(JSON.stringify(p)));
  const start = fc.subarray(extra, { maxLength: Math.min(2, extra.length) }).map((ps) => ps.reduce((b, p) => setAt(b, p, getAt(full, p)), exBody0 as unknown));
  const ofType = (b: unknown, t: string) => leaves(b).filter((p) => typeof getAt(b, p) === t);
  /** The same hostile value in one or more leaves of a type (a string field, a number field). */
  const someOfType = (b: unknown, t: 'string' | 'number', values: unknown[]) => {
    const ps = ofType(b, t);
    return ps.length ? fc.tuple(fc.subarray(ps, { minLength: 1 }), fc.constantFrom(...values)).map(([sel, x]) => sel.reduce((acc, p) => setAt(acc, p, x), b)) : fc.constant(b);
  };
  const mutations = (exBody: unknown) => {
    const paths = leaves(exBody);
    // One or two leaves replaced by hostile values of their type (or any), a field the
    // declaration does not know added, or the whole body replaced.
    const leafMutation = fc.constantFrom(...paths).chain((p) => hostileLike(getAt(exBody, p)).map((x) => setAt(exBody, p, x)));
    return fc.oneof(
      { arbitrary: fc.constant(exBody), weight: 1 },
      { arbitrary: leafMutation, weight: 4 },
      { arbitrary: leafMutation.chain((b) => fc.constantFrom(...leaves(b)).chain((p) => hostileLike(getAt(b, p)).map((x) => setAt(b, p, x)))), weight: 2 },
      { arbitrary: fc.tuple(fc.array(fc.nat(), { maxLength: 4 }), hostileJson).map(([path, x]) => mutateAt(exBody, path, x)), weight: 1 },
      { arbitrary: fc.tuple(fc.constantFrom('note', 'extra', '__proto__', 'constructor', 'pings'), hostileJson).map(([k, x]) => ({ ...(exBody as object), [k]: x })), weight: 1 },
      { arbitrary: hostileJson, weight: 1 },
      { arbitrary: someOfType(exBody, 'string', HOSTILE_STRINGS), weight: 4 },
      { arbitrary: someOfType(exBody, 'number', HOSTILE_NUMBERS), weight: 3 },
    );
  };
  const body = hasBody
    ? start.chain(mutations).map((b) => JSON.stringify(b) ?? 'null')
    : fc.constant(undefined);
  const rawBody = fc.constantFrom('{', '{"a":', '\u0000', '[1,2', 'not json', '\ufeff{}', '{"a":1}{"b":2}', '"\\ud800"');
  return fc.record({
    mode: hasBody ? fc.constantFrom('valid', 'query', 'params', 'body', 'body', 'body', 'raw', 'type', 'mixed') : fc.constantFrom('valid', 'query', 'query', 'params', 'mixed'),
    query, params, body, rawBody,
    type: fc.constantFrom(...CONTENT_TYPES),
    auth: fc.constantFrom('header', 'header', 'header', 'header', 'header', 'header', 'header', 'header', 'none', 'query'),
  }).map((g) => {
    let path = base.path;
    let b = hasBody ? JSON.stringify(ex.body ?? {}) : undefined;
    let type = 'application/json';
    if (g.mode === 'params' || g.mode === 'mixed') {
      // Hostile values go in as they are (already encoded), the others as the example has them.
      path = (r.path.startsWith('//') ? r.path.slice(1) : `/api/v1${r.path}`)
        .replace(/:(\w+)/g, (_m, n) => g.params[n] ?? encodeURIComponent(ex.params?.[n] ?? 'x'));
      if (ex.query) path += `?${ex.query}`;
    }
    if (g.mode === 'query' || g.mode === 'mixed') path += (path.includes('?') ? '&' : '?') + g.query.join('&');
    if (hasBody && (g.mode === 'body' || g.mode === 'mixed')) b = g.body;
    if (hasBody && g.mode === 'raw') b = g.rawBody;
    if (hasBody && g.mode === 'type') type = g.type;
    const headers: Record<string, string> = {};
    if (type) headers['content-type'] = type;
    if (key && g.auth === 'header') headers.authorization = `Bearer ${key}`;
    if (key && g.auth === 'query') path += `${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}`;
    return { method: r.method, path, headers, ...(b !== undefined ? { body: b } : {}), label: `${r.method} ${r.path} [${g.mode}]`, ...(r.errorBody || r.invalidBody ? { ownErrors: true } : {}), ...(notJson.length ? { notJson } : {}) };
  });
}

/** Requests over every given operation. */
export function requestsFor(routes: RouteDef[], key: string | null, adminToken: string | null = null): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...routes.map((r) => operationRequests(r, key, adminToken)));
}

/** What every answer must be; returns the problem, or null. */
export function fuzzProblem(status: number, headers: Headers, text: string, q: Pick<FuzzRequest, 'ownErrors' | 'notJson'> = {}): string | null {
  if (status >= 500) return `status ${status}: ${text.slice(0, 200)}`;
  if (headers.get('x-attribution') !== ATTRIBUTION_HEADER) return 'no X-Attribution header';
  const ownErrors = !!q.ownErrors;
  if (status >= 400 && !q.notJson?.includes(status)) {
    let b: any;
    try { b = JSON.parse(text); } catch { return `error ${status} is not JSON: ${text.slice(0, 100)}`; }
    // A compat operation's own error shape is checked against its declared response schema instead.
    if (ownErrors) return b && typeof b === 'object' ? null : `error ${status} is not a JSON object`;
    if (typeof b?.error?.code !== 'string' || typeof b?.error?.message !== 'string') return `error ${status} lacks the envelope: ${text.slice(0, 100)}`;
  }
  return null;
}

/** Sends one request over fetch (undici), which sends the path as given. */
export async function send(base: string, q: FuzzRequest): Promise<{ status: number; headers: Headers; text: string }> {
  const r = await fetch(base + q.path, { method: q.method, headers: q.headers, ...(q.body !== undefined ? { body: q.body } : {}) });
  return { status: r.status, headers: r.headers, text: await r.text() };
}
