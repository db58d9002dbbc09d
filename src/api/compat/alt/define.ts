// What every compat route shares: the path under /compat/alt, the key accepted as `?key=`,
// the platform-shaped error body, and readiness of the whole layer (google_compat is true only
// when every endpoint of it works end to end in this build).
import type { TaskOp } from '../../../core/tasks/index.ts';
import type { AppContext, RouteDef } from '../../../http/types.ts';
import type { Declaration } from '../../../http/declaration.ts';
import { errorBodyWith } from './envelope.ts';

interface Needs { ops: TaskOp[]; datasets: ('road' | 'gazetteer')[]; ready?: (ctx: AppContext) => boolean }
/** Worker tasks each endpoint needs, its datasets and any further check. */
const NEEDS: Record<string, Needs> = {};

const works = (ctx: AppContext, n: Needs) =>
  n.ops.every((op) => ctx.pool.has(op)) && n.datasets.every((d) => ctx.pool.hasDataset(d)) && (n.ready ? n.ready(ctx) : true);

/** The layer works only when every endpoint's tasks are registered and their data is loaded. */
export function compatReady(ctx: AppContext): boolean {
  return Object.values(NEEDS).every((n) => works(ctx, n));
}

/** Which endpoints work in this build (the capability note names the others). */
export function working(ctx: AppContext): Record<string, boolean> {
  return Object.fromEntries(Object.entries(NEEDS).map(([k, n]) => [k, works(ctx, n)]));
}

export interface AltRoute<D extends Declaration = Declaration> {
  /** Path below /compat/alt, e.g. "geocode". */
  name: string;
  scope: 'geo' | 'routing' | 'maps';
  ops: TaskOp[];
  datasets: ('road' | 'gazetteer')[];
  /** A further readiness check (e.g. the tile set for static maps). */
  ready?: (ctx: AppContext) => boolean;
  decl: D;
  /** Result containers of the error body (e.g. { results: [] }). */
  empty: Record<string, unknown>;
  handler: RouteDef<D>['handler'];
}

/** Every error of the layer, auth failures included, in the platform's envelope (errorBodyWith). */
const ALT_ERROR = {
  type: 'object', required: ['status', 'error_message', 'error'],
  properties: {
    status: { enum: ['INVALID_REQUEST', 'REQUEST_DENIED', 'OVER_QUERY_LIMIT', 'NOT_FOUND', 'ZERO_RESULTS', 'UNKNOWN_ERROR'] },
    error_message: { type: 'string' },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
  },
};
const ALT_ERRORS: Record<number, string> = {
  400: 'INVALID_REQUEST', 401: 'REQUEST_DENIED (missing, malformed or revoked key)', 403: 'REQUEST_DENIED (key without the scope)',
  404: 'NOT_FOUND', 429: 'OVER_QUERY_LIMIT (with Retry-After)', 500: 'UNKNOWN_ERROR', 503: 'UNKNOWN_ERROR (retry)',
};

function withAltErrors(d: Declaration): Declaration {
  const responses = { ...d.responses };
  for (const [status, what] of Object.entries(ALT_ERRORS)) {
    const s = Number(status);
    responses[s] = { description: responses[s]?.description ?? what, schema: responses[s]?.schema ?? ALT_ERROR };
  }
  return { ...d, responses };
}

export function altRoute<const D extends Declaration>(r: AltRoute<D>): RouteDef {
  NEEDS[r.name] = { ops: r.ops, datasets: r.datasets, ready: r.ready };
  return {
    method: 'GET',
    path: `/compat/alt/${r.name}`,
    scope: r.scope,
    capabilities: ['google_compat'],
    ready: compatReady,
    offNote: (ctx) => {
      const off = Object.entries(working(ctx)).filter(([, w]) => !w).map(([k]) => `/compat/alt/${k}`);
      return `Off until every endpoint of the layer works; not working in this build: ${off.join(', ')} (its tasks, data or tile set are missing).`;
    },
    note: 'Google Maps Platform web-service shapes under /api/v1/compat/alt/* (geocode, directions, nearbysearch, autocomplete, staticmap, distancematrix, placedetails); key as ?key= or Bearer; place_ids are our svc: ids. See docs/compat-alt.md.',
    keyInQuery: true,
    errorBody: errorBodyWith(r.empty),
    decl: withAltErrors({ tag: 'compat', ...r.decl }),
    handler: r.handler as RouteDef['handler'],
  };
}
