// Dashboard accounts: email + password, the password kept only as an scrypt hash
// (node:crypto, N=2^15, r=8, p=1, 16-byte salt, 32-byte hash; about 50 ms on one core, run off
// the event loop). Login failures are counted per account: after LOCK_AFTER in a row the
// account is locked for LOCK_MS, doubling with every further lock, whatever the password.
import { scrypt as scryptCb, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/index.ts';
import { accountByEmail, insertAccount, insertMember, loginFailed, loginRow, loginSucceeded, membership, projectsOfAccount, setPasswordHash } from '../store/accounts.ts';
import { deleteSessionsOfEmail } from '../store/sessions.ts';
import { randomBase62 } from './keys.ts';

const N = 1 << 15, R = 8, P = 1, KEYLEN = 32;
export const LOCK_AFTER = 5;
export const LOCK_MS = 15 * 60_000;
export const MIN_PASSWORD = 10;
export const EMAIL_RE = /^[^\s@<>"']{1,64}@[^\s@<>"']+\.[^\s@<>"']{2,}$/;

function scrypt(pw: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((res, rej) => scryptCb(pw.normalize('NFKC'), salt, KEYLEN, { N: n, r, p, maxmem: 256 * n * r }, (e, k) => (e ? rej(e) : res(k))));
}

export async function hashPassword(pw: string): Promise<string> {
  const salt = randomBytes(16);
  const h = await scrypt(pw, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${h.toString('base64')}`;
}

export async function verifyPassword(pw: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt') return false;
  const want = Buffer.from(hash, 'base64');
  const got = await scrypt(pw, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return got.length === want.length && timingSafeEqual(got, want);
}

// Verifying against this for unknown emails makes "no such account" cost as much as "wrong password".
let dummy: Promise<string> | null = null;

export function checkEmail(raw: string): string {
  const e = raw.trim().toLowerCase();
  if (e.length > 254 || !EMAIL_RE.test(e)) throw new Error('Enter a valid email address.');
  return e;
}

export function checkPassword(pw: string): void {
  if (pw.length < MIN_PASSWORD) throw new Error(`The password needs at least ${MIN_PASSWORD} characters.`);
  if (pw.length > 200) throw new Error('The password may have at most 200 characters.');
}

export interface Account { id: string; email: string }

export async function createAccount(store: Store, email: string, password: string): Promise<Account> {
  const e = checkEmail(email);
  checkPassword(password);
  const hash = await hashPassword(password);
  const a = await insertAccount(store, { id: `acc_${randomBase62(20)}`, email: e, passwordHash: hash });
  if (!a) throw new Error('An account with this email already exists.');
  return a;
}

export async function findAccount(store: Store, email: string): Promise<Account | null> {
  return accountByEmail(store, email.trim().toLowerCase());
}

export type LoginResult = { ok: true; account: Account } | { ok: false; reason: 'invalid' | 'locked'; retryAfterS?: number };

export async function login(store: Store, email: string, password: string, now = Date.now()): Promise<LoginResult> {
  const e = email.trim().toLowerCase();
  const a = await loginRow(store, e);
  if (!a) {
    dummy ??= hashPassword(randomBase62(16));
    await verifyPassword(password, await dummy);
    return { ok: false, reason: 'invalid' };
  }
  if (a.locked_until && a.locked_until.getTime() > now) return { ok: false, reason: 'locked', retryAfterS: Math.ceil((a.locked_until.getTime() - now) / 1000) };
  if (await verifyPassword(password, a.password_hash)) {
    await loginSucceeded(store, a.id);
    return { ok: true, account: { id: a.id, email: a.email } };
  }
  // Lock on every LOCK_AFTER-th failure in a row, for LOCK_MS doubled per earlier lock (capped at a day).
  const failed = a.failed_logins + 1;
  const locks = Math.floor(failed / LOCK_AFTER);
  const lockMs = failed % LOCK_AFTER === 0 ? Math.min(LOCK_MS * 2 ** (locks - 1), 24 * 3600_000) : 0;
  await loginFailed(store, a.id, failed, lockMs);
  return lockMs ? { ok: false, reason: 'locked', retryAfterS: Math.ceil(lockMs / 1000) } : { ok: false, reason: 'invalid' };
}

export async function setPassword(store: Store, email: string, password: string): Promise<boolean> {
  checkPassword(password);
  const e = email.trim().toLowerCase();
  const changed = await setPasswordHash(store, e, await hashPassword(password));
  if (changed) await deleteSessionsOfEmail(store, e);
  return changed;
}

/** Projects an account may see and change. */
export async function projectsOf(store: Store, accountId: string): Promise<{ id: string; plan: string; role: string; created_at: Date }[]> {
  return projectsOfAccount(store, accountId);
}

export async function isMember(store: Store, accountId: string, project: string): Promise<{ role: string; plan: string } | null> {
  return membership(store, accountId, project);
}

export async function addMember(store: Store, project: string, accountId: string, role: 'owner' | 'member' = 'owner'): Promise<void> {
  await insertMember(store, project, accountId, role);
}
