// Assembles the service: store, keys, quotas, worker pool and the HTTP front end.
// Used by src/main.ts, the tests and the benchmarks alike.
import { join } from 'node:path';
import { Store } from './store/index.ts';
import { WorkerPool } from './pool/worker-pool.ts';
import { Authenticator } from './auth/authenticator.ts';
import { Quota } from './auth/quota.ts';
import { Refusals } from './auth/refusals.ts';
import { Dispatcher } from './webhooks/dispatcher.ts';
import { bootstrapKeys } from './auth/keys.ts';
import { Router } from './http/router.ts';
import { compileRoutesYielding } from './http/operation.ts';
import { Metrics } from './http/metrics.ts';
import { HttpServer } from './http/server.ts';
import { allRoutes } from './api/index.ts';
import { startTraffic } from './traffic/service.ts';
import { Verifier } from './verify/sweeper.ts';
import { tripKey } from './api/ride/trip-links.ts';
import { TRIP_TOKEN_PREFIX } from './api/ride/trip-token.ts';
import type { AppContext, RouteDef } from './http/types.ts';
import type { Config } from './core/config.ts';
import { log } from './core/log.ts';

/** How long after listening a node begins its own background work (see startServer). */
const WARM_UP_AFTER_MS = 1000;

export interface Running {
  port: number;
  ctx: AppContext;
  /** Keys created on the first start of an empty database (printed once). */
  bootstrapped: { test: string; live: string } | null;
  /** Graceful stop: no new requests, finish in-flight ones, flush usage, close pool and database. */
  close(): Promise<void>;
}

export async function startServer(config: Config, extraRoutes: RouteDef[] = []): Promise<Running> {
  const t0 = performance.now();
  // The worker threads load their code and data while this thread opens the database: a start is
  // the longer of the two. The request validators are compiled a moment after it listens (below).
  const pool = new WorkerPool({ builtDir: config.builtDir, mmapAddon: config.mmapAddon, verify: config.builtVerify, workers: config.workers, youngMb: config.workerYoungMb, warmUpAfterMs: WARM_UP_AFTER_MS, maxQueue: config.poolMaxQueue, maxWaitMs: config.poolMaxWaitMs });
  const poolStarted = pool.start().then(() => performance.now() - t0);
  poolStarted.catch(() => {}); // awaited below; a failure before then must not go unhandled
  const router = new Router();
  for (const r of [...allRoutes, ...extraRoutes]) router.add(r);
  let store: Store;
  try {
    store = await Store.open({ databaseUrl: config.databaseUrl, dbDir: join(config.dataDir, 'db'), max: config.dbPoolMax });
  } catch (e) {
    await poolStarted.catch(() => {});
    await pool.close().catch(() => {});
    throw e;
  }
  const storeMs = performance.now() - t0;
  const auth = new Authenticator(store);
  const quota = new Quota(store, config.burstRps, 500, () => Date.now(), config.quotaSyncMargin);
  const metrics = new Metrics();
  const refusals = new Refusals(store);
  const webhooks = new Dispatcher(store, { allowPrivate: config.webhookAllowPrivate, backoffScale: config.webhookBackoffScale, timeoutMs: config.webhookTimeoutMs });
  const verifier = new Verifier(store, webhooks, config.verifySweepMs);
  let poolMs = 0;
  try {
    poolMs = await poolStarted;
    await auth.start();
    quota.start();
  } catch (e) {
    await pool.close().catch(() => {});
    await store.close();
    throw e;
  }
  const ctx: AppContext = { pool, store, config, quota, metrics, refusals, webhooks, routes: router.routes };
  // A trip link's page loads our style and tiles with the link's token in place of a key.
  auth.registerToken(TRIP_TOKEN_PREFIX, (token) => tripKey(ctx, token));
  const http = new HttpServer({ ctx, router, auth, quota, metrics });
  const traffic = startTraffic(ctx);
  let port: number;
  try {
    port = await http.start(config.host, config.port);
  } catch (e) {
    await traffic.stop();
    await quota.stop().catch(() => {});
    auth.stop();
    await pool.close().catch(() => {});
    await store.close();
    throw e;
  }
  // Last, so a start that fails earlier never swallows the one chance to show the keys.
  const bootstrapped = await bootstrapKeys(store);
  refusals.start();
  // What a node does for itself begins a moment after it listens, so its first requests are not
  // served behind it: the events queued before a crash are sent, the verifications left pending by
  // a stop evaluated (in a database just opened each first statement costs tens of milliseconds,
  // 60-170 ms for these two in the embedded one, on its one connection), and the request validators
  // compiled (~0.3 s of Ajv code generation on this thread, in slices; a request that comes first
  // compiles its own route's).
  webhooks.start(WARM_UP_AFTER_MS);
  verifier.start(WARM_UP_AFTER_MS);
  const validators = setTimeout(() => {
    void compileRoutesYielding(router.routes).catch((e) => log.error('validators_not_compiled', { error: String(e) }));
  }, WARM_UP_AFTER_MS).unref();
  // each phase's end, in ms since startServer began (they overlap: the slowest sets the start)
  const ms = (x: number) => Math.round(x);
  log.info('listening', {
    port, base_url: config.baseUrl, database: store.kind,
    // `code`: from the process's start to the app's (Node, the TypeScript loader, the imports)
    start_ms: { code: ms(t0), database: ms(storeMs), workers: ms(poolMs), total: ms(performance.now() - t0) },
  });

  let closing: Promise<void> | null = null;
  return {
    port, ctx, bootstrapped,
    close() {
      closing ??= (async () => {
        clearTimeout(validators);
        await http.drain();
        await traffic.stop();
        await quota.stop();
        await refusals.stop();
        await verifier.stop();
        await webhooks.stop();
        auth.stop();
        await pool.close();
        await store.close();
        http.close();
      })();
      return closing;
    },
  };
}
