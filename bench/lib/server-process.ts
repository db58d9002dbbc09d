// Runs the real service as a child process (as `npm start` does) for HTTP benchmarks,
// so the load generator, the bench script and the server do not share an event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MALLOC_ENV } from '../../src/core/malloc.ts';

export const REPO = resolve(import.meta.dirname, '..', '..');

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  keys: { test: string; live: string } | null;
  /** Everything the server printed so far (its JSON log lines). */
  output(): string;
  stop(): Promise<void>;
}

/** `pollMs`: how often /healthz is tried (a start timed to the tenth of a second wants it short); `settleMs`: the wait after it answers, for the first-start banner. */
export async function startServerProcess(env: Record<string, string>, port: number, o: { pollMs?: number; settleMs?: number; entry?: 'npm-start' | 'tsx'; cwd?: string; nodeArgs?: string[] } = {}): Promise<ServerProcess & { startedMs: number }> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'svc-bench-'));
  // 'npm-start' runs what `npm start` runs (src/start.mjs, one bundle); the default loads the TypeScript through tsx,
  // which every commit has (A/B benches start older checkouts)
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), ...(o.entry === 'npm-start' ? ['src/start.mjs'] : ['--import', 'tsx', 'src/main.ts'])], {
    cwd: o.cwd ?? REPO,
    env: { ...MALLOC_ENV, ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_REQUESTS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const base = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const r = await fetch(base + '/healthz');
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() - t0 > 600_000) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, o.pollMs ?? 200));
  }
  const startedMs = Date.now() - t0;
  await new Promise((r) => setTimeout(r, o.settleMs ?? 300)); // the first-start banner follows listening
  const test = /test key \(sandbox\): (svc_test_\w+)/.exec(out)?.[1];
  const live = /live key:\s+(svc_live_\w+)/.exec(out)?.[1];
  return {
    base, child, keys: test && live ? { test, live } : null, startedMs,
    output: () => out,
    stop: () => new Promise<void>((res) => {
      if (child.exitCode !== null) return res();
      child.once('exit', () => res());
      child.kill('SIGTERM');
    }),
  };
}
