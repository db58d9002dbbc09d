// Every setting the service reads from the environment, in one place (documented in README.md).
import { availableParallelism } from 'node:os';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  tilesUrl: string;
  workers: number;
  databaseUrl: string | null;
  /** Pooled database connections. */
  dbPoolMax: number;
  dataDir: string;
  builtDir: string;
  sharedDataDir: string;
  adminToken: string | null;
  /** Requests per second per key before 429 (token bucket, burst = 2 s worth). */
  burstRps: number;
  maxBodyBytes: number;
  /** Skip building default datasets at start (tests that bring their own). */
  skipBuild: boolean;
  logRequests: boolean;
  /** Compute tasks accepted and unanswered beyond which new ones are shed with 503 (0 = no bound). */
  poolMaxQueue: number;
  /** Estimated compute-queue wait (ms) beyond which new tasks are shed with 503 (0 = no bound). */
  poolMaxWaitMs: number;
  /** Remaining monthly quota below which a key is counted in PostgreSQL per request (shared by every node). */
  quotaSyncMargin: number;
}

function intEnv(env: NodeJS.ProcessEnv, name: string, def: number): number {
  const v = env[name];
  if (v === undefined || v === '') return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got '${v}'`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intEnv(env, 'PORT', 8080);
  const dataDir = resolve(env.DATA_DIR || resolve(ROOT, 'data'));
  const baseUrl = (env.BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl,
    tilesUrl: (env.TILES_URL || `${baseUrl}/tiles`).replace(/\/+$/, ''),
    workers: Math.max(1, intEnv(env, 'WORKERS', availableParallelism())),
    databaseUrl: env.DATABASE_URL || null,
    dbPoolMax: Math.max(1, intEnv(env, 'DB_POOL_MAX', 10)),
    dataDir,
    builtDir: resolve(env.BUILT_DIR || resolve(dataDir, 'built')),
    sharedDataDir: resolve(env.SHARED_DATA_DIR || resolve(ROOT, '..', 'shared', 'data')),
    adminToken: env.ADMIN_TOKEN || null,
    burstRps: intEnv(env, 'BURST_RPS', 1000),
    maxBodyBytes: intEnv(env, 'MAX_BODY_BYTES', 1 << 20),
    skipBuild: env.SKIP_BUILD === '1',
    logRequests: env.LOG_REQUESTS !== '0',
    poolMaxQueue: intEnv(env, 'POOL_MAX_QUEUE', 4096),
    poolMaxWaitMs: intEnv(env, 'POOL_MAX_WAIT_MS', 1000),
    quotaSyncMargin: intEnv(env, 'QUOTA_SYNC_MARGIN', 1000),
  };
}
