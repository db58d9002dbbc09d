// Proof that nothing acknowledged is lost (issue 5 §9). Starts the real server as a
// child process on a fresh database, sends pings under load from several concurrent
// clients, kill -9s the server mid-stream, restarts it, and checks through the public
// trail API that every ping answered 202 is there. Repeats for --kills rounds (default 10).
//
//   npm run bench -- crash [--kills 10] [--clients 8] [--pglite]
//
// Writes bench/results/crash.json. Needs DATABASE_URL (a server where CREATE DATABASE
// works) unless --pglite, which runs the embedded database in a kept data folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Store } from '../src/store/index.ts';
import { createKey } from '../src/auth/keys.ts';
import { numArg } from './lib/args.ts';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** A fresh database on the DATABASE_URL server; returns its URL and a drop function. */
export async function freshDatabase(base: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 7)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Create a live key with every default scope in the database the server will use. */
export async function makeKey(databaseUrl: string | null, dataDir: string, project = 'bench'): Promise<string> {
  const store = await Store.open({ databaseUrl, dbDir: join(dataDir, 'db') });
  try {
    return (await createKey(store, { project, plan: 'enterprise', test: false })).key;
  } finally {
    await store.close();
  }
}

export interface Child { proc: ChildProcess; url: string; exited: Promise<number | null> }

/** `node --import tsx src/main.ts` with SKIP_BUILD=1; resolves once /healthz answers. */
export async function startChild(env: Record<string, string>, timeoutMs = 60_000): Promise<Child> {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: REPO,
    env: { ...process.env, SKIP_BUILD: '1', HOST: '127.0.0.1', PORT: String(port), WORKERS: '1', LOG_REQUESTS: '0', LOG_LEVEL: 'error', BURST_RPS: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`server exited during start: ${stderr}`);
    try {
      const r = await fetch(url + '/healthz');
      if (r.status === 200) break;
    } catch { /* not listening yet */ }
    if (Date.now() - t0 > timeoutMs) {
      proc.kill('SIGKILL');
      throw new Error(`server did not become healthy in ${timeoutMs} ms: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { proc, url, exited };
}

/** Every ts (epoch ms) in a device's trail, paging through the public API. */
export async function trailTimes(url: string, key: string, device: string): Promise<Set<number>> {
  const out = new Set<number>();
  let since = '0';
  for (;;) {
    const r = await fetch(`${url}/api/v1/track/${device}?trail=1&limit=10000&since=${encodeURIComponent(since)}`, { headers: { authorization: `Bearer ${key}` } });
    if (r.status !== 200) throw new Error(`trail read ${r.status}: ${await r.text()}`);
    const b = (await r.json()) as { trail: { ts: string }[]; page: { has_more: boolean; next_since: string } };
    for (const p of b.trail) out.add(Date.parse(p.ts));
    if (!b.page.has_more) return out;
    since = b.page.next_since;
  }
}

export interface CrashOptions {
  kills: number;
  clients: number;
  pglite: boolean;
  minLoadMs: number;
  maxLoadMs: number;
  /** Restart once more to count unacknowledged pings that were committed anyway (informational). */
  measureUnacked?: boolean;
  log?: (s: string) => void;
}

export interface CrashReport {
  database: 'postgres' | 'pglite';
  kills: number;
  clients: number;
  acked: number;
  lost: number;
  /** Pings whose request failed at the kill (not acknowledged; may or may not be stored). */
  unacked_attempted: number;
  /** Of those, how many were in fact committed (fine: the client would retry, idempotently). */
  unacked_but_stored: number;
  requests_acked: number;
  rounds: { acked: number; requests_failed: number; lost_so_far: number; load_ms: number }[];
  lost_examples: string[];
  seconds: number;
}

export async function runCrash(o: CrashOptions): Promise<CrashReport> {
  const say = o.log ?? (() => {});
  const t0 = performance.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
  let db: { url: string; drop(): Promise<void> } | null = null;
  const env: Record<string, string> = { DATA_DIR: dataDir };
  if (!o.pglite) {
    if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is required (or pass --pglite)');
    db = await freshDatabase(process.env.DATABASE_URL, 'svc_crash');
    env.DATABASE_URL = db.url;
  } else env.DATABASE_URL = '';
  const key = await makeKey(o.pglite ? null : db!.url, dataDir);
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  const acked = new Map<string, number[]>(); // device → acknowledged ts
  const attempted = new Map<string, number[]>(); // device → ts in requests that failed
  const nextTs = new Map<string, number>();
  const base = Date.now() - 24 * 3600_000; // a day back leaves room for many pings per device
  const devices = Array.from({ length: o.clients }, (_, i) => `crash-${i}`);
  for (const d of devices) { acked.set(d, []); attempted.set(d, []); nextTs.set(d, base); }
  const rounds: CrashReport['rounds'] = [];
  let requestsAcked = 0;
  let lost = 0;
  const lostExamples: string[] = [];

  const verify = async (url: string) => {
    let missing = 0;
    for (const d of devices) {
      const have = await trailTimes(url, key, d);
      for (const ts of acked.get(d)!) {
        if (!have.has(ts)) {
          missing++;
          if (lostExamples.length < 10) lostExamples.push(`${d}@${new Date(ts).toISOString()}`);
        }
      }
    }
    return missing;
  };

  try {
    for (let k = 0; k <= o.kills; k++) {
      const child = await startChild(env);
      // After every restart: everything acknowledged so far must be readable.
      lost = await verify(child.url);
      say(`round ${k}: restarted, ${[...acked.values()].reduce((a, b) => a + b.length, 0)} acked so far, lost ${lost}`);
      if (k === o.kills) {
        child.proc.kill('SIGKILL');
        await child.exited;
        break;
      }
      let stop = false;
      let roundAcked = 0, failed = 0;
      const client = async (device: string) => {
        let n = 0;
        while (!stop) {
          // Mixed sizes: single pings and batches up to 200.
          const size = n++ % 3 === 0 ? 1 : 1 + Math.floor(Math.random() * 200);
          const ts0 = nextTs.get(device)!;
          nextTs.set(device, ts0 + size);
          const pings = Array.from({ length: size }, (_, i) => ({ lat: 6.4 + Math.random() * 0.1, lng: 3.3 + Math.random() * 0.1, ts: ts0 + i }));
          try {
            const r = await fetch(`${child.url}/api/v1/track/ping`, { method: 'POST', headers: auth, body: JSON.stringify({ device, pings }) });
            await r.arrayBuffer();
            if (r.status === 202) {
              for (const p of pings) acked.get(device)!.push(p.ts);
              roundAcked += size;
              requestsAcked++;
            } else throw new Error(`status ${r.status}`);
          } catch {
            // No 202: not acknowledged. Remember it to count what was committed anyway.
            for (const p of pings) attempted.get(device)!.push(p.ts);
            failed++;
            if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
          }
        }
      };
      const loops = devices.map(client);
      const loadMs = o.minLoadMs + Math.random() * (o.maxLoadMs - o.minLoadMs);
      await new Promise((r) => setTimeout(r, loadMs));
      child.proc.kill('SIGKILL'); // mid-stream: requests are in flight right now
      await child.exited;
      stop = true;
      await Promise.all(loops);
      rounds.push({ acked: roundAcked, requests_failed: failed, lost_so_far: lost, load_ms: Math.round(loadMs) });
      say(`round ${k}: killed after ${Math.round(loadMs)} ms, ${roundAcked} pings acked, ${failed} requests cut`);
    }
    // How many unacknowledged pings were committed anyway (informational).
    let unackedStored = 0;
    if (o.measureUnacked !== false) {
      const check = await startChild(env);
      for (const d of devices) {
        const have = await trailTimes(check.url, key, d);
        for (const ts of attempted.get(d)!) if (have.has(ts)) unackedStored++;
      }
      check.proc.kill('SIGKILL');
      await check.exited;
    }
    return {
      database: o.pglite ? 'pglite' : 'postgres',
      kills: o.kills,
      clients: o.clients,
      acked: [...acked.values()].reduce((a, b) => a + b.length, 0),
      lost,
      unacked_attempted: [...attempted.values()].reduce((a, b) => a + b.length, 0),
      unacked_but_stored: unackedStored,
      requests_acked: requestsAcked,
      rounds,
      lost_examples: lostExamples,
      seconds: Math.round((performance.now() - t0) / 100) / 10,
    };
  } finally {
    await db?.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function main(args: string[]) {
  const pglite = args.includes('--pglite');
  const report = await runCrash({
    kills: numArg(args, 'kills', 10), clients: numArg(args, 'clients', 8), pglite, minLoadMs: 500, maxLoadMs: 2500,
    log: (s) => process.stderr.write(s + '\n'),
  });
  const out = {
    bench: 'crash',
    when: new Date().toISOString(),
    machine: 'shared 2-core box; load generator and server share the cores',
    command: `npm run bench -- crash${args.length ? ' ' + args.join(' ') : ''}`,
    ...report,
  };
  const json = JSON.stringify(out, null, 2);
  process.stdout.write(json + '\n');
  const dir = join(REPO, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, pglite ? 'crash-pglite.json' : 'crash.json'), json + '\n');
  if (report.lost > 0) process.exitCode = 1;
}
