// What every compat route shares: the path under /compat/alt, the key accepted as `?key=`,
// the platform-shaped error body, and readiness of the whole layer (google_compat is true only
// when every endpoint of it works end to end in this build).
import type { AppContext, RouteDef } from '../../../http/types.ts';
import type { Declaration } from '../../../http/operation.ts';
import { errorBodyWith } from './envelope.ts';

/** Worker tasks each endpoint needs, and the datasets. */
const NEEDS: Record<string, { ops: string[]; datasets: ('road' | 'gazetteer')[] }> = {};

/** The layer works only when every endpoint's tasks are registered and their data is loaded. */
export function compatReady(ctx: AppContext): boolean {
  return Object.values(NEEDS).every((n) => n.ops.every((op) => ctx.engine.has(op)) && n.datasets.every((d) => ctx.engine.hasDataset(d)));
}

/** What one endpoint needs to work, for its own readiness (the capability uses all of them). */
export function needs(ctx: AppContext, name: string): boolean {
  const n = NEEDS[name];
  return !!n && n.ops.every((op) => ctx.engine.has(op)) && n.datasets.every((d) => ctx.engine.hasDataset(d));
}

export interface AltRoute {
  /** Path below /compat/alt, e.g. "geocode". */
  name: string;
  scope: 'geo' | 'routing' | 'maps';
  ops: string[];
  datasets: ('road' | 'gazetteer')[];
  decl: Declaration;
  /** Result containers of the error body (e.g. { results: [] }). */
  empty: Record<string, unknown>;
  handler: RouteDef['handler'];
}

export function altRoute(r: AltRoute): RouteDef {
  NEEDS[r.name] = { ops: r.ops, datasets: r.datasets };
  return {
    method: 'GET',
    path: `/compat/alt/${r.name}`,
    scope: r.scope,
    capabilities: ['google_compat'],
    ready: compatReady,
    note: 'Google Maps Platform web-service shapes under /api/v1/compat/alt/* (geocode, directions, nearbysearch, autocomplete, staticmap, distancematrix, placedetails); key as ?key= or Bearer; place_ids are our svc: ids. See docs/compat-alt.md.',
    keyInQuery: true,
    errorBody: errorBodyWith(r.empty),
    decl: { tag: 'compat', ...r.decl },
    handler: r.handler,
  };
}
