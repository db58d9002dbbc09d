// Runs `deploy/cluster.ts` (N nodes and nginx) as a child process for the tests and the cluster
// bench: picks free ports, waits for its "cluster ready" line, and can kill -9 a node, ask for a
// rolling restart and wait for it, and stop everything.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { REPO } from './server-process.ts';
import { MALLOC_ENV } from '../../src/core/malloc.ts';
import { nginxBinary } from '../../deploy/nginx-config.ts';

export const HAS_NGINX = spawnSync(nginxBinary(), ['-v'], { stdio: 'ignore' }).status === 0;

export interface ClusterState { port: number; tls_port: number | null; prefix: string; nodes: { port: number; pid: number | null }[]; nginx_pid: number | null }

export interface ClusterProcess {
  base: string;
  state: ClusterState;
  child: ChildProcess;
  /** Everything the launcher, nginx and the nodes wrote. */
  output(): string;
  /** The next "cluster ready" line (after a node came back or a rolling restart finished). */
  nextReady(timeoutMs?: number): Promise<ClusterState>;
  killNode(i: number, signal?: NodeJS.Signals): void;
  /** SIGUSR2: restart the nodes one after the other; resolves when the last is ready. */
  rollingRestart(timeoutMs?: number): Promise<ClusterState>;
  stop(): Promise<number | null>;
}

const portFree = (port: number) => new Promise<boolean>((resolve) => {
  const s = createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
});

/** A port P with P … P+count all free (the launcher puts nginx on P and node i on P+i). */
export async function freePortRange(count: number): Promise<number> {
  for (let tries = 0; tries < 200; tries++) {
    const probe = createServer();
    const p = await new Promise<number>((r) => probe.listen(0, '127.0.0.1', () => { const a = (probe.address() as AddressInfo).port; probe.close(() => r(a)); }));
    if (p + count > 65000) continue;
    let ok = true;
    for (let i = 0; i <= count && ok; i++) ok = await portFree(p + i);
    if (ok) return p;
  }
  throw new Error('no free range of ports');
}

export async function startCluster(o: { nodes: number; env: Record<string, string>; tls?: { cert: string; key: string }; timeoutMs?: number }): Promise<ClusterProcess> {
  // nginx on P, the nodes on P+1 … P+N, HTTPS (when asked) on P+N+1
  const port = await freePortRange(o.nodes + 2);
  const tls = o.tls ? ['--tls-port', String(port + o.nodes + 1), '--cert', o.tls.cert, '--key', o.tls.key] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'deploy/cluster.ts', '--nodes', String(o.nodes), ...tls], {
    cwd: REPO,
    env: { ...MALLOC_ENV, ...process.env, LOG_LEVEL: 'warn', ...o.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: ((s: ClusterState) => void)[] = [];
  const onData = (d: Buffer) => {
    out += d;
    for (const m of d.toString().matchAll(/^cluster ready (\{.*\})$/gm)) {
      const s = JSON.parse(m[1]) as ClusterState;
      cp.state = s;
      waiters.splice(0).forEach((w) => w(s));
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', (d: Buffer) => { out += d; });
  const nextReady = (timeoutMs = 120_000) => new Promise<ClusterState>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`cluster: not ready within ${timeoutMs} ms:\n${out.slice(-4000)}`)), timeoutMs);
    const onExit = () => { clearTimeout(t); reject(new Error(`cluster exited (${child.exitCode}):\n${out.slice(-4000)}`)); };
    child.once('exit', onExit);
    waiters.push((s) => { clearTimeout(t); child.off('exit', onExit); resolve(s); });
  });
  const cp: ClusterProcess = {
    base: `http://127.0.0.1:${port}`,
    state: null as unknown as ClusterState,
    child,
    output: () => out,
    nextReady,
    killNode(i, signal = 'SIGKILL') {
      const pid = cp.state.nodes[i].pid;
      if (pid) process.kill(pid, signal);
    },
    rollingRestart(timeoutMs = 180_000) {
      const ready = nextReady(timeoutMs);
      child.kill('SIGUSR2');
      return ready;
    },
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    }),
  };
  cp.state = await nextReady(o.timeoutMs ?? 180_000);
  return cp;
}
