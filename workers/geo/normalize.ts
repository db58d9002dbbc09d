// Text normalisation shared by the gazetteer build (index side) and the worker
// (query side): one definition, so both sides always produce the same tokens.

/** Common abbreviations → the word the index stores. "st" is special-cased below. */
const ABBREV: Record<string, string> = {
  rd: 'road', ave: 'avenue', av: 'avenue', avda: 'avenida', blvd: 'boulevard', bd: 'boulevard', bvd: 'boulevard',
  hwy: 'highway', expy: 'expressway', pkwy: 'parkway', jct: 'junction', sq: 'square', ln: 'lane', cres: 'crescent',
  mt: 'mount', mtn: 'mountain', ste: 'sainte', ft: 'fort', pt: 'port', intl: 'international', natl: 'national',
  gen: 'general', hosp: 'hospital', ctr: 'centre', cntr: 'centre', center: 'centre', centro: 'centro',
  univ: 'university', dist: 'district', govt: 'government', nr: 'near',
};

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
const ASCII_SPLIT_RE = /[^a-z0-9]+/;

export function tokens(text: string): string[] {
  const out: string[] = [];
  // Most queries are plain ASCII: skip NFKD and the Unicode-class regexes for them (same result).
  const parts = ASCII_RE.test(text) ? text.toLowerCase().replace(/['`]/g, '').split(ASCII_SPLIT_RE) : fold(text).split(SPLIT_RE);
  for (const raw of parts) {
    if (!raw) continue;
    let t = raw;
    if (t === 'st') t = out.length === 0 ? 'saint' : 'street';
    else if (ABBREV[t]) t = ABBREV[t];
    out.push(t);
  }
  return out;
}

/** Typo budget by token length (issue 4: one edit from 5 letters, two from 9). */
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
