// The rules of src/api/logistics/validate.ts a schema cannot say: objects, rounding of stored
// measurements, times relative to the server clock, and the device and slug patterns.
import { describe, it, expect } from 'vitest';
import * as V from '../../src/api/logistics/validate.ts';
import { HttpError } from '../../src/http/types.ts';

function err(f: () => unknown): [number, string, string] {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(HttpError); const h = e as HttpError; return [h.status, h.code, h.message]; }
  throw new Error('expected a 400');
}
const NOW = Date.UTC(2026, 10, 24, 12);

describe('logistics validation rules', () => {
  it('object accepts objects only and names what it got', () => {
    expect(V.object({ a: 1 }, 'f')).toEqual({ a: 1 });
    expect(err(() => V.object([], 'f'))).toEqual([400, 'invalid_parameter', "Field 'f' must be an object, got an array."]);
    expect(err(() => V.object(null, 'f'))[2]).toBe("Field 'f' must be an object, got null.");
    expect(err(() => V.object('x', 'f'))[2]).toBe("Field 'f' must be an object, got a string.");
    expect(err(() => V.object(3, 'f'))[2]).toBe("Field 'f' must be an object, got number.");
    expect(err(() => V.object(true, 'f'))[2]).toBe("Field 'f' must be an object, got boolean.");
    expect(err(() => V.object(undefined, 'f'))[2]).toBe("Field 'f' must be an object, got undefined.");
    expect(V.invalid('g', 'is odd')).toMatchObject({ status: 400, code: 'invalid_parameter', message: "Field 'g' is odd." });
  });

  it('rounds stored measurements to two decimals, never a value PostgreSQL real refuses', () => {
    expect(V.round2(1e-50)).toBe(0);
    expect(Object.is(V.round2(-1e-50), 0)).toBe(true);
    expect(V.round2(1.006)).toBe(1.01);
    expect(V.round2(12.344)).toBe(12.34);
    expect(V.measured(undefined)).toBeNull();
    expect(V.measured(3.14159)).toBe(3.14);
    expect(V.measured(0)).toBe(0);
  });

  it('times: RFC 3339 with a zone or epoch ms, not before 2000, at most 5 minutes ahead', () => {
    expect(V.time('2026-11-24T12:00:00Z', 'f', NOW)).toBe(NOW);
    expect(V.time('2026-11-24T13:00:00+01:00', 'f', NOW)).toBe(NOW);
    expect(V.time('2026-11-24T12:00+0000', 'f', NOW)).toBe(NOW);
    expect(V.time('2026-11-24t11:59:59.123456789z', 'f', NOW)).toBe(NOW - 877);
    expect(V.time(NOW, 'f', NOW)).toBe(NOW);
    expect(V.time(undefined, 'f', NOW)).toBeUndefined();
    expect(err(() => V.time('2026-11-24T12:00:00', 'f', NOW))[2]).toMatch(/^Field 'f' must be an RFC 3339 time with a zone/);
    expect(err(() => V.time(true, 'f', NOW))[2]).toMatch(/^Field 'f' must be an RFC 3339 time with a zone/);
    expect(err(() => V.time('2026-13-45T12:00:00Z', 'f', NOW))[2]).toBe("Field 'f' is not a valid date.");
    expect(err(() => V.time(1_700_000_000, 'f', NOW))[2]).toBe("Field 'f' is before 2000-01-01 (epoch seconds sent instead of milliseconds?).");
    expect(err(() => V.time('1999-12-31T23:59:59Z', 'f', NOW))[2]).toBe("Field 'f' is before 2000-01-01.");
    expect(V.time(Date.UTC(2000, 0, 1), 'f', NOW)).toBe(Date.UTC(2000, 0, 1));
    expect(V.time(NOW + V.MAX_FUTURE_MS, 'f', NOW)).toBe(NOW + 300_000);
    expect(err(() => V.time(NOW + V.MAX_FUTURE_MS + 1, 'f', NOW))[2]).toBe("Field 'f' is more than 5 minutes in the future.");
    const t0 = Date.now();
    expect(V.time(t0, 'f')).toBe(t0);
  });

  it('device ids and slugs', () => {
    for (const ok of ['a', 'A1', 'truck-7', 'x.y_z:w@q', 'a'.repeat(64)]) expect(V.DEVICE_RE.test(ok), ok).toBe(true);
    for (const bad of ['', '-a', '.a', 'a b', 'a'.repeat(65), 'é']) expect(V.DEVICE_RE.test(bad), bad).toBe(false);
    const slug = new RegExp(V.SLUG_PATTERN);
    for (const ok of ['a', 'logistics-partner', 'a1', 'a'.repeat(40)]) expect(slug.test(ok), ok).toBe(true);
    for (const bad of ['', '-a', 'a-', 'A', 'a_b', 'a'.repeat(41)]) expect(slug.test(bad), bad).toBe(false);
  });
});

describe('logistics body field schemas', () => {
  it('are the schemas the OpenAPI document shows', () => {
    expect(V.F.lat).toStrictEqual({ type: 'number', minimum: -90, maximum: 90, description: 'Latitude, decimal degrees' });
    expect(V.F.lng).toStrictEqual({ type: 'number', minimum: -180, maximum: 180, description: 'Longitude, decimal degrees' });
    expect(V.F.accuracy).toStrictEqual({ type: 'number', minimum: 0, maximum: 100_000, description: 'Accuracy radius in metres (stored to 0.01 m)' });
    expect(V.F.time).toStrictEqual({
      type: ['string', 'integer'], maxLength: 40,
      description: "RFC 3339 with a zone ('2026-05-01T10:00:00Z') or Unix epoch milliseconds; not before 2000 nor more than 5 minutes ahead",
    });
    expect(V.F.device).toStrictEqual({
      type: 'string', format: 'text', minLength: 1, maxLength: 64, pattern: V.DEVICE_PATTERN,
      'x-hint': 'must be 1-64 characters of letters, digits and . _ : @ - (starting with a letter or digit)', description: 'Your identifier of the vehicle or phone',
    });
    expect(V.F.slug).toStrictEqual({
      type: 'string', format: 'text', minLength: 1, maxLength: 40, pattern: V.SLUG_PATTERN,
      'x-hint': "must be 1-40 lower-case letters, digits and hyphens, not starting or ending with a hyphen (e.g. 'logistics-partner')",
    });
    expect(V.F.id).toStrictEqual({ type: 'string', format: 'text', minLength: 1, maxLength: 64 });
    expect(V.F.code).toStrictEqual({ type: 'string', format: 'text', minLength: 1, maxLength: 32, description: "Delivery code such as 'NG-K7M4-Q9PC' (any case, hyphens optional)" });
    expect(V.DEVICE_HINT).toBe(V.F.device['x-hint']);
    expect(V.SLUG_HINT).toBe(V.F.slug['x-hint']);
  });

  it('times must match RFC 3339 exactly, zone included', () => {
    const rfc = /^Field 'f' must be an RFC 3339 time with a zone such as '2026-05-01T10:00:00Z', or Unix epoch milliseconds\.$/;
    for (const [ok, ms] of [['2026-11-24T12:00:00.1Z', 100], ['2026-11-24T12:00:00.123456789Z', 123], ['2026-11-24T17:30:00+05:30', 0], ['2026-11-24T07:00:00-05:00', 0], ['2026-11-24T07:00-0500', 0]] as const)
      expect(V.time(ok, 'f', NOW), ok).toBe(NOW + ms);
    for (const no of ['x2026-11-24T12:00:00Z', '2026-11-24T12:00:00Zx', '2026-11-24T12:00:00.1234567890Z', '2026-11-24T12:00:00.Z', '2026-11-24 12:00:00Z',
      '26-11-24T12:00:00Z', '2026-1-24T12:00:00Z', '2026-11-4T12:00:00Z', '2026-11-24T2:00:00Z', '2026-11-24T12:0:00Z', '2026-11-24T12:00:0Z',
      '2026-11-24T12Z', '2026-11-24T12:00:00+5:00', '2026-11-24T12:00:00+05:0', '2026-11-24T12:00:00*05:00', '2026-11-24T12:00:00GMT', '12345'])
      expect(err(() => V.time(no, 'f', NOW))[2], no).toMatch(rfc);
    expect(err(() => V.time({}, 'f', NOW))[2]).toMatch(rfc);
    expect(err(() => V.time(['2026-11-24T12:00:00Z'], 'f', NOW))[2]).toMatch(rfc);
    expect(err(() => V.time(false, 'f', NOW))[2]).toMatch(rfc);
  });
});
