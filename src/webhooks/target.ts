// Where a webhook may be sent. Like POD photo addresses (photo-url.ts): public https only,
// no credentials, no loopback, private, link-local or internal names; and because the
// service itself connects, the address a name resolves to is checked again at connect time
// (a public name pointing at 127.0.0.1 or the cloud metadata address is refused).
// WEBHOOK_ALLOW_PRIVATE=1 lifts all of this, for tests and private deployments.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { checkPhotoUrl, publicV4, publicV6 } from '../api/logistics/photo-url.ts';
import { invalid } from '../api/logistics/validate.ts';

export function checkWebhookUrl(raw: string, allowPrivate: boolean): string {
  if (!allowPrivate) return checkPhotoUrl(raw, 'url');
  let u: URL;
  try { u = new URL(raw); } catch { throw invalid('url', "must be an absolute URL such as 'https://example.com/hooks/svc'"); }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid('url', 'must use https (or http when private targets are allowed)');
  if (u.username || u.password) throw invalid('url', 'must not carry credentials (user:password@)');
  if (raw.length > 2048) throw invalid('url', 'must be at most 2048 characters');
  return u.toString();
}

export const isPublicAddress = (ip: string) => (isIP(ip) === 4 ? publicV4(ip) : isIP(ip) === 6 ? publicV6(ip) : false);

/** A DNS lookup for http.request that fails on any non-public address. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return (callback as any)(err);
    const list = addresses as unknown as LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (bad || !list.length) {
      const e = Object.assign(new Error(`refused: ${hostname} resolves to a non-public address`), { code: 'ENONPUBLIC' });
      return (callback as any)(e);
    }
    if ((options as { all?: boolean }).all) return (callback as any)(null, list);
    return (callback as any)(null, list[0].address, list[0].family);
  });
};
