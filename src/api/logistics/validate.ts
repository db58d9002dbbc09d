// JSON body validation. Every failure is a 400 naming the field by its path
// ("pings[3].lat"), so a caller can fix the exact value; nothing here ever throws
// anything but HttpError, whatever the body holds.
import { HttpError } from '../../http/types.ts';

export type Obj = Record<string, unknown>;

export function invalid(field: string, why: string): HttpError {
  return new HttpError(400, 'invalid_parameter', `Field '${field}' ${why}.`);
}

export function required(field: string): HttpError {
  return new HttpError(400, 'missing_parameter', `Field '${field}' is required.`);
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v === 'string' ? 'a string' : typeof v);

/** The request body as a JSON object (not an array, not a scalar). */
export function bodyObject(body: unknown): Obj {
  if (body === undefined) throw new HttpError(400, 'missing_parameter', 'A JSON object body is required (Content-Type: application/json).');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'invalid_parameter', `The request body must be a JSON object, got ${describe(body)}.`);
  }
  return body as Obj;
}

export function object(v: unknown, field: string): Obj {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw invalid(field, `must be an object, got ${describe(v)}`);
  return v as Obj;
}

/** Own property only: a body's "__proto__" or "constructor" never reads through the prototype. */
export const has = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined && o[k] !== null;
const get = (o: Obj, k: string) => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

interface NumOpts { min?: number; max?: number; integer?: boolean }

export function number(o: Obj, k: string, field: string, opts: NumOpts & { required: true }): number;
export function number(o: Obj, k: string, field: string, opts?: NumOpts & { required?: boolean }): number | undefined;
export function number(o: Obj, k: string, field: string, opts: NumOpts & { required?: boolean } = {}): number | undefined {
  const v = get(o, k);
  if (v === undefined || v === null) {
    if (opts.required) throw required(field);
    return undefined;
  }
  if (typeof v !== 'number') throw invalid(field, `must be a number, got ${describe(v)}`);
  if (!Number.isFinite(v)) throw invalid(field, 'must be a finite number');
  if (opts.integer && !Number.isInteger(v)) throw invalid(field, 'must be a whole number');
  if (opts.min !== undefined && v < opts.min) throw invalid(field, `must be at least ${opts.min}`);
  if (opts.max !== undefined && v > opts.max) throw invalid(field, `must be at most ${opts.max}`);
  return v;
}

interface StrOpts { max?: number; min?: number; pattern?: RegExp; patternHint?: string }

export function string(o: Obj, k: string, field: string, opts: StrOpts & { required: true }): string;
export function string(o: Obj, k: string, field: string, opts?: StrOpts & { required?: boolean }): string | undefined;
export function string(o: Obj, k: string, field: string, opts: StrOpts & { required?: boolean } = {}): string | undefined {
  const v = get(o, k);
  if (v === undefined || v === null) {
    if (opts.required) throw required(field);
    return undefined;
  }
  if (typeof v !== 'string') throw invalid(field, `must be a string, got ${describe(v)}`);
  const s = v.trim();
  if (s === '') {
    if (opts.required) throw required(field);
    return undefined;
  }
  if (opts.min !== undefined && s.length < opts.min) throw invalid(field, `must be at least ${opts.min} characters`);
  if (s.length > (opts.max ?? 500)) throw invalid(field, `must be at most ${opts.max ?? 500} characters`);
  // Control characters have no place in names and references (and break logs and CSV exports).
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s)) throw invalid(field, 'contains control characters');
  if (opts.pattern && !opts.pattern.test(s)) throw invalid(field, opts.patternHint ?? 'has an invalid format');
  return s;
}

export function boolean(o: Obj, k: string, field: string): boolean | undefined {
  const v = get(o, k);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw invalid(field, `must be true or false, got ${describe(v)}`);
  return v;
}

export function oneOf<T extends string>(o: Obj, k: string, field: string, allowed: readonly T[], opts: { required?: boolean } = {}): T | undefined {
  const s = string(o, k, field, { required: opts.required, max: 64 });
  if (s === undefined) return undefined;
  const v = s.toLowerCase() as T;
  if (!allowed.includes(v)) throw invalid(field, `must be one of ${allowed.join(', ')}`);
  return v;
}

export function array(o: Obj, k: string, field: string, opts: { max: number; min?: number; required?: boolean }): unknown[] | undefined {
  const v = get(o, k);
  if (v === undefined || v === null) {
    if (opts.required) throw required(field);
    return undefined;
  }
  if (!Array.isArray(v)) throw invalid(field, `must be an array, got ${describe(v)}`);
  if (v.length < (opts.min ?? 0)) throw invalid(field, `must hold at least ${opts.min} item(s)`);
  if (v.length > opts.max) throw invalid(field, `may hold at most ${opts.max} items, got ${v.length}`);
  return v;
}

export const lat = (o: Obj, field = 'lat', k = 'lat') => number(o, k, field, { required: true, min: -90, max: 90 });
export const lng = (o: Obj, field = 'lng', k = 'lng') => number(o, k, field, { required: true, min: -180, max: 180 });

/** Accuracy radius in metres: 0 to 100 km (beyond that a fix says nothing about a doorstep). */
export const accuracy = (o: Obj, field: string, k = 'accuracy_m') => number(o, k, field, { min: 0, max: 100_000 });

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const MIN_TIME = Date.UTC(2000, 0, 1);
/** How far ahead of the server clock a device clock may run before its time is rejected. */
export const MAX_FUTURE_MS = 5 * 60_000;

/**
 * A point in time: an RFC 3339 string with a zone ("2026-05-01T10:00:00Z") or Unix epoch
 * milliseconds. Implausible times (before 2000, or more than 5 minutes ahead of the server
 * clock) are rejected: they are always a device-clock or unit bug (seconds sent as ms).
 */
export function time(o: Obj, k: string, field: string, opts: { required?: boolean; now?: number } = {}): number | undefined {
  const v = get(o, k);
  if (v === undefined || v === null) {
    if (opts.required) throw required(field);
    return undefined;
  }
  let ms: number;
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || !Number.isInteger(v)) throw invalid(field, 'must be whole Unix epoch milliseconds or an RFC 3339 time');
    ms = v;
  } else if (typeof v === 'string') {
    if (!ISO_RE.test(v.trim())) throw invalid(field, "must be an RFC 3339 time with a zone such as '2026-05-01T10:00:00Z', or Unix epoch milliseconds");
    ms = Date.parse(v.trim());
    if (!Number.isFinite(ms)) throw invalid(field, 'is not a valid date');
  } else throw invalid(field, `must be a time (RFC 3339 string or epoch milliseconds), got ${describe(v)}`);
  if (ms < MIN_TIME) throw invalid(field, `is before 2000-01-01${typeof v === 'number' ? ' (epoch seconds sent instead of milliseconds?)' : ''}`);
  if (ms > (opts.now ?? Date.now()) + MAX_FUTURE_MS) throw invalid(field, 'is more than 5 minutes in the future');
  return ms;
}

/** Device identifiers: the caller's own names for vehicles or phones. */
export const DEVICE_RE = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$/;
export const DEVICE_HINT = "must be 1-64 characters of letters, digits and . _ : @ - (starting with a letter or digit)";

/** Integration slugs: lower-case words joined by hyphens, like 'logistics-partner'. */
export const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
export const SLUG_HINT = "must be 1-40 lower-case letters, digits and hyphens, not starting or ending with a hyphen (e.g. 'logistics-partner')";
