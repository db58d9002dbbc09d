// GET /readyz: whether a balancer should send this node new requests. Apart from /healthz
// (alive: the process answers, with what it holds), ready means the datasets are loaded into a
// running worker pool, the database answers, and the node is not draining after SIGTERM.
// The cluster launcher (deploy/cluster.ts) waits for it before it counts a node as up, and a
// balancer with active checks (HAProxy, a cloud L7 balancer) should probe it.
import type { AppContext, RouteDef } from './types.ts';

export interface Readiness {
  ready: boolean;
  /** What keeps the node out of rotation; empty when ready. */
  reasons: string[];
  draining: boolean;
  database: boolean;
  workers: number;
  datasets: number;
}

export async function readiness(ctx: AppContext): Promise<Readiness> {
  const draining = ctx.lifecycle?.draining ?? false;
  // A draining node skips the database round trip: its answer is no whatever the database says.
  const database = draining ? false : await ctx.store.ping();
  const workers = ctx.pool.threads;
  const reasons: string[] = [];
  if (draining) reasons.push('draining');
  if (!draining && !database) reasons.push('database_unreachable');
  if (workers === 0) reasons.push('datasets_not_loaded');
  return { ready: reasons.length === 0, reasons, draining, database, workers, datasets: ctx.pool.datasets.length };
}

export const readinessRoutes: RouteDef[] = [
  {
    method: 'GET', path: '//readyz', scope: null,
    decl: {
      summary: 'Readiness for a load balancer: datasets loaded, database reachable, not draining', tag: 'service',
      description: '200 while the node should get traffic. 503 with `status: "draining"` from SIGTERM until it exits, or `"not_ready"` with the reasons (`database_unreachable`, `datasets_not_loaded`). /healthz says whether the process is alive.',
      responses: {
        200: {
          description: 'Ready',
          schema: {
            type: 'object', required: ['status', 'reasons'],
            properties: {
              status: { enum: ['ready', 'draining', 'not_ready'] },
              reasons: { type: 'array', items: { type: 'string' } },
              workers: { type: 'integer' }, datasets: { type: 'integer' },
              database: { type: 'object', properties: { reachable: { type: 'boolean' } } },
            },
          },
        },
        503: { description: 'Not ready: the same body with status "draining" or "not_ready"' },
      },
      examples: [{}],
    },
    handler: async (_req, ctx) => {
      const r = await readiness(ctx);
      return {
        status: r.ready ? 200 : 503,
        json: {
          status: r.ready ? 'ready' : r.draining ? 'draining' : 'not_ready',
          reasons: r.reasons,
          workers: r.workers,
          datasets: r.datasets,
          database: { reachable: r.database },
        },
      };
    },
  },
];
