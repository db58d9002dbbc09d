// Renders deploy/nginx.conf.template: the upstream of N nodes, the listen addresses, the TLS
// server block when a certificate is given, and the body limit the nodes enforce.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = import.meta.dirname;

/** The nginx binary: NGINX if set, else Debian's /usr/sbin/nginx (not on an ordinary user's PATH), else the PATH's. */
export function nginxBinary(): string {
  if (process.env.NGINX) return process.env.NGINX;
  return existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
}

export interface NginxOptions {
  /** Folder for nginx's pid file and temporary files (it must exist and be writable). */
  prefix: string;
  /** host:port of each node. */
  upstreams: string[];
  /** What the plain HTTP server listens on: "8080", "127.0.0.1:8080". */
  listen: string;
  /** TLS: listen address, certificate and key (PEM); no TLS server block when absent. */
  tls?: { listen: string; cert: string; key: string };
  /** client_max_body_size in bytes (the nodes' MAX_BODY_BYTES). */
  maxBodyBytes: number;
  /** Passive health check: failures within failTimeout that take a node out for failTimeout. */
  maxFails?: number;
  failTimeout?: string;
  workerProcesses?: number | 'auto';
  accessLog?: string;
  errorLog?: string;
  /** The `user` directive; omitted when null (nginx started by an unprivileged user ignores it anyway). */
  user?: string | null;
}

const ADDRESS = /^[\w.:[\]-]+$/;

/**
 * How long nginx keeps a failed node out (fail_timeout). A node that comes back gets one trial
 * request only after this, so a rolling restart must wait this long (plus a margin) after a node
 * is ready before it stops the next one, or nginx would see both as down at once.
 */
export const FAIL_TIMEOUT_S = 2;

export function renderNginx(o: NginxOptions): string {
  if (!o.upstreams.length) throw new Error('at least one upstream node is needed');
  for (const a of [...o.upstreams, o.listen, o.tls?.listen ?? '0']) {
    if (!ADDRESS.test(a)) throw new Error(`not an address nginx can listen on or proxy to: '${a}'`);
  }
  for (const p of [o.prefix, o.tls?.cert, o.tls?.key, o.accessLog, o.errorLog]) {
    if (p !== undefined && /[\s;{}'"]/.test(p)) throw new Error(`paths must not hold spaces, quotes, braces or ';': '${p}'`);
  }
  const maxFails = o.maxFails ?? 2;
  const failTimeout = o.failTimeout ?? `${FAIL_TIMEOUT_S}s`;
  const locations = readFileSync(join(DIR, 'svc-locations.conf'), 'utf8').trimEnd().split('\n').map((l) => (l ? `    ${l}` : l)).join('\n');
  const tls = o.tls
    ? [
        '  server {',
        `    listen ${o.tls.listen} ssl http2;`,
        '    server_name _;',
        `    ssl_certificate ${o.tls.cert};`,
        `    ssl_certificate_key ${o.tls.key};`,
        '    ssl_protocols TLSv1.2 TLSv1.3;',
        '    ssl_prefer_server_ciphers off;',
        '    ssl_session_cache shared:svc_tls:10m;',
        '    ssl_session_timeout 1h;',
        '',
        locations,
        '  }',
      ].join('\n')
    : '  # No TLS server: no certificate given (--cert/--key).';
  const values: Record<string, string> = {
    USER_LINE: o.user ? `user ${o.user};` : '# user: the one that starts nginx',
    WORKER_PROCESSES: String(o.workerProcesses ?? 'auto'),
    PREFIX: o.prefix,
    ERROR_LOG: o.errorLog ?? 'stderr',
    ACCESS_LOG: o.accessLog ?? `${o.prefix}/access.log`,
    MAX_FAILS: String(maxFails),
    FAIL_TIMEOUT: failTimeout,
    UPSTREAM_SERVERS: o.upstreams.map((u) => `    server ${u} max_fails=${maxFails} fail_timeout=${failTimeout};`).join('\n'),
    MAX_BODY: String(o.maxBodyBytes),
    LISTEN: o.listen,
    LOCATIONS: locations,
    TLS_SERVER: tls,
  };
  const out = readFileSync(join(DIR, 'nginx.conf.template'), 'utf8').replace(/\{\{(\w+)\}\}/g, (m, k: string) => {
    if (!(k in values)) throw new Error(`nginx.conf.template: unknown placeholder ${m}`);
    return values[k];
  });
  return out;
}
