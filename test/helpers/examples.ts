// Declared examples as real requests. An example may name another operation in `after`; that
// operation's first example runs first and `{{path}}` placeholders are filled from its JSON answer.
import type { RouteDef } from '../../src/http/types.ts';
import type { Example } from '../../src/http/operation.ts';
import { displayPath } from '../../src/http/router.ts';

export interface Sendable { method: string; path: string; body?: unknown }

/** "/places/:id" → "/api/v1/places/{param}"; "//healthz" → "/healthz". */
export function urlPath(r: RouteDef, params: Record<string, string> = {}, placeholder = 'x'): string {
  const p = r.path.startsWith('//') ? r.path.slice(1) : `/api/v1${r.path}`;
  return p.replace(/:(\w+)/g, (_m, k) => encodeURIComponent(params[k] ?? placeholder));
}

const lookup = (vars: unknown, path: string): unknown => path.split('.').reduce<any>((o, k) => (o == null ? undefined : o[k]), vars);

function fill<T>(v: T, vars: unknown): T {
  if (typeof v === 'string') {
    const whole = /^\{\{([\w.]+)\}\}$/.exec(v);
    if (whole) return lookup(vars, whole[1]) as T;
    return v.replace(/\{\{([\w.]+)\}\}/g, (_m, p) => String(lookup(vars, p))) as T;
  }
  if (Array.isArray(v)) return v.map((x) => fill(x, vars)) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, vars)])) as T;
  return v;
}

/** The request of an example once its placeholders are filled. */
export function exampleRequest(r: RouteDef, ex: Example, vars: unknown = {}): Sendable {
  const params = fill(ex.params ?? {}, vars);
  const q = ex.query ? `?${fill(ex.query, vars)}` : '';
  return { method: r.method, path: urlPath(r, params) + q, ...(ex.body !== undefined ? { body: fill(ex.body, vars) } : {}) };
}

/**
 * The request of example `i` of `r`, running the operations it depends on first through `send`
 * (which must send with a key that can call them).
 */
export async function resolveExample(
  routes: RouteDef[], r: RouteDef, i: number, send: (s: Sendable) => Promise<Response>,
): Promise<Sendable> {
  const ex = r.decl.examples[i] ?? {};
  let vars: unknown = {};
  if (ex.after) {
    const dep = routes.find((x) => `${x.method} ${displayPath(x.path)}` === ex.after);
    if (!dep) throw new Error(`${r.method} ${r.path}: example needs unknown operation '${ex.after}'`);
    const res = await send(await resolveExample(routes, dep, 0, send));
    if (!res.ok) throw new Error(`${ex.after} (needed by ${r.method} ${r.path}) answered ${res.status}: ${await res.text()}`);
    vars = await res.json();
  }
  return exampleRequest(r, ex, vars);
}
