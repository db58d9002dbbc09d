// Declared operations (src/http/operation.ts): query coercion, aliases, pair aliases, defaults,
// latlng lists, path params and JSON bodies, and the 400s that name what the client sent.
import { describe, it, expect, beforeAll } from 'vitest';
import { compileRoutes, validateRequest, latlngOf, Q, type Declaration } from '../../src/http/operation.ts';
import { HttpError, type Req, type RouteDef } from '../../src/http/types.ts';

const decl = (d: Partial<Declaration>): Declaration => ({ summary: 's', responses: { 200: { description: 'ok' } }, examples: [{}], ...d });
const route = (d: Partial<Declaration>): RouteDef => ({ method: 'GET', path: '/x', scope: 'any', handler: () => ({ json: {} }), decl: decl(d) });
const req = (query = '', o: Partial<Req> = {}): Req => ({ method: 'GET', path: '/x', params: {}, query: new URLSearchParams(query), headers: {}, body: undefined, q: {}, key: null, ...o });

const Q_ROUTE = route({
  query: {
    q: { schema: Q.str({ maxLength: 20, minLength: 1 }), required: true, aliases: ['address', 'input'] },
    limit: { schema: Q.int({ min: 1, max: 10, default: 5 }) },
    radius: { schema: Q.num({ min: 0, max: 1000 }) },
    exact: { schema: Q.bool(false) },
    mode: { schema: Q.enum(['car', 'walk'], 'car') },
    at: { schema: Q.latlng() },
    via: { schema: Q.latlngList(3) },
    tags: { schema: Q.list({ type: 'string' }, { max: 2 }) },
    ids: { schema: Q.list({ type: 'integer' }, { separator: '|' }) },
    country: { schema: Q.country() },
    lat: { schema: Q.num({ min: -90, max: 90 }) },
    lng: { schema: Q.num({ min: -180, max: 180 }) },
  },
  pairAliases: { location: ['lat', 'lng'] },
});
const BODY_ROUTE: RouteDef = {
  ...route({
    params: { id: { schema: Q.str({ pattern: '^z_[a-z]+$' }), required: true } },
    body: {
      type: 'object', required: ['name', 'pings'], additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1 }, n: { type: 'integer', default: 3 },
        pings: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'object', required: ['lat'], properties: { lat: { type: 'number', minimum: -90 } } } },
      },
    },
  }),
  method: 'POST',
};
const NO_DECL = { method: 'GET', path: '/y', scope: 'any', handler: () => ({ json: {} }) } as unknown as RouteDef;

beforeAll(() => compileRoutes([Q_ROUTE, BODY_ROUTE, NO_DECL]));

function fails(r: RouteDef, rq: Req): HttpError {
  try { validateRequest(r, rq); } catch (e) { expect(e).toBeInstanceOf(HttpError); return e as HttpError; }
  throw new Error('expected a 400');
}

describe('query validation', () => {
  it('coerces, applies defaults and resolves aliases', () => {
    const r = req('address=%20Lagos%20&limit=7&radius=2.5e2&exact=1&at=6.5,3.4&via=1,2;3,4|5,6&tags=a,,b&ids=1|2&country=ke&unknown=1');
    validateRequest(Q_ROUTE, r);
    expect(r.q).toEqual({ q: 'Lagos', limit: 7, radius: 250, exact: true, mode: 'car', at: [6.5, 3.4], via: [[1, 2], [3, 4], [5, 6]], tags: ['a', 'b'], ids: [1, 2], country: 'KE' });
  });
  it('the first spelling given wins, and empty values count as absent', () => {
    const r = req('q=first&address=second&limit=&exact=false&mode=walk');
    validateRequest(Q_ROUTE, r);
    expect(r.q).toMatchObject({ q: 'first', limit: 5, exact: false, mode: 'walk' });
    const r0 = req('input=x&exact=0');
    validateRequest(Q_ROUTE, r0);
    expect(r0.q).toMatchObject({ q: 'x', exact: false });
  });
  it('splits a pair alias into its two parameters', () => {
    const r = req('q=a&location=-6.8,%2039.28');
    validateRequest(Q_ROUTE, r);
    expect([r.q.lat, r.q.lng]).toEqual([-6.8, 39.28]);
    const e = fails(Q_ROUTE, req('q=a&location=-6.8'));
    expect([e.status, e.code]).toEqual([400, 'invalid_parameter']);
    expect(e.message).toMatch(/Parameter 'location' must be 'LAT,LNG'/);
    const skip = req('q=a&location=%20&lat=1&lng=2');
    validateRequest(Q_ROUTE, skip);
    expect([skip.q.lat, skip.q.lng]).toEqual([1, 2]);
  });
  it.each([
    ['', 'missing_parameter', "Parameter 'q' is required."],
    ['address=', 'missing_parameter', "Parameter 'q' is required."],
    ['address=' + 'x'.repeat(21), 'invalid_parameter', "Parameter 'address' is longer than 20 characters."],
    ['q=a&limit=0', 'invalid_parameter', "Parameter 'limit' must be at least 1."],
    ['q=a&limit=11', 'invalid_parameter', "Parameter 'limit' must be at most 10."],
    ['q=a&limit=2.5', 'invalid_parameter', "Parameter 'limit' must be a whole number."],
    ['q=a&limit=ten', 'invalid_parameter', "Parameter 'limit' must be a whole number."],
    ['q=a&radius=NaN', 'invalid_parameter', "Parameter 'radius' must be a number."],
    ['q=a&radius=1e400', 'invalid_parameter', "Parameter 'radius' must be at most 1000."],
    ['q=a&mode=truck', 'invalid_parameter', "Parameter 'mode' must be one of car, walk."],
    ['q=a&at=91,0', 'invalid_parameter', "Parameter 'at' must be 'LAT,LNG' in decimal degrees (latitude -90..90, longitude -180..180)."],
    ['q=a&via=1,2;3,4;5,6;7,8', 'invalid_parameter', "Parameter 'via' may hold at most 3 items."],
    ['q=a&via=1,2;x', 'invalid_parameter', "Parameter 'via[1]' must be 'LAT,LNG' in decimal degrees (latitude -90..90, longitude -180..180)."],
    ['q=a&tags=a,b,c', 'invalid_parameter', "Parameter 'tags' may hold at most 2 items."],
    ['q=a&ids=1|x', 'invalid_parameter', "Parameter 'ids[1]' must be a whole number."],
    ['q=a&country=KEN', 'invalid_parameter', "Parameter 'country' must be an ISO 3166-1 alpha-2 country code such as NG."],
  ])('%s → %s', (qs, code, message) => {
    const e = fails(Q_ROUTE, req(qs));
    expect([e.status, e.code, e.message]).toEqual([400, code, message]);
  });
  it('leaves routes without a declaration alone', () => {
    const r = req('anything=1');
    validateRequest(NO_DECL, r);
    expect(r.q).toEqual({});
  });
});

describe('path and body validation', () => {
  const ok = () => ({ name: 'n', pings: [{ lat: 1 }] });
  it('accepts a valid body and fills defaults', () => {
    const r = req('', { params: { id: 'z_abc' }, body: ok() });
    validateRequest(BODY_ROUTE, r);
    expect(r.body).toEqual({ name: 'n', n: 3, pings: [{ lat: 1 }] });
  });
  it.each([
    [{ id: 'Z_1' }, ok(), 'invalid_parameter', "Parameter 'id' has an invalid format."],
    [{ id: 'z_a' }, undefined, 'missing_parameter', 'A JSON body is required (Content-Type: application/json).'],
    [{ id: 'z_a' }, [1], 'invalid_parameter', 'The request body must be a JSON object.'],
    [{ id: 'z_a' }, { pings: [{ lat: 1 }] }, 'missing_parameter', "Field 'name' is required."],
    [{ id: 'z_a' }, { ...ok(), extra: 1 }, 'invalid_parameter', "Field 'extra' is not a known field."],
    [{ id: 'z_a' }, { ...ok(), name: '' }, 'missing_parameter', "Field 'name' is required."],
    [{ id: 'z_a' }, { ...ok(), pings: [] }, 'invalid_parameter', "Field 'pings' must hold at least 1 item(s)."],
    [{ id: 'z_a' }, { ...ok(), pings: [{ lat: 1 }, { lat: 2 }, { lat: 3 }] }, 'invalid_parameter', "Field 'pings' may hold at most 2 items."],
    [{ id: 'z_a' }, { ...ok(), pings: [{ lat: 1 }, { lat: -91 }] }, 'invalid_parameter', "Field 'pings[1].lat' must be at least -90."],
    [{ id: 'z_a' }, { ...ok(), pings: [{ lat: 1 }, {}] }, 'missing_parameter', "Field 'pings[1].lat' is required."],
    [{ id: 'z_a' }, { ...ok(), n: 1.5 }, 'invalid_parameter', "Field 'n' must be a whole number."],
  ])('%j %j → %s', (params, body, code, message) => {
    const e = fails(BODY_ROUTE, req('', { params, body }));
    expect([e.status, e.code, e.message]).toEqual([400, code, message]);
  });
});

describe('latlngOf', () => {
  it('reads LAT,LNG within range only', () => {
    expect(latlngOf('-6.8, 39.28')).toEqual([-6.8, 39.28]);
    expect(latlngOf(' +90,-180 ')).toEqual([90, -180]);
    expect(latlngOf('-90,180')).toEqual([-90, 180]);
    for (const bad of ['90.0001,0', '-90.5,0', '0,180.1', '0,-181', '1', '1,2,3', 'a,b', '1e1,2', '', '1,']) expect(latlngOf(bad), bad).toBeNull();
  });
});

describe('choices and positional lists', () => {
  const CHOICE_ROUTE = route({
    query: {
      alt: { schema: { oneOf: [{ type: 'integer', minimum: 0 }, { type: 'boolean' }] } },
      idx: { schema: { oneOf: [{ type: 'string', enum: ['all'] }, { type: 'array', 'x-separator': ';', items: { type: 'integer', minimum: 0 } }] } },
      per: { schema: { type: 'array', 'x-separator': ';', 'x-keep-empty': true, items: { oneOf: [{ type: 'number', maximum: 50 }, { type: 'null' }] } } },
    },
  });
  beforeAll(() => compileRoutes([CHOICE_ROUTE]));

  it('a oneOf takes the first branch the value reads as; a positional list keeps its empty elements as null', () => {
    const r = req('alt=1&idx=0;2&per=5;;7');
    validateRequest(CHOICE_ROUTE, r);
    expect(r.q).toEqual({ alt: 1, idx: [0, 2], per: [5, null, 7] });
    const w = req('alt=true&idx=all');
    validateRequest(CHOICE_ROUTE, w);
    expect(w.q).toEqual({ alt: true, idx: 'all' });
  });

  it('a refusal names the choice, and says where and by which keyword', () => {
    const e = fails(CHOICE_ROUTE, req('alt=maybe'));
    expect(e.message).toBe("Parameter 'alt' must be a whole number, true or false.");
    expect(e).toMatchObject({ part: 'query', field: 'alt', keyword: 'oneOf' });
    // a nullable item is refused for what its other branch says
    expect(fails(CHOICE_ROUTE, req('per=1;99'))).toMatchObject({ message: "Parameter 'per[1]' must be at most 50.", field: 'per[1]', keyword: 'maximum' });
  });
});
