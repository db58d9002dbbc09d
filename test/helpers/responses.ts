// Every response a suite receives through the test server's get/post is checked against the
// declared response schema of the operation it reached (the error envelope for statuses a
// declaration does not describe, and for requests that matched no operation), so a shape
// drift fails the test that saw it.
import type { ValidateFunction } from 'ajv';
import type { RouteDef, Method } from '../../src/http/types.ts';
import { Router, normalisePath } from '../../src/http/router.ts';
import { ajv, type Schema } from '../../src/http/operation.ts';
import { ERROR_ENVELOPE } from '../../src/http/openapi.ts';

const compiled = new WeakMap<object, ValidateFunction>();
const validator = (s: Schema) => {
  let v = compiled.get(s);
  if (!v) compiled.set(s, (v = ajv.compile(s)));
  return v;
};
const routers = new WeakMap<RouteDef[], Router>();

/** The schema a response must match, or null when it is not JSON by declaration (images, text). */
export function expectedSchema(routes: RouteDef[], method: string, url: string, status: number): { schema: Schema; label: string } | null {
  let router = routers.get(routes);
  if (!router) {
    router = new Router();
    for (const r of routes) router.add(r);
    routers.set(routes, router);
  }
  const path = new URL(url, 'http://x').pathname;
  const m = router.match(method.toUpperCase() as Method, normalisePath(path));
  if (m.kind !== 'found') return { schema: ERROR_ENVELOPE, label: `${method} ${path} (no operation)` };
  const label = `${m.route.method} ${m.route.path} → ${status}`;
  const declared = m.route.decl.responses[status];
  if (declared?.contentType && !declared.contentType.startsWith('application/json')) return null;
  if (declared?.schema) return { schema: declared.schema, label };
  // Redirects and empty answers carry no JSON; a declared success without a schema has nothing to check.
  if ((status >= 300 && status < 400) || status === 204 || (declared && status < 400)) return null;
  // A compat operation answers errors in its own shape (RouteDef.errorBody) unless it declares one.
  if (m.route.errorBody) return { schema: { type: 'object' }, label };
  return { schema: ERROR_ENVELOPE, label };
}

/** Throws when the response does not match; the response itself is left unread. */
export async function checkResponse(routes: RouteDef[], method: string, url: string, res: Response): Promise<void> {
  // HEAD, 204 and 304 answers carry no body by HTTP's rules.
  if (method.toUpperCase() === 'HEAD' || res.status === 204 || res.status === 304) return;
  const want = expectedSchema(routes, method, url, res.status);
  if (!want) return;
  const type = res.headers.get('content-type') ?? '';
  const text = await res.clone().text();
  if (!type.startsWith('application/json')) throw new Error(`${want.label}: expected JSON, got '${type}': ${text.slice(0, 200)}`);
  let body: unknown;
  try { body = JSON.parse(text); } catch { throw new Error(`${want.label}: body is not JSON: ${text.slice(0, 200)}`); }
  const v = validator(want.schema);
  if (!v(body)) {
    const e = v.errors![0];
    throw new Error(`${want.label}: response does not match its declared schema at '${e.instancePath}' (${e.message}): ${text.slice(0, 300)}`);
  }
}
