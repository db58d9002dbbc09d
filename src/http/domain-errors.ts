// Domain errors (src/core/errors.ts) as HTTP answers: one mapping for every handler.
import { Conflict, InvalidField, LimitReached, NotImplemented, Unavailable } from '../core/errors.ts';
import { HttpError } from './types.ts';

/** The HttpError a domain error is answered with, or null for anything else. */
export function httpErrorOf(e: unknown): HttpError | null {
  if (e instanceof HttpError) return e;
  if (e instanceof InvalidField) return new HttpError(400, 'invalid_parameter', e.message);
  if (e instanceof LimitReached) return new HttpError(409, 'limit_reached', e.message);
  if (e instanceof Conflict) return new HttpError(409, 'conflict', e.message);
  if (e instanceof NotImplemented) return new HttpError(501, 'not_implemented', e.message);
  if (e instanceof Unavailable) return new HttpError(503, e.code, e.message, { 'Retry-After': String(e.retryAfterS) });
  return null;
}
