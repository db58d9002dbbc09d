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
  /** Base address of an Open-Meteo-compatible weather upstream; null = no weather. */
  weatherUrl: string | null;
  weatherTimeoutMs: number;
  /** How often probes are map-matched into speed samples, and speeds published to the workers. */
  trafficProcessMs: number;
  trafficPublishMs: number;
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
    weatherUrl: env.WEATHER_URL ? env.WEATHER_URL.replace(/\/+$/, '') : null,
    weatherTimeoutMs: Math.max(1, intEnv(env, 'WEATHER_TIMEOUT_MS', 3000)),
    trafficProcessMs: Math.max(50, intEnv(env, 'TRAFFIC_PROCESS_MS', 1000)),
    trafficPublishMs: Math.max(50, intEnv(env, 'TRAFFIC_PUBLISH_MS', 2000)),
  };
}
