// Query-parameter parsing. Every failure is a 400 that names the parameter.
import { HttpError } from './types.ts';

export function bad(name: string, why: string): HttpError {
  return new HttpError(400, 'invalid_parameter', `Parameter '${name}' ${why}.`);
}

export function missing(name: string): HttpError {
  return new HttpError(400, 'missing_parameter', `Parameter '${name}' is required.`);
}

/** First non-empty value among the names (aliases), with the name that supplied it. */
export function pick(q: URLSearchParams, ...names: string[]): { name: string; value: string } | null {
  for (const n of names) {
    const v = q.get(n);
    if (v !== null && v.trim() !== '') return { name: n, value: v.trim() };
  }
  return null;
}

export function str(q: URLSearchParams, names: string | string[], opts: { required?: boolean; max?: number } = {}): string | undefined {
  const ns = Array.isArray(names) ? names : [names];
  const p = pick(q, ...ns);
  if (!p) {
    if (opts.required) throw missing(ns[0]);
    return undefined;
  }
  if (opts.max && p.value.length > opts.max) throw bad(p.name, `is longer than ${opts.max} characters`);
  return p.value;
}

export function num(q: URLSearchParams, names: string | string[], opts: { min?: number; max?: number; def?: number; required?: boolean; integer?: boolean } = {}): number | undefined {
  const ns = Array.isArray(names) ? names : [names];
  const p = pick(q, ...ns);
  if (!p) {
    if (opts.required) throw missing(ns[0]);
    return opts.def;
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(p.value)) throw bad(p.name, `must be a number, got '${p.value.slice(0, 40)}'`);
  const v = Number(p.value);
  if (opts.integer && !Number.isInteger(v)) throw bad(p.name, 'must be a whole number');
  if (opts.min !== undefined && v < opts.min) throw bad(p.name, `must be at least ${opts.min}`);
  if (opts.max !== undefined && v > opts.max) throw bad(p.name, `must be at most ${opts.max}`);
  return v;
}

export const int = (q: URLSearchParams, names: string | string[], opts: { min?: number; max?: number; def?: number; required?: boolean } = {}) =>
  num(q, names, { ...opts, integer: true });

/** "LAT,LNG" → [lat, lng]; validates ranges. */
export function parseLatLng(name: string, value: string): [number, number] {
  const m = /^\s*([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)\s*$/.exec(value);
  if (!m) throw bad(name, `must be 'LAT,LNG' in decimal degrees, got '${value.slice(0, 60)}'`);
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  if (lat < -90 || lat > 90) throw bad(name, `has latitude ${lat} outside -90..90`);
  if (lng < -180 || lng > 180) throw bad(name, `has longitude ${lng} outside -180..180`);
  return [lat, lng];
}

/**
 * A point given either as one "LAT,LNG" parameter (any of `pairNames`) or as separate
 * `lat` and `lng` parameters. Returns null when absent and not required.
 */
export function point(q: URLSearchParams, pairNames: string[], opts: { required?: boolean; separate?: boolean } = {}): [number, number] | null {
  const p = pick(q, ...pairNames);
  if (p) return parseLatLng(p.name, p.value);
  if (opts.separate !== false) {
    const hasLat = q.has('lat') && q.get('lat')!.trim() !== '';
    const hasLng = (q.has('lng') && q.get('lng')!.trim() !== '') || (q.has('lon') && q.get('lon')!.trim() !== '');
    if (hasLat || hasLng) {
      const lat = num(q, 'lat', { required: true, min: -90, max: 90 })!;
      const lng = num(q, ['lng', 'lon'], { required: true, min: -180, max: 180 })!;
      return [lat, lng];
    }
  }
  if (opts.required) throw missing(opts.separate !== false ? `lat/lng (or ${pairNames[0]})` : pairNames[0]);
  return null;
}

export function oneOf<T extends string>(q: URLSearchParams, names: string | string[], allowed: readonly T[], def?: T): T | undefined {
  const ns = Array.isArray(names) ? names : [names];
  const p = pick(q, ...ns);
  if (!p) return def;
  const v = p.value.toLowerCase() as T;
  if (!allowed.includes(v)) throw bad(p.name, `must be one of ${allowed.join(', ')}`);
  return v;
}

/** ISO 3166-1 alpha-2 country code, upper-cased. */
export function country(q: URLSearchParams, names: string | string[] = 'country'): string | undefined {
  const ns = Array.isArray(names) ? names : [names];
  const p = pick(q, ...ns);
  if (!p) return undefined;
  if (!/^[A-Za-z]{2}$/.test(p.value)) throw bad(p.name, 'must be an ISO 3166-1 alpha-2 country code such as NG');
  return p.value.toUpperCase();
}
