// Cross-origin policy. Server-side keys are not bound to origins: a key is a bearer secret,
// sent in the Authorization header (never a cookie), so letting any origin read an answer
// gives a page nothing it could not get by sending the same key itself. Browser keys (origin
// restricted) plug in here: a policy sees the Origin and, on real requests, the key, and
// returns the origin to allow, or null to leave the answer unreadable to that page.
import type { KeyInfo } from './types.ts';
import { normaliseOrigin } from '../auth/origins.ts';

export interface CorsPolicy {
  /** The Access-Control-Allow-Origin value for this origin (key is null on a preflight), or null to refuse. */
  allowOrigin(origin: string, key: KeyInfo | null): string | null;
}

/**
 * Any origin may call with a server key; answers carry no credentials-based access. A browser
 * key's answers are readable only by its listed origins (the maps routes also refuse the
 * request itself from other origins, src/api/maps/guard.ts).
 */
export const OPEN_CORS: CorsPolicy = {
  allowOrigin: (origin, key) => {
    if (!key?.origins?.length) return '*';
    const o = normaliseOrigin(origin);
    return o && key.origins.includes(o) ? origin : null;
  },
};

/** Headers a browser may send: the key and JSON bodies. */
export const CORS_ALLOW_HEADERS = 'Authorization, Content-Type';
/** Headers a page may read besides the CORS-safelisted ones. */
export const CORS_EXPOSE_HEADERS = 'Retry-After, X-Attribution, WWW-Authenticate';
/** Seconds a browser may cache a preflight (Chromium caps it at 7200). */
export const CORS_MAX_AGE = '7200';
