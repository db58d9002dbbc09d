// A route's declaration: the schemas of its path, query and body, its responses and examples,
// and the builders for the usual wire schemas. Pure data: operation.ts compiles it into validators,
// openapi.ts prints it, and nothing here depends on a request.

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
  /** 'admin': an operator endpoint behind `Authorization: Bearer $ADMIN_TOKEN` (the route's scope is null). */
  auth?: 'admin';
  params?: Record<string, QueryParam>;
  query?: Record<string, QueryParam>;
  /** One parameter that carries two: `location=LAT,LNG` → lat and lng. */
  pairAliases?: Record<string, [string, string]>;
  /** JSON Schema of the request body. */
  body?: Schema;
  /** Response bodies by status. Error statuses share the error envelope unless given a schema. */
  responses: Record<number, { description: string; schema?: Schema; contentType?: string }>;
  /** Working requests (the first is the auth-matrix and fuzz seed); each answers 2xx with a key holding the scope. */
  examples: Example[];
}

/**
 * A working request. `after` names another operation ("POST /stops") whose first example runs
 * first; `{{path}}` in params, query or body is then replaced by that value of its JSON answer
 * (`{{stop.id}}`), so examples that need a resource are still self-contained.
 */
export interface Example { query?: string; body?: unknown; params?: Record<string, string>; summary?: string; after?: string }

/** Builders for the usual wire schemas, so a limit is one constant where it is declared. */
export const Q = {
  int: (o: { min?: number; max?: number; default?: number } = {}): Schema => ({ type: 'integer', ...range(o) }),
  num: (o: { min?: number; max?: number; default?: number } = {}): Schema => ({ type: 'number', ...range(o) }),
  str: (o: { maxLength?: number; minLength?: number; pattern?: string; default?: string; hint?: string } = {}): Schema => {
    const { hint, ...rest } = o;
    return { type: 'string', ...rest, ...(hint ? { 'x-hint': hint } : {}) };
  },
  /** `?flag` alone, 1/true/yes and 0/false/no. */
  bool: (def?: boolean): Schema => ({ type: 'boolean', ...(def === undefined ? {} : { default: def }) }),
  /** Matched case-insensitively (the value is lower-cased before the check). */
  enum: (values: readonly string[], def?: string): Schema => ({ type: 'string', enum: [...values], 'x-normalise': 'lower', ...(def === undefined ? {} : { default: def }) }),
  latlng: (): Schema => ({ type: 'string', format: 'latlng', examples: ['-6.7924,39.2083'] }),
  /** "LAT,LNG;LAT,LNG…" (`|` also accepted), at most `max` points. */
  latlngList: (max: number): Schema => ({ type: 'array', 'x-separator': ';', items: { type: 'string', format: 'latlng' }, maxItems: max }),
  list: (items: Schema, o: { max?: number; separator?: string } = {}): Schema => ({
    type: 'array', items, ...(o.max ? { maxItems: o.max } : {}), ...(o.separator ? { 'x-separator': o.separator } : {}),
  }),
  country: (): Schema => ({ type: 'string', pattern: '^[A-Z]{2}$', 'x-normalise': 'upper', 'x-hint': 'must be an ISO 3166-1 alpha-2 country code such as NG', description: 'ISO 3166-1 alpha-2 code', examples: ['KE'] }),
};

/**
 * Builders for body fields. Strings are trimmed before validation and an empty (or null) optional
 * field counts as absent; `text` refuses control characters and unpaired UTF-16 surrogates, which
 * PostgreSQL cannot store in text or jsonb (a NUL, a lone "\ud800").
 */
export const B = {
  text: (max: number, o: { min?: number; pattern?: string; hint?: string; description?: string } = {}): Schema => ({
    type: 'string', format: 'text', minLength: o.min ?? 1, maxLength: max,
    ...(o.pattern ? { pattern: o.pattern } : {}), ...(o.hint ? { 'x-hint': o.hint } : {}), ...(o.description ? { description: o.description } : {}),
  }),
  num: (o: { min?: number; max?: number; description?: string } = {}): Schema => ({ type: 'number', ...range(o), ...(o.description ? { description: o.description } : {}) }),
  int: (o: { min?: number; max?: number; description?: string } = {}): Schema => ({ type: 'integer', ...range(o), ...(o.description ? { description: o.description } : {}) }),
  bool: (): Schema => ({ type: 'boolean' }),
  /** Matched case-insensitively. */
  enum: (values: readonly string[]): Schema => ({ type: 'string', enum: [...values], 'x-normalise': 'lower' }),
  obj: (properties: Record<string, Schema>, required: string[] = [], o: { description?: string } = {}): Schema => ({
    type: 'object', properties, ...(required.length ? { required } : {}), ...(o.description ? { description: o.description } : {}),
  }),
  arr: (items: Schema, o: { min?: number; max: number }): Schema => ({ type: 'array', items, ...(o.min ? { minItems: o.min } : {}), maxItems: o.max }),
};

function range(o: { min?: number; max?: number; default?: number }): Schema {
  return {
    ...(o.min === undefined ? {} : { minimum: o.min }),
    ...(o.max === undefined ? {} : { maximum: o.max }),
    ...(o.default === undefined ? {} : { default: o.default }),
  };
}
