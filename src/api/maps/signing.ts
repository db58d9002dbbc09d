// Signed static-map URLs: `format=json` answers a URL on our host whose query is the resolved
// map (center, zoom, size, markers, paths — routes already drawn as encoded polylines) and an
// HMAC-SHA256 of it, so the image can be put in an e-mail or <img> without a key and cannot be
// altered. The secret is STATICMAP_SECRET, else a random one kept in DATA_DIR (0600).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../core/config.ts';

const secrets = new Map<string, Buffer>();

function secret(config: Config): Buffer {
  const env = process.env.STATICMAP_SECRET;
  if (env) return Buffer.from(env);
  let s = secrets.get(config.dataDir);
  if (s) return s;
  const f = join(config.dataDir, 'staticmap.secret');
  if (existsSync(f)) s = Buffer.from(readFileSync(f, 'utf8').trim(), 'hex');
  else {
    s = randomBytes(32);
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(f, s.toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
  }
  secrets.set(config.dataDir, s);
  return s;
}

export function sign(config: Config, data: string): string {
  return createHmac('sha256', secret(config)).update(data).digest('base64url');
}

export function verify(config: Config, data: string, sig: string): boolean {
  const want = Buffer.from(sign(config, data));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}
