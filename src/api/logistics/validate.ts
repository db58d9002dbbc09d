// What the logistics declarations share: body field schemas (validated by the declaration before a
// handler runs, failures name the field by its path, "pings[3].lat") and the rules a schema cannot
// say — times relative to the server clock, polygon geometry — with the same 400s.
//
// Stored numbers follow what PostgreSQL accepts: ping speed, heading and accuracy go to `real`
// columns, which refuse magnitudes below ~1e-38 ("out of range for type real"); they are rounded to
// two decimals (1 cm/s, 0.01°, 1 cm) on the way in, so a value such as 1e-50 is stored as 0.
import { HttpError } from '../../http/types.ts';
import { B, type Schema } from '../../http/declaration.ts';
import { LAT, LNG } from '../../core/points.ts';

export type Obj = Record<string, unknown>;

export function invalid(field: string, why: string): HttpError {
  return new HttpError(400, 'invalid_parameter', `Field '${field}' ${why}.`);
}

/** What a non-object is: null, an array or a primitive (objects never reach it). */
const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'string' ? 'a string' : typeof v);

export function object(v: unknown, field: string): Obj {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw invalid(field, `must be an object, got ${describe(v)}`);
  return v as Obj;
}

/** Two decimals: finer than any sensor, and nothing left that a `real` column refuses. */
export const round2 = (x: number) => Math.round(x * 100) / 100 + 0;
/** Rounds an optional measured value (speed, heading, accuracy) as it will be stored. */
export const measured = (x: number | undefined) => (x === undefined ? null : round2(x));

/** Device identifiers: the caller's own names for vehicles or phones. */
export const DEVICE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$';
export const DEVICE_RE = new RegExp(DEVICE_PATTERN);
export const DEVICE_HINT = 'must be 1-64 characters of letters, digits and . _ : @ - (starting with a letter or digit)';
/** Integration slugs: lower-case words joined by hyphens, like 'logistics-partner'. */
export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$';
export const SLUG_HINT = "must be 1-40 lower-case letters, digits and hyphens, not starting or ending with a hyphen (e.g. 'logistics-partner')";

// ---- body field schemas

export const F = {
  lat: { ...LAT, description: 'Latitude, decimal degrees' },
  lng: { ...LNG, description: 'Longitude, decimal degrees' },
  /** Accuracy radius in metres: 0 to 100 km (beyond that a fix says nothing about a doorstep). Stored to 0.01. */
  accuracy: B.num({ min: 0, max: 100_000, description: 'Accuracy radius in metres (stored to 0.01 m)' }),
  time: { type: ['string', 'integer'], maxLength: 40, description: "RFC 3339 with a zone ('2026-05-01T10:00:00Z') or Unix epoch milliseconds; not before 2000 nor more than 5 minutes ahead" } as Schema,
  device: B.text(64, { pattern: DEVICE_PATTERN, hint: DEVICE_HINT, description: 'Your identifier of the vehicle or phone' }),
  slug: B.text(40, { pattern: SLUG_PATTERN, hint: SLUG_HINT }),
  id: B.text(64),
  code: B.text(32, { description: "Delivery code such as 'NG-K7M4-Q9PC' (any case, hyphens optional)" }),
};

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const MIN_TIME = Date.UTC(2000, 0, 1);
/** How far ahead of the server clock a device clock may run before its time is rejected. */
export const MAX_FUTURE_MS = 5 * 60_000;

/**
 * A time field (declared as F.time) in epoch ms. Implausible times (before 2000, or more than
 * 5 minutes ahead of the server clock) are rejected: they are always a device-clock or unit bug
 * (seconds sent as ms).
 */
export function time(v: unknown, field: string, now = Date.now()): number | undefined {
  if (v === undefined) return undefined;
  let ms: number;
  if (typeof v === 'number') {
    ms = v;
  } else {
    if (typeof v !== 'string' || !ISO_RE.test(v)) throw invalid(field, "must be an RFC 3339 time with a zone such as '2026-05-01T10:00:00Z', or Unix epoch milliseconds");
    ms = Date.parse(v);
    if (!Number.isFinite(ms)) throw invalid(field, 'is not a valid date');
  }
  if (ms < MIN_TIME) throw invalid(field, `is before 2000-01-01${typeof v === 'number' ? ' (epoch seconds sent instead of milliseconds?)' : ''}`);
  if (ms > now + MAX_FUTURE_MS) throw invalid(field, 'is more than 5 minutes in the future');
  return ms;
}
