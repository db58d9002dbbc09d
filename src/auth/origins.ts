// Browser keys (SPEC §5.4): a key restricted to listed web origins, checked against the
// request's Origin (or, for navigations and <img>, the Referer's origin). A live server key
// must not be used from a browser: a request carrying an Origin header with one is refused.
// Kept free of HTTP types so generic CORS code can call it too.

/** "https://Shop.Example:443/path" → "https://shop.example"; null when not an http(s) origin. */
export function normaliseOrigin(s: string): string | null {
  try {
    const u = new URL(s.trim());
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    return u.origin.toLowerCase();
  } catch {
    return null;
  }
}

/** Validates and normalises an origin list for a browser key; throws naming the bad entry. */
export function parseOrigins(list: string[]): string[] {
  const out: string[] = [];
  for (const raw of list) {
    const o = normaliseOrigin(raw);
    if (!o || new URL(raw.trim()).pathname.length > 1) throw new Error(`origin '${raw}' must be scheme://host[:port], e.g. https://shop.example`);
    if (!out.includes(o)) out.push(o);
  }
  if (!out.length) throw new Error('a browser key needs at least one origin (--origins https://shop.example,…)');
  return out;
}

/** The origin a browser request comes from: the Origin header, else the Referer's origin. */
export function requestOrigin(headers: Record<string, string>): string | null {
  const o = headers.origin;
  if (o && o !== 'null') return normaliseOrigin(o);
  return headers.referer ? normaliseOrigin(headers.referer) : null;
}

/** True when the origin is this server's own (the embed page and SDK pages load from it). */
function sameHost(origin: string, headers: Record<string, string>): boolean {
  const host = headers.host?.toLowerCase();
  return !!host && new URL(origin).host === host;
}

export type OriginVerdict = { ok: true; allowOrigin: string | null } | { ok: false; message: string };

/**
 * Whether a key may be used for a browser-facing request with these headers.
 * `origins` is the key's list (browser key) or null (server key); `test` marks sandbox keys.
 * `allowOrigin` is the value for Access-Control-Allow-Origin when the request is cross-origin and allowed.
 */
export function checkOrigin(key: { origins?: string[] | null; test: boolean }, headers: Record<string, string>): OriginVerdict {
  const origin = requestOrigin(headers);
  if (key.origins && key.origins.length) {
    if (!origin) return { ok: false, message: 'This is a browser key: it is accepted only from its allowed origins (the request had no Origin or Referer header).' };
    if (key.origins.includes(origin)) return { ok: true, allowOrigin: origin };
    if (sameHost(origin, headers)) return { ok: true, allowOrigin: null };
    return { ok: false, message: `Origin ${origin} is not allowed for this browser key.` };
  }
  // A server key: refuse it from a browser page (an Origin header), unless it is a sandbox key
  // or the page is our own (the embed page carries the key it was given).
  if (headers.origin && origin && !key.test && !sameHost(origin, headers)) {
    return { ok: false, message: 'A live server key was sent from a browser (Origin header present). Live keys must stay on servers: create a browser key restricted to your site with `npm run keys -- create --project P --plan free --browser --origins https://your.site`.' };
  }
  return { ok: true, allowOrigin: origin && headers.origin ? origin : null };
}
