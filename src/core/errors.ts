// Expected failures of domain code (webhooks, network checks, stores), free of HTTP: the HTTP
// layer maps each kind to its status and error code (src/http/domain-errors.ts), so the same rule
// can run from a handler, the dashboard or a background job.

/** A caller's value that breaks a rule; the message names the field: "Field 'url' must use https." */
export class InvalidField extends Error {
  constructor(readonly field: string, readonly why: string) {
    super(`Field '${field}' ${why}.`);
    this.name = 'InvalidField';
  }
}

/** A count a project may not exceed (endpoints, zones…); the message says which and how many. */
export class LimitReached extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LimitReached';
  }
}

/** A dependency that cannot answer now (an upstream down, not configured); retry after `retryAfterS`. */
export class Unavailable extends Error {
  constructor(readonly code: string, message: string, readonly retryAfterS: number) {
    super(message);
    this.name = 'Unavailable';
  }
}

/** A feature this build does not have (a travel mode without a graph); answered 501. */
export class NotImplemented extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotImplemented';
  }
}

/** A change the resource's current state no longer allows (already completed, cancelled…); answered 409. */
export class Conflict extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Conflict';
  }
}
