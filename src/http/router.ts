// Path matching for the route table. Static paths resolve with one Map lookup;
// patterns with ":param" segments are tried in registration order.
import type { Method, RouteDef } from './types.ts';

export type Match =
  | { kind: 'found'; route: RouteDef; params: Record<string, string>; pattern: string }
  | { kind: 'method'; allow: Method[] }
  | { kind: 'none' };

interface Pattern {
  segs: string[];
  full: string;
  byMethod: Map<Method, RouteDef>;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export const VERSION_PREFIXES = ['/api/v1', '/v1'];

// Dot segments, empty segments and encoded separators or dots (%2e %2f %5c) are what path
// traversal and prefix confusion are made of ("/api/v1//metrics" once reached /metrics).
const NOT_CANONICAL = /\/\/|\/\.{1,2}(?:\/|$)|%2e|%2f|%5c|\\/i;

/** Only canonical paths are routed: anything else is answered 404, never by another route. */
export function isCanonical(url: string): boolean {
  return url.startsWith('/') && !NOT_CANONICAL.test(url);
}

/** "/api/v1/route" → "/route"; "/healthz" → "//healthz" (absolute routes are written with a leading "//"). */
export function normalisePath(url: string): string {
  for (const p of VERSION_PREFIXES) {
    if (url === p) return '/';
    if (url.startsWith(p + '/')) return url.slice(p.length);
  }
  return '/' + url;
}

/** A route's path as clients write it after the version prefix: "//healthz" (absolute) → "/healthz". */
export function displayPath(path: string): string {
  return path.startsWith('//') ? path.slice(1) : path;
}

export class Router {
  private statics = new Map<string, Map<Method, RouteDef>>();
  private patterns: Pattern[] = [];
  readonly routes: RouteDef[] = [];

  add(r: RouteDef) {
    this.routes.push(r);
    if (!r.path.includes(':')) {
      const m = this.statics.get(r.path) ?? new Map();
      if (m.has(r.method)) throw new Error(`route ${r.method} ${r.path} registered twice`);
      m.set(r.method, r);
      this.statics.set(r.path, m);
      return;
    }
    let p = this.patterns.find((x) => x.full === r.path);
    if (!p) {
      p = { segs: r.path.split('/'), full: r.path, byMethod: new Map() };
      this.patterns.push(p);
    }
    if (p.byMethod.has(r.method)) throw new Error(`route ${r.method} ${r.path} registered twice`);
    p.byMethod.set(r.method, r);
  }

  /** Matches of static routes never change: one frozen object each, not one per request. */
  private staticHits = new Map<RouteDef, Match>();

  match(method: Method, path: string): Match {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const s = this.statics.get(trimmed);
    if (s) {
      const r = s.get(method) ?? (method === ('HEAD' as Method) ? s.get('GET') : undefined);
      if (!r) return { kind: 'method', allow: [...s.keys()] };
      let hit = this.staticHits.get(r);
      if (!hit) {
        hit = Object.freeze({ kind: 'found', route: r, params: NO_PARAMS, pattern: trimmed }) as Match;
        this.staticHits.set(r, hit);
      }
      return hit;
    }
    const segs = trimmed.split('/');
    let allow: Method[] | null = null;
    for (const p of this.patterns) {
      if (p.segs.length !== segs.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segs.length; i++) {
        const ps = p.segs[i];
        if (ps.startsWith(':')) {
          if (!segs[i]) { ok = false; break; }
          try { params[ps.slice(1)] = decodeURIComponent(segs[i]); } catch { ok = false; break; }
        } else if (ps !== segs[i]) { ok = false; break; }
      }
      if (!ok) continue;
      const r = p.byMethod.get(method);
      if (r) return { kind: 'found', route: r, params, pattern: p.full };
      allow = [...(allow ?? []), ...p.byMethod.keys()];
    }
    return allow ? { kind: 'method', allow } : { kind: 'none' };
  }
}
