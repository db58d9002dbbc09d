// The alt platform's response envelope: a `status` word, an optional `error_message`, the
// results in the platform's shape and our own fields under `svc` (SPEC §4). HTTP statuses stay
// ours (SPEC §7) and agree with how the platform's official client maps a status word to a code
// (OK and ZERO_RESULTS 200, INVALID_REQUEST 400, REQUEST_DENIED 401/403, NOT_FOUND 404,
// OVER_QUERY_LIMIT 429, UNKNOWN_ERROR 5xx), so a client sees the same outcome either way.
import type { Reply } from '../../../http/types.ts';
import { HttpError } from '../../../http/types.ts';

export const STATUSES = ['OK', 'ZERO_RESULTS', 'INVALID_REQUEST', 'REQUEST_DENIED', 'OVER_QUERY_LIMIT', 'NOT_FOUND', 'UNKNOWN_ERROR'] as const;
export type AltStatus = (typeof STATUSES)[number];

/** The platform's status word for one of our error statuses. */
export function statusWord(http: number): AltStatus {
  if (http === 400 || http === 413 || http === 422) return 'INVALID_REQUEST';
  if (http === 401 || http === 403) return 'REQUEST_DENIED';
  if (http === 404) return 'NOT_FOUND';
  if (http === 429) return 'OVER_QUERY_LIMIT';
  return 'UNKNOWN_ERROR';
}

/**
 * The `errorBody` of a compat route: the status word, the message, the route's result containers
 * left empty (`results: []`, `routes: []`, …) so a client reading them finds no nulls, and our own
 * error object (SPEC §7: `error.code`, `error.message`), which the platform's clients ignore.
 */
export function errorBodyWith(empty: Record<string, unknown>) {
  return (status: number, code: string, message: string): Record<string, unknown> => ({
    ...structuredClone(empty),
    status: statusWord(status),
    error_message: message,
    error: { code, message },
  });
}

/** A successful answer (OK, or ZERO_RESULTS with an optional message). */
export function answer(status: 'OK' | 'ZERO_RESULTS', body: Record<string, unknown>, svc?: Record<string, unknown>, message?: string): Reply {
  return {
    json: { ...body, status, ...(message ? { error_message: message } : {}), ...(svc ? { svc } : {}) },
  };
}

/** The platform's INVALID_REQUEST (400) for a parameter, answered through the route's errorBody. */
export function invalid(param: string, why: string): HttpError {
  return new HttpError(400, 'invalid_parameter', `Parameter '${param}' ${why}.`);
}

/** The platform's NOT_FOUND (404). */
export function notFound(message: string): HttpError {
  return new HttpError(404, 'not_found', message);
}
