// Guard for operator endpoints (/metrics, /admin/*): `Authorization: Bearer $ADMIN_TOKEN`.
import { timingSafeEqual, createHash } from 'node:crypto';
import { HttpError, type AppContext, type Req } from './types.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function requireAdmin(req: Req, ctx: AppContext): void {
  const token = ctx.config.adminToken;
  if (!token) throw new HttpError(403, 'admin_disabled', 'Operator endpoints are disabled: set ADMIN_TOKEN to enable them.');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!m) throw new HttpError(401, 'unauthorized', 'Send Authorization: Bearer <ADMIN_TOKEN>.', { 'WWW-Authenticate': 'Bearer' });
  if (!timingSafeEqual(digest(m[1]), digest(token))) throw new HttpError(401, 'unauthorized', 'Wrong admin token.', { 'WWW-Authenticate': 'Bearer' });
}
