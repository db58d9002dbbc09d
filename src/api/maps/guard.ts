// The browser check every maps route runs after authentication: browser keys only from their
// origins, live server keys never from a browser page; CORS headers for allowed origins.
import { HttpError, type Req } from '../../http/types.ts';
import { checkOrigin } from '../../auth/origins.ts';

/**
 * Throws 403 naming the reason when the key may not be used from where the request comes.
 * Returns headers to add to the answer (none today: Access-Control-Allow-Origin is written by
 * the server's CORS policy, src/http/cors.ts, which knows browser keys).
 */
export function browserGuard(req: Req): Record<string, string> {
  if (!req.key) return {};
  const v = checkOrigin(req.key, req.headers);
  if (!v.ok) throw new HttpError(403, 'forbidden', v.message);
  return {};
}

/** The key as the client sent it in the URL, to carry into URLs we hand back (styles, TileJSON). */
export function queryKey(req: Req): string | undefined {
  return req.query.get('key') ?? undefined;
}
