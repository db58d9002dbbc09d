// A route's declaration: the schemas of its path, query and body, its responses and examples,
// and the builders for the usual wire schemas. Pure data: operation.ts compiles it into validators,
// openapi.ts prints it, and nothing here depends on a request.

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type Schema = Record<string, unknown>;

// ---- the TypeScript type of a validated value, read from its declaration (as fastify's type
// providers do). The builders below brand each schema with the type its validated value has, and
// whether a default fills it in; plain schema literals are read by their `type`. Types only: the
// brand is never present at run time.

declare const VALUE: unique symbol;
/** A schema whose validated value has type V; D: whether a default always fills it in. */
export type Typed<V, D extends boolean = false> = Schema & { readonly [VALUE]?: [V, D] };

type Prim<T> = T extends 'integer' | 'number' ? number : T extends 'string' ? string : T extends 'boolean' ? boolean : T extends 'null' ? null : unknown;
type ObjectOf<P, R> = { -readonly [K in keyof P as K extends R ? K : never]: ValueOf<P[K]> } & { -readonly [K in keyof P as K extends R ? never : K]?: ValueOf<P[K]> };
/** The value a schema validates: from its brand, else from a literal `type` (objects, arrays, unions of types, oneOf). */
export type ValueOf<S> =
  S extends { readonly [VALUE]?: [infer V, boolean] } ? (unknown extends V ? Literal<S> : V) : Literal<S>;
type Literal<S> =
  S extends { oneOf: readonly (infer O)[] } ? ValueOf<O>
  : S extends { enum: readonly (infer E extends string)[] } ? E
  : S extends { type: 'object'; properties: infer P } ? ObjectOf<P, S extends { required: readonly (infer R)[] } ? R : never>
  : S extends { type: 'array'; prefixItems: readonly unknown[] } ? number[]
  : S extends { type: 'array'; items: infer I } ? ValueOf<I>[]
  : S extends { type: readonly (infer T)[] } ? Prim<T>
  : S extends { type: infer T } ? Prim<T>
  : unknown;
type Defaulted<S> = S extends { readonly [VALUE]?: [unknown, true] } ? true : S extends { default: unknown } ? true : false;

/** `req.q` of a declaration's query: required or defaulted parameters are present, others may be undefined. */
export type QueryOf<Q> = Q extends Record<string, QueryParam>
  ? string extends keyof Q ? Record<string, any> // a route not declared through route(): untyped
  : { -readonly [K in keyof Q]: Q[K] extends { required: true } ? ValueOf<Q[K]['schema']> : Defaulted<Q[K]['schema']> extends true ? ValueOf<Q[K]['schema']> : ValueOf<Q[K]['schema']> | undefined }
  : Record<string, never>;
/** `req.params` of a declaration's path parameters: each named segment, as the string sent. */
export type ParamsOf<P> = P extends Record<string, QueryParam>
  ? string extends keyof P ? Record<string, string> : { -readonly [K in keyof P]: string }
  : Record<string, string>;
/** `req.body` of a declaration's body schema. */
export type BodyOf<S> = S extends Schema
  ? S extends { readonly [VALUE]?: [infer V, boolean] } ? (unknown extends V ? (string extends keyof S ? any : Literal<S>) : V) : Literal<S>
  : undefined;

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
export interface Example {
  query?: string; body?: unknown; params?: Record<string, string>; summary?: string; after?: string;
  /** Sent with a test key (svc_test_): the operation refuses live keys (the sandbox clock). */
  testKey?: boolean;
}

/** Builders for the usual wire schemas, so a limit is one constant where it is declared. */
type WithDefault<O> = O extends { default: unknown } ? true : false;
type Range = { min?: number; max?: number; default?: number };

export const Q = {
  int: <O extends Range = {}>(o: O = {} as O): Typed<number, WithDefault<O>> => ({ type: 'integer', ...range(o) }),
  num: <O extends Range = {}>(o: O = {} as O): Typed<number, WithDefault<O>> => ({ type: 'number', ...range(o) }),
  str: <O extends { maxLength?: number; minLength?: number; pattern?: string; default?: string; hint?: string } = {}>(o: O = {} as O): Typed<string, WithDefault<O>> => {
    const { hint, ...rest } = o;
    return { type: 'string', ...rest, ...(hint ? { 'x-hint': hint } : {}) };
  },
  /** `?flag` alone, 1/true/yes and 0/false/no. */
  bool: <D extends boolean | undefined = undefined>(def?: D): Typed<boolean, D extends boolean ? true : false> => ({ type: 'boolean', ...(def === undefined ? {} : { default: def }) }),
  /** Matched case-insensitively (the value is lower-cased before the check). */
  enum: <V extends string, D extends string | undefined = undefined>(values: readonly V[], def?: D): Typed<V, D extends string ? true : false> => ({ type: 'string', enum: [...values], 'x-normalise': 'lower', ...(def === undefined ? {} : { default: def }) }),
  latlng: (): Typed<[number, number]> => ({ type: 'string', format: 'latlng', examples: ['-6.7924,39.2083'] }),
  /** "LAT,LNG;LAT,LNG…" (`|` also accepted), at most `max` points. */
  latlngList: (max: number): Typed<[number, number][]> => ({ type: 'array', 'x-separator': ';', items: { type: 'string', format: 'latlng' }, maxItems: max }),
  list: <I extends Schema>(items: I, o: { max?: number; separator?: string } = {}): Typed<ValueOf<I>[]> => ({
    type: 'array', items, ...(o.max ? { maxItems: o.max } : {}), ...(o.separator ? { 'x-separator': o.separator } : {}),
  }),
  country: (): Typed<string> => ({ type: 'string', pattern: '^[A-Z]{2}$', 'x-normalise': 'upper', 'x-hint': 'must be an ISO 3166-1 alpha-2 country code such as NG', description: 'ISO 3166-1 alpha-2 code', examples: ['KE'] }),
};

/**
 * Builders for body fields. Strings are trimmed before validation and an empty (or null) optional
 * field counts as absent; `text` refuses control characters and unpaired UTF-16 surrogates, which
 * PostgreSQL cannot store in text or jsonb (a NUL, a lone "\ud800").
 */
export const B = {
  text: (max: number, o: { min?: number; pattern?: string; hint?: string; description?: string } = {}): Typed<string> => ({
    type: 'string', format: 'text', minLength: o.min ?? 1, maxLength: max,
    ...(o.pattern ? { pattern: o.pattern } : {}), ...(o.hint ? { 'x-hint': o.hint } : {}), ...(o.description ? { description: o.description } : {}),
  }),
  num: (o: { min?: number; max?: number; description?: string } = {}): Typed<number> => ({ type: 'number', ...range(o), ...(o.description ? { description: o.description } : {}) }),
  int: (o: { min?: number; max?: number; description?: string } = {}): Typed<number> => ({ type: 'integer', ...range(o), ...(o.description ? { description: o.description } : {}) }),
  bool: (): Typed<boolean> => ({ type: 'boolean' }),
  /** Matched case-insensitively. */
  enum: <V extends string>(values: readonly V[]): Typed<V> => ({ type: 'string', enum: [...values], 'x-normalise': 'lower' }),
  obj: <P extends Record<string, Schema>, R extends keyof P & string = never>(properties: P, required: R[] = [], o: { description?: string } = {}): Typed<ObjectOf<P, R>> => ({
    type: 'object', properties, ...(required.length ? { required } : {}), ...(o.description ? { description: o.description } : {}),
  }),
  arr: <I extends Schema>(items: I, o: { min?: number; max: number }): Typed<ValueOf<I>[]> => ({ type: 'array', items, ...(o.min ? { minItems: o.min } : {}), maxItems: o.max }),
};

/**
 * Builders for HTML form bodies (application/x-www-form-urlencoded, read by the server into an
 * object whose repeated names are lists). Every field is optional and either a string or, for a
 * name sent more than once (checkboxes), a list of strings: the handler words its own refusals.
 */
export const F = {
  /** A field; `verbatim` keeps surrounding spaces (a password). */
  field: (o: { verbatim?: boolean } = {}): Typed<string | string[]> => ({ type: ['string', 'array'], items: { type: 'string' }, ...(o.verbatim ? { 'x-verbatim': true } : {}) }),
  form: <P extends Record<string, Schema>>(fields: P): Typed<ObjectOf<P, never>> => ({ type: 'object', 'x-form': true, properties: fields }),
};

function range(o: { min?: number; max?: number; default?: number }): Schema {
  return {
    ...(o.min === undefined ? {} : { minimum: o.min }),
    ...(o.max === undefined ? {} : { maximum: o.max }),
    ...(o.default === undefined ? {} : { default: o.default }),
  };
}
