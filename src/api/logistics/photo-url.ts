// The POD photo address. The service never fetches it, but callers and dispute
// reviewers will, so only public https addresses are accepted: no other schemes, no
// credentials in the URL, no loopback, private, link-local or otherwise internal hosts.
import { isIP } from 'node:net';
import { invalid } from './validate.ts';

const MAX_LEN = 2048;
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home', '.corp', '.home.arpa', '.localdomain', '.test', '.invalid', '.example', '.onion'];

export function checkPhotoUrl(raw: string, field = 'photo_url'): string {
  if (raw.length > MAX_LEN) throw invalid(field, `must be at most ${MAX_LEN} characters`);
  let u: URL;
  try { u = new URL(raw); } catch { throw invalid(field, "must be an absolute https URL such as 'https://cdn.example.com/pod/123.jpg'"); }
  if (u.protocol !== 'https:') throw invalid(field, `must use https, got '${u.protocol.replace(':', '')}'`);
  if (u.username || u.password) throw invalid(field, 'must not carry credentials (user:password@)');
  // WHATWG parsing already turned decimal, octal and hex IPv4 forms into dotted quads.
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const kind = isIP(bare);
  if (kind === 4 && !publicV4(bare)) throw invalid(field, 'must not point at a loopback, private, link-local or reserved address');
  if (kind === 6 && !publicV6(bare)) throw invalid(field, 'must not point at a loopback, private, link-local or reserved address');
  if (kind === 0) {
    if (host === 'localhost' || INTERNAL_SUFFIXES.some((s) => host.endsWith(s))) throw invalid(field, `must be on a public host, not '${host}'`);
    if (!host.includes('.')) throw invalid(field, `must be on a public host with a domain name, not '${host}'`);
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
