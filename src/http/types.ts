// The contract between the HTTP core and the endpoint files in src/api/.
// An endpoint file exports a RouteDef[]; the core adds auth, quotas, validation
// errors, attribution, logging and metrics around every handler.
import type { TaskReply } from '../core/task.ts';
import type { WorkerPool } from '../pool/worker-pool.ts';
import type { Store } from '../store/index.ts';
import type { Config } from '../core/config.ts';
import type { Quota } from '../auth/quota.ts';
import type { Metrics } from './metrics.ts';
import type { BodyOf, Declaration, ParamsOf, QueryOf } from './declaration.ts';
import type { KeyInfo } from '../auth/key-info.ts';

export type { KeyInfo };

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request; Q, B and P are the query, body and path types its declaration gives (QueryOf, BodyOf, ParamsOf). */
export interface Req<Q = Record<string, any>, B = any, P = Record<string, string>> {
  method: Method;
  /** Path below the version prefix, e.g. "/route". */
  path: string;
  /** Named path segments, e.g. { id } for "/places/:id". */
  params: P;
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON body (POST/PUT/PATCH), undefined otherwise. */
  body: B;
  /** Validated query of a declared route: canonical names, coerced types, defaults applied (operation.ts). */
  q: Q;
  key: KeyInfo | null;
  /** Peer address, filled only for routes without a key (scope null). */
  ip?: string;
}

export type Reply =
  | { status?: number; json: Record<string, unknown>; headers?: Record<string, string> }
  | { status?: number; bytes: Uint8Array; contentType: string; headers?: Record<string, string> }
  | { task: TaskReply; headers?: Record<string, string> }
  /**
   * A JSON body in pieces, written in order without joining them (a split matrix's parts);
   * `release` runs once they are written or the client has gone (worker buffers go back).
   */
  | { status?: number; chunks: Uint8Array[]; headers?: Record<string, string>; release?: () => void };

export interface AppContext {
  pool: WorkerPool;
  store: Store;
  config: Config;
  quota: Quota;
  metrics: Metrics;
  /** Requests refused to a known key (403, 429), for the dashboard. */
  refusals?: import('../auth/refusals.ts').Refusals;
  /** Outgoing webhook sender: woken after a write queues an event. */
  webhooks?: import('../webhooks/dispatcher.ts').Dispatcher;
  /** Every registered route (the capability document derives from them). */
  routes: RouteDef[];
  /** Serving, draining or closed (SIGTERM): read by /readyz and the front end. */
  lifecycle?: import('./drain.ts').Lifecycle;
}

export interface RouteDef<D extends Declaration = Declaration> {
  method: Method;
  /** Relative to /api/v1 (and /v1); ":name" marks a path parameter. Absolute paths start with "//" (e.g. "//embed/map"). */
  path: string;
  /** Scope the key needs; null means no key (capabilities, healthz); 'any' means any valid key. */
  scope: string | null;
  /** Capability names (SPEC §1) this route serves. */
  capabilities?: string[];
  /** Whether the capability works end to end in this build (data loaded, op registered). Default: true. */
  ready?: (ctx: AppContext) => boolean;
  /** Short note for the capability document. */
  note?: string;
  /** Why the capability is off when ready() is false (e.g. which part is missing), for the capability document. */
  offNote?: (ctx: AppContext) => string;
  handler: (req: Req<QueryOf<D['query']>, BodyOf<D['body']>, ParamsOf<D['params']>>, ctx: AppContext) => Promise<Reply> | Reply;
  /**
   * Also accept the key as `?key=` (compat layers, tiles, SDK and other browser-loaded URLs whose
   * clients cannot set headers). The request log records the path only, so the key is never logged.
   */
  keyInQuery?: boolean;
  /**
   * The body of every error this route answers (auth, quota, validation, handler errors), for
   * routes that speak another platform's envelope. The HTTP status and headers stay ours (SPEC §7).
   */
  errorBody?: (status: number, code: string, message: string) => Record<string, unknown>;
  /**
   * The body of the 400 answered when the request does not match the declaration, for layers whose
   * clients expect another platform's validation answer (OSRM's `{code, message}`). Takes precedence
   * over errorBody for these errors only; auth and quota errors keep errorBody or ours.
   */
  invalidBody?: (e: InvalidRequest) => Record<string, unknown>;
  /** The declaration: schemas for path, query and body, responses and examples (operation.ts). Validated before the handler. */
  decl: D;
}

/**
 * A route whose handler receives `req.q` and `req.body` typed from its declaration (QueryOf,
 * BodyOf): renaming a parameter in the declaration fails to compile where the handler reads it.
 */
export function route<const D extends Declaration>(r: RouteDef<D>): RouteDef {
  return r as unknown as RouteDef;
}

/** An expected failure, answered as {"error":{"code","message"}} with this status. */
export class HttpError extends Error {
  constructor(public status: number, public code: string, message: string, public headers?: Record<string, string>) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * A request that does not match its route's declaration (operation.ts): a 400 that also says which
 * part and field failed and the JSON Schema keyword that refused it, so a compat layer can answer
 * in its platform's terms (RouteDef.invalidBody).
 */
export class InvalidRequest extends HttpError {
  constructor(
    code: 'invalid_parameter' | 'missing_parameter',
    message: string,
    /** Where the value was: a path segment, the query string or the JSON body. */
    readonly part: 'path' | 'query' | 'body',
    /** The field as the client spelled it (`radiuses[2]`), '' for the body as a whole. */
    readonly field: string,
    /** The schema keyword that refused it (type, enum, minimum, maxItems, required, format…). */
    readonly keyword: string,
  ) {
    super(400, code, message);
    this.name = 'InvalidRequest';
  }
}
