// Postgres access through `pg` only. With DATABASE_URL it talks to that server;
// without it, it starts an embedded PGlite in data/db/ and serves it on a loopback
// port through pglite-socket, so the very same pg code runs against both. The
// port is published in data/db/socket.json so the keys CLI can reach the running
// server's database (PGlite allows one process per data folder).
import pg from 'pg';
import { mkdirSync, readFileSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { migrate } from './migrate.ts';
import { log } from '../core/log.ts';
import { pglitePreload } from './pglite-preload.mjs';

export interface StoreOptions {
  databaseUrl: string | null;
  /** Folder of the embedded database (used only without databaseUrl). */
  dbDir: string;
  /** Max pooled connections. */
  max?: number;
  /** Apply migrations on open (default true). */
  migrate?: boolean;
}

type Embedded = { db: any; server: any; socketFile: string };

export class Store {
  readonly kind: 'postgres' | 'pglite';
  private closed = false;

  private constructor(readonly pool: pg.Pool, kind: 'postgres' | 'pglite', private embedded: Embedded | null) {
    this.kind = kind;
  }

  static async open(opts: StoreOptions): Promise<Store> {
    let store: Store;
    if (opts.databaseUrl) {
      const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.max ?? 10 });
      store = new Store(pool, 'postgres', null);
    } else {
      const running = reachableEmbedded(opts.dbDir);
      if (running) {
        // Another process (the server) holds the embedded database: share it through its socket.
        const pool = new pg.Pool({ host: '127.0.0.1', port: running, user: 'postgres', database: 'postgres', max: 1 });
        store = new Store(pool, 'pglite', null);
      } else {
        store = await Store.startEmbedded(opts);
      }
    }
    store.pool.on('error', (e) => log.error('db_pool_error', { error: e.message }));
    if (opts.migrate !== false) await migrate(store);
    return store;
  }

  private static async startEmbedded(opts: StoreOptions): Promise<Store> {
    const { PGlite } = await import('@electric-sql/pglite');
    const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
    mkdirSync(opts.dbDir, { recursive: true });
    // the WebAssembly compiled ahead (begun by npm start before the server's code loaded)
    const db = await PGlite.create(join(opts.dbDir, 'pgdata'), await pglitePreload());
    const max = opts.max ?? 8;
    // The multiplexer interleaves statements from several clients on PGlite's one session;
    // an open transaction holds it, so transactions in this code base stay short.
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: max + 2 } as any);
    await server.start();
    const addr = (server as any).server?.address?.();
    const port: number = addr?.port ?? (server as any).port;
    const socketFile = join(opts.dbDir, 'socket.json');
    writeFileSync(socketFile, JSON.stringify({ port, pid: process.pid }) + '\n');
    // One connection: pglite-socket queues each TCP read as a unit, so a statement larger than
    // one read (a 300 kB zone polygon) could have another connection's Parse land between its
    // Parse and Bind ("bind message supplies 12 parameters, but prepared statement requires 5",
    // measured). PGlite runs one statement at a time anyway; a transaction holds the connection,
    // so code inside store.tx() must use its client, never store.query().
    const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 1 });
    return new Store(pool, 'pglite', { db, server, socketFile });
  }

  query<R extends pg.QueryResultRow = any>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.pool.query<R>(text, values as any[]);
  }

  /** Run fn inside one transaction on one connection; commits only if fn resolves. */
  async tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  }

  async ping(timeoutMs = 1000): Promise<boolean> {
    try {
      await Promise.race([
        this.pool.query('SELECT 1'),
        new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), timeoutMs).unref()),
      ]);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end().catch(() => {});
    if (this.embedded) {
      await this.embedded.server.stop().catch(() => {});
      await this.embedded.db.close().catch(() => {});
      rmSync(this.embedded.socketFile, { force: true });
    }
  }
}

/** The port of a live embedded server for this folder, or null. */
function reachableEmbedded(dbDir: string): number | null {
  const f = join(dbDir, 'socket.json');
  if (!existsSync(f)) return null;
  try {
    const { port, pid } = JSON.parse(readFileSync(f, 'utf8'));
    if (pid === process.pid) return null;
    process.kill(pid, 0); // throws when no such process
    return port;
  } catch {
    return null;
  }
}
