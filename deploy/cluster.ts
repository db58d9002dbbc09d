// `PORT=8080 DATABASE_URL=postgres://… npm run cluster -- --nodes 2`: N server processes on one
// PostgreSQL (ports PORT+1 … PORT+N on 127.0.0.1) and nginx in front of them on PORT, all in the
// foreground, for local trials and the tests.
//
//   --nodes N            server processes (default 2)
//   --tls-port P --cert FILE --key FILE
//                        also serve HTTPS on P with that certificate (PEM)
//   --workers N          WORKERS of each node (default: the node's own default)
//   --print-nginx --upstream host:port,host:port [--port P] [--tls-port P --cert … --key …] [--prefix DIR]
//                        print the nginx configuration for a server and exit
//
// Signals: Ctrl-C / SIGTERM stops nginx (gracefully) and then every node (each drains); SIGUSR2
// restarts the nodes one after the other, each only once the previous one answers /readyz;
// SIGHUP reloads the datasets of every node and nginx's configuration. A node that exits on its
// own (a crash, kill -9) is started again after a second, as systemd would.
//
// Every node gets the same PAGE_TOKEN_SECRET and STATICMAP_SECRET (page tokens and signed URLs
// issued by one node are accepted by the others): from the environment, else random ones made
// for this run (tokens then do not survive a restart of the cluster).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { renderNginx, nginxBinary, FAIL_TIMEOUT_S } from './nginx-config.ts';
import { MALLOC_ENV } from '../src/core/malloc.ts';

const REPO = resolve(import.meta.dirname, '..');
/** The nodes keep answering requests on open connections this long after SIGTERM (above nginx's 4 s upstream keep-alive). */
const DRAIN_GRACE_MS = '5000';

interface Args {
  nodes: number; port: number; tlsPort: number | null; cert: string | null; key: string | null;
  workers: string | null; printNginx: boolean; upstream: string[]; prefix: string | null;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    nodes: 2, port: Number(process.env.PORT || 8080), tlsPort: null, cert: null, key: null,
    workers: null, printNginx: false, upstream: [], prefix: null,
  };
  const num = (name: string, v: string | undefined, min: number, max: number) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) fail(`${name} must be a whole number from ${min} to ${max}, got '${v ?? ''}'`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i], v = argv[i + 1];
    switch (k) {
      case '--nodes': a.nodes = num(k, v, 1, 64); i++; break;
      case '--port': a.port = num(k, v, 1, 65535); i++; break;
      case '--tls-port': a.tlsPort = num(k, v, 1, 65535); i++; break;
      case '--cert': a.cert = resolve(v ?? fail('--cert needs a file')); i++; break;
      case '--key': a.key = resolve(v ?? fail('--key needs a file')); i++; break;
      case '--workers': a.workers = String(num(k, v, 1, 256)); i++; break;
      case '--print-nginx': a.printNginx = true; break;
      case '--upstream': a.upstream = (v ?? '').split(',').filter(Boolean); i++; break;
      case '--prefix': a.prefix = resolve(v ?? fail('--prefix needs a folder')); i++; break;
      default: fail(`unknown option '${k}' (see deploy/cluster.ts)`);
    }
  }
  if (!Number.isInteger(a.port) || a.port < 1 || a.port + a.nodes > 65535) fail(`PORT must leave room for ${a.nodes} node ports above it, got ${a.port}`);
  if ((a.tlsPort === null) !== (a.cert === null) || (a.cert === null) !== (a.key === null)) fail('--tls-port, --cert and --key go together');
  return a;
}

function fail(msg: string): never {
  process.stderr.write(`cluster: ${msg}\n`);
  process.exit(2);
}

const say = (msg: string) => process.stderr.write(`cluster: ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const args = parseArgs(process.argv.slice(2));
const maxBodyBytes = Number(process.env.MAX_BODY_BYTES || 1 << 20);
const tls = args.tlsPort !== null ? { listen: String(args.tlsPort), cert: args.cert!, key: args.key! } : undefined;

if (args.printNginx) {
  if (!args.upstream.length) fail('--print-nginx needs --upstream host:port[,host:port…]');
  process.stdout.write(renderNginx({
    prefix: args.prefix ?? '/var/lib/svc-nginx', upstreams: args.upstream, listen: String(args.port), tls, maxBodyBytes,
    user: 'www-data', accessLog: '/var/log/nginx/svc-access.log', errorLog: '/var/log/nginx/svc-error.log',
  }));
  process.exit(0);
}

if (!process.env.DATABASE_URL) fail('DATABASE_URL must name the PostgreSQL every node shares (the embedded database serves one process only)');

const prefix = mkdtempSync(join(tmpdir(), 'svc-cluster-'));
const nodePorts = Array.from({ length: args.nodes }, (_, i) => args.port + 1 + i);
const shared = {
  PAGE_TOKEN_SECRET: process.env.PAGE_TOKEN_SECRET || randomBytes(32).toString('hex'),
  STATICMAP_SECRET: process.env.STATICMAP_SECRET || randomBytes(32).toString('hex'),
};
if (!process.env.PAGE_TOKEN_SECRET || !process.env.STATICMAP_SECRET) say('PAGE_TOKEN_SECRET / STATICMAP_SECRET not set: using random ones shared by the nodes for this run');

interface Node { index: number; port: number; child: ChildProcess | null; stopping: boolean }
const nodes: Node[] = nodePorts.map((port, index) => ({ index, port, child: null, stopping: false }));
let stopping = false;
let nginx: ChildProcess | null = null;

function spawnNode(n: Node) {
  // what `npm start` runs: one bundle, rebuilt only when a source changed (src/start.mjs)
  const child = spawn(process.execPath, ['src/start.mjs'], {
    cwd: REPO,
    env: {
      ...MALLOC_ENV, DRAIN_GRACE_MS, TRUST_PROXY: '1', ...process.env, ...shared,
      PORT: String(n.port), HOST: '127.0.0.1', BASE_URL: process.env.BASE_URL || `http://localhost:${args.port}`,
      ...(args.workers ? { WORKERS: args.workers } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  n.child = child;
  n.stopping = false;
  child.once('exit', (code, signal) => {
    if (n.child === child) n.child = null;
    if (stopping || n.stopping) return;
    say(`node ${n.index + 1} (port ${n.port}) exited (${signal ?? `code ${code}`}); starting it again in 1 s`);
    setTimeout(() => {
      if (stopping || n.child) return;
      spawnNode(n);
      void waitReady(n).then(() => { say(`node ${n.index + 1} is back`); announce(); }, (e) => say(String(e)));
    }, 1000);
  });
}

/** Until the node answers 200 on /readyz (datasets loaded, database reachable, not draining). */
async function waitReady(n: Node, timeoutMs = 15 * 60_000) {
  const t0 = Date.now();
  for (;;) {
    if (!n.child) throw new Error(`node ${n.index + 1} exited before it was ready`);
    try {
      const r = await fetch(`http://127.0.0.1:${n.port}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) return;
    } catch { /* not listening yet */ }
    if (Date.now() - t0 > timeoutMs) throw new Error(`node ${n.index + 1} not ready after ${timeoutMs / 1000} s`);
    await sleep(200);
  }
}

function stopNode(n: Node): Promise<void> {
  const child = n.child;
  if (!child || child.exitCode !== null) return Promise.resolve();
  n.stopping = true;
  return new Promise((r) => { child.once('exit', () => r()); child.kill('SIGTERM'); });
}

/** One line the tests (and people) can read: where nginx listens and which process serves which port. */
function announce() {
  const state = { port: args.port, tls_port: args.tlsPort, prefix, nodes: nodes.map((n) => ({ port: n.port, pid: n.child?.pid ?? null })), nginx_pid: nginx?.pid ?? null };
  process.stdout.write(`cluster ready ${JSON.stringify(state)}\n`);
}

async function rollingRestart() {
  say('rolling restart');
  for (const n of nodes) {
    if (stopping) return;
    await stopNode(n);
    if (stopping) return;
    spawnNode(n);
    await waitReady(n);
    say(`node ${n.index + 1} restarted and ready`);
    // nginx still counts the node as failed until fail_timeout has passed and a trial request
    // succeeds: stopping the next node before that would leave nginx no live node.
    if (n !== nodes.at(-1)) await sleep(FAIL_TIMEOUT_S * 1000 + 1000);
  }
  announce();
}

async function shutdown(signal: string, code = 0) {
  if (stopping) return;
  stopping = true;
  say(`${signal}: stopping nginx, then the nodes`);
  // nginx first (SIGQUIT: it finishes the requests it has), so no new request reaches a node that drains.
  if (nginx && nginx.exitCode === null) {
    const ng = nginx;
    await new Promise<void>((r) => { ng.once('exit', () => r()); ng.kill('SIGQUIT'); });
  }
  await Promise.all(nodes.map(stopNode));
  rmSync(prefix, { recursive: true, force: true });
  process.exit(code);
}

process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
let restarting: Promise<void> | null = null;
process.on('SIGUSR2', () => {
  restarting ??= rollingRestart().catch((e) => { say(`rolling restart failed: ${e}`); }).finally(() => { restarting = null; });
});
process.on('SIGHUP', () => {
  for (const n of nodes) n.child?.kill('SIGHUP');
  nginx?.kill('SIGHUP');
});

try {
  // The first node alone: on an empty database it migrates and creates the first keys, and it
  // builds the default datasets when they are missing; the others then start together.
  spawnNode(nodes[0]);
  await waitReady(nodes[0]);
  for (const n of nodes.slice(1)) spawnNode(n);
  await Promise.all(nodes.slice(1).map((n) => waitReady(n)));
} catch (e) {
  say(String(e));
  await shutdown('start failed', 1);
}

writeFileSync(join(prefix, 'nginx.conf'), renderNginx({
  prefix, upstreams: nodePorts.map((p) => `127.0.0.1:${p}`), listen: String(args.port), tls, maxBodyBytes,
  user: process.getuid?.() === 0 ? 'root' : null,
}));
nginx = spawn(nginxBinary(), ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-e', 'stderr'], { stdio: ['ignore', 'inherit', 'inherit'] });
nginx.once('error', (e) => { say(`cannot start nginx (${e.message}); install it (apt-get install nginx)`); void shutdown('nginx missing', 1); });
nginx.once('exit', (code) => { if (!stopping) { say(`nginx exited (code ${code})`); void shutdown('nginx exited', 1); } });

// Ready once nginx answers for the nodes.
for (let t0 = Date.now(); !stopping; await sleep(100)) {
  try {
    const r = await fetch(`http://127.0.0.1:${args.port}/readyz`, { signal: AbortSignal.timeout(2000) });
    if (r.status === 200) break;
  } catch { /* nginx not listening yet */ }
  if (Date.now() - t0 > 30_000) { say('nginx did not answer within 30 s'); await shutdown('nginx not answering', 1); }
}
announce();
