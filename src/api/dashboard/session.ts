// Dashboard sessions. The cookie holds 32 random bytes; the database keeps only their SHA-256,
// with the account and the session's CSRF token. Cookies are HttpOnly and SameSite=Lax, and
// Secure when the dashboard is served over TLS (BASE_URL https, X-Forwarded-Proto https, or
// DASHBOARD_SECURE_COOKIES=1). Every form carries the CSRF token; before sign-in the token is
// a double-submit cookie. A POST whose Origin header names another site is refused as well.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext, Req } from '../../http/types.ts';
import type { Store } from '../../store/index.ts';
import { deleteSession, insertSession, sessionByHash } from '../../store/sessions.ts';
import { HttpError } from '../../http/types.ts';

export const SESSION_COOKIE = 'svc_session';
export const CSRF_COOKIE = 'svc_csrf';
export const SESSION_HOURS = 12;

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const token = () => randomBytes(32).toString('base64url');

export interface Session { account: { id: string; email: string }; csrf: string }

export function cookies(req: Req): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return out;
}

export function secure(req: Req, ctx: AppContext): boolean {
  const c = ctx.config.dashboardSecureCookies;
  if (c !== 'auto') return c === '1';
  return ctx.config.baseUrl.startsWith('https:') || (req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim() === 'https';
}

export function cookie(req: Req, ctx: AppContext, name: string, value: string, maxAgeS: number): string {
  return `${name}=${value}; Path=/dashboard; HttpOnly; SameSite=Lax; Max-Age=${maxAgeS}${secure(req, ctx) ? '; Secure' : ''}`;
}

export async function startSession(store: Store, accountId: string): Promise<{ cookieValue: string; csrf: string }> {
  const value = token();
  const csrf = token();
  await insertSession(store, { idHash: sha(value), accountId, csrf, hours: SESSION_HOURS });
  return { cookieValue: value, csrf };
}

export async function loadSession(req: Req, store: Store): Promise<Session | null> {
  const v = cookies(req).get(SESSION_COOKIE);
  if (!v || v.length > 100) return null;
  const row = await sessionByHash(store, sha(v));
  return row ? { account: { id: row.id, email: row.email }, csrf: row.csrf } : null;
}

export async function endSession(req: Req, store: Store): Promise<void> {
  const v = cookies(req).get(SESSION_COOKIE);
  if (v) await deleteSession(store, sha(v));
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a), y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Refuses a cross-site POST: the Origin (when the browser sends it) must be this host. */
function checkOrigin(req: Req) {
  const origin = req.headers.origin;
  if (!origin || origin === 'null') return;
  let host: string;
  try { host = new URL(origin).host; } catch { throw new HttpError(403, 'forbidden', 'Bad Origin header.'); }
  if (host !== req.headers.host) throw new HttpError(403, 'forbidden', 'Cross-site form submission refused.');
}

/** A signed-in form: the session's token must come back in the `_csrf` field. */
export function checkCsrf(req: Req, s: Session) {
  checkOrigin(req);
  const t = typeof req.body?._csrf === 'string' ? req.body._csrf : '';
  if (!t || !same(t, s.csrf)) throw new HttpError(403, 'forbidden', 'The form expired or did not come from this dashboard (CSRF token mismatch). Reload the page and try again.');
}

/** A form before sign-in: the `_csrf` field must equal the csrf cookie (double submit). */
export function checkPreCsrf(req: Req) {
  checkOrigin(req);
  const c = cookies(req).get(CSRF_COOKIE) ?? '';
  const t = typeof req.body?._csrf === 'string' ? req.body._csrf : '';
  if (!c || !t || !same(c, t)) throw new HttpError(403, 'forbidden', 'The form expired (CSRF token mismatch). Reload the page and try again.');
}

/** The pre-sign-in CSRF token: the one in the cookie, or a new one to set. */
export function preCsrf(req: Req): { token: string; fresh: boolean } {
  const c = cookies(req).get(CSRF_COOKIE);
  if (c && /^[\w-]{43}$/.test(c)) return { token: c, fresh: false };
  return { token: token(), fresh: true };
}

/**
 * Failed sign-ins (and failed sign-ups) per client address: after IP_FAILURES in IP_WINDOW_MS the
 * address is refused for the rest of the window, on top of the per-account lockout (accounts.ts),
 * so one address cannot try many accounts quickly either. Successes are not counted.
 */
const IP_FAILURES = 20;
const IP_WINDOW_MS = 15 * 60_000;
const failures = new Map<string, { n: number; from: number }>();

/** Seconds the address must wait, or 0. */
export function throttled(ip: string | undefined, now = Date.now()): number {
  const a = failures.get(ip ?? '?');
  if (!a || now - a.from > IP_WINDOW_MS || a.n < IP_FAILURES) return 0;
  return Math.ceil((a.from + IP_WINDOW_MS - now) / 1000);
}

export function failedAttempt(ip: string | undefined, now = Date.now()): void {
  const k = ip ?? '?';
  const a = failures.get(k);
  if (!a || now - a.from > IP_WINDOW_MS) {
    if (failures.size > 100_000) failures.clear();
    failures.set(k, { n: 1, from: now });
  } else a.n++;
}
