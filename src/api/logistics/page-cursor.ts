// Opaque page cursors of the paginated lists (geofence zones, address verifications): the last
// row's (created_at as PostgreSQL text, full precision; id), base64url JSON. A cursor is checked
// to be exactly what a page writes — an existing date and time, an id of the list's type — so a
// forged one is a 400, never a query PostgreSQL refuses (a 500).
import { HttpError } from '../../http/types.ts';
import { isId } from './ids.ts';

const PG_TIME_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-](\d{2})(:\d{2}){0,2}$/;

/** A timestamptz as PostgreSQL writes it, with a date and time that exist (PostgreSQL refuses month 99). */
export function pgTime(s: string): boolean {
  const m = PG_TIME_RE.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se, , oh] = m.slice(1).map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && t.getUTCHours() === h
    && t.getUTCMinutes() === mi && t.getUTCSeconds() === se && oh <= 15;
}

export const encodeCursor = (at: string, id: string) => Buffer.from(JSON.stringify([at, id])).toString('base64url');

export function decodeCursor(c: string, idPrefix: string): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(c, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' && pgTime(v[0]) && isId(idPrefix, v[1])) return [v[0], v[1]];
  } catch { /* fall through */ }
  throw new HttpError(400, 'invalid_parameter', "Parameter 'cursor' must be a 'next_cursor' value from a previous page.");
}
