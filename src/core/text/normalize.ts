// Text normalisation shared by the gazetteer build (index side) and the worker
// (query side): one definition, so both sides always produce the same tokens.

/** Common abbreviations → the word the index stores. "st" is special-cased below. */
const ABBREV_WORDS: Record<string, string> = {
  rd: 'road', ave: 'avenue', av: 'avenue', avda: 'avenida', blvd: 'boulevard', bd: 'boulevard', bvd: 'boulevard',
  hwy: 'highway', expy: 'expressway', pkwy: 'parkway', jct: 'junction', sq: 'square', ln: 'lane', cres: 'crescent',
  mt: 'mount', mtn: 'mountain', ste: 'sainte', ft: 'fort', pt: 'port', intl: 'international', natl: 'national',
  gen: 'general', hosp: 'hospital', ctr: 'centre', cntr: 'centre', center: 'centre', centro: 'centro',
  univ: 'university', dist: 'district', govt: 'government', nr: 'near',
};
// A Map, not the object: a plain lookup would also find Object.prototype's keys ("constructor").
const ABBREV = new Map(Object.entries(ABBREV_WORDS));

// Letters that NFKD does not decompose into base + mark.
const FOLD: Record<string, string> = {
  'ß': 'ss', 'æ': 'ae', 'ø': 'o', 'œ': 'oe', 'đ': 'd', 'ð': 'd', 'ł': 'l', 'ı': 'i', 'þ': 'th', 'ŀ': 'l', 'ħ': 'h',
};
const FOLD_RE = /[ßæøœđðłıþŀħ]/g;
// Apostrophes join (N'Djamena → ndjamena, St Mary's → marys); other punctuation splits.
const APOS_RE = /['’‘`´ʼʻ]/g;
const SPLIT_RE = /[^\p{L}\p{N}]+/u;
const MARKS_RE = /\p{M}+/gu;

/** Lower-case, strip diacritics and punctuation, fold special letters. Returns space-joined tokens. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(MARKS_RE, '')
    .toLowerCase()
    .replace(FOLD_RE, (c) => FOLD[c])
    .replace(APOS_RE, '');
}

/**
 * Tokens of a name or query. "st" means Saint at the start of a name (St Louis, St Mary's
 * Hospital) and Street elsewhere (Broad St): the same rule on both sides keeps them in step.
 */
const ASCII_RE = /^[\x20-\x7e]*$/;

export function tokens(text: string): string[] {
  const out: string[] = [];
  // Most queries are plain ASCII: one pass over the lower-cased text, no NFKD and no
  // Unicode-class regexes (same result: apostrophes and backticks join, the rest splits).
  if (ASCII_RE.test(text)) {
    const s = text.toLowerCase();
    let head = '', start = -1;
    for (let i = 0; i <= s.length; i++) {
      const c = i < s.length ? s.charCodeAt(i) : 32;
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) { if (start < 0) start = i; continue; }
      if (c === 39 || c === 96) { if (start >= 0) { head += s.slice(start, i); start = -1; } continue; }
      if (start >= 0) { head += s.slice(start, i); start = -1; }
      if (head) { push(out, head); head = ''; }
    }
    return out;
  }
  for (const raw of fold(text).split(SPLIT_RE)) if (raw) push(out, raw);
  return out;
}

function push(out: string[], t: string) {
  if (t === 'st') t = out.length === 0 ? 'saint' : 'street';
  else t = ABBREV.get(t) ?? t;
  out.push(t);
}

/** Typo budget by token length (one edit from 5 letters, two from 9: short words have near neighbours that one edit already reaches). */
export function maxEdits(len: number): number {
  return len >= 9 ? 2 : len >= 5 ? 1 : 0;
}

/** FNV-1a over UTF-16 code units: the key of the deletion hash table (collisions are verified). */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Every string reachable from `s` by deleting up to `d` characters (d ≤ 2), `s` included. */
export function deletes(s: string, d: number, out: Set<string> = new Set()): Set<string> {
  out.add(s);
  if (d <= 0 || s.length <= 1) return out;
  for (let i = 0; i < s.length; i++) {
    const t = s.slice(0, i) + s.slice(i + 1);
    if (!out.has(t)) {
      out.add(t);
      if (d > 1 && t.length > 1) for (let j = i; j < t.length; j++) out.add(t.slice(0, j) + t.slice(j + 1));
    }
  }
  return out;
}

const rowA = new Int32Array(64);
const rowB = new Int32Array(64);
const rowC = new Int32Array(64);

/**
 * Optimal-string-alignment distance (Levenshtein + adjacent transposition), or max+1 as
 * soon as it must exceed `max`. Rows are preallocated: this runs for every fuzzy candidate.
 */
export function editDistance(a: string, b: string, max: number): number {
  const la = a.length, lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0 || lb === 0) return Math.max(la, lb);
  if (lb >= 63) return a === b ? 0 : max + 1;
  let prev2 = rowA, prev = rowB, cur = rowC;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    const t = prev2; prev2 = prev; prev = cur; cur = t;
  }
  return prev[lb];
}

// Bit-parallel OSA distance against one fixed pattern (Hyyrö 2003, "A bit-vector algorithm
// for computing Levenshtein and Damerau edit distances"): the fuzzy lookup compares one query
// word with every candidate the deletion table returns, so the pattern's match masks are built
// once per word and each candidate costs a few word operations per letter instead of a DP row.
const peq = new Int32Array(65536);
let pat = '';

/** Sets the pattern `patternDistance` compares against (≤ 32 UTF-16 units use the bit-parallel path). */
export function setPattern(p: string): void {
  if (pat.length <= 32) for (let i = 0; i < pat.length; i++) peq[pat.charCodeAt(i)] = 0;
  pat = p;
  if (p.length <= 32) for (let i = 0; i < p.length; i++) peq[p.charCodeAt(i)] |= 1 << i;
}

/**
 * OSA distance (as `editDistance`) from the current pattern to `t`, or max+1 when it exceeds
 * `max`. Falls back to the DP for patterns longer than 32.
 */
export function patternDistance(t: string, max: number): number {
  const m = pat.length, n = t.length;
  if (Math.abs(m - n) > max) return max + 1;
  if (m === 0 || n === 0) return Math.max(m, n);
  if (m > 32) return editDistance(pat, t, max);
  const top = 1 << (m - 1);
  let vp = -1 >>> (32 - m), vn = 0, d0 = 0, pmPrev = 0, dist = m;
  for (let j = 0; j < n; j++) {
    const pm = peq[t.charCodeAt(j)];
    // Transposition: a match of t[j] at i-1 and of t[j-1] at i, where the cell to the upper left had no diagonal match.
    d0 = ((~d0 & pm) << 1) & pmPrev;
    d0 |= (((pm & vp) + vp) ^ vp) | pm | vn;
    let hp = vn | ~(d0 | vp);
    const hn = d0 & vp;
    if (hp & top) dist++;
    else if (hn & top) dist--;
    hp = (hp << 1) | 1;
    const hn1 = hn << 1;
    vp = hn1 | ~(d0 | hp);
    vn = d0 & hp;
    pmPrev = pm;
  }
  return dist > max ? max + 1 : dist;
}

/**
 * Edit distance from `q` to the closest prefix of `t` (a partial word against a full
 * one), or max+1 once it must exceed `max`. One DP, no slicing: it runs per completion.
 */
export function prefixDistance(q: string, t: string, max: number): number {
  const lq = q.length;
  const lt = Math.min(t.length, lq + max);
  if (lt < lq - max) return max + 1;
  if (lt >= 63) return max + 1;
  let prev2 = rowA, prev = rowB, cur = rowC;
  for (let j = 0; j <= lt; j++) prev[j] = j;
  for (let i = 1; i <= lq; i++) {
    cur[0] = i;
    let best = i;
    const ca = q.charCodeAt(i - 1);
    for (let j = 1; j <= lt; j++) {
      const cb = t.charCodeAt(j - 1);
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === t.charCodeAt(j - 2) && q.charCodeAt(i - 2) === cb) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    const x = prev2; prev2 = prev; prev = cur; cur = x;
  }
  let m = max + 1;
  for (let j = Math.max(0, lq - max); j <= lt; j++) if (prev[j] < m) m = prev[j];
  return m;
}

/**
 * Calls `cb` with the hash32 of every variant of `s` with up to `d` (≤ 2) characters
 * deleted, `s` itself included — without building the strings (the query hot path).
 * Variants that coincide are reported more than once; callers dedupe what they find.
 */
export function forEachDeleteHash(s: string, d: number, cb: (h: number) => void): void {
  const n = s.length;
  cb(hash32(s));
  if (d <= 0 || n <= 1) return;
  // FNV-1a is sequential: keep the state after each prefix so a variant costs only the
  // characters after its first deletion (O(n²) for two deletions instead of O(n³)).
  const pre = prefixStates(s);
  for (let i = 0; i < n; i++) {
    let h = pre[i];
    for (let k = i + 1; k < n; k++) { h ^= s.charCodeAt(k); h = Math.imul(h, 0x01000193); }
    cb(h >>> 0);
    if (d > 1 && n > 2) {
      let mid = pre[i]; // state after s[0..i) + s(i..j)
      for (let j = i + 1; j < n; j++) {
        let h2 = mid;
        for (let k = j + 1; k < n; k++) { h2 ^= s.charCodeAt(k); h2 = Math.imul(h2, 0x01000193); }
        cb(h2 >>> 0);
        mid ^= s.charCodeAt(j); mid = Math.imul(mid, 0x01000193);
      }
    }
  }
}

const preBuf = new Int32Array(64);
function prefixStates(s: string): Int32Array {
  const out = s.length < 64 ? preBuf : new Int32Array(s.length + 1);
  let h = 0x811c9dc5 | 0;
  out[0] = h;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); out[i + 1] = h; }
  return out;
}

/**
 * Writes the hash32 of every variant of `s` with up to `d` (≤ 2) characters deleted into
 * `out`: `s` itself first, then the one-deletion variants (entries 1..n), then the
 * two-deletion ones (`deleteHashes2`); returns the count. Same hashes as
 * `forEachDeleteHash`, no callback.
 */
export function deleteHashes(s: string, d: number, out: Uint32Array): number {
  const n = s.length;
  let c = 0;
  out[c++] = hash32(s);
  if (d <= 0 || n <= 1) return c;
  const pre = prefixStates(s);
  for (let i = 0; i < n; i++) {
    let h = pre[i];
    for (let k = i + 1; k < n; k++) { h ^= s.charCodeAt(k); h = Math.imul(h, 0x01000193); }
    out[c++] = h >>> 0;
  }
  return d > 1 ? deleteHashes2(s, out, c) : c;
}

/** Appends the two-deletion variants' hashes of `s` to `out` from index `c`; returns the new count. */
export function deleteHashes2(s: string, out: Uint32Array, c: number): number {
  const n = s.length;
  if (n <= 2) return c;
  const pre = prefixStates(s);
  for (let i = 0; i < n; i++) {
    let mid = pre[i];
    for (let j = i + 1; j < n; j++) {
      let h2 = mid;
      for (let k = j + 1; k < n; k++) { h2 ^= s.charCodeAt(k); h2 = Math.imul(h2, 0x01000193); }
      out[c++] = h2 >>> 0;
      mid ^= s.charCodeAt(j); mid = Math.imul(mid, 0x01000193);
    }
  }
  return c;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;

/** The key the address parser looks names up by: each word folded, stripped of punctuation, space-joined. */
export function nameKey(s: string): string {
  // Most names are plain ASCII, where folding is lower-casing: the same key without Unicode
  // normalisation, which is most of the cost of building the lexicon in every worker at start.
  if (PRINTABLE_ASCII.test(s)) {
    let out = '', gap = false;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c === 32) { gap = out.length > 0; continue; }
      if (c >= 65 && c <= 90) c += 32;
      if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
        if (gap) { out += ' '; gap = false; }
        out += String.fromCharCode(c);
      }
    }
    return out;
  }
  return s.split(/\s+/).map((w) => fold(w).replace(NOT_ALNUM, '')).filter(Boolean).join(' ');
}
