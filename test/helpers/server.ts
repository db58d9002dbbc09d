// Start a real server (uWS + worker pool + store) on a free port for a suite.
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/core/config.ts';
import { startServer, type Running } from '../../src/app.ts';
import { createKey } from '../../src/auth/keys.ts';
import type { RouteDef } from '../../src/http/types.ts';
import type { Plan } from '../../src/auth/scopes.ts';
import type { TestDb } from './db.ts';
import { checkResponse } from './responses.ts';

export { REPO, SHARED_DATA } from './paths.ts';

export interface TestServer {
  app: Running;
  url: string;
  config: Config;
  key(o?: { plan?: Plan; test?: boolean; scopes?: string[]; project?: string }): Promise<string>;
  get(path: string, key?: string | null, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, key?: string | null, headers?: Record<string, string>): Promise<Response>;
  /** Any method; a body (JSON) is sent when given. */
  request(method: string, path: string, body?: unknown, key?: string | null, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestServer(db: TestDb, env: Record<string, string> = {}, extra: RouteDef[] = []): Promise<TestServer> {
  process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', WORKERS: '1', DATA_DIR: db.dataDir, LOG_REQUESTS: '0',
    BUILT_DIR: join(db.dataDir, 'built'), ...(db.url ? { DATABASE_URL: db.url } : {}), ...env,
  });
  const app = await startServer(config, extra);
  const url = `http://127.0.0.1:${app.port}`;
  const auth = (k?: string | null): Record<string, string> => (k ? { authorization: `Bearer ${k}` } : {});
  const checked = async (method: string, p: string, r: Response) => {
    await checkResponse(app.ctx.routes, method, p, r);
    return r;
  };
  return {
    app, url, config,
    async key(o = {}) {
      const { key } = await createKey(app.ctx.store, { project: o.project ?? 'acme', plan: o.plan ?? 'enterprise', test: !!o.test, scopes: o.scopes });
      return key;
    },
    // Every answer is checked against the declared response schema of the operation it reached.
    get: async (p, k, h) => checked('GET', p, await fetch(url + p, { headers: { ...auth(k), ...h } })),
    post: async (p, b, k, h) => checked('POST', p, await fetch(url + p, {
      method: 'POST', body: typeof b === 'string' ? b : JSON.stringify(b),
      headers: { 'content-type': 'application/json', ...auth(k), ...h },
    })),
    request: async (m, p, b, k, h) => checked(m, p, await fetch(url + p, {
      method: m,
      ...(b === undefined ? { headers: { ...auth(k), ...h } } : {
        body: typeof b === 'string' ? b : JSON.stringify(b),
        headers: { 'content-type': 'application/json', ...auth(k), ...h },
      }),
    })),
    close: () => app.close(),
  };
}
