// Where a webhook may be sent: a public https address (src/net/public-address.ts), checked again
// at connect time by the dispatcher. WEBHOOK_ALLOW_PRIVATE=1 lifts the public-address rule, for
// tests and private deployments.
import { InvalidField } from '../core/errors.ts';
import { MAX_URL_LEN, publicHttpsUrl } from '../net/public-address.ts';

export function checkWebhookUrl(raw: string, allowPrivate: boolean): string {
  if (!allowPrivate) return publicHttpsUrl(raw, 'url');
  let u: URL;
  try { u = new URL(raw); } catch { throw new InvalidField('url', "must be an absolute URL such as 'https://example.com/hooks/svc'"); }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new InvalidField('url', 'must use https (or http when private targets are allowed)');
  if (u.username || u.password) throw new InvalidField('url', 'must not carry credentials (user:password@)');
  if (raw.length > MAX_URL_LEN) throw new InvalidField('url', `must be at most ${MAX_URL_LEN} characters`);
  return u.toString();
}
