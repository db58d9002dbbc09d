// Only canonical paths reach a route: empty and dot segments and encoded dots or slashes are
// 404, never another route. Sent over a raw socket, since fetch would normalise them first.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { connect } from 'node:net';
import { freshDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let db: TestDb;
let s: TestServer;
beforeAll(async () => {
  db = await freshDb('pglite');
  s = await startTestServer(db, { ADMIN_TOKEN: 'adm1n-token' });
});
afterAll(async () => {
  await s?.close();
  await db?.drop();
});

/** One raw GET; resolves with the status and body. */
function raw(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sock = connect(s.app.port, '127.0.0.1');
    let data = '';
    sock.on('data', (d) => {
      data += d.toString('latin1');
      const head = data.indexOf('\r\n\r\n');
      const len = /content-length: (\d+)/i.exec(data);
      if (head >= 0 && len && data.length >= head + 4 + Number(len[1])) {
        sock.destroy();
        resolve({ status: Number(data.slice(9, 12)), body: data.slice(head + 4) });
      }
    });
    sock.on('error', reject);
    sock.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer adm1n-token\r\n\r\n`);
  });
}

describe('path normalisation', () => {
  it('routes the canonical paths', async () => {
    expect((await raw('/metrics')).status).toBe(200);
    expect((await raw('/api/v1/capabilities')).status).toBe(200);
    expect((await raw('/v1/capabilities?x=%2e%2e')).status).toBe(200); // the query is not the path
  });

  it.each([
    '/api/v1//metrics', '//metrics', '/api/v1/../metrics', '/api/v1/./capabilities', '/api/v1/%2e%2e/metrics', '/api/v1/%2E%2E/metrics',
    '/api/v1/.%2e/metrics', '/api/v1%2fcapabilities', '/api/v1%2Fcapabilities', '/v1/capabilities/..', '/v1/capabilities/.', '/api/v1/places/svc:gn.1%2f..%2f..%2fmetrics',
    '/reference/assets/..%2f..%2fpackage.json', '/reference/guides/%2e%2e', '/api/v1\\capabilities', '/api/v1/capabilities//', '///healthz',
  ])('%s is 404 with the error envelope', async (path) => {
    const r = await raw(path);
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body).error.code).toBe('not_found');
  });
});
