// The uWebSockets.js front end: parse, route, authenticate, limit, call the handler,
// write bytes. Handlers that need compute call the worker pool; nothing heavy runs here.
import uWS from 'uWebSockets.js';
import { randomBytes } from 'node:crypto';
import { ATTRIBUTION_HEADER, withAttribution } from '../core/attribution.ts';
import { Router, normalisePath, displayPath, isCanonical } from './router.ts';
import { Metrics } from './metrics.ts';
import { HttpError, type AppContext, type KeyInfo, type Method, type Reply, type Req, type RouteDef } from './types.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Limits } from '../auth/limits.ts';
import { RequestLog } from './request-log.ts';
import { log } from '../core/log.ts';
import { compileRoutes, validateRequest } from './operation.ts';

const STATUS: Record<number, string> = {
  200: '200 OK', 201: '201 Created', 202: '202 Accepted', 204: '204 No Content',
  400: '400 Bad Request', 401: '401 Unauthorized', 403: '403 Forbidden', 404: '404 Not Found',
  405: '405 Method Not Allowed', 409: '409 Conflict', 413: '413 Payload Too Large', 415: '415 Unsupported Media Type',
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

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface HttpDeps {
  ctx: AppContext;
  router: Router;
  auth: Authenticator;
  limits: Limits;
  metrics: Metrics;
}

export function errorReply(status: number, code: string, message: string, headers?: Record<string, string>): Reply {
  return { status, json: { error: { code, message } }, headers };
}

const UNAUTHORIZED: Record<string, string> = {
  malformed: "Missing or malformed API key: send 'Authorization: Bearer svc_live_…' or 'svc_test_…'.",
  unknown: 'Unknown API key.',
  revoked: 'This API key has been revoked.',
};

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
  constructor(readonly res: uWS.HttpResponse, readonly method: string, readonly url: string) {}
}

export class HttpServer {
  private app: uWS.TemplatedApp;
  private listen: uWS.us_listen_socket | null = null;
  private draining = false;
  private drainWaiters: (() => void)[] = [];
  private reqLog: RequestLog;
  port = 0;

  constructor(private d: HttpDeps) {
    this.reqLog = new RequestLog(d.ctx.config.logRequests);
    compileRoutes(d.router.routes);
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

  /** Stop accepting, then resolve once every in-flight request has been answered. */
  async drain(): Promise<void> {
    this.draining = true;
    if (this.listen) {
      uWS.us_listen_socket_close(this.listen);
      this.listen = null;
    }
    if (this.d.metrics.inFlight > 0) await new Promise<void>((r) => this.drainWaiters.push(r));
    this.reqLog.flush();
  }

  close() {
    (this.app as unknown as { close?: () => void }).close?.();
  }

  private onRequest(res: uWS.HttpResponse, ureq: uWS.HttpRequest) {
    // uWS's request object lives only until this function returns: copy what we need now.
    const method = ureq.getCaseSensitiveMethod().toUpperCase();
    const url = ureq.getUrl();
    const rawQuery = ureq.getQuery() ?? '';
    const headers: Record<string, string> = {};
    ureq.forEach((k, v) => { headers[k] = v; });
    const ex = new Exchange(res, method, url);
    res.onAborted(() => { ex.aborted = true; ex.onAbort?.(); });
    this.d.metrics.inFlight++;

    if (!METHODS.has(method)) return this.finish(ex, errorReply(405, 'method_not_allowed', `Method ${method} is not supported.`), 'unmatched', null);
    if (!isCanonical(url)) return this.finish(ex, errorReply(404, 'not_found', 'No endpoint at this path: only canonical paths are served (no empty or dot segments, no encoded dots or slashes).'), 'unmatched', null);
    const path = normalisePath(url);
    const m = this.d.router.match(method as Method, path);
    if (m.kind === 'none') return this.finish(ex, errorReply(404, 'not_found', `No endpoint at ${url}. See GET /api/v1/capabilities.`), 'unmatched', null);
    if (m.kind === 'method') {
      const allow = [...new Set(m.allow)].join(', ');
      return this.finish(ex, errorReply(405, 'method_not_allowed', `${method} is not allowed on ${url}; allowed: ${allow}.`, { Allow: allow }), 'unmatched', null);
    }
    const route = m.route;
    let routeName = this.routeNames.get(route);
    if (routeName === undefined) this.routeNames.set(route, (routeName = `${route.method} ${displayPath(route.path)}`));
    const req: Req = {
      method: route.method, path, params: m.params, query: new URLSearchParams(rawQuery), headers, body: undefined, q: {}, key: null,
    };

    if (!BODY_METHODS.has(method)) {
      void this.serve(ex, req, route, routeName);
      return;
    }
    const limit = this.d.ctx.config.maxBodyBytes;
    const declared = Number(headers['content-length'] ?? 0);
    if (declared > limit) {
      return this.finish(ex, errorReply(413, 'payload_too_large', `Request body over ${limit} bytes.`), routeName, null);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    // A client that disconnects mid-body never sends the last chunk: account for it here.
    ex.onAbort = () => { if (!ex.done) this.finish(ex, errorReply(400, 'client_aborted', 'Client closed the connection.'), routeName, null); };
    res.onData((ab, isLast) => {
      if (ex.done || ex.aborted) return;
      size += ab.byteLength;
      if (size > limit) {
        this.finish(ex, errorReply(413, 'payload_too_large', `Request body over ${limit} bytes.`), routeName, null);
        return;
      }
      chunks.push(Buffer.from(ab.slice(0))); // uWS reuses the chunk's memory after this callback
      if (!isLast) return;
      ex.onAbort = null;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() !== '') {
        try { req.body = JSON.parse(text); } catch (e) {
          return this.finish(ex, errorReply(400, 'invalid_json', `Request body is not valid JSON: ${(e as Error).message}`), routeName, null);
        }
      }
      void this.serve(ex, req, route, routeName);
    });
  }

  /** Route names for metrics and logs ("GET /route"), made once per route rather than per request. */
  private routeNames = new Map<RouteDef, string>();

  private finish(ex: Exchange, reply: Reply, route: string, key: KeyInfo | null) {
    const status = this.write(ex, reply);
    this.d.metrics.inFlight--;
    const ms = performance.now() - ex.t0;
    this.d.metrics.observe(route, status, ms / 1000);
    this.reqLog.add(ex.method, ex.url, route, status, ms, key);
    if (this.d.metrics.inFlight === 0 && this.drainWaiters.length) this.drainWaiters.splice(0).forEach((f) => f());
  }

  /** Authenticate, admit, run the handler and answer; never throws. */
  private async serve(ex: Exchange, req: Req, route: RouteDef, routeName: string): Promise<void> {
    let reply: Reply;
    try {
      reply = await this.handle(req, route);
    } catch (e) {
      if (e instanceof HttpError) reply = errorReply(e.status, e.code, e.message, e.headers);
      else {
        const id = randomBytes(6).toString('hex');
        log.error('unhandled', { error_id: id, route: routeName, error: String((e as Error)?.stack ?? e) });
        reply = errorReply(500, 'internal', `Internal error (reference ${id}). Retry with exponential back-off.`);
      }
    }
    this.finish(ex, reply, routeName, req.key);
  }

  private async handle(req: Req, route: RouteDef): Promise<Reply> {
    if (this.draining) return errorReply(503, 'shutting_down', 'The server is shutting down; retry shortly.');
    if (route.scope !== null) {
      const header = req.headers.authorization ?? (route.keyInQuery ? bearerFromQuery(req.query) : undefined);
      const a = this.d.auth.lookupCached(header) ?? (await this.d.auth.lookup(header));
      if (!a.ok) return errorReply(401, 'unauthorized', UNAUTHORIZED[a.reason], { 'WWW-Authenticate': 'Bearer' });
      const key = (req.key = a.key);
      if (route.scope !== 'any' && !key.scopes.includes(route.scope)) {
        return errorReply(403, 'forbidden', `This key lacks the '${route.scope}' scope needed for ${route.method} ${displayPath(route.path)}.`);
      }
      const admitted = this.d.limits.admit(key);
      const v = admitted instanceof Promise ? await admitted : admitted;
      if (!v.ok) return errorReply(429, v.code, v.message, { 'Retry-After': String(v.retryAfter) });
    }
    if (route.decl) validateRequest(route, req);
    return route.handler(req, this.d.ctx);
  }

  /** Write a reply unless the client went away; returns the status written. */
  private write(ex: Exchange, reply: Reply): number {
    if (ex.done) return 0;
    ex.done = true;
    let status: number;
    let body: string | Uint8Array;
    let type: string | Buffer = V_JSON;
    if ('task' in reply) {
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
    if (ex.aborted) return status;
    const res = ex.res, head = ex.method === 'HEAD';
    res.cork(() => {
      res.writeStatus(statusLine(status));
      res.writeHeader(H_CONTENT_TYPE, type);
      res.writeHeader(H_ATTRIBUTION, V_ATTRIBUTION);
      if (reply.headers) for (const [k, v] of Object.entries(reply.headers)) res.writeHeader(k, v);
      if (head) res.endWithoutBody(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      else res.end(body);
    });
    return status;
  }
}
