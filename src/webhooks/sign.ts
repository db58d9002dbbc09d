// Webhook signatures, as Stripe does them: `Svc-Signature: t=<unix seconds>,v1=<hex>` where
// v1 = HMAC-SHA256(secret, "<t>.<raw body>"). The timestamp inside the signed text lets a
// receiver refuse replays older than its tolerance; the "v1" label lets a second scheme be
// added beside it without breaking receivers.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../auth/keys.ts';

export const SIGNATURE_HEADER = 'Svc-Signature';
export const newSecret = () => `whsec_${randomBase62(32)}`;

export function signature(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

export function signatureHeader(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${signature(secret, t, body)}`;
}

/** What a receiver runs (also the sample in docs/webhooks.md). */
export function verifySignature(secret: string, header: string, body: string, toleranceS = 300, now = Date.now()): boolean {
  const parts = new Map<string, string[]>();
  for (const kv of header.split(',')) {
    const i = kv.indexOf('=');
    if (i > 0) parts.set(kv.slice(0, i).trim(), [...(parts.get(kv.slice(0, i).trim()) ?? []), kv.slice(i + 1).trim()]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > toleranceS) return false;
  const want = Buffer.from(signature(secret, t, body), 'hex');
  return (parts.get('v1') ?? []).some((v) => {
    const got = Buffer.from(v, 'hex');
    return got.length === want.length && timingSafeEqual(got, want);
  });
}
