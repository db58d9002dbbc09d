// Resolves a bearer key to its KeyInfo without a database round trip on the hot path:
// all keys are cached in memory by hash and refreshed from `updated_at` every 500 ms, so a
// revocation made by the CLI, or on any other node of the same database, takes effect within 1 s.
import type { Store } from '../store/index.ts';
import { keyByHash, keysUpdatedSince } from '../store/keys.ts';
import type { KeyInfo } from './key-info.ts';
import { hashKey, KEY_RE } from './keys.ts';
import { log } from '../core/log.ts';

type Entry = KeyInfo & { revoked: boolean };
export type Lookup = { ok: true; key: KeyInfo } | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' };

export class Authenticator {
  private byHash = new Map<string, Entry>();
  private since = new Date(0);
  private timer: NodeJS.Timeout | null = null;
  /** Unknown hashes recently looked up, so a flood of bad keys cannot flood the database. */
  private misses = new Map<string, number>();

  constructor(private store: Store, private refreshMs = 500) {}

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => this.refresh().catch((e) => log.error('key_refresh', { error: String(e) })), this.refreshMs);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
  }

  async refresh(): Promise<void> {
    const rows = await keysUpdatedSince(this.store, this.since);
    for (const row of rows) {
      this.byHash.set(row.hash, toEntry(row));
      if (row.updated_at > this.since) this.since = row.updated_at;
    }
    if (rows.length) this.misses.clear();
  }

  /** Header → hash of a key seen before, so the hot path skips regex and SHA-256. */
  private seen = new Map<string, string>();

  /** Answer from memory when possible; undefined means "ask lookup()". */
  lookupCached(header: string | undefined): Lookup | undefined {
    if (!header) return undefined;
    const h = this.seen.get(header);
    if (!h) return undefined;
    const e = this.byHash.get(h);
    if (!e) return undefined;
    return e.revoked ? { ok: false, reason: 'revoked' } : { ok: true, key: e };
  }

  /** Bearer tokens other than API keys, by prefix, each resolved to what it may do (trip links' tokens). */
  private tokens: { prefix: string; resolve: (token: string) => Promise<Lookup> }[] = [];
  registerToken(prefix: string, resolve: (token: string) => Promise<Lookup>) {
    this.tokens.push({ prefix, resolve });
  }

  async lookup(header: string | undefined): Promise<Lookup> {
    if (!header) return { ok: false, reason: 'malformed' };
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (m) for (const t of this.tokens) if (m[1].startsWith(t.prefix)) return t.resolve(m[1]);
    if (!m || !KEY_RE.test(m[1])) return { ok: false, reason: 'malformed' };
    const h = hashKey(m[1]);
    let e = this.byHash.get(h);
    if (e) {
      if (this.seen.size > 50000) this.seen.clear();
      this.seen.set(header, h);
    }
    if (!e) {
      const now = Date.now();
      const until = this.misses.get(h);
      if (until && until > now) return { ok: false, reason: 'unknown' };
      // A key created in the last second: look it up directly instead of waiting for the refresh.
      const row = await keyByHash(this.store, h);
      if (!row) {
        if (this.misses.size > 10000) this.misses.clear();
        this.misses.set(h, now + 1000);
        return { ok: false, reason: 'unknown' };
      }
      e = toEntry(row);
      this.byHash.set(h, e);
    }
    if (e.revoked) return { ok: false, reason: 'revoked' };
    return { ok: true, key: e };
  }
}

function toEntry(row: any): Entry {
  return {
    id: row.id,
    project: row.project_id,
    plan: row.plan,
    scopes: row.scopes,
    test: row.test,
    origins: row.origins ?? null,
    burstRps: row.burst_rps ?? null,
    revoked: row.revoked_at !== null,
  };
}
