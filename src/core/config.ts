// Every setting the service reads from the environment, in one place (documented in README.md).
import { availableParallelism } from 'node:os';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VerifyMode } from './format/verified.ts';

/**
 * Young generation of a worker thread's heap, MB (default of `WORKER_YOUNG_MB`; src/pool/worker-pool.ts). V8 grows it
 * to 48 MB in a thread that makes garbage (map matching, large matrices) and keeps it resident, fully
 * committed once grown: most of what a busy worker adds beyond its code. 8 against 6,
 * alternated (2026-11-24/25): extra RSS per busy worker on the 4M-node graph (`bench -- memory`, two runs
 * each) routes 21.7 / 21.4 against 23.3 / 18.2 MB, 100 × 100 matrices 24.5 / 24.9 against 20.7 / 19.8,
 * matching 27.4 / 24.0 against 21.4 / 22.8, isochrones 24.1 / 21.7 against 20.0 / 16.8; but over HTTP
 * (`bench -- route --osrm`, two runs each) routes with steps 4,892 / 4,630 against 4,380 / 4,271 req/s,
 * server CPU 297 / 312 against 325 / 340 µs a request (plain routes unchanged). 8 keeps the throughput;
 * 6 suits a server short of memory. At 4 a 1,000 × 1,000 matrix cost ~20% more server CPU; at 16 matching
 * took 32.6 / 34.8 MB per worker.
 */
export const YOUNG_MB = 8;

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The mmap addon `npm install` builds (native/mmap); src/core/format/mapped.ts falls back to reading when it is absent. */
export const MMAP_ADDON = resolve(ROOT, 'native', 'mmap', 'build', 'Release', 'svc_mmap.node');
export const QUERY_ADDON = resolve(ROOT, 'native', 'query', 'build', 'Release', 'svc_query.node');

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  tilesUrl: string;
  workers: number;
  /**
   * Whether a middling matrix may run on every idle worker thread at once (src/pool/matrix-dispatch.ts):
   * on by default only where a core is left beside the worker threads for the HTTP thread.
   */
  matrixMeet: boolean;
  /** Each worker thread's young-generation cap, MB (src/pool/worker-pool.ts, YOUNG_MB). */
  workerYoungMb: number;
  databaseUrl: string | null;
  /** Pooled database connections. */
  dbPoolMax: number;
  dataDir: string;
  builtDir: string;
  /** The mmap addon built files are mapped with; null = read them into memory (BUILT_MMAP=0). */
  mmapAddon: string | null;
  /** BUILT_VERIFY: `once` (default) checks a built file's checksum the first time it is met, `always` at every load (src/core/format/verified.ts). */
  builtVerify: VerifyMode;
  sharedDataDir: string;
  adminToken: string | null;
  /** Signs compat nearbysearch page tokens; without it each process signs with its own random secret. */
  pageTokenSecret: string | null;
  /** Requests per second per key before 429 (token bucket, burst = 2 s worth). */
  burstRps: number;
  maxBodyBytes: number;
  /** Skip building default datasets at start (tests that bring their own). */
  skipBuild: boolean;
  logRequests: boolean;
  /** Base address of an Open-Meteo-compatible weather upstream; null = no weather. */
  weatherUrl: string | null;
  weatherTimeoutMs: number;
  /** How often probes are map-matched into speed samples, and speeds published to the workers. */
  trafficProcessMs: number;
  trafficPublishMs: number;
  /** Compute tasks accepted and unanswered beyond which new ones are shed with 503 (0 = no bound). */
  poolMaxQueue: number;
  /** Estimated compute-queue wait (ms) beyond which new tasks are shed with 503 (0 = no bound). */
  poolMaxWaitMs: number;
  /** Remaining monthly quota below which a key is counted in PostgreSQL per request (shared by every node). */
  quotaSyncMargin: number;
  /** WEBHOOK_ALLOW_PRIVATE=1: webhooks may target http and loopback/private hosts (tests, private deployments). */
  webhookAllowPrivate: boolean;
  /** WEBHOOK_BACKOFF_SCALE: multiplies the retry schedule (tests use a small fraction; 1 = about 24 h). */
  webhookBackoffScale: number;
  /** WEBHOOK_TIMEOUT_MS: how long one delivery may take. */
  webhookTimeoutMs: number;
  /**
   * DRAIN_GRACE_MS: after SIGTERM, how long the node keeps answering requests that arrive on open
   * keep-alive connections (each answer closing its connection) before it refuses and exits. Set it
   * above the proxy's upstream keep-alive timeout (deploy/nginx.conf.template: 4 s; the launcher
   * and the unit file use 5000); 0 without a proxy.
   */
  drainGraceMs: number;
  /** TRUST_PROXY=1: the client's address is the proxy's X-Real-IP header (src/http/client-address.ts). */
  trustProxy: boolean;
  /** VERIFY_SWEEP_MS: how often pending address verifications with new pings or an ended window are evaluated. */
  verifySweepMs: number;
  /** DASHBOARD_SIGNUP: 'open' lets anyone create an account at /dashboard/signup; 'closed' = accounts come from the CLI. */
  dashboardSignup: 'open' | 'closed';
  /** DASHBOARD_SECURE_COOKIES: '1' always marks cookies Secure, '0' never, 'auto' when BASE_URL is https or X-Forwarded-Proto says https. */
  dashboardSecureCookies: 'auto' | '1' | '0';
}

function intEnv(env: NodeJS.ProcessEnv, name: string, def: number): number {
  const v = env[name];
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got '${v}'`);
  return n;
}

/** MATRIX_MEET: on, off, or auto (on when the machine has more cores than worker threads). */
function meetMode(v: string | undefined, workers: number): boolean {
  if (v === undefined || v === '' || v === 'auto') return availableParallelism() > workers;
  if (v === 'on' || v === 'off') return v === 'on';
  throw new Error(`MATRIX_MEET must be 'auto', 'on' or 'off', got '${v}'`);
}

function verifyMode(v: string | undefined): VerifyMode {
  if (v === undefined || v === '' || v === 'once') return 'once';
  if (v === 'always') return 'always';
  throw new Error(`BUILT_VERIFY must be 'once' or 'always', got '${v}'`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intEnv(env, 'PORT', 8080);
  const workers = Math.max(1, intEnv(env, 'WORKERS', availableParallelism()));
  const dataDir = resolve(env.DATA_DIR || resolve(ROOT, 'data'));
  const baseUrl = (env.BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl,
    tilesUrl: (env.TILES_URL || `${baseUrl}/tiles`).replace(/\/+$/, ''),
    workers,
    matrixMeet: meetMode(env.MATRIX_MEET, workers),
    workerYoungMb: Math.max(1, intEnv(env, 'WORKER_YOUNG_MB', YOUNG_MB)),
    databaseUrl: env.DATABASE_URL || null,
    dbPoolMax: Math.max(1, intEnv(env, 'DB_POOL_MAX', 10)),
    dataDir,
    builtDir: resolve(env.BUILT_DIR || resolve(dataDir, 'built')),
    mmapAddon: env.BUILT_MMAP === '0' ? null : MMAP_ADDON,
    builtVerify: verifyMode(env.BUILT_VERIFY),
    sharedDataDir: resolve(env.SHARED_DATA_DIR || resolve(ROOT, '..', 'shared', 'data')),
    adminToken: env.ADMIN_TOKEN || null,
    pageTokenSecret: env.PAGE_TOKEN_SECRET || null,
    burstRps: intEnv(env, 'BURST_RPS', 1000),
    maxBodyBytes: intEnv(env, 'MAX_BODY_BYTES', 1 << 20),
    skipBuild: env.SKIP_BUILD === '1',
    logRequests: env.LOG_REQUESTS !== '0',
    weatherUrl: env.WEATHER_URL ? env.WEATHER_URL.replace(/\/+$/, '') : null,
    weatherTimeoutMs: Math.max(1, intEnv(env, 'WEATHER_TIMEOUT_MS', 3000)),
    trafficProcessMs: Math.max(50, intEnv(env, 'TRAFFIC_PROCESS_MS', 1000)),
    trafficPublishMs: Math.max(50, intEnv(env, 'TRAFFIC_PUBLISH_MS', 2000)),
    poolMaxQueue: intEnv(env, 'POOL_MAX_QUEUE', 4096),
    poolMaxWaitMs: intEnv(env, 'POOL_MAX_WAIT_MS', 1000),
    quotaSyncMargin: intEnv(env, 'QUOTA_SYNC_MARGIN', 1000),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === '1',
    webhookBackoffScale: env.WEBHOOK_BACKOFF_SCALE ? Number(env.WEBHOOK_BACKOFF_SCALE) : 1,
    webhookTimeoutMs: intEnv(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
    drainGraceMs: intEnv(env, 'DRAIN_GRACE_MS', 0),
    trustProxy: env.TRUST_PROXY === '1',
    verifySweepMs: Math.max(100, intEnv(env, 'VERIFY_SWEEP_MS', 60_000)),
    dashboardSignup: env.DASHBOARD_SIGNUP === 'closed' ? 'closed' : 'open',
    dashboardSecureCookies: env.DASHBOARD_SECURE_COOKIES === '1' ? '1' : env.DASHBOARD_SECURE_COOKIES === '0' ? '0' : 'auto',
  };
}
