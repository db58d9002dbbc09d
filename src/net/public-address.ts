// Which addresses are public: the check behind every URL the service accepts from a caller and
// someone will fetch (POD photos, fetched by reviewers; webhooks, fetched by the service itself).
// Only public https: no other schemes, no credentials in the URL, no loopback, private,
// link-local or otherwise internal hosts. Where the service connects, the address a name
// resolves to is checked again at connect time (publicOnlyLookup), since a public name can
// point at 127.0.0.1 or the cloud metadata address.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { InvalidField } from '../core/errors.ts';

export const MAX_URL_LEN = 2048;
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home', '.corp', '.home.arpa', '.localdomain', '.test', '.invalid', '.example', '.onion'];

/** The normalised URL when `raw` is a public https address; else throws InvalidField naming `field`. */
export function publicHttpsUrl(raw: string, field: string): string {
  if (raw.length > MAX_URL_LEN) throw new InvalidField(field, `must be at most ${MAX_URL_LEN} characters`);
  let u: URL;
  try { u = new URL(raw); } catch { throw new InvalidField(field, "must be an absolute https URL such as 'https://cdn.example.com/pod/123.jpg'"); }
  if (u.protocol !== 'https:') throw new InvalidField(field, `must use https, got '${u.protocol.replace(':', '')}'`);
  if (u.username || u.password) throw new InvalidField(field, 'must not carry credentials (user:password@)');
  // WHATWG parsing already turned decimal, octal and hex IPv4 forms into dotted quads.
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const kind = isIP(bare);
  if (kind === 4 && !publicV4(bare)) throw new InvalidField(field, 'must not point at a loopback, private, link-local or reserved address');
  if (kind === 6 && !publicV6(bare)) throw new InvalidField(field, 'must not point at a loopback, private, link-local or reserved address');
  if (kind === 0) {
    if (host === 'localhost' || INTERNAL_SUFFIXES.some((s) => host.endsWith(s))) throw new InvalidField(field, `must be on a public host, not '${host}'`);
    if (!host.includes('.')) throw new InvalidField(field, `must be on a public host with a domain name, not '${host}'`);
  }
  return u.toString();
}

export function publicV4(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  if (a === 0 || a === 10 || a === 127) return false; // "this network", private, loopback
  if (a === 169 && b === 254) return false; // link-local (cloud metadata lives here)
  if (a === 172 && b >= 16 && b <= 31) return false;
  if (a === 192 && b === 168) return false;
  if (a === 100 && b >= 64 && b <= 127) return false; // carrier-grade NAT
  if (a === 192 && b === 0) return false; // IETF protocol assignments, TEST-NET-1 (192.0.2)
  if (a === 198 && (b === 18 || b === 19)) return false; // benchmarking
  if (a >= 224) return false; // multicast, reserved, broadcast
  return true;
}

export function publicV6(ip: string): boolean {
  const s = ip.toLowerCase();
  if (s === '::' || s === '::1') return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (mapped) return publicV4(mapped[1]);
  if (/^::ffff:/.test(s)) return false; // mapped form written in hex: refuse rather than decode
  const first = parseInt(s.split(':')[0] || '0', 16);
  if ((first & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((first & 0xff00) === 0xff00) return false; // multicast
  if (s.startsWith('2001:db8:') || s.startsWith('64:ff9b:')) return false; // documentation, NAT64
  return true;
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
