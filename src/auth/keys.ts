// API keys: creation, lookup by hash, listing and revocation.
// A key is "svc_live_" or "svc_test_" + 40 random base62 characters (≈238 bits), so a
// single SHA-256 is a sound storage hash: there is nothing to brute-force.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Store } from '../store/index.ts';
import { DEFAULT_SCOPES, PLANS, SCOPES, type Plan } from './scopes.ts';

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
}

export interface CreateKeyOptions {
  project: string;
  plan: Plan;
  test: boolean;
  scopes?: string[];
}

export function validateScopes(scopes: string[]): string[] {
  const bad = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (bad.length) throw new Error(`unknown scope(s): ${bad.join(', ')} (known: ${SCOPES.join(', ')})`);
  return [...new Set(scopes)];
}

/** Creates the project when it does not exist. Returns the secret once; only its hash is kept. */
export async function createKey(store: Store, o: CreateKeyOptions): Promise<{ key: string; row: KeyRow }> {
  if (!(o.plan in PLANS)) throw new Error(`unknown plan '${o.plan}' (free, developer, enterprise)`);
  if (!/^[\w.-]{1,64}$/.test(o.project)) throw new Error('project name: 1-64 letters, digits, _ . -');
  const scopes = validateScopes(o.scopes && o.scopes.length ? o.scopes : DEFAULT_SCOPES);
  const key = `svc_${o.test ? 'test' : 'live'}_${randomBase62(BODY_LEN)}`;
  const id = `key_${randomBase62(16)}`;
  const row = await store.tx(async (c) => {
    await c.query('INSERT INTO projects (id, name) VALUES ($1, $1) ON CONFLICT (name) DO NOTHING', [o.project]);
    const r = await c.query(
      `INSERT INTO api_keys (id, project_id, display, hash, plan, scopes, test)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING id, project_id AS project, display, plan, scopes, test, created_at, revoked_at`,
      [id, o.project, key.slice(0, 13), hashKey(key), o.plan, scopes, o.test],
    );
    return r.rows[0] as KeyRow;
  });
  return { key, row };
}

export async function listKeys(store: Store, project?: string): Promise<KeyRow[]> {
  const r = await store.query(
    `SELECT id, project_id AS project, display, plan, scopes, test, created_at, revoked_at
     FROM api_keys ${project ? 'WHERE project_id = $1' : ''} ORDER BY created_at, id`,
    project ? [project] : [],
  );
  return r.rows;
}

/** Revoke by id or by the full key. Returns the revoked row, or null when nothing matched. */
export async function revokeKey(store: Store, keyOrId: string): Promise<KeyRow | null> {
  const byKey = KEY_RE.test(keyOrId);
  const r = await store.query(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()), updated_at = now()
     WHERE ${byKey ? 'hash' : 'id'} = $1
     RETURNING id, project_id AS project, display, plan, scopes, test, created_at, revoked_at`,
    [byKey ? hashKey(keyOrId) : keyOrId],
  );
  return r.rows[0] ?? null;
}

/** First start on an empty database: project "default" with one test and one live key. */
export async function bootstrapKeys(store: Store): Promise<{ test: string; live: string } | null> {
  const n = await store.query('SELECT count(*)::int AS n FROM api_keys');
  if (n.rows[0].n > 0) return null;
  const test = await createKey(store, { project: 'default', plan: 'developer', test: true });
  const live = await createKey(store, { project: 'default', plan: 'developer', test: false });
  return { test: test.key, live: live.key };
}
