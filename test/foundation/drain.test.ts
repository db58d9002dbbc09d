// What a balancer sees of one node across SIGTERM (app.close()): /readyz goes 503 "draining",
// new connections are refused, requests on an open keep-alive connection are still answered
// during DRAIN_GRACE_MS (with Connection: close), then refused with 503 until the node is gone.
import { describe, it, expect, afterAll } from 'vitest';
import { connect, type Socket } from 'node:net';
import { freshPglite } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** One keep-alive connection: send a request, read one whole answer (status, headers, body). */
class Conn {
  private buf = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  closed = false;
  private s: Socket;
  constructor(port: number) {
    this.s = connect(port, '127.0.0.1');
    this.s.on('data', (d: Buffer) => { this.buf = Buffer.concat([this.buf, d]); this.waiting?.(); });
    this.s.on('close', () => { this.closed = true; this.waiting?.(); });
  }
  async send(path: string, key?: string): Promise<{ status: number; head: string; body: any }> {
    this.s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n${key ? `Authorization: Bearer ${key}\r\n` : ''}\r\n`);
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = this.buf.subarray(0, end).toString();
        const len = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (this.buf.length >= end + 4 + len) {
          const body = this.buf.subarray(end + 4, end + 4 + len).toString();
          this.buf = this.buf.subarray(end + 4 + len);
          return { status: Number(head.split(' ')[1]), head, body: JSON.parse(body) };
        }
      }
      if (this.closed) throw new Error(`connection closed without an answer: ${JSON.stringify(this.buf.subarray(0, 300).toString())}`);
      await new Promise<void>((r) => { this.waiting = r; });
    }
  }
  end() { this.s.destroy(); }
}

describe('draining a node', () => {
  const db = freshPglite();
  let s: TestServer;
  afterAll(async () => { await db.drop(); });

  it('readyz 503 draining, no new connections, requests on open connections served during the grace with Connection: close', async () => {
    s = await startTestServer(db, { DRAIN_GRACE_MS: '1500' });
    const key = await s.key();
    const ready = await s.get('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', reasons: [], database: { reachable: true } });
    const port = s.app.port;
    const a = new Conn(port), b = new Conn(port);
    expect((await a.send('/api/v1/ping', key)).status).toBe(200);
    expect((await b.send('/api/v1/ping', key)).status).toBe(200);

    const closed = s.close();
    await new Promise((r) => setTimeout(r, 100));
    // New connections are refused: a balancer moves on to another node at once.
    const refused = await new Promise<string>((resolve) => {
      const c = connect(port, '127.0.0.1');
      c.on('connect', () => { c.destroy(); resolve('connected'); });
      c.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
    expect(refused).toBe('ECONNREFUSED');
    // On an open connection: readiness says draining, and the connection is closed after the answer.
    const r = await a.send('/readyz');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ status: 'draining', reasons: ['draining'] });
    expect(r.head).toMatch(/connection: close/i);
    // A real request during the grace is served, not refused, also with Connection: close.
    const p = await b.send('/api/v1/ping?pool=1', key);
    expect(p.status).toBe(200);
    expect(p.head).toMatch(/connection: close/i);
    await closed;
    a.end(); b.end();
  }, 60_000);
});
