// Declared operations: a route's query, path and body schemas are compiled once, at start, into
// one validator per route (ajv, as fastify does), and run before the handler. A handler reads
// `req.q` (typed, coerced, defaults applied, aliases resolved) and `req.body` (validated); it never
// parses a parameter itself. The same declarations feed the OpenAPI document (openapi.ts).
//
// Query values arrive as strings. Each declared parameter's wire schema (what OpenAPI shows) says
// how to coerce it: integer/number → Number, boolean → true/false/1/0, array → split on
// `x-separator` (default ","), and the string format `latlng` ("LAT,LNG") → [lat, lng]. A value
// that does not coerce stays a string, so ajv's type check rejects it with the parameter's name.
// A `oneOf` takes the first branch the value coerces to (order them: integer before boolean, so
// `1` is a number; an enum before a list, so `all` is the word).
import Ajv2020Module, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { InvalidRequest, type Req, type RouteDef } from './types.ts';
import type { Schema, QueryParam } from './declaration.ts';
import { latlngOf } from '../core/points.ts';

// Declarations and builders live in declaration.ts; re-exported for the code that validates.
export { latlngOf } from '../core/points.ts';
export { Q, B, type Schema, type QueryParam, type Declaration, type Example } from './declaration.ts';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

// CommonJS packages: their default export sits one level down under NodeNext resolution.
const Ajv2020 = (Ajv2020Module as unknown as { default: typeof Ajv2020Module }).default ?? Ajv2020Module;
const addFormats = (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;

export const ajv: InstanceType<typeof Ajv2020Module.default> = new (Ajv2020 as any)({ allErrors: false, strict: false, useDefaults: true, coerceTypes: false, verbose: true });
(addFormats as any)(ajv);
ajv.addFormat('latlng', { type: 'string', validate: (s: string) => latlngOf(s) !== null });
// x-separator, x-keep-empty, x-normalise, x-verbatim and x-hint are annotations read by this file (x-form by
// openapi.ts); with strict off, ajv ignores them.
// Control characters break logs and CSV exports; NUL and unpaired surrogates cannot be stored at all.
const BAD_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
ajv.addFormat('text', { type: 'string', validate: (s: string) => !BAD_TEXT.test(s) });
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function normalise(schema: Schema, v: string): string {
  switch (schema['x-normalise']) {
    case 'lower': return v.toLowerCase();
    case 'upper': return v.toUpperCase();
    case 'slug': return v.toLowerCase().replace(/[\s-]+/g, '_');
    default: return v;
  }
}

/** One raw query string value → the JSON value its wire schema describes (or the string, to be rejected). */
function coerce(schema: Schema, raw: string): unknown {
  const v = raw.trim();
  switch (schema.type) {
    case 'integer':
    case 'number':
      return NUMBER.test(v) ? Number(v) : v;
    case 'boolean': {
      const l = v.toLowerCase();
      return l === '' || l === 'true' || l === '1' || l === 'yes' ? true : l === 'false' || l === '0' || l === 'no' ? false : v;
    }
    case 'array': {
      const sep = (schema['x-separator'] as string | undefined) ?? ',';
      const parts = (sep === ';' ? v.split(/[;|]/) : v.split(sep)).map((p) => p.trim());
      const items = (schema.items ?? { type: 'string' }) as Schema;
      // A positional list (one element per coordinate) keeps its empty elements, as null.
      if (schema['x-keep-empty']) return parts.map((p) => (p === '' ? null : coerce(items, p)));
      return parts.filter((p) => p !== '').map((p) => coerce(items, p));
    }
    default:
      if (Array.isArray(schema.oneOf)) return coerceOneOf(schema.oneOf as Schema[], v);
      return normalise(schema, v);
  }
}

/** The first branch that reads the value: a number, a boolean word, a list, a listed word or any string. */
function coerceOneOf(branches: Schema[], v: string): unknown {
  for (const b of branches) {
    const c = coerce(b, v);
    if (typeof c !== 'string') {
      // a lenient boolean reads '' as true; only the words themselves choose a boolean branch here
      if (b.type === 'boolean' && !/^(true|false|yes|no|1|0)$/i.test(v)) continue;
      return c;
    }
    if (Array.isArray(b.enum) ? b.enum.includes(c) : b.type === 'string') return c;
  }
  return v;
}

/**
 * Before body validation, following the schema: strings are trimmed and normalised, and an empty
 * string or a null in a property whose schema does not admit null counts as absent (so a required
 * one is reported missing). Iterative over the data actually present.
 */
function prepare(schema: Schema, data: unknown): void {
  const stack: [Schema, unknown][] = [[schema, data]];
  while (stack.length) {
    const [s, d] = stack.pop()!;
    if (d === null || typeof d !== 'object') continue;
    if (Array.isArray(d)) {
      const items = s.items as Schema | undefined;
      if (!items) continue;
      // only items that hold strings or members to prepare are visited (not a matrix's 1,000 points)
      const strings = typesOf(items).includes('string'), inner = !!(items.items || items.properties);
      for (let i = 0; i < d.length; i++) {
        if (typeof d[i] === 'string' && strings) d[i] = normalise(items, d[i].trim());
        else if (inner) stack.push([items, d[i]]);
      }
      continue;
    }
    const props = s.properties as Record<string, Schema> | undefined;
    if (!props) continue;
    const o = d as Record<string, unknown>;
    for (const [k, ps] of Object.entries(props)) {
      if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
      const v = o[k];
      const types = typesOf(ps);
      if (v === null && !types.includes('null')) delete o[k];
      else if (typeof v === 'string' && types.includes('string') && !ps['x-verbatim']) {
        const t = normalise(ps, v.trim());
        if (t === '') delete o[k]; else o[k] = t;
      } else stack.push([ps, v]);
    }
  }
}

const typesOf = (s: Schema): unknown[] => (Array.isArray(s.type) ? s.type : [s.type]);

/**
 * Whether any string (value or member name) holds an unpaired UTF-16 surrogate. Builds nothing: a
 * path for every value of a matrix's 2,000 coordinates was ~110 KB of garbage a request. The body
 * nests at most MAX_JSON_DEPTH levels (json-depth.ts), so the recursion is bounded.
 */
function hasLoneSurrogate(d: unknown): boolean {
  if (typeof d === 'string') return LONE_SURROGATE.test(d);
  if (d === null || typeof d !== 'object') return false;
  if (Array.isArray(d)) {
    for (let i = 0; i < d.length; i++) if (hasLoneSurrogate(d[i])) return true;
    return false;
  }
  for (const k in d) if (LONE_SURROGATE.test(k) || hasLoneSurrogate((d as Record<string, unknown>)[k])) return true;
  return false;
}

/** The path of the first string (value or member name) holding an unpaired UTF-16 surrogate, or null. */
function loneSurrogate(data: unknown): string | null {
  if (!hasLoneSurrogate(data)) return null;
  const stack: [unknown, string][] = [[data, '']];
  while (stack.length) {
    const [d, path] = stack.pop()!;
    if (typeof d === 'string') { if (LONE_SURROGATE.test(d)) return path; continue; }
    if (d === null || typeof d !== 'object') continue;
    if (Array.isArray(d)) { for (let i = 0; i < d.length; i++) stack.push([d[i], `${path}[${i}]`]); continue; }
    for (const [k, v] of Object.entries(d)) {
      const p = path ? `${path}.${k}` : k;
      if (LONE_SURROGATE.test(k)) return p;
      stack.push([v, p]);
    }
  }
  return null;
}

/** After validation: latlng strings become [lat, lng] pairs, wherever they sit. */
function finish(schema: Schema, v: unknown): unknown {
  if (schema.format === 'latlng' && typeof v === 'string') return latlngOf(v);
  if (schema.type === 'array' && Array.isArray(v) && schema.items) return v.map((x) => finish(schema.items as Schema, x));
  return v;
}

interface Compiled {
  query?: ValidateFunction;
  params?: ValidateFunction;
  body?: ValidateFunction;
  /** Query names a client may send → [canonical name, wire schema]. */
  names: Map<string, [string, QueryParam]>;
}

function objectSchema(ps: Record<string, QueryParam>): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [k, p] of Object.entries(ps)) {
    properties[k] = p.schema;
    if (p.required) required.push(k);
  }
  return { type: 'object', properties, required };
}

const compiled = new WeakMap<RouteDef, Compiled>();

/** Compiles every declared route's validators (a bad schema throws; test/foundation/openapi compiles them all). */
export function compileRoutes(routes: RouteDef[]) {
  for (const r of routes) compileRoute(r);
}

/**
 * compileRoutes in slices of about sliceMs, letting the event loop run in between. The server
 * listens without them (~0.3 s of Ajv code generation) and compiles them this way a moment later;
 * a request that comes first compiles its own route's (validateRequest).
 */
export async function compileRoutesYielding(routes: RouteDef[], sliceMs = 4): Promise<void> {
  let sliceStart = performance.now();
  for (const r of routes) {
    compileRoute(r);
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise((res) => setImmediate(res));
      sliceStart = performance.now();
    }
  }
}

function compileRoute(r: RouteDef): Compiled | undefined {
  if (!r.decl) return undefined;
  const done = compiled.get(r);
  if (done) return done;
  const d = r.decl;
  const names = new Map<string, [string, QueryParam]>();
  for (const [k, p] of Object.entries(d.query ?? {})) {
    names.set(k, [k, p]);
    for (const a of p.aliases ?? []) names.set(a, [k, p]);
  }
  const c: Compiled = {
    names,
    query: d.query ? ajv.compile(objectSchema(d.query)) : undefined,
    params: d.params ? ajv.compile(objectSchema(d.params)) : undefined,
    body: d.body ? ajv.compile(d.body) : undefined,
  };
  compiled.set(r, c);
  return c;
}

/** `pings/3/lat` → `pings[3].lat`. */
function fieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra) parts.push(extra);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'a whole number', number: 'a number', string: 'a string', object: 'an object', array: 'an array', boolean: 'true or false',
  'string,integer': 'a string or a whole number',
};

function describeError(e: ErrorObject): { field: string; why: string; missing: boolean } {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return { field: fieldPath(e.instancePath, String(p.missingProperty)), why: 'is required', missing: true };
  if (e.keyword === 'additionalProperties') return { field: fieldPath(e.instancePath, String(p.additionalProperty)), why: 'is not a known field', missing: false };
  const field = fieldPath(e.instancePath);
  switch (e.keyword) {
    case 'format': return { field, why: p.format === 'text' ? 'contains control characters or unpaired UTF-16 surrogates' : p.format === 'latlng' ? "must be 'LAT,LNG' in decimal degrees (latitude -90..90, longitude -180..180)" : `must be a valid ${p.format}`, missing: false };
    case 'enum': return { field, why: `must be one of ${(p.allowedValues as unknown[]).join(', ')}`, missing: false };
    case 'type': return { field, why: `must be ${TYPE_NAMES[String(p.type)] ?? `of type ${String(p.type).replace(',', ' or ')}`}`, missing: false };
    case 'minimum': return { field, why: `must be at least ${p.limit}`, missing: false };
    case 'maximum': return { field, why: `must be at most ${p.limit}`, missing: false };
    case 'exclusiveMinimum': return { field, why: `must be greater than ${p.limit}`, missing: false };
    case 'exclusiveMaximum': return { field, why: `must be less than ${p.limit}`, missing: false };
    case 'oneOf': case 'anyOf': return { field, why: `must be ${alternatives(e.schema as Schema[])}`, missing: false };
    case 'maxItems': return { field, why: `may hold at most ${p.limit} items`, missing: false };
    case 'minItems': return { field, why: `must hold at least ${p.limit} item(s)`, missing: false };
    case 'const': return { field, why: `must be ${JSON.stringify(p.allowedValue)}`, missing: false };
    case 'maxLength': return { field, why: `is longer than ${p.limit} characters`, missing: false };
    case 'minLength': return { field, why: p.limit === 1 ? 'must not be empty' : `is shorter than ${p.limit} characters`, missing: false };
    case 'pattern': return { field, why: (e.parentSchema?.['x-hint'] as string | undefined) ?? 'has an invalid format', missing: false };
    default: return { field, why: e.message ?? 'is invalid', missing: false };
  }
}

/** "a whole number, true or false" from the branches of a oneOf. */
function alternatives(branches: Schema[]): string {
  const words = branches.flatMap((b): string[] => {
    if (b.type === 'null') return [];
    if (b.type === 'boolean') return ['true', 'false'];
    if (Array.isArray(b.enum)) return (b.enum as unknown[]).filter((x) => x !== '').map((x) => `'${String(x)}'`);
    if (b.type === 'array') return [`a list, each ${b.items ? alternatives([b.items as Schema]) : 'a value'}`];
    if (Array.isArray(b.oneOf)) return [alternatives(b.oneOf as Schema[])];
    return [TYPE_NAMES[String(b.type)] ?? String(b.type)];
  });
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : words[0] ?? 'valid';
}

/** A oneOf that only admits null beside one schema: its failures are that schema's. */
const nullable = (e: ErrorObject) => {
  const bs = e.schema as Schema[];
  return bs.length === 2 && bs.some((b) => b.type === 'null');
};

/**
 * ajv reports a failed oneOf after the failures of each branch; the oneOf names the choice, so it
 * is the one reported (a branch's own "must be a whole number" would mislead), unless it only
 * makes a value nullable, whose other branch says best what is wrong.
 */
function firstError(errors: ErrorObject[]): ErrorObject {
  const choice = errors.find((e) => (e.keyword === 'oneOf' || e.keyword === 'anyOf') && !nullable(e) && errors[0].instancePath.startsWith(e.instancePath));
  return choice ?? errors[0];
}

function reject(kind: 'Parameter' | 'Field', part: InvalidRequest['part'], errors: ErrorObject[], rename?: (f: string) => string): InvalidRequest {
  const e = firstError(errors);
  const d = describeError(e);
  const field = rename ? rename(d.field) : d.field;
  return new InvalidRequest(d.missing ? 'missing_parameter' : 'invalid_parameter', `${kind} '${field}' ${d.why}.`, part, field, e.keyword);
}

/**
 * Validates a request against its route's declaration and fills `req.q` (and `req.body`, with
 * defaults). Throws InvalidRequest (a 400) naming the parameter or field as the client spelled it.
 */
export function validateRequest(r: RouteDef, req: Req): void {
  const c = compileRoute(r); // compiled already, but for a request that came before the warm-up reached its route
  if (!c) return;
  const d = r.decl!;
  // A path segment names a resource: control characters or a lone surrogate in one never match
  // anything, and PostgreSQL refuses NUL in text — answered 400 before any lookup.
  for (const [k, v] of Object.entries(req.params)) {
    if (BAD_TEXT.test(v)) throw new InvalidRequest('invalid_parameter', `Parameter '${k}' contains control characters or unpaired UTF-16 surrogates.`, 'path', k, 'format');
  }
  if (c.params) {
    if (!c.params(req.params)) throw reject('Parameter', 'path', c.params.errors!);
  }
  if (c.query) {
    const q: Record<string, unknown> = {};
    const spelled = new Map<string, string>();
    for (const [pair, [a, b]] of Object.entries(d.pairAliases ?? {})) {
      const v = req.query.get(pair);
      if (v === null || v.trim() === '') continue;
      const ll = latlngOf(v);
      if (!ll) throw new InvalidRequest('invalid_parameter', `Parameter '${pair}' must be 'LAT,LNG' in decimal degrees (latitude -90..90, longitude -180..180).`, 'query', pair, 'format');
      q[a] = ll[0]; q[b] = ll[1];
      spelled.set(a, pair); spelled.set(b, pair);
    }
    for (const [name, raw] of req.query) {
      const hit = c.names.get(name);
      if (!hit) continue; // unknown parameters are ignored, as the alt platform and OSRM do
      const [key, p] = hit;
      // An empty value counts as absent, except a boolean's: `?trail` alone turns it on.
      if (raw.trim() === '' && p.schema.type !== 'boolean') continue;
      if (key in q) continue; // the first spelling given wins
      q[key] = coerce(p.schema, raw);
      spelled.set(key, name);
    }
    if (!c.query(q)) throw reject('Parameter', 'query', c.query.errors!, (f) => {
      const head = f.split(/[.[]/)[0];
      return (spelled.get(head) ?? head) + f.slice(head.length);
    });
    for (const [k, p] of Object.entries(d.query ?? {})) if (q[k] !== undefined) q[k] = finish(p.schema, q[k]);
    req.q = q;
  }
  if (c.body) {
    if (req.body === undefined) throw new InvalidRequest('missing_parameter', 'A JSON body is required (Content-Type: application/json).', 'body', '', 'required');
    const lone = loneSurrogate(req.body);
    if (lone !== null) throw new InvalidRequest('invalid_parameter', lone ? `Field '${lone}' contains an unpaired UTF-16 surrogate.` : 'The request body contains an unpaired UTF-16 surrogate.', 'body', lone, 'format');
    prepare(d.body!, req.body);
    if (!c.body(req.body)) {
      const e = c.body.errors![0];
      if (e.instancePath === '' && e.keyword === 'type') throw new InvalidRequest('invalid_parameter', `The request body must be a JSON ${(e.params as { type: string }).type}.`, 'body', '', 'type');
      throw reject('Field', 'body', c.body.errors!);
    }
  }
}
