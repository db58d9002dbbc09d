// The token of a trip-tracking link: `svctrip_<id>.<expiry>.<signature>`, the link's id, its expiry
// (Unix seconds) and an HMAC-SHA256 of both under the server's signing secret (the one of signed
// static maps, maps/signing.ts, with its own prefix so neither signature passes for the other). A
// forged or altered token fails before any database read; an expired one is known from the token
// alone; a revoked one from the link's row.
import { randomBytes } from 'node:crypto';
import type { Config } from '../../core/config.ts';
import { sign, verify } from '../maps/signing.ts';

export const TRIP_TOKEN_PREFIX = 'svctrip_';
export const TRIP_TOKEN_PATTERN = '^svctrip_[0-9a-f]{24}\\.[0-9]{9,11}\\.[A-Za-z0-9_-]{43}$';
const TOKEN_RE = new RegExp(TRIP_TOKEN_PATTERN);

const signed = (id: string, exp: number) => `trip-link:${id}:${exp}`;

export const newTripId = () => randomBytes(12).toString('hex');

export function tripToken(config: Config, id: string, expiresAt: Date): string {
  const exp = Math.floor(expiresAt.getTime() / 1000);
  return `${TRIP_TOKEN_PREFIX}${id}.${exp}.${sign(config, signed(id, exp))}`;
}

export type TokenCheck = { ok: true; id: string; expiresAt: Date } | { ok: false; reason: 'malformed' | 'forged' | 'expired'; id?: string };

export function checkTripToken(config: Config, token: string, now = Date.now()): TokenCheck {
  if (!TOKEN_RE.test(token)) return { ok: false, reason: 'malformed' };
  const [id, e, sig] = token.slice(TRIP_TOKEN_PREFIX.length).split('.');
  const exp = Number(e);
  if (!verify(config, signed(id, exp), sig)) return { ok: false, reason: 'forged' };
  if (exp * 1000 <= now) return { ok: false, reason: 'expired', id };
  return { ok: true, id, expiresAt: new Date(exp * 1000) };
}
