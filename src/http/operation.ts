// Declared operations: a route's query, path and body schemas are compiled once, at start, into
// one validator per route (ajv, as fastify does), and run before the handler. A handler reads
// `req.q` (typed, coerced, defaults applied, aliases resolved) and `req.body` (validated); it never
// parses a parameter itself. The same declarations feed the OpenAPI document (openapi.ts).
//
// Query values arrive as strings. Each declared parameter's wire schema (what OpenAPI shows) says
// how to coerce it: integer/number → Number, boolean → true/false/1/0, array → split on
// `x-separator` (default ","), and the string format `latlng` ("LAT,LNG") → [lat, lng]. A value
// that does not coerce stays a string, so ajv's type check rejects it with the parameter's name.
import Ajv2020Module, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { HttpError, type Req, type RouteDef } from './types.ts';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type Schema = Record<string, unknown>;

export interface QueryParam {
  /** Wire schema of the value as it appears in the URL (type, enum, minimum, format, default…). */
  schema: Schema;
  required?: boolean;
  description?: string;
  /** Other names clients may use for this parameter (e.g. `address` for `q`). */
  aliases?: string[];
}

export interface Declaration {
  /** One line for the OpenAPI document and the reference page. */
  summary: string;
  description?: string;
  /** Group in the reference page: geo, routing, maps, logistics, compat, … */
  tag?: string;
  params?: Record<string, QueryParam>;
  query?: Record<string, QueryParam>;
  /** One parameter that carries two: `location=LAT,LNG` → lat and lng. */
  pairAliases?: Record<string, [string, string]>;
  /** JSON Schema of the request body. */
  body?: Schema;
  /** Response bodies by status. Error statuses share the error envelope unless given a schema. */
  responses: Record<number, { description: string; schema?: Schema; contentType?: string }>;
  /** Working requests (the first is the auth-matrix and fuzz seed); each answers 2xx with a key holding the scope. */
  examples: { query?: string; body?: unknown; params?: Record<string, string>; summary?: string }[];
}

/** Builders for the usual wire schemas, so a limit is one constant where it is declared. */
export const Q = {
  int: (o: { min?: number; max?: number; default?: number } = {}): Schema => ({ type: 'integer', ...range(o) }),
  num: (o: { min?: number; max?: number; default?: number } = {}): Schema => ({ type: 'number', ...range(o) }),
  str: (o: { maxLength?: number; minLength?: number; pattern?: string; default?: string } = {}): Schema => ({ type: 'string', ...o }),
  bool: (def?: boolean): Schema => ({ type: 'boolean', ...(def === undefined ? {} : { default: def }) }),
  enum: (values: readonly string[], def?: string): Schema => ({ type: 'string', enum: [...values], ...(def === undefined ? {} : { default: def }) }),
  latlng: (): Schema => ({ type: 'string', format: 'latlng', examples: ['-6.7924,39.2083'] }),
  /** "LAT,LNG;LAT,LNG…" (`|` also accepted), at most `max` points. */
  latlngList: (max: number): Schema => ({ type: 'array', 'x-separator': ';', items: { type: 'string', format: 'latlng' }, maxItems: max }),
  list: (items: Schema, o: { max?: number; separator?: string } = {}): Schema => ({
    type: 'array', items, ...(o.max ? { maxItems: o.max } : {}), ...(o.separator ? { 'x-separator': o.separator } : {}),
  }),
  country: (): Schema => ({ type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code', examples: ['KE'] }),
};

function range(o: { min?: number; max?: number; default?: number }): Schema {
  return {
    ...(o.min === undefined ? {} : { minimum: o.min }),
    ...(o.max === undefined ? {} : { maximum: o.max }),
    ...(o.default === undefined ? {} : { default: o.default }),
  };
}

const LATLNG = /^\s*([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)\s*$/;
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

// CommonJS packages: their default export sits one level down under NodeNext resolution.
const Ajv2020 = (Ajv2020Module as unknown as { default: typeof Ajv2020Module }).default ?? Ajv2020Module;
const addFormats = (addFormatsModule as unknown as { default: typeof addFormatsModule }).default ?? addFormatsModule;

export const ajv: InstanceType<typeof Ajv2020Module.default> = new (Ajv2020 as any)({ allErrors: false, strict: false, useDefaults: true, coerceTypes: false });
(addFormats as any)(ajv);
ajv.addFormat('latlng', { type: 'string', validate: (s: string) => latlngOf(s) !== null });
ajv.addKeyword({ keyword: 'x-separator', schemaType: 'string' });

/** "LAT,LNG" → [lat, lng] with both in range, else null. */
export function latlngOf(s: string): [number, number] | null {
  const m = LATLNG.exec(s);
  if (!m) return null;
  const lat = Number(m[1]), lng = Number(m[2]);
  return lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 ? [lat, lng] : null;
}

/** One raw query string value → the JSON value its wire schema describes (or the string, to be rejected). */
function coerce(schema: Schema, raw: string): unknown {
  const v = raw.trim();
  switch (schema.type) {
    case 'integer':
    case 'number':
      return NUMBER.test(v) ? Number(v) : v;
    case 'boolean':
      return v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v;
    case 'array': {
      const sep = (schema['x-separator'] as string | undefined) ?? ',';
      const parts = sep === ';' ? v.split(/[;|]/) : v.split(sep);
      const items = (schema.items ?? { type: 'string' }) as Schema;
      return parts.map((p) => p.trim()).filter((p) => p !== '').map((p) => coerce(items, p));
    }
    default:
      return v;
  }
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

/** Compiles every declared route's validators; throws at start on a bad schema, never per request. */
export function compileRoutes(routes: RouteDef[]) {
  for (const r of routes) {
    if (!r.decl || compiled.has(r)) continue;
    const d = r.decl;
    const names = new Map<string, [string, QueryParam]>();
    for (const [k, p] of Object.entries(d.query ?? {})) {
      names.set(k, [k, p]);
      for (const a of p.aliases ?? []) names.set(a, [k, p]);
    }
    compiled.set(r, {
      names,
      query: d.query ? ajv.compile(objectSchema(d.query)) : undefined,
      params: d.params ? ajv.compile(objectSchema(d.params)) : undefined,
      body: d.body ? ajv.compile(d.body) : undefined,
    });
  }
}

/** `pings/3/lat` → `pings[3].lat`. */
function fieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra) parts.push(extra);
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

function describeError(e: ErrorObject): { field: string; why: string; missing: boolean } {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return { field: fieldPath(e.instancePath, String(p.missingProperty)), why: 'is required', missing: true };
  if (e.keyword === 'additionalProperties') return { field: fieldPath(e.instancePath, String(p.additionalProperty)), why: 'is not a known field', missing: false };
  const field = fieldPath(e.instancePath);
  switch (e.keyword) {
    case 'format': return { field, why: p.format === 'latlng' ? "must be 'LAT,LNG' in decimal degrees (latitude -90..90, longitude -180..180)" : `must be a valid ${p.format}`, missing: false };
    case 'enum': return { field, why: `must be one of ${(p.allowedValues as unknown[]).join(', ')}`, missing: false };
    case 'type': return { field, why: `must be ${p.type === 'integer' ? 'a whole number' : `of type ${p.type}`}`, missing: false };
    case 'minimum': return { field, why: `must be at least ${p.limit}`, missing: false };
    case 'maximum': return { field, why: `must be at most ${p.limit}`, missing: false };
    case 'maxItems': return { field, why: `has more than ${p.limit} items`, missing: false };
    case 'minItems': return { field, why: `needs at least ${p.limit} items`, missing: false };
    case 'maxLength': return { field, why: `is longer than ${p.limit} characters`, missing: false };
    case 'minLength': return { field, why: p.limit === 1 ? 'must not be empty' : `is shorter than ${p.limit} characters`, missing: false };
    case 'pattern': return { field, why: `has an invalid format`, missing: false };
    default: return { field, why: e.message ?? 'is invalid', missing: false };
  }
}

function reject(kind: 'Parameter' | 'Field', e: ErrorObject, rename?: (f: string) => string): HttpError {
  const d = describeError(e);
  const field = rename ? rename(d.field) : d.field;
  if (d.missing) return new HttpError(400, 'missing_parameter', `${kind} '${field}' is required.`);
  return new HttpError(400, 'invalid_parameter', `${kind} '${field}' ${d.why}.`);
}

/**
 * Validates a request against its route's declaration and fills `req.q` (and `req.body`, with
 * defaults). Throws HttpError 400 naming the parameter or field as the client spelled it.
 */
export function validateRequest(r: RouteDef, req: Req): void {
  const c = compiled.get(r);
  if (!c) return;
  const d = r.decl!;
  if (c.params) {
    if (!c.params(req.params)) throw reject('Parameter', c.params.errors![0]);
  }
  if (c.query) {
    const q: Record<string, unknown> = {};
    const spelled = new Map<string, string>();
    for (const [pair, [a, b]] of Object.entries(d.pairAliases ?? {})) {
      const v = req.query.get(pair);
      if (v === null || v.trim() === '') continue;
      const ll = latlngOf(v);
      if (!ll) throw new HttpError(400, 'invalid_parameter', `Parameter '${pair}' must be 'LAT,LNG' in decimal degrees (latitude -90..90, longitude -180..180).`);
      q[a] = ll[0]; q[b] = ll[1];
      spelled.set(a, pair); spelled.set(b, pair);
    }
    for (const [name, raw] of req.query) {
      if (raw.trim() === '') continue;
      const hit = c.names.get(name);
      if (!hit) continue; // unknown parameters are ignored, as the alt platform and OSRM do
      const [key, p] = hit;
      if (key in q) continue; // the first spelling given wins
      q[key] = coerce(p.schema, raw);
      spelled.set(key, name);
    }
    if (!c.query(q)) throw reject('Parameter', c.query.errors![0], (f) => {
      const head = f.split(/[.[]/)[0];
      return (spelled.get(head) ?? head) + f.slice(head.length);
    });
    for (const [k, p] of Object.entries(d.query ?? {})) if (q[k] !== undefined) q[k] = finish(p.schema, q[k]);
    req.q = q;
  }
  if (c.body) {
    if (req.body === undefined) throw new HttpError(400, 'missing_parameter', 'A JSON body is required (Content-Type: application/json).');
    if (!c.body(req.body)) {
      const e = c.body.errors![0];
      if (e.instancePath === '' && e.keyword === 'type') throw new HttpError(400, 'invalid_parameter', `The request body must be a JSON ${(e.params as { type: string }).type}.`);
      throw reject('Field', e);
    }
  }
}
