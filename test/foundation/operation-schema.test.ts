// The schema side of declared operations (src/http/operation.ts): what the Q and B builders emit
// (OpenAPI shows these schemas verbatim), the formats and regular expressions behind them, how a
// body is prepared before validation (trim, normalise, empty or null as absent), unpaired
// surrogates, and the 400 message for every ajv keyword a declaration uses.
import { describe, it, expect } from 'vitest';
import { ajv, B, compileRoutes, latlngOf, Q, validateRequest, type Declaration, type Schema } from '../../src/http/operation.ts';
import { HttpError, type Req, type RouteDef } from '../../src/http/types.ts';

const route = (d: Partial<Declaration>, method: RouteDef['method'] = 'GET'): RouteDef =>
  ({ method, path: '/x', scope: 'any', handler: () => ({ json: {} }), decl: { summary: 's', responses: { 200: { description: 'ok' } }, examples: [{}], ...d } });
const req = (query = '', o: Partial<Req> = {}): Req => ({ method: 'GET', path: '/x', params: {}, query: new URLSearchParams(query), headers: {}, body: undefined, q: {}, key: null, ...o });

function fails(r: RouteDef, rq: Req): [number, string, string] {
  try { validateRequest(r, rq); } catch (e) { expect(e).toBeInstanceOf(HttpError); const h = e as HttpError; return [h.status, h.code, h.message]; }
  throw new Error('expected a 400');
}
const bad = (message: string) => [400, 'invalid_parameter', message];
const missing = (message: string) => [400, 'missing_parameter', message];

describe('query builders emit the wire schema OpenAPI shows', () => {
  it('numbers carry only the bounds and default given (0 included)', () => {
    expect(Q.int()).toStrictEqual({ type: 'integer' });
    expect(Q.int({ min: 1, max: 10, default: 5 })).toStrictEqual({ type: 'integer', minimum: 1, maximum: 10, default: 5 });
    expect(Q.int({ min: 0, max: 0, default: 0 })).toStrictEqual({ type: 'integer', minimum: 0, maximum: 0, default: 0 });
    expect(Q.num()).toStrictEqual({ type: 'number' });
    expect(Q.num({ max: 2.5 })).toStrictEqual({ type: 'number', maximum: 2.5 });
    expect(Q.num({ default: 3 })).toStrictEqual({ type: 'number', default: 3 });
  });
  it('strings, booleans and enums', () => {
    expect(Q.str()).toStrictEqual({ type: 'string' });
    expect(Q.str({ maxLength: 9, minLength: 2, pattern: '^a', default: 'ab', hint: 'must start with a' }))
      .toStrictEqual({ type: 'string', maxLength: 9, minLength: 2, pattern: '^a', default: 'ab', 'x-hint': 'must start with a' });
    expect(Q.str({ hint: '' })).toStrictEqual({ type: 'string' });
    expect(Q.bool()).toStrictEqual({ type: 'boolean' });
    expect(Q.bool(false)).toStrictEqual({ type: 'boolean', default: false });
    expect(Q.bool(true)).toStrictEqual({ type: 'boolean', default: true });
    const values = ['a', 'b'] as const;
    const e = Q.enum(values);
    expect(e).toStrictEqual({ type: 'string', enum: ['a', 'b'], 'x-normalise': 'lower' });
    expect(e.enum).not.toBe(values);
    expect(Q.enum(['a'], '')).toStrictEqual({ type: 'string', enum: ['a'], 'x-normalise': 'lower', default: '' });
  });
  it('coordinates, lists and countries', () => {
    expect(Q.latlng()).toStrictEqual({ type: 'string', format: 'latlng', examples: ['-6.7924,39.2083'] });
    expect(Q.latlngList(4)).toStrictEqual({ type: 'array', 'x-separator': ';', items: { type: 'string', format: 'latlng' }, maxItems: 4 });
    expect(Q.list({ type: 'integer' })).toStrictEqual({ type: 'array', items: { type: 'integer' } });
    expect(Q.list({ type: 'string' }, { max: 3, separator: '|' })).toStrictEqual({ type: 'array', items: { type: 'string' }, maxItems: 3, 'x-separator': '|' });
    expect(Q.country()).toStrictEqual({
      type: 'string', pattern: '^[A-Z]{2}$', 'x-normalise': 'upper', 'x-hint': 'must be an ISO 3166-1 alpha-2 country code such as NG',
      description: 'ISO 3166-1 alpha-2 code', examples: ['KE'],
    });
  });
});

describe('body builders', () => {
  it('text is a non-empty string of the text format unless told otherwise', () => {
    expect(B.text(10)).toStrictEqual({ type: 'string', format: 'text', minLength: 1, maxLength: 10 });
    expect(B.text(10, { min: 0, pattern: '^x', hint: 'must start with x', description: 'd' }))
      .toStrictEqual({ type: 'string', format: 'text', minLength: 0, maxLength: 10, pattern: '^x', 'x-hint': 'must start with x', description: 'd' });
    expect(B.text(5, { min: 3 })).toStrictEqual({ type: 'string', format: 'text', minLength: 3, maxLength: 5 });
  });
  it('numbers, booleans, enums, objects and arrays', () => {
    expect(B.num()).toStrictEqual({ type: 'number' });
    expect(B.num({ min: -1, max: 1, description: 'd' })).toStrictEqual({ type: 'number', minimum: -1, maximum: 1, description: 'd' });
    expect(B.int()).toStrictEqual({ type: 'integer' });
    expect(B.int({ min: 0, description: 'n' })).toStrictEqual({ type: 'integer', minimum: 0, description: 'n' });
    expect(B.bool()).toStrictEqual({ type: 'boolean' });
    expect(B.enum(['x', 'y'])).toStrictEqual({ type: 'string', enum: ['x', 'y'], 'x-normalise': 'lower' });
    const props = { a: B.bool() };
    expect(B.obj(props)).toStrictEqual({ type: 'object', properties: { a: { type: 'boolean' } } });
    expect(B.obj(props, ['a'], { description: 'o' })).toStrictEqual({ type: 'object', properties: { a: { type: 'boolean' } }, required: ['a'], description: 'o' });
    expect(B.arr(B.bool(), { max: 3 })).toStrictEqual({ type: 'array', items: { type: 'boolean' }, maxItems: 3 });
    expect(B.arr(B.bool(), { min: 2, max: 3 })).toStrictEqual({ type: 'array', items: { type: 'boolean' }, minItems: 2, maxItems: 3 });
  });
});

describe('formats', () => {
  const text = (s: string) => ajv.validate({ type: 'string', format: 'text' }, s);
  it('apply to strings only', () => {
    expect(ajv.validate({ format: 'text' }, ['\u0007'])).toBe(true);
    expect(ajv.validate({ format: 'latlng' }, [91, 0])).toBe(true);
  });
  it('text refuses control characters and unpaired surrogates, keeps tabs, newlines and pairs', () => {
    for (const ok of ['plain', 'a\tb', 'a\nb', 'a\r\nb', ' ', '\u0080é', '\ud83d\ude00', 'x\ud83d\ude00y', '\u0009\u000a\u000d']) expect(text(ok), JSON.stringify(ok)).toBe(true);
    for (const no of ['\u0000', 'a\u0001', '\u0008', '\u000b', '\u000c', '\u000e', '\u001f', 'z\u007f', '\ud800', 'a\ud800b', '\udbff', '\udc00', 'a\udfff', '\ude00\ud83d', '\ud83d\ud83d'])
      expect(text(no), JSON.stringify(no)).toBe(false);
  });
  it('latlng reads signed decimals with spaces around them only', () => {
    const ll = (s: string) => ajv.validate({ type: 'string', format: 'latlng' }, s);
    expect(ll('1,2')).toBe(true);
    expect(ll('91,2')).toBe(false);
    expect(latlngOf('1.5,-2.25')).toEqual([1.5, -2.25]);
    expect(latlngOf('\t1 ,\t2 ')).toEqual([1, 2]);
    expect(latlngOf('12,34')).toEqual([12, 34]);
    expect(latlngOf('12.345,6.789')).toEqual([12.345, 6.789]);
    expect(latlngOf('-0.5,+0.5')).toEqual([-0.5, 0.5]);
    for (const no of ['1.,2', '.5,2', '1,2.', 'x1,2', '1,2x', '1;2', '1 2', '--1,2', '1,,2', ',1', '1.2.3,4']) expect(latlngOf(no), no).toBeNull();
  });
});

// Built on first use, not at import: a schema builder that throws must fail a test, and a suite
// that fails to load counts as no test at all under Stryker.
let built: { QR: RouteDef; PATH: RouteDef; PATH_QUERY: RouteDef } | undefined;
function routes() {
  if (built) return built;
  const QR = route({
    query: {
      n: { schema: Q.num() },
      i: { schema: Q.int() },
      flag: { schema: Q.bool(false), aliases: ['f'] },
      cat: { schema: { type: 'string', 'x-normalise': 'slug' } },
      raw: { schema: { type: 'string', 'x-normalise': 'none' } },
      up: { schema: { type: 'string', 'x-normalise': 'upper' } },
      words: { schema: { type: 'array' } },
      semi: { schema: { type: 'array', 'x-separator': ';', items: { type: 'string' } } },
      pts: { schema: Q.latlngList(5), aliases: ['waypoints'] },
      bare: { schema: { type: 'array', format: 'latlng' } },
      pos: { schema: Q.latlng() },
      k: { schema: Q.str({ minLength: 3 }), required: true, aliases: ['key'] },
    },
  });
  const PATH = route({ params: { id: { schema: Q.str({ maxLength: 5 }), required: true } } });
  const PATH_QUERY = route({ params: { id: { schema: Q.str(), required: true } }, query: { a: { schema: Q.int({ default: 1 }) } } });
  compileRoutes([QR, PATH, PATH_QUERY]);
  return (built = { QR, PATH, PATH_QUERY });
}

describe('query coercion', () => {
  const q = (qs: string) => { const r = req(`k=abc&${qs}`); validateRequest(routes().QR, r); return r.q; };
  it('numbers: decimal and exponent forms, nothing else', () => {
    expect(q('n=.5').n).toBe(0.5);
    expect(q('n=.25').n).toBe(0.25);
    expect(q('n=12.5').n).toBe(12.5);
    expect(q('n=-123').n).toBe(-123);
    expect(q('n=5.').n).toBe(5);
    expect(q('n=+3').n).toBe(3);
    expect(q('n=-2E3').n).toBe(-2000);
    expect(q('n=1e-2').n).toBe(0.01);
    expect(q('n=1e%2B2').n).toBe(100);
    expect(q('n=%207%20').n).toBe(7);
    expect(q('i=12').i).toBe(12);
    for (const no of ['0x10', 'Infinity', '1e', 'e5', '1.2.3', 'x1', '1x', '1_000', '.', '-', '1e2.5', '1 2'])
      expect(fails(routes().QR, req(`k=abc&n=${encodeURIComponent(no)}`)), no).toEqual(bad("Parameter 'n' must be a number."));
  });
  it('booleans: the flag alone, 1/true/yes and 0/false/no in any case', () => {
    expect(q('').flag).toBe(false);
    expect(q('flag').flag).toBe(true);
    expect(q('flag=').flag).toBe(true);
    expect(q('f').flag).toBe(true);
    for (const t of ['1', 'true', 'TRUE', 'yes', 'Yes']) expect(q(`flag=${t}`).flag, t).toBe(true);
    for (const f of ['0', 'false', 'False', 'no', 'NO']) expect(q(`flag=${f}`).flag, f).toBe(false);
    for (const no of ['2', 'on', 'y', 'truth'])
      expect(fails(routes().QR, req(`k=abc&flag=${no}`)), no).toEqual(bad("Parameter 'flag' must be true or false."));
  });
  it('only the parameters given (and defaults) are set; a blank value is absent', () => {
    expect(q('')).toStrictEqual({ k: 'abc', flag: false });
    expect(q('i=%20&n=%20%20&pos=')).toStrictEqual({ k: 'abc', flag: false });
    expect(q('words=a,%20,b').words).toEqual(['a', 'b']);
  });
  it('strings are trimmed and normalised as declared', () => {
    expect(q('cat=%20Fast%20%20Food-Court%20').cat).toBe('fast_food_court');
    expect(q('raw=%20MiXed%20Case%20').raw).toBe('MiXed Case');
    expect(q('up=ng').up).toBe('NG');
    expect(q('k=%20%20abc%20').k).toBe('abc');
  });
  it('arrays split on their separator (";" also takes "|"), drop empty items and default to strings', () => {
    expect(q('words=a,%20b%20,,c').words).toEqual(['a', 'b', 'c']);
    expect(q('words=a;b|c').words).toEqual(['a;b|c']);
    expect(q('semi=a;%20b%20|c;;').semi).toEqual(['a', 'b', 'c']);
    expect(q('semi=a,b').semi).toEqual(['a,b']);
    expect(q('pts=1,2|3,4').pts).toEqual([[1, 2], [3, 4]]);
    expect(q('bare=1,2').bare).toEqual(['1', '2']);
    expect(q('bare=a,b,c').bare).toEqual(['a', 'b', 'c']); // a format applies to strings only
    expect(q('pos=%201,2%20').pos).toEqual([1, 2]);
  });
  it('an alias names the parameter in errors, down to the item', () => {
    expect(fails(routes().QR, req('key=ab'))).toEqual(bad("Parameter 'key' is shorter than 3 characters."));
    expect(fails(routes().QR, req('k=abc&waypoints=1,2;3'))).toEqual(bad("Parameter 'waypoints[1]' must be 'LAT,LNG' in decimal degrees (latitude -90..90, longitude -180..180)."));
    expect(fails(routes().QR, req('k=abc&pts=1,2;3'))).toEqual(bad("Parameter 'pts[1]' must be 'LAT,LNG' in decimal degrees (latitude -90..90, longitude -180..180)."));
    expect(fails(routes().QR, req('k=abc&pos=1'))).toEqual(bad("Parameter 'pos' must be 'LAT,LNG' in decimal degrees (latitude -90..90, longitude -180..180)."));
    expect(fails(routes().QR, req(''))).toEqual(missing("Parameter 'k' is required."));
  });
});

describe('path parameters', () => {
  it('refuse control characters and unpaired surrogates before the schema, by name', () => {
    for (const v of ['a\u0000', '\u0007', 'x\u001b', '\u007f', 'a\ud800', '\udc00b'])
      expect(fails(routes().PATH, req('', { params: { id: v } })), JSON.stringify(v)).toEqual(bad("Parameter 'id' contains control characters or unpaired UTF-16 surrogates."));
    const ok = req('', { params: { id: 'a\tb' } });
    validateRequest(routes().PATH, ok);
    expect(ok.q).toEqual({});
  });
  it('are checked against their schema, and a route without a query keeps req.q', () => {
    expect(fails(routes().PATH, req('', { params: { id: 'abcdef' } }))).toEqual(bad("Parameter 'id' is longer than 5 characters."));
    expect(fails(routes().PATH, req('', { params: {} }))).toEqual(missing("Parameter 'id' is required."));
    const r = req('', { params: { id: 'abc' }, q: { kept: 1 } });
    validateRequest(routes().PATH, r);
    expect(r.q).toEqual({ kept: 1 });
    const pq = req('', { params: { id: 'abc' } });
    validateRequest(routes().PATH_QUERY, pq);
    expect(pq.q).toEqual({ a: 1 });
  });
});

/** One body route per schema, compiled on first use. */
function body(schema: Schema, data: unknown): [number, string, string] | unknown {
  const r = route({ body: schema }, 'POST');
  compileRoutes([r]);
  const rq = req('', { method: 'POST', body: data });
  try { validateRequest(r, rq); } catch (e) { expect(e).toBeInstanceOf(HttpError); const h = e as HttpError; return [h.status, h.code, h.message]; }
  return rq.body;
}

// A function, not a hook: a builder that throws must fail the test that uses it.
const S = () => B.obj({
  name: B.text(20), mode: B.enum(['car', 'walk']), note: { type: ['string', 'null'] }, n: B.int(),
  tags: B.arr(B.enum(['a', 'b']), { max: 5 }), nested: B.obj({ code: { type: 'string', 'x-normalise': 'upper' }, when: B.int() }),
  list: B.arr(B.obj({ v: B.text(5) }), { max: 3 }), loose: { type: 'array' }, any: {},
}, ['name']);

describe('body preparation', () => {
  it('trims and normalises strings wherever the schema declares them', () => {
    expect(body(S(), { name: '  Ann  ', mode: ' WALK ', tags: [' A ', 'b'], nested: { code: ' ng ' }, list: [{ v: ' x ' }, { v: 'y' }] }))
      .toStrictEqual({ name: 'Ann', mode: 'walk', tags: ['a', 'b'], nested: { code: 'NG' }, list: [{ v: 'x' }, { v: 'y' }] });
  });
  it('an empty string or an unadmitted null is absent; a null the schema admits stays', () => {
    expect(body(S(), { name: 'a', mode: '   ', n: null, note: null })).toStrictEqual({ name: 'a', note: null });
    expect(body(S(), { name: '  ' })).toEqual(missing("Field 'name' is required."));
    expect(body(S(), { name: null })).toEqual(missing("Field 'name' is required."));
    expect(body(S(), { name: 'a', nested: { code: '', when: null } })).toStrictEqual({ name: 'a', nested: {} });
    expect(body(S(), { name: 'a', note: ' x ' })).toStrictEqual({ name: 'a', note: 'x' });
  });
  it('leaves what the schema does not describe as sent', () => {
    expect(body(S(), { name: 'a', loose: [' x ', null], any: ' y ' })).toStrictEqual({ name: 'a', loose: [' x ', null], any: ' y ' });
    expect(body({ type: 'object' }, { a: ' x ', b: null })).toStrictEqual({ a: ' x ', b: null });
    expect(body({ type: 'array', items: { type: 'integer' } }, [1, 2])).toStrictEqual([1, 2]);
    expect(body({ type: 'array', items: { type: 'string' } }, [' a ', ''])).toStrictEqual(['a', '']);
    expect(body({ type: 'array', items: { type: 'string' } }, [' a ', 1])).toEqual(bad("Field '[1]' must be a string."));
    expect(body(B.obj({ 0: B.text(3) }), 'xy')).toEqual(bad('The request body must be a JSON object.'));
    expect(body({ type: 'array', items: B.obj({ s: B.text(3) }) }, [{ s: ' a ' }, null])).toEqual(bad("Field '[1]' must be an object."));
  });
  it('does not coerce types: a string is not a number', () => {
    expect(body(S(), { name: 'a', n: '3' })).toEqual(bad("Field 'n' must be a whole number."));
    expect(body(S(), { name: 5 })).toEqual(bad("Field 'name' must be a string."));
    expect(body(S(), { name: 'a', tags: [' c '] })).toEqual(bad("Field 'tags[0]' must be one of a, b."));
    expect(body(S(), { name: 'a', list: [{ v: 'toolong' }] })).toEqual(bad("Field 'list[0].v' is longer than 5 characters."));
  });
  it('refuses control characters in text fields', () => {
    expect(body(S(), { name: 'a\u0007b' })).toEqual(bad("Field 'name' contains control characters or unpaired UTF-16 surrogates."));
  });
});

describe('unpaired surrogates in a body', () => {
  const ANY = { type: ['object', 'array', 'string'] };
  it('are refused with the path of the first string that holds one, names included', () => {
    expect(body(ANY, { a: 'x\ud800' })).toEqual(bad("Field 'a' contains an unpaired UTF-16 surrogate."));
    expect(body(ANY, { a: { b: ['ok', '\udc00'] } })).toEqual(bad("Field 'a.b[1]' contains an unpaired UTF-16 surrogate."));
    expect(body(ANY, { a: { 'k\ud800': 1 } })).toEqual(bad("Field 'a.k\ud800' contains an unpaired UTF-16 surrogate."));
    expect(body(ANY, [{ a: 1 }, { b: '\ud800' }])).toEqual(bad("Field '[1].b' contains an unpaired UTF-16 surrogate."));
    expect(body(ANY, '\udfff')).toEqual(bad('The request body contains an unpaired UTF-16 surrogate.'));
  });
  it('accept paired surrogates and other values', () => {
    const ok = { a: '\ud83d\ude00', b: [1, null, true, '\ud83d\ude00x'], '\ud83d\ude00': { c: 2 } };
    expect(body(ANY, ok)).toStrictEqual(ok);
    for (const s of ['\ud83d\ud83d', '\ude00\ud83d', 'a\udbff', '\udc00z'])
      expect(body(ANY, { s }), JSON.stringify(s)).toEqual(bad("Field 's' contains an unpaired UTF-16 surrogate."));
  });
});

describe('400 messages per keyword', () => {
  const one = (s: Schema, v: unknown) => body(B.obj({ f: s }), { f: v });
  it.each([
    [{ type: 'string', format: 'email' }, 'nope', "Field 'f' must be a valid email."],
    [{ const: 'x' }, 'y', `Field 'f' must be "x".`],
    [{ type: ['string', 'integer'] }, true, "Field 'f' must be a string or a whole number."],
    [{ type: ['string', 'null', 'integer'] }, true, "Field 'f' must be of type string or null,integer."],
    [{ type: 'boolean' }, 1, "Field 'f' must be true or false."],
    [{ type: 'object' }, 1, "Field 'f' must be an object."],
    [{ type: 'array' }, 1, "Field 'f' must be an array."],
    [{ type: 'number' }, 'x', "Field 'f' must be a number."],
    [{ type: 'number', minimum: 2 }, 1, "Field 'f' must be at least 2."],
    [{ type: 'number', maximum: 2 }, 3, "Field 'f' must be at most 2."],
    [{ type: 'array', minItems: 2 }, [1], "Field 'f' must hold at least 2 item(s)."],
    [{ type: 'array', maxItems: 1 }, [1, 2], "Field 'f' may hold at most 1 items."],
    [{ type: 'array', items: { type: 'string', minLength: 1 } }, ['  '], "Field 'f[0]' must not be empty."],
    [{ type: 'string', minLength: 3 }, 'ab', "Field 'f' is shorter than 3 characters."],
    [{ type: 'string', maxLength: 2 }, 'abc', "Field 'f' is longer than 2 characters."],
    [{ type: 'string', pattern: '^a' }, 'b', "Field 'f' has an invalid format."],
    [{ type: 'string', pattern: '^a', 'x-hint': 'must start with a' }, 'b', "Field 'f' must start with a."],
    [{ type: 'integer', multipleOf: 5 }, 7, "Field 'f' must be multiple of 5."],
    [{ type: 'object', additionalProperties: false, properties: { a: {} } }, { a: 1, b: 2 }, "Field 'f.b' is not a known field."],
    [{ type: 'object', required: ['x/y'] }, {}, "Field 'f.x/y' is required."],
  ])('%j with %j', (schema, value, message) => {
    const got = one(schema as Schema, value) as unknown[];
    expect(got).toEqual([400, message.endsWith('is required.') ? 'missing_parameter' : 'invalid_parameter', message]);
  });
  it('numbers an array item and names a member with digits', () => {
    const s = B.obj({ v2: B.int(), '2a': B.int(), '12': B.int(), list: B.arr(B.int(), { max: 20 }) });
    expect(body(s, { v2: 'x' })).toEqual(bad("Field 'v2' must be a whole number."));
    expect(body(s, { '2a': 'x' })).toEqual(bad("Field '2a' must be a whole number."));
    expect(body(s, { list: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 'x'] })).toEqual(bad("Field 'list[11]' must be a whole number."));
  });
  it('names escaped JSON pointer members as sent', () => {
    const s = B.obj({ 'a/b': B.int(), 'c~d': B.int(), '~1': B.int() });
    expect(body(s, { 'a/b': 'x' })).toEqual(bad("Field 'a/b' must be a whole number."));
    expect(body(s, { 'c~d': 'x' })).toEqual(bad("Field 'c~d' must be a whole number."));
    expect(body(s, { '~1': 'x' })).toEqual(bad("Field '~1' must be a whole number."));
  });
  it('a body of the wrong JSON type, or none', () => {
    expect(body({ type: 'array' }, { a: 1 })).toEqual(bad('The request body must be a JSON array.'));
    expect(body({ type: 'object' }, 'x')).toEqual(bad('The request body must be a JSON object.'));
    expect(body(S(), null)).toEqual(bad('The request body must be a JSON object.'));
    expect(body({ type: 'object' }, undefined)).toEqual(missing('A JSON body is required (Content-Type: application/json).'));
    expect(body({ type: 'array', maxItems: 1 }, [1, 2])).toEqual(bad("Field '' may hold at most 1 items."));
  });
});
