// Domain errors (src/core/errors.ts) as HTTP answers: one mapping for every handler.
import { InvalidField, LimitReached } from '../core/errors.ts';
import { HttpError } from './types.ts';

/** The HttpError a domain error is answered with, or null for anything else. */
export function httpErrorOf(e: unknown): HttpError | null {
  if (e instanceof HttpError) return e;
  if (e instanceof InvalidField) return new HttpError(400, 'invalid_parameter', e.message);
  if (e instanceof LimitReached) return new HttpError(409, 'limit_reached', e.message);
  return null;
}
