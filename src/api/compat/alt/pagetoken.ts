// Page tokens of nearbysearch: the query and the offset of the next page, signed and dated.
// Stateless (nothing to keep or expire in memory), bound to the key that asked, valid a few
// minutes like the platform's. The data is read-only, so re-running the query gives the same order.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const PAGE_TOKEN_TTL_S = 300;

export interface PageState {
  /** The canonical query (what the next page re-runs). */
  q: Record<string, unknown>;
  /** Offset of the page the token opens. */
  o: number;
}

const processSecret = randomBytes(32);

export class PageTokens {
  private secret: Buffer;
  constructor(secret: string | null, private now: () => number = () => Date.now()) {
    this.secret = secret ? Buffer.from(secret) : processSecret;
  }

  private mac(payload: string, keyId: string): Buffer {
    return createHmac('sha256', this.secret).update(keyId).update('\0').update(payload).digest().subarray(0, 16);
  }

  issue(state: PageState, keyId: string): string {
    const payload = Buffer.from(JSON.stringify({ ...state, e: Math.floor(this.now() / 1000) + PAGE_TOKEN_TTL_S })).toString('base64url');
    return `${payload}.${this.mac(payload, keyId).toString('base64url')}`;
  }

  /** The state, or a reason the token is refused. */
  open(token: string, keyId: string): PageState | { error: string } {
    const dot = token.indexOf('.');
    if (dot <= 0) return { error: 'is not a page token issued by this service' };
    const payload = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1), 'base64url');
    const want = this.mac(payload, keyId);
    if (mac.length !== want.length || !timingSafeEqual(mac, want)) return { error: 'is not a page token issued by this service for this key' };
    let s: PageState & { e: number };
    try {
      s = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return { error: 'is not a page token issued by this service' };
    }
    if (!(s.e * 1000 > this.now())) return { error: `has expired (page tokens are valid ${PAGE_TOKEN_TTL_S / 60} minutes)` };
    return { q: s.q, o: s.o };
  }
}
