// The uWebSockets.js front end: parse, route, authenticate, limit, call the handler,
// write bytes. Handlers that need compute call the worker pool; nothing heavy runs here.
import uWS from 'uWebSockets.js';
import { randomBytes } from 'node:crypto';
import { ATTRIBUTION_HEADER, withAttribution } from '../core/attribution.ts';
import { Router, normalisePath, displayPath, isCanonical } from './router.ts';
import { Metrics } from './metrics.ts';
import { httpErrorOf } from './domain-errors.ts';
import { HttpError, InvalidRequest, type AppContext, type KeyInfo, type Method, type Reply, type Req, type RouteDef } from './types.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Quota } from '../auth/quota.ts';
import { RequestLog } from './request-log.ts';
import { log } from '../core/log.ts';
import { checkOrigin } from '../auth/origins.ts';
import { validateRequest } from './operation.ts';
import { OPEN_CORS, CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE, type CorsPolicy } from './cors.ts';
import { tooDeep, MAX_JSON_DEPTH } from './json-depth.ts';
import { Overloaded } from '../pool/worker-pool.ts';
import { Lifecycle, graceOver } from './drain.ts';
import { clientAddress } from './client-address.ts';

const STATUS: Record<number, string> = {
  200: '200 OK', 201: '201 Created', 202: '202 Accepted', 204: '204 No Content', 302: '302 Found', 303: '303 See Other', 304: '304 Not Modified',
  400: '400 Bad Request', 401: '401 Unauthorized', 403: '403 Forbidden', 404: '404 Not Found',
  405: '405 Method Not Allowed', 408: '408 Request Timeout', 409: '409 Conflict', 413: '413 Payload Too Large', 415: '415 Unsupported Media Type',
  422: '422 Unprocessable Entity', 429: '429 Too Many Requests', 500: '500 Internal Server Error',
  501: '501 Not Implemented', 502: '502 Bad Gateway', 503: '503 Service Unavailable',
};
// Pre-encoded: handing uWS bytes instead of JS strings saves a conversion per header per response.
const STATUS_BYTES = new Map(Object.entries(STATUS).map(([k, v]) => [Number(k), Buffer.from(v)]));
const statusLine = (s: number) => STATUS_BYTES.get(s) ?? `${s} Status`;
const H_CONTENT_TYPE = Buffer.from('Content-Type');
const H_ATTRIBUTION = Buffer.from('X-Attribution');
const V_ATTRIBUTION = Buffer.from(ATTRIBUTION_HEADER);
const V_JSON = Buffer.from('application/json; charset=utf-8');
const H_NOSNIFF = Buffer.from('X-Content-Type-Options');
const V_NOSNIFF = Buffer.from('nosniff');
const H_CACHE_CONTROL = Buffer.from('Cache-Control');
const V_NO_STORE = Buffer.from('no-store');
const H_ACAO = Buffer.from('Access-Control-Allow-Origin');
const H_ACEH = Buffer.from('Access-Control-Expose-Headers');
const V_ACEH = Buffer.from(CORS_EXPOSE_HEADERS);
const H_VARY = Buffer.from('Vary');
const V_ORIGIN = Buffer.from('Origin');
const EMPTY = new Uint8Array(0);
/** Answer a body still arriving this long after the head with 408 (uSockets cuts the connection at 8-12 s). */
const SLOW_BODY_MS = 7000;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface HttpDeps {
  ctx: AppContext;
  router: Router;
  auth: Authenticator;
  quota: Quota;
  metrics: Metrics;
  /** Cross-origin policy (default: any origin; browser keys restrict it). */
  cors?: CorsPolicy;
}

export function errorReply(status: number, code: string, message: string, headers?: Record<string, string>): Reply {
  return { status, json: { error: { code, message } }, headers };
}

/** An error in the route's own envelope when it declares one (the alt platform's layer), else ours. */
function routeError(route: RouteDef, status: number, code: string, message: string, headers?: Record<string, string>): Reply {
  return route.errorBody ? { status, json: route.errorBody(status, code, message), headers } : errorReply(status, code, message, headers);
}

const UNAUTHORIZED: Record<string, string> = {
  malformed: "Missing or malformed API key: send 'Authorization: Bearer svc_live_…' or 'svc_test_…'.",
  unknown: 'Unknown API key.',
  revoked: 'This API key has been revoked.',
};

/** An HTML form body → an object; a name given more than once (checkboxes) → an array. */
function formBody(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const cur = out[k];
    out[k] = cur === undefined ? v : Array.isArray(cur) ? [...cur, v] : [cur, v];
  }
  return out;
}

function bearerFromQuery(q: URLSearchParams): string | undefined {
  const k = q.get('key');
  return k ? `Bearer ${k}` : undefined;
}

/** One request in progress: what outlives uWS's request object, and whether it is answered. */
class Exchange {
  readonly t0 = performance.now();
  aborted = false;
  done = false;
  onAbort: (() => void) | null = null;
  /** The request body has not all arrived: answering now must close the connection, or its rest would be read as a request. */
  bodyPending = false;
  /** Close the connection after answering (framing we cannot trust). */
  close = false;
  /** Answers carry personal data: never cached by a browser or a shared cache. */
  personal = false;
  origin: string | undefined;
  timer: NodeJS.Timeout | null = null;
  constructor(readonly res: uWS.HttpResponse, readonly method: string, readonly url: string) {}
}

export class HttpServer {
  private app: uWS.TemplatedApp;
  private listen: uWS.us_listen_socket | null = null;
  private life: Lifecycle;
  private drainWaiters: (() => void)[] = [];
  private reqLog: RequestLog;
  private cors: CorsPolicy;
  /** Peers that sent a request we could not frame in this event-loop turn (see onRequest). */
  private poisoned = new Set<string>();
  port = 0;

  constructor(private d: HttpDeps) {
    this.reqLog = new RequestLog(d.ctx.config.logRequests);
    this.cors = d.cors ?? OPEN_CORS;
    this.life = d.ctx.lifecycle ??= new Lifecycle();
    this.app = uWS.App();
    this.app.any('/*', (res, req) => this.onRequest(res, req));
  }

  start(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      // Exclusive: uSockets otherwise sets SO_REUSEPORT, and a second server started on the same
      // port would silently share its traffic instead of failing.
      const listen = this.app.listen as unknown as (h: string, p: number, o: number, cb: (s: uWS.us_listen_socket | false) => void) => void;
      listen.call(this.app, host, port, (uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT?: number }).LIBUS_LISTEN_EXCLUSIVE_PORT ?? 1, (sock) => {
        if (!sock) return reject(new Error(`cannot listen on ${host}:${port}: the port is in use or not available`));
        this.listen = sock;
        this.port = uWS.us_socket_local_port(sock);
        resolve(this.port);
      });
    });
  }

  /**
   * Stop accepting connections; for DRAIN_GRACE_MS keep serving requests on open connections,
   * each answer closing its connection (drain.ts says why); then refuse, and resolve once every
   * in-flight request has been answered.
   */
  async drain(): Promise<void> {
    this.life.startDrain();
    if (this.listen) {
      uWS.us_listen_socket_close(this.listen);
      this.listen = null;
    }
    await graceOver(this.d.ctx.config.drainGraceMs);
    this.life.close();
    if (this.d.metrics.inFlight > 0) await new Promise<void>((r) => this.drainWaiters.push(r));
    this.reqLog.flush();
  }

  close() {
    (this.app as unknown as { close?: () => void }).close?.();
  }

  private onRequest(res: uWS.HttpResponse, ureq: uWS.HttpRequest) {
    // uWS's request object lives only until this function returns: copy what we need now.
    // Methods are case-sensitive (RFC 9110 §9.1): "get" is not GET.
    const method = ureq.getCaseSensitiveMethod();
    const url = ureq.getUrl();
    const rawQuery = ureq.getQuery() ?? '';
    const headers: Record<string, string> = {};
    let framing: string | null = null;
    ureq.forEach((k, v) => {
      // uWS frames the body by the first Content-Length; a proxy in front may use the last.
      // Two different lengths (or a length beside chunked coding) is how requests are smuggled.
      if (k === 'content-length' && headers[k] !== undefined && headers[k] !== v) framing = 'Conflicting Content-Length headers.';
      headers[k] = v;
    });
    if (headers['transfer-encoding'] !== undefined && headers['content-length'] !== undefined) framing = 'Content-Length and Transfer-Encoding together.';
    const ex = new Exchange(res, method, url);
    ex.origin = headers.origin;
    res.onAborted(() => { ex.aborted = true; ex.onAbort?.(); });
    this.d.metrics.inFlight++;
    if (this.poisoned.size && this.poisoned.has(remote(res))) {
      // Bytes that followed a request we could not frame, which uWS parsed as a request of their
      // own: refused, never served (closing instead would discard the 400 still being written).
      ex.close = true;
      return this.finish(ex, errorReply(400, 'bad_request', 'Follows a request that could not be framed; not served.'), 'unmatched', null);
    }
    if (framing) {
      // uWS 20.30 keeps parsing what follows on the connection even after an answer marked
      // Connection: close, so whatever comes from this peer in the same read is dropped, not served.
      if (!this.poisoned.size) setImmediate(() => this.poisoned.clear());
      this.poisoned.add(remote(res));
      ex.close = true;
      return this.finish(ex, errorReply(400, 'bad_request', `${framing} The request cannot be framed safely.`), 'unmatched', null);
    }

    if (!isCanonical(url)) return this.finish(ex, errorReply(404, 'not_found', 'No endpoint at this path: only canonical paths are served (no empty or dot segments, no encoded dots or slashes).'), 'unmatched', null);
    const path = normalisePath(url);
    if (method === 'OPTIONS' || !METHODS.has(method)) return this.options(ex, path, url);
    const m = this.d.router.match(method as Method, path);
    if (m.kind === 'none') return this.finish(ex, errorReply(404, 'not_found', `No endpoint at ${url}. See GET /api/v1/capabilities.`), 'unmatched', null);
    if (m.kind === 'method') {
      const allow = allowHeader(m.allow);
      return this.finish(ex, errorReply(405, 'method_not_allowed', `${method} is not allowed on ${url}; allowed: ${allow}.`, { Allow: allow }), 'unmatched', null);
    }
    const route = m.route;
    ex.personal = isPersonal(route);
    let routeName = this.routeNames.get(route);
    if (routeName === undefined) this.routeNames.set(route, (routeName = `${route.method} ${displayPath(route.path)}`));
    const req: Req = {
      method: route.method, path, params: m.params, query: new URLSearchParams(rawQuery), headers, body: undefined, q: {}, key: null,
    };
    // Only keyless routes (the dashboard's login throttle) need the peer address: the hot path skips it.
    if (route.scope === null) req.ip = clientAddress(Buffer.from(res.getRemoteAddressAsText()).toString(), headers['x-real-ip'], this.d.ctx.config.trustProxy);

    if (!BODY_METHODS.has(method)) {
      void this.serve(ex, req, route, routeName, null);
      return;
    }
    const limit = this.d.ctx.config.maxBodyBytes;
    const declared = Number(headers['content-length'] ?? 0);
    if (declared > limit) {
      ex.bodyPending = true;
      return this.finish(ex, errorReply(413, 'payload_too_large', `Request body over ${limit} bytes.`), routeName, null);
    }
    void this.serve(ex, req, route, routeName, this.readBody(ex, limit));
  }

  /**
   * Collect the body as bytes while the key is checked; it is decoded and parsed only once the
   * request is admitted, so an unauthenticated body costs a copy, not a parse.
   */
  private readBody(ex: Exchange, limit: number): Promise<string> {
    ex.bodyPending = true;
    const body = new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      // A client that disconnects mid-body never sends the last chunk.
      ex.onAbort = () => reject(new HttpError(400, 'client_aborted', 'Client closed the connection.'));
      // uSockets closes a connection 8-12 s after the request head however fast the body still
      // flows (its idle timer is not reset by body data): answer before that rather than cut silently.
      ex.timer = setTimeout(() => reject(new HttpError(408, 'request_timeout',
        `The request body did not arrive within ${SLOW_BODY_MS / 1000} s; send it faster, in smaller batches, or through a proxy that buffers request bodies.`)), SLOW_BODY_MS);
      ex.timer.unref();
      ex.res.onData((ab, isLast) => {
        if (ex.done || ex.aborted) return;
        size += ab.byteLength;
        if (size > limit) return reject(new HttpError(413, 'payload_too_large', `Request body over ${limit} bytes.`));
        chunks.push(Buffer.from(ab.slice(0))); // uWS reuses the chunk's memory after this callback
        if (!isLast) return;
        ex.bodyPending = false;
        ex.onAbort = null;
        if (ex.timer) clearTimeout(ex.timer);
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
    });
    body.catch(() => {}); // an early answer (401, 403, 429) may never look at it
    return body;
  }

  /** OPTIONS (CORS preflight or plain) and methods the API does not use: 204 or 405 with Allow. */
  private options(ex: Exchange, path: string, url: string) {
    const m = this.d.router.match('OPTIONS' as Method, path);
    if (m.kind === 'none') return this.finish(ex, errorReply(404, 'not_found', `No endpoint at ${url}. See GET /api/v1/capabilities.`), 'unmatched', null);
    const allow = allowHeader(m.kind === 'method' ? m.allow : [m.route.method]);
    if (ex.method !== 'OPTIONS') {
      return this.finish(ex, errorReply(405, 'method_not_allowed', `${ex.method} is not supported on ${url}; allowed: ${allow}.`, { Allow: allow }), 'unmatched', null);
    }
    const headers: Record<string, string> = { Allow: allow };
    if (ex.origin !== undefined) {
      headers['Access-Control-Allow-Methods'] = allow;
      headers['Access-Control-Allow-Headers'] = CORS_ALLOW_HEADERS;
      headers['Access-Control-Max-Age'] = CORS_MAX_AGE;
    }
    this.finish(ex, { status: 204, bytes: EMPTY, contentType: '', headers }, 'OPTIONS', null);
  }

  /** Route names for metrics and logs ("GET /route"), made once per route rather than per request. */
  private routeNames = new Map<RouteDef, string>();

  private finish(ex: Exchange, reply: Reply, route: string, key: KeyInfo | null) {
    if (ex.timer) clearTimeout(ex.timer);
    const status = this.write(ex, reply, key);
    this.d.metrics.inFlight--;
    const ms = performance.now() - ex.t0;
    this.d.metrics.observe(route, status, ms / 1000);
    this.reqLog.add(ex.method, ex.url, route, status, ms, key);
    if (this.d.metrics.inFlight === 0 && this.drainWaiters.length) this.drainWaiters.splice(0).forEach((f) => f());
  }

  /** Authenticate, admit, run the handler and answer; never throws. */
  private async serve(ex: Exchange, req: Req, route: RouteDef, routeName: string, body: Promise<string> | null): Promise<void> {
    let reply: Reply;
    try {
      reply = await this.handle(req, route, body);
    } catch (thrown) {
      const e = httpErrorOf(thrown) ?? thrown;
      if (e instanceof InvalidRequest && route.invalidBody) reply = { status: 400, json: route.invalidBody(e) };
      else if (e instanceof HttpError) reply = routeError(route, e.status, e.code, e.message, e.headers);
      else if (e instanceof Overloaded) {
        this.d.quota.rejections.overloaded++;
        reply = routeError(route, 503, 'overloaded', 'The server is at capacity and could not answer in time; retry after the number of seconds in Retry-After.',
          { 'Retry-After': String(e.retryAfter) });
      } else {
        const id = randomBytes(6).toString('hex');
        log.error('unhandled', { error_id: id, route: routeName, error: String((e as Error)?.stack ?? e) });
        reply = routeError(route, 500, 'internal', `Internal error (reference ${id}). Retry with exponential back-off.`);
      }
    }
    this.finish(ex, reply, routeName, req.key);
  }

  private async handle(req: Req, route: RouteDef, body: Promise<string> | null): Promise<Reply> {
    if (this.life.phase === 'closed') return routeError(route, 503, 'shutting_down', 'The server is shutting down; retry shortly.');
    // Key, scope and quota before the body is even decoded: refusing costs no parse.
    if (route.scope !== null) {
      const header = req.headers.authorization ?? (route.keyInQuery ? bearerFromQuery(req.query) : undefined);
      const a = this.d.auth.lookupCached(header) ?? (await this.d.auth.lookup(header));
      if (!a.ok) {
        const why = a.reason === 'malformed' && route.keyInQuery ? `${UNAUTHORIZED.malformed} This endpoint also takes it as ?key=.` : UNAUTHORIZED[a.reason];
        return routeError(route, 401, 'unauthorized', why, { 'WWW-Authenticate': 'Bearer' });
      }
      const key = (req.key = a.key);
      if (route.scope !== 'any' && !key.scopes.includes(route.scope)) {
        this.d.ctx.refusals?.record(key, 403, 'forbidden', `${route.method} ${displayPath(route.path)}`);
        return routeError(route, 403, 'forbidden', `This key lacks the '${route.scope}' scope needed for ${route.method} ${displayPath(route.path)}.`);
      }
      if (key.origins?.length) {
        // A browser key is used only from its listed origins, on every route (SPEC §5.4).
        const o = checkOrigin(key, req.headers);
        if (!o.ok) {
          this.d.ctx.refusals?.record(key, 403, 'origin_not_allowed', `${route.method} ${displayPath(route.path)}`);
          return errorReply(403, 'forbidden', o.message);
        }
      }
      const admitted = this.d.quota.admit(key);
      const v = admitted instanceof Promise ? await admitted : admitted;
      if (!v.ok) {
        this.d.ctx.refusals?.record(key, 429, v.code, `${route.method} ${displayPath(route.path)}`);
        return routeError(route, 429, v.code, v.message, { 'Retry-After': String(v.retryAfter) });
      }
    }
    if (body) {
      const text = await body;
      if ((req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        // HTML forms (the dashboard), an empty one included; their declared schemas validate the result
        req.body = formBody(text);
      } else if (text.trim() !== '') {
        if (tooDeep(text)) throw new HttpError(400, 'invalid_json', `Request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`);
        try { req.body = JSON.parse(text); } catch (e) {
          throw new HttpError(400, 'invalid_json', `Request body is not valid JSON: ${(e as Error).message}`);
        }
      }
    }
    if (route.decl) validateRequest(route, req);
    return route.handler(req, this.d.ctx);
  }

  /** Write a reply unless the client went away; returns the status written. */
  private write(ex: Exchange, reply: Reply, key: KeyInfo | null): number {
    if (ex.done) return 0;
    ex.done = true;
    let status: number;
    let body: string | Uint8Array | Uint8Array[];
    let type: string | Buffer = V_JSON;
    if ('chunks' in reply) {
      status = reply.status ?? 200;
      body = reply.chunks;
    } else if ('task' in reply) {
      status = reply.task.status;
      body = reply.task.body;
    } else if ('bytes' in reply) {
      status = reply.status ?? 200;
      body = reply.bytes;
      type = reply.contentType;
    } else {
      status = reply.status ?? 200;
      body = withAttribution(reply.json);
    }
    const release = 'task' in reply ? reply.task.release : 'chunks' in reply ? reply.release : undefined;
    if (ex.aborted) { release?.(); return status; }
    const res = ex.res, head = ex.method === 'HEAD';
    const close = ex.close || ex.bodyPending || this.life.draining;
    const origin = ex.origin === undefined ? null : this.cors.allowOrigin(ex.origin, key);
    let streaming = false;
    res.cork(() => {
      res.writeStatus(statusLine(status));
      if (status !== 204) res.writeHeader(H_CONTENT_TYPE, type);
      res.writeHeader(H_ATTRIBUTION, V_ATTRIBUTION);
      res.writeHeader(H_NOSNIFF, V_NOSNIFF);
      if (ex.personal) res.writeHeader(H_CACHE_CONTROL, V_NO_STORE);
      if (origin !== null) {
        res.writeHeader(H_ACAO, origin);
        res.writeHeader(H_ACEH, V_ACEH);
        if (origin !== '*') res.writeHeader(H_VARY, V_ORIGIN);
      }
      if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) res.writeHeader(k, v);
      if (Array.isArray(body)) {
        const total = body.reduce((t, c) => t + c.byteLength, 0);
        if (head) res.endWithoutBody(total, close);
        else if (close) res.end(Buffer.concat(body), close);
        else { streaming = true; stream(ex, body, total, release); }
      } else if (status === 204) res.endWithoutBody(0, close);
      else if (head) res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength, close);
      else res.end(body, close);
    });
    // uWS has sent or copied the body: its buffer can go back to the worker (a stream releases its own)
    if (!streaming) release?.();
    return status;
  }
}

/**
 * Writes a body given as pieces as the socket takes it (tryEnd, then onWritable), so a body of
 * many MB is neither joined into one buffer nor copied into uWS's backpressure buffer.
 */
function stream(ex: Exchange, chunks: Uint8Array[], total: number, release?: () => void) {
  const res = ex.res;
  let i = 0, start = 0; // the piece being written, and where it starts in the body
  const pump = (offset: number): boolean => {
    for (; i < chunks.length; start += chunks[i].byteLength, i++) {
      if (ex.aborted) return finished();
      const c = chunks[i], from = offset - start;
      if (from >= c.byteLength) continue;
      const [ok, done] = res.tryEnd(from > 0 ? c.subarray(from) : c, total);
      if (done) return finished();
      if (!ok) return false;
      offset = start + c.byteLength;
    }
    return finished();
  };
  const finished = () => { release?.(); return true; };
  if (!pump(0)) res.onWritable(pump);
}

const remote = (res: uWS.HttpResponse) => Buffer.from(res.getRemoteAddressAsText()).toString();

/** The Allow header for a path's routes: HEAD wherever GET is, and OPTIONS everywhere. */
function allowHeader(methods: string[]): string {
  const set = new Set(methods);
  if (set.has('GET')) set.add('HEAD');
  set.add('OPTIONS');
  return [...set].join(', ');
}

/** Scopes whose answers carry personal data (recipients, positions, photos, usage). */
const PERSONAL_SCOPES = new Set(['logistics', 'tracking', 'fleet']);
const isPersonal = (r: RouteDef) => (r.scope !== null && PERSONAL_SCOPES.has(r.scope)) || r.path === '/usage';
