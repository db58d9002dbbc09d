// JSON body field validation for the logistics endpoints (src/api/logistics/validate.ts):
// every failure is a 400 naming the field, with the reason.
import { describe, it, expect } from 'vitest';
import * as V from '../../src/api/logistics/validate.ts';
import { HttpError } from '../../src/http/types.ts';

function err(f: () => unknown): [number, string, string] {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(HttpError); const h = e as HttpError; return [h.status, h.code, h.message]; }
  throw new Error('expected a 400');
}
const NOW = Date.UTC(2026, 10, 24, 12);

describe('logistics body validation', () => {
  it('bodyObject and object accept objects only', () => {
    expect(V.bodyObject({ a: 1 })).toEqual({ a: 1 });
    expect(err(() => V.bodyObject(undefined))).toEqual([400, 'missing_parameter', 'A JSON object body is required (Content-Type: application/json).']);
    expect(err(() => V.bodyObject(null))[2]).toBe('The request body must be a JSON object, got null.');
    expect(err(() => V.bodyObject([1]))[2]).toBe('The request body must be a JSON object, got an array.');
    expect(err(() => V.bodyObject('x'))[2]).toBe('The request body must be a JSON object, got a string.');
    expect(err(() => V.bodyObject(3))[2]).toBe('The request body must be a JSON object, got number.');
    expect(V.object({}, 'f')).toEqual({});
    expect(err(() => V.object([], 'f'))).toEqual([400, 'invalid_parameter', "Field 'f' must be an object, got an array."]);
    expect(err(() => V.object(null, 'f'))[2]).toBe("Field 'f' must be an object, got null.");
  });

  it('has reads own, present values only', () => {
    const o = JSON.parse('{"a":1,"b":null,"__proto__":{"x":1}}');
    expect(V.has(o, 'a')).toBe(true);
    expect(V.has(o, 'b')).toBe(false);
    expect(V.has(o, 'c')).toBe(false);
    expect(V.has(o, 'toString')).toBe(false);
    expect(V.has({ u: undefined }, 'u')).toBe(false);
  });

  it('number: type, finiteness, integers, bounds, required', () => {
    expect(V.number({ n: 5 }, 'n', 'f', { min: 5, max: 5 })).toBe(5);
    expect(V.number({}, 'n', 'f')).toBeUndefined();
    expect(V.number({ n: null }, 'n', 'f')).toBeUndefined();
    expect(err(() => V.number({}, 'n', 'f', { required: true }))).toEqual([400, 'missing_parameter', "Field 'f' is required."]);
    expect(err(() => V.number({ n: null }, 'n', 'f', { required: true }))[1]).toBe('missing_parameter');
    expect(err(() => V.number({ n: '5' }, 'n', 'f'))).toEqual([400, 'invalid_parameter', "Field 'f' must be a number, got a string."]);
    expect(err(() => V.number({ n: Infinity }, 'n', 'f'))[2]).toBe("Field 'f' must be a finite number.");
    expect(err(() => V.number({ n: 1.5 }, 'n', 'f', { integer: true }))[2]).toBe("Field 'f' must be a whole number.");
    expect(V.number({ n: 2 }, 'n', 'f', { integer: true })).toBe(2);
    expect(err(() => V.number({ n: 4.99 }, 'n', 'f', { min: 5 }))[2]).toBe("Field 'f' must be at least 5.");
    expect(err(() => V.number({ n: 5.01 }, 'n', 'f', { max: 5 }))[2]).toBe("Field 'f' must be at most 5.");
    expect(V.number({ n: -1e9 }, 'n', 'f')).toBe(-1e9);
    expect(V.number(JSON.parse('{"__proto__":{"n":1}}'), 'n', 'f')).toBeUndefined();
  });

  it('string: trimmed, bounded, no control characters, pattern', () => {
    expect(V.string({ s: '  ab ' }, 's', 'f')).toBe('ab');
    expect(V.string({ s: '   ' }, 's', 'f')).toBeUndefined();
    expect(V.string({}, 's', 'f')).toBeUndefined();
    expect(err(() => V.string({ s: ' ' }, 's', 'f', { required: true }))).toEqual([400, 'missing_parameter', "Field 'f' is required."]);
    expect(err(() => V.string({}, 's', 'f', { required: true }))[1]).toBe('missing_parameter');
    expect(err(() => V.string({ s: 1 }, 's', 'f'))[2]).toBe("Field 'f' must be a string, got number.");
    expect(err(() => V.string({ s: 'ab' }, 's', 'f', { min: 3 }))[2]).toBe("Field 'f' must be at least 3 characters.");
    expect(V.string({ s: 'abc' }, 's', 'f', { min: 3, max: 3 })).toBe('abc');
    expect(err(() => V.string({ s: 'abcd' }, 's', 'f', { max: 3 }))[2]).toBe("Field 'f' must be at most 3 characters.");
    expect(V.string({ s: 'x'.repeat(500) }, 's', 'f')).toHaveLength(500);
    expect(err(() => V.string({ s: 'x'.repeat(501) }, 's', 'f'))[2]).toBe("Field 'f' must be at most 500 characters.");
    for (const c of ['\u0000', '\u0008', '\u000b', '\u000c', '\u000e', '\u001f', '\u007f']) {
      expect(err(() => V.string({ s: `a${c}b` }, 's', 'f'))[2]).toBe("Field 'f' contains control characters.");
    }
    expect(V.string({ s: 'a\tb\nc' }, 's', 'f')).toBe('a\tb\nc');
    expect(err(() => V.string({ s: 'A' }, 's', 'f', { pattern: /^[a-z]$/ }))[2]).toBe("Field 'f' has an invalid format.");
    expect(err(() => V.string({ s: 'A' }, 's', 'f', { pattern: /^[a-z]$/, patternHint: 'must be lower case' }))[2]).toBe("Field 'f' must be lower case.");
    expect(V.string({ s: 'a' }, 's', 'f', { pattern: /^[a-z]$/ })).toBe('a');
  });

  it('boolean, oneOf, array', () => {
    expect(V.boolean({ b: false }, 'b', 'f')).toBe(false);
    expect(V.boolean({}, 'b', 'f')).toBeUndefined();
    expect(V.boolean({ b: null }, 'b', 'f')).toBeUndefined();
    expect(err(() => V.boolean({ b: 'true' }, 'b', 'f'))[2]).toBe("Field 'f' must be true or false, got a string.");
    expect(V.oneOf({ m: ' CAR ' }, 'm', 'f', ['car', 'walk'])).toBe('car');
    expect(V.oneOf({}, 'm', 'f', ['car'])).toBeUndefined();
    expect(err(() => V.oneOf({}, 'm', 'f', ['car'], { required: true }))[1]).toBe('missing_parameter');
    expect(err(() => V.oneOf({ m: 'bus' }, 'm', 'f', ['car', 'walk']))[2]).toBe("Field 'f' must be one of car, walk.");
    expect(err(() => V.oneOf({ m: 'x'.repeat(65) }, 'm', 'f', ['car']))[2]).toBe("Field 'f' must be at most 64 characters.");
    expect(V.array({ a: [1, 2] }, 'a', 'f', { max: 2 })).toEqual([1, 2]);
    expect(V.array({}, 'a', 'f', { max: 2 })).toBeUndefined();
    expect(err(() => V.array({}, 'a', 'f', { max: 2, required: true }))[1]).toBe('missing_parameter');
    expect(err(() => V.array({ a: {} }, 'a', 'f', { max: 2 }))[2]).toBe("Field 'f' must be an array, got an object.");
    expect(err(() => V.array({ a: [] }, 'a', 'f', { max: 2, min: 1 }))[2]).toBe("Field 'f' must hold at least 1 item(s).");
    expect(V.array({ a: [] }, 'a', 'f', { max: 2 })).toEqual([]);
    expect(err(() => V.array({ a: [1, 2, 3] }, 'a', 'f', { max: 2 }))[2]).toBe("Field 'f' may hold at most 2 items, got 3.");
  });

  it('lat, lng and accuracy ranges', () => {
    expect(V.lat({ lat: -90 })).toBe(-90);
    expect(V.lat({ lat: 90 })).toBe(90);
    expect(err(() => V.lat({ lat: 90.1 }))[2]).toBe("Field 'lat' must be at most 90.");
    expect(err(() => V.lat({ lat: -90.1 }))[2]).toBe("Field 'lat' must be at least -90.");
    expect(err(() => V.lat({}))[1]).toBe('missing_parameter');
    expect(V.lng({ lng: 180 })).toBe(180);
    expect(V.lng({ lng: -180 })).toBe(-180);
    expect(err(() => V.lng({ lng: 180.5 }))[2]).toBe("Field 'lng' must be at most 180.");
    expect(err(() => V.lng({ lng: -180.5 }))[2]).toBe("Field 'lng' must be at least -180.");
    expect(err(() => V.lat({ y: 100 }, 'stop.lat', 'y'))[2]).toBe("Field 'stop.lat' must be at most 90.");
    expect(err(() => V.lng({ x: 200 }, 'stop.lng', 'x'))[2]).toBe("Field 'stop.lng' must be at most 180.");
    expect(V.accuracy({ accuracy_m: 0 }, 'a')).toBe(0);
    expect(V.accuracy({ accuracy_m: 100_000 }, 'a')).toBe(100_000);
    expect(V.accuracy({}, 'a')).toBeUndefined();
    expect(err(() => V.accuracy({ accuracy_m: -1 }, 'a'))[2]).toBe("Field 'a' must be at least 0.");
    expect(err(() => V.accuracy({ accuracy_m: 100_001 }, 'a'))[2]).toBe("Field 'a' must be at most 100000.");
  });

  it('time: RFC 3339 with a zone or epoch ms, not before 2000, at most 5 minutes ahead', () => {
    expect(V.time({ t: '2026-11-24T12:00:00Z' }, 't', 'f', { now: NOW })).toBe(NOW);
    expect(V.time({ t: ' 2026-11-24T13:00:00+01:00 ' }, 't', 'f', { now: NOW })).toBe(NOW);
    expect(V.time({ t: '2026-11-24T12:00+0000' }, 't', 'f', { now: NOW })).toBe(NOW);
    expect(V.time({ t: '2026-11-24t11:59:59.123456789z' }, 't', 'f', { now: NOW })).toBe(NOW - 877);
    expect(V.time({ t: NOW }, 't', 'f', { now: NOW })).toBe(NOW);
    expect(V.time({}, 't', 'f')).toBeUndefined();
    expect(err(() => V.time({}, 't', 'f', { required: true }))[1]).toBe('missing_parameter');
    expect(err(() => V.time({ t: '2026-11-24T12:00:00' }, 't', 'f', { now: NOW }))[2]).toMatch(/^Field 'f' must be an RFC 3339 time with a zone/);
    expect(err(() => V.time({ t: '2026-13-45T12:00:00Z' }, 't', 'f', { now: NOW }))[2]).toBe("Field 'f' is not a valid date.");
    expect(err(() => V.time({ t: 1.5 }, 't', 'f', { now: NOW }))[2]).toBe("Field 'f' must be whole Unix epoch milliseconds or an RFC 3339 time.");
    expect(err(() => V.time({ t: NaN }, 't', 'f', { now: NOW }))[2]).toBe("Field 'f' must be whole Unix epoch milliseconds or an RFC 3339 time.");
    expect(err(() => V.time({ t: true }, 't', 'f', { now: NOW }))[2]).toBe("Field 'f' must be a time (RFC 3339 string or epoch milliseconds), got boolean.");
    expect(err(() => V.time({ t: 1_700_000_000 }, 't', 'f', { now: NOW }))[2]).toBe("Field 'f' is before 2000-01-01 (epoch seconds sent instead of milliseconds?).");
    expect(err(() => V.time({ t: '1999-12-31T23:59:59Z' }, 't', 'f', { now: NOW }))[2]).toBe("Field 'f' is before 2000-01-01.");
    expect(V.time({ t: Date.UTC(2000, 0, 1) }, 't', 'f', { now: NOW })).toBe(Date.UTC(2000, 0, 1));
    expect(V.time({ t: NOW + V.MAX_FUTURE_MS }, 't', 'f', { now: NOW })).toBe(NOW + 300_000);
    expect(err(() => V.time({ t: NOW + V.MAX_FUTURE_MS + 1 }, 't', 'f', { now: NOW }))[2]).toBe("Field 'f' is more than 5 minutes in the future.");
  });

  it('device ids and slugs', () => {
    for (const ok of ['a', 'A1', 'truck-7', 'x.y_z:w@q', 'a'.repeat(64)]) expect(V.DEVICE_RE.test(ok), ok).toBe(true);
    for (const bad of ['', '-a', '.a', 'a b', 'a'.repeat(65), 'é']) expect(V.DEVICE_RE.test(bad), bad).toBe(false);
    for (const ok of ['a', 'logistics-partner', 'a1', 'a'.repeat(40)]) expect(V.SLUG_RE.test(ok), ok).toBe(true);
    for (const bad of ['', '-a', 'a-', 'A', 'a_b', 'a'.repeat(41)]) expect(V.SLUG_RE.test(bad), bad).toBe(false);
  });
});
