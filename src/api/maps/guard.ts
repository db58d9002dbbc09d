// The browser check every maps route runs after authentication: browser keys only from their
// origins, live server keys never from a browser page; CORS headers for allowed origins.
import { HttpError, type Req } from '../../http/types.ts';
import { checkOrigin } from '../../auth/origins.ts';

/** Response headers to add (CORS), or throws 403 naming the reason. */
export function browserGuard(req: Req): Record<string, string> {
  if (!req.key) return {};
  const v = checkOrigin(req.key, req.headers);
  if (!v.ok) throw new HttpError(403, 'forbidden', v.message);
  return v.allowOrigin ? { 'Access-Control-Allow-Origin': v.allowOrigin, Vary: 'Origin' } : { Vary: 'Origin' };
}

/** The key as the client sent it in the URL, to carry into URLs we hand back (styles, TileJSON). */
export function queryKey(req: Req): string | undefined {
  return req.query.get('key') ?? undefined;
}
