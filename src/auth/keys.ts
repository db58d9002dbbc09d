// API keys: creation, lookup by hash, listing and revocation.
// A key is "svc_live_" or "svc_test_" + 40 random base62 characters (≈238 bits), so a
// single SHA-256 is a sound storage hash: there is nothing to brute-force.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Store } from '../store/index.ts';
import { insertKey, keyCount, keyRows, revokeKeyRow, type NewKey } from '../store/keys.ts';
import { DEFAULT_SCOPES, PLANS, SCOPES, type Plan } from './scopes.ts';
import { parseOrigins } from './origins.ts';

/** What a browser key may hold: it is visible in page source, so only map display and geocoding. */
export const BROWSER_SCOPES = ['maps', 'geo'];
/** Default burst limit of a browser key (requests per second): a map view loads ~50 tiles, glyphs and sprites at once. */
export const BROWSER_BURST_RPS = 100;

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_RE = /^svc_(live|test)_[0-9A-Za-z]{32,64}$/;
const BODY_LEN = 40;

export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const b of randomBytes(n * 2)) {
      // 248 = 4 * 62: rejecting bytes ≥ 248 keeps every character equally likely.
      if (b < 248 && out.length < n) out += B62[b % 62];
    }
  }
  return out;
}

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export interface KeyRow {
  id: string;
  project: string;
  display: string;
  plan: Plan;
  scopes: string[];
  test: boolean;
  created_at: string;
  revoked_at: string | null;
  /** Browser key origins; null for server keys. */
  origins: string[] | null;
  burst_rps: number | null;
}

export interface CreateKeyOptions {
  project: string;
  plan: Plan;
  test: boolean;
  scopes?: string[];
  /** A browser key: the web origins it may be used from (scheme://host[:port]). Restricts scopes to maps and geo. */
  origins?: string[];
  /** Burst limit of this key, requests per second (browser keys default to BROWSER_BURST_RPS). */
  burstRps?: number;
}

export function validateScopes(scopes: string[]): string[] {
  const bad = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (bad.length) throw new Error(`unknown scope(s): ${bad.join(', ')} (known: ${SCOPES.join(', ')})`);
  return [...new Set(scopes)];
}

/** A new key's secret and the row to insert, its options checked. */
function newKey(o: CreateKeyOptions): { key: string; rec: NewKey } {
  if (!(o.plan in PLANS)) throw new Error(`unknown plan '${o.plan}' (free, developer, enterprise)`);
  if (!/^[\w.-]{1,64}$/.test(o.project)) throw new Error('project name: 1-64 letters, digits, _ . -');
  const browser = o.origins !== undefined;
  const origins = browser ? parseOrigins(o.origins!) : null;
  const scopes = validateScopes(o.scopes && o.scopes.length ? o.scopes : browser ? BROWSER_SCOPES : DEFAULT_SCOPES);
  if (browser) {
    const extra = scopes.filter((x) => !BROWSER_SCOPES.includes(x));
    if (extra.length) throw new Error(`a browser key may hold only the ${BROWSER_SCOPES.join(' and ')} scopes (asked for ${extra.join(', ')})`);
  }
  if (o.burstRps !== undefined && !(Number.isInteger(o.burstRps) && o.burstRps > 0)) throw new Error('burst limit must be a whole number of requests per second above 0');
  const burst = o.burstRps ?? (browser ? BROWSER_BURST_RPS : null);
  const key = `svc_${o.test ? 'test' : 'live'}_${randomBase62(BODY_LEN)}`;
  const id = `key_${randomBase62(16)}`;
  return { key, rec: { id, project: o.project, display: key.slice(0, 13), hash: hashKey(key), plan: o.plan, scopes, test: o.test, origins, burstRps: burst } };
}

/** Creates the project when it does not exist. Returns the secret once; only its hash is kept. */
export async function createKey(store: Store, o: CreateKeyOptions): Promise<{ key: string; row: KeyRow }> {
  const { key, rec } = newKey(o);
  const row: KeyRow = await store.tx((c) => insertKey(c, rec));
  return { key, row };
}

export async function listKeys(store: Store, project?: string): Promise<KeyRow[]> {
  return keyRows(store, project);
}

/** Revoke by id or by the full key. Returns the revoked row, or null when nothing matched. */
export async function revokeKey(store: Store, keyOrId: string): Promise<KeyRow | null> {
  return (await revokeKeyRow(store, KEY_RE.test(keyOrId) ? { hash: hashKey(keyOrId) } : { id: keyOrId })) ?? null;
}

/** Any number fixed for the bootstrap's advisory lock: the nodes starting on one database agree on it. */
const BOOTSTRAP_LOCK = 0x5fc_b007;

/**
 * First start on an empty database: project "default" with one test and one live key. Nodes that
 * start together on one empty database take turns under a lock: the first creates the keys, the
 * others find them (and print none).
 */
export async function bootstrapKeys(store: Store): Promise<{ test: string; live: string } | null> {
  if ((await keyCount(store)) > 0) return null;
  const test = newKey({ project: 'default', plan: 'developer', test: true });
  const live = newKey({ project: 'default', plan: 'developer', test: false });
  const made = await store.tx(async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
    if ((await keyCount(c)) > 0) return false;
    await insertKey(c, test.rec);
    await insertKey(c, live.rec);
    return true;
  });
  return made ? { test: test.key, live: live.key } : null;
}
