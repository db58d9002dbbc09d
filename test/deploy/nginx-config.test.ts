// The nginx configuration as rendered for a server (--print-nginx) and for the launcher: what it
// must say, what it refuses, and that nginx itself accepts it (`nginx -t`, when nginx is installed).
import { describe, it, expect } from 'vitest';
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderNginx, nginxBinary } from '../../deploy/nginx-config.ts';
import { HAS_NGINX } from '../../bench/lib/cluster-process.ts';

const base = { prefix: '/tmp/svc-nginx', upstreams: ['10.0.0.11:8080', '10.0.0.12:8080'], listen: '8080', maxBodyBytes: 1 << 20 };

describe('deploy/nginx.conf.template', () => {
  it('renders the upstream, limits, retry rules and no TLS block without a certificate', () => {
    const c = renderNginx(base).replace(/#.*$/gm, ''); // the directives, not the comments about them
    expect(c).toContain('server 10.0.0.11:8080 max_fails=2 fail_timeout=2s;');
    expect(c).toContain('server 10.0.0.12:8080 max_fails=2 fail_timeout=2s;');
    expect(c).toContain('client_max_body_size 1048576;');
    expect(c).toContain('proxy_http_version 1.1;');
    expect(c).toContain('proxy_pass_request_headers off;');
    // Retries: never a sent POST, except the idempotent ping batch.
    const general = c.slice(c.indexOf('location / {'), c.indexOf('location = /api/v1/track/ping'));
    expect(general).toMatch(/proxy_next_upstream error timeout http_502 http_503;/);
    expect(general).not.toContain('non_idempotent');
    expect(c).toMatch(/location = \/api\/v1\/track\/ping \{[^}]*non_idempotent/);
    expect(c).not.toContain('ssl_certificate');
    expect(c).not.toMatch(/\{\{\w+\}\}/);
  });

  it('refuses addresses and paths that would inject directives', () => {
    expect(() => renderNginx({ ...base, upstreams: ['10.0.0.1:80; include /etc/passwd'] })).toThrow(/not an address/);
    expect(() => renderNginx({ ...base, upstreams: [] })).toThrow(/at least one/);
    expect(() => renderNginx({ ...base, prefix: '/tmp/a b' })).toThrow(/paths must not/);
    expect(() => renderNginx({ ...base, tls: { listen: '443', cert: '/x/c.pem;', key: '/x/k.pem' } })).toThrow(/paths must not/);
  });

  it.skipIf(!HAS_NGINX)('is accepted by nginx -t, with the TLS server block', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-nginx-t-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
      const conf = renderNginx({ ...base, prefix: dir, tls: { listen: '8443', cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') } });
      expect(conf).toContain(`ssl_certificate ${join(dir, 'cert.pem')};`);
      writeFileSync(join(dir, 'nginx.conf'), conf);
      const t = spawnSync(nginxBinary(), ['-t', '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr'], { encoding: 'utf8' });
      expect(t.stderr).toMatch(/test is successful/);
      expect(t.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
