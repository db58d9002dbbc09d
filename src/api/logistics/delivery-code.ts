// Delivery codes: "NG-K7M4-Q9PC" — a country prefix, seven random characters and a
// check character, read over the phone or typed into a wallet app.
//
// Alphabet: digits 2-9 and A-Z without I, L and O: the characters people confuse
// (0/O, 1/I/L) are simply absent. That leaves 31 symbols, a prime, so a weighted
// check sum mod 31 (the ISBN-10 construction) catches every single wrong character
// and every swap of two adjacent characters. The prefix takes part in the sum, so a
// code typed with the wrong country fails its check too.
//
// The prefix is the ISO 3166-1 alpha-2 country the caller states on POST /stops, or
// "ZZ" (the ISO user-assigned "unknown") when it does not: we do not guess a country
// from coordinates with bounding boxes, which overlap along every border.
import { randomInt } from 'node:crypto';

export const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const N = ALPHABET.length; // 31, prime
const BODY = 7;
export const NEUTRAL_PREFIX = 'ZZ';

/** The 54 African countries (ISO 3166-1 alpha-2) a delivery code may be prefixed with. */
export const AFRICAN_COUNTRIES = new Set((
  'DZ AO BJ BW BF BI CV CM CF TD KM CG CD CI DJ EG GQ ER SZ ET GA GM GH GN GW KE LS LR LY MG ' +
  'MW ML MR MU MA MZ NA NE NG RW ST SN SC SL SO ZA SS SD TZ TG TN UG ZM ZW').split(' '));

const val = (c: string) => ALPHABET.indexOf(c);
// Prefix letters are A-Z (I, L, O included), worth 0-25: still distinct mod 31.
const prefixVal = (c: string) => c.charCodeAt(0) - 65;

function checkChar(prefix: string, body: string): string {
  let sum = 0;
  let w = 1;
  for (const c of prefix) sum += w++ * prefixVal(c);
  for (const c of body) sum += w++ * val(c);
  return ALPHABET[(N - (sum % N)) % N];
}

export function newCode(country: string | null): string {
  const prefix = country ?? NEUTRAL_PREFIX;
  let body = '';
  for (let i = 0; i < BODY; i++) body += ALPHABET[randomInt(N)];
  const full = body + checkChar(prefix, body);
  return `${prefix}-${full.slice(0, 4)}-${full.slice(4)}`;
}

export type Parsed = { ok: true; code: string } | { ok: false; why: string };

/**
 * Normalises what a person typed (any case, spaces or hyphens anywhere) to the
 * canonical "CC-XXXX-XXXX" and verifies the check character.
 */
export function parseCode(input: string): Parsed {
  const s = input.toUpperCase().replace(/[\s-]+/g, '');
  if (s.length !== 2 + BODY + 1) return { ok: false, why: `must be 10 characters like 'NG-K7M4-Q9PC' (hyphens optional), got ${s.length}` };
  const prefix = s.slice(0, 2);
  if (!/^[A-Z]{2}$/.test(prefix)) return { ok: false, why: 'must start with a two-letter country prefix' };
  if (prefix !== NEUTRAL_PREFIX && !AFRICAN_COUNTRIES.has(prefix)) return { ok: false, why: `has an unknown country prefix '${prefix}'` };
  const rest = s.slice(2);
  for (const c of rest) {
    if (val(c) < 0) return { ok: false, why: `contains '${c}', which delivery codes never use (no 0, 1, I, L or O)` };
  }
  if (checkChar(prefix, rest.slice(0, BODY)) !== rest[BODY]) return { ok: false, why: 'fails its check character: a character is probably mistyped' };
  return { ok: true, code: `${prefix}-${rest.slice(0, 4)}-${rest.slice(4)}` };
}
