// Text search over the gazetteer: typo-tolerant token lookup (deletion hash table),
// candidate generation from the rarest query tokens' postings, and scoring by text
// match, importance and optional distance to a focus point.
import type { Gazetteer } from './store.ts';
import { tokens as tokenize, maxEdits, forEachDeleteHash, hash32, editDistance, prefixDistance } from './normalize.ts';
import { haversine } from './geometry.ts';

/** Weight of a token match by edit count; prefix and context matches are scaled below. */
const EDIT_W = [1, 0.8, 0.65];
const PREFIX_W = 0.9;
const CONTEXT_W = 0.9;
/** Most postings read per driving query token: postings are importance-ordered, so the cap keeps the best. */
const POSTING_CAP = 4000;
/** Postings read per completion of a partial word (suggest). */
const COMPLETION_CAP = 64;
/** Largest bonus for closeness to `focus` (decays over ~50 km). */
const FOCUS_W = 0.25;

/** Insert or raise feature f in a top-k list kept sorted by score (desc), ties by lower id. */
function pushTop(topF: Int32Array, topS: Float64Array, f: number, score: number) {
  const k = topF.length;
  let i = topF.indexOf(f);
  if (i < 0) {
    if (score < topS[k - 1] || (score === topS[k - 1] && topF[k - 1] >= 0 && f > topF[k - 1])) return;
    i = k - 1;
  } else if (score <= topS[i]) return;
  while (i > 0 && (topS[i - 1] < score || (topS[i - 1] === score && topF[i - 1] > f))) {
    topF[i] = topF[i - 1]; topS[i] = topS[i - 1]; i--;
  }
  topF[i] = f; topS[i] = score;
}

export interface SearchFilter {
  /** Country index (meta.countries) or -1. */
  country: number;
  /** Category codes allowed, or null for all. */
  cats: Set<number> | null;
  /** Extra predicate (sandbox bbox, radius). */
  accept?: (f: number) => boolean;
}

export interface SearchOptions {
  limit: number;
  focus?: [number, number] | null;
  /** Treat the last token as a prefix (suggest). */
  prefix?: boolean;
  /** Minimum share of the query covered by the match. */
  minCover?: number;
}

export interface Hit { f: number; name: number; score: number; text: number }

export class TextSearch {
  private stamp = 0;
  private tokStamp: Int32Array;
  private tokQ: Uint8Array;
  private tokW: Float32Array;
  private seen: Int32Array;
  private seenStamp = 0;
  private featStamp: Int32Array;
  private featScore: Float32Array;
  private featText: Float32Array;
  private featName: Int32Array;
  private featCover: Float32Array;
  /** Query coverage of the name scored last (set by scoreName). */
  private lastCover = 0;
  private nameStamp: Int32Array;
  private cover = new Float32Array(32);

  constructor(private g: Gazetteer) {
    const T = g.tokens.length;
    this.tokStamp = new Int32Array(T);
    this.seen = new Int32Array(T);
    this.tokQ = new Uint8Array(T);
    this.tokW = new Float32Array(T);
    this.featStamp = new Int32Array(g.n);
    this.featScore = new Float32Array(g.n);
    this.featText = new Float32Array(g.n);
    this.featName = new Int32Array(g.n);
    this.featCover = new Float32Array(g.n);
    this.nameStamp = new Int32Array(g.nameFeat.length);
  }

  private mark(t: number, qi: number, w: number) {
    if (this.tokStamp[t] === this.stamp) {
      if (w <= this.tokW[t]) return;
    }
    this.tokStamp[t] = this.stamp;
    this.tokQ[t] = qi;
    this.tokW[t] = w;
  }

  /** Dictionary tokens within the typo budget of `q`, as [token, edits] pairs. */
  fuzzy(q: string, extend = true): [number, number][] {
    const g = this.g;
    // The budget follows the longer of the two words (at most one letter longer than the
    // query), so a deletion typo ("lbya" for "libya") still gets the edit its 5-letter word
    // allows. A partial word (suggest) is not extended: its completions cover that case.
    const ext = extend ? 1 : 0;
    // Words longer than any place name get exact lookup only: deletion variants grow as n².
    let max = q.length > 32 ? 0 : maxEdits(q.length + ext);
    const out: [number, number][] = [];
    const s = ++this.seenStamp;
    // A long word that exists as typed is almost surely meant: look one edit around it, not two.
    if (max === 2 && this.lookup(q) >= 0) max = 1;
    forEachDeleteHash(q, max, (h) => {
      const b = h >>> g.delShift;
      for (let k = g.delDir[b], e = g.delDir[b + 1]; k < e; k++) {
        if (g.delHash[k] !== h) continue;
        const t = g.delTok[k];
        if (this.seen[t] === s) continue;
        this.seen[t] = s;
        const tok = g.tokens[t];
        const allowed = Math.min(max, maxEdits(Math.min(Math.max(q.length, tok.length), q.length + ext)));
        const d = tok === q ? 0 : editDistance(q, tok, allowed);
        if (d <= allowed) out.push([t, d]);
      }
    });
    return out;
  }

  /** Token id of `q` exactly, or -1 (a probe of the deletion table with no deletion). */
  lookup(q: string): number {
    const g = this.g;
    const h = hash32(q);
    const b = h >>> g.delShift;
    for (let k = g.delDir[b], e = g.delDir[b + 1]; k < e; k++) if (g.delHash[k] === h && g.tokens[g.delTok[k]] === q) return g.delTok[k];
    return -1;
  }

  /** [lo, hi) range of dictionary tokens starting with `p` (tokens are sorted). */
  prefixRange(p: string): [number, number] {
    const t = this.g.tokens;
    let lo = 0, hi = t.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (t[m] < p) lo = m + 1; else hi = m; }
    const a = lo;
    hi = t.length;
    const p2 = p + '\uffff';
    while (lo < hi) { const m = (lo + hi) >> 1; if (t[m] < p2) lo = m + 1; else hi = m; }
    return [a, lo];
  }

  search(query: string, filter: SearchFilter, opts: SearchOptions): Hit[] {
    const g = this.g;
    let qt = tokenize(query);
    if (qt.length > 24) qt = qt.slice(0, 24);
    if (!qt.length) return [];
    const nq = qt.length;
    const stamp = ++this.stamp;
    const prefixLast = !!opts.prefix && !/\s$/.test(query);
    // Per query token: matched dictionary tokens and their total posting count.
    const matched: number[][] = [];
    const df: number[] = [];
    for (let qi = 0; qi < nq; qi++) {
      const q = qt[qi];
      const list: number[] = [];
      const partial = prefixLast && qi === nq - 1;
      for (const [t, d] of this.fuzzy(q, !partial)) { this.mark(t, qi, EDIT_W[d]); list.push(t); }
      if (partial) this.prefixTokens(q, qi, list);
      matched.push(list);
      let n = 0;
      for (const t of list) n += g.postStart[t + 1] - g.postStart[t];
      df.push(n);
    }
    // Drivers: the two rarest query tokens that match any name.
    const order = [...Array(nq).keys()].filter((i) => df[i] > 0).sort((a, b) => df[a] - df[b]);
    if (!order.length) return [];
    const drivers = order.slice(0, nq > 1 ? 2 : 1);
    const focus = opts.focus;
    const minCover = opts.minCover ?? 0.5;
    const k = opts.limit;
    // Running top-k (one slot per feature) so postings can stop early: they are ordered by
    // importance, and no later posting can beat the k-th score once 1 + 0.2·importance
    // (+ the largest focus bonus) falls to it.
    const topF = new Int32Array(k).fill(-1);
    const topS = new Float64Array(k).fill(-Infinity);
    const focusMax = focus ? FOCUS_W : 0;
    for (let di = 0; di < drivers.length; di++) {
      const qi = drivers[di];
      // The second driver only rescues queries whose rarest word matched the wrong thing:
      // skip it when the first already found a name covering the whole query.
      if (di > 0 && topF[0] >= 0 && this.featCover[topF[0]] >= 0.85) break;
      // Tokens of the driver by best match first (exact before fuzzy), then by importance.
      const toks = matched[qi].slice().sort((a, b) => this.tokW[b] - this.tokW[a] || g.tokMaxImp[b] - g.tokMaxImp[a]);
      let budget = POSTING_CAP;
      for (const t of toks) {
        const s = g.postStart[t];
        // Completions of a partial word only contribute their head: suggestions want the important ones.
        const cap = this.tokW[t] === PREFIX_W ? Math.min(budget, COMPLETION_CAP) : budget;
        const e = Math.min(g.postStart[t + 1], s + cap);
        let k2 = s;
        for (; k2 < e; k2++) {
          const n = g.postings[k2];
          const f = g.nameFeat[n];
          if (1 + 0.2 * g.importance[f] + focusMax <= topS[k - 1]) break;
          if (this.nameStamp[n] === stamp) continue;
          this.nameStamp[n] = stamp;
          if (filter.country >= 0 && g.country[f] !== filter.country) continue;
          if (filter.cats && !filter.cats.has(g.cat[f])) continue;
          if (filter.accept && !filter.accept(f)) continue;
          const text = this.scoreName(n, f, nq);
          if (text < minCover) continue;
          if (this.featStamp[f] !== stamp) {
            this.featStamp[f] = stamp;
            this.featText[f] = -1;
          }
          if (text > this.featText[f] || (text === this.featText[f] && n < this.featName[f])) {
            this.featText[f] = text;
            this.featCover[f] = this.lastCover;
            this.featName[f] = n;
            let score = text + 0.2 * g.importance[f];
            if (focus) score += FOCUS_W * Math.exp(-haversine(focus[0], focus[1], g.lat[f], g.lng[f]) / 50_000);
            this.featScore[f] = score;
            pushTop(topF, topS, f, score);
          }
        }
        budget -= k2 - s;
        if (budget <= 0) break;
      }
    }
    const hits: Hit[] = [];
    for (let i = 0; i < k && topF[i] >= 0; i++) {
      const f = topF[i];
      hits.push({ f, name: this.featName[f], score: topS[i], text: this.featText[f] });
    }
    return hits;
  }

  /** Stamps tokens that complete the last (partial) query token; adds the most useful ones to `list`. */
  private prefixTokens(q: string, qi: number, list: number[]) {
    const g = this.g;
    const [lo, hi] = this.prefixRange(q);
    const exact = lo < hi && g.tokens[lo] === q ? lo : -1;
    // Stamp every completion (cheap) so scoring sees them; drive candidates only from the
    // completions with the most important features (heads of their postings).
    const TOP = 16;
    const top: number[] = [];
    for (let t = lo; t < hi; t++) {
      if (t !== exact) this.mark(t, qi, PREFIX_W);
      if (top.length < TOP) { top.push(t); if (top.length === TOP) top.sort((a, b) => g.tokMaxImp[b] - g.tokMaxImp[a]); continue; }
      if (g.tokMaxImp[t] > g.tokMaxImp[top[TOP - 1]]) {
        let k = TOP - 1;
        while (k > 0 && g.tokMaxImp[top[k - 1]] < g.tokMaxImp[t]) { top[k] = top[k - 1]; k--; }
        top[k] = t;
      }
    }
    for (const t of top) if (!list.includes(t)) list.push(t);
    // Typo in a partial word: compare with the same-length prefix of completions sharing the first two letters.
    if (q.length >= 4 && hi - lo < 8) {
      // Anchored on the first three letters: a typo there is left to the whole-word lookup.
      const [a, b] = this.prefixRange(q.slice(0, 3));
      const max = q.length >= 9 ? 2 : 1;
      let found = 0;
      for (let t = a; t < b && t < a + 2000 && found < 64; t++) {
        if (this.tokStamp[t] === this.stamp) continue;
        const tok = g.tokens[t];
        if (tok.length < q.length - 1) continue;
        const d = prefixDistance(q, tok, max);
        if (d <= max) { this.mark(t, qi, PREFIX_W * EDIT_W[d]); list.push(t); found++; }
      }
    }
  }

  /** Text score of name `n` of feature `f` against the stamped query tokens; -1 when no name token matches. */
  private scoreName(n: number, f: number, nq: number): number {
    const g = this.g;
    const cover = this.cover;
    for (let i = 0; i < nq; i++) cover[i] = 0;
    const stamp = this.stamp;
    let hits = 0, hitW = 0;
    const s = g.nameTokStart[n], e = g.nameTokStart[n + 1];
    for (let k = s; k < e; k++) {
      const t = g.nameToks[k];
      if (this.tokStamp[t] !== stamp) continue;
      const qi = this.tokQ[t];
      const w = this.tokW[t];
      if (w > cover[qi]) cover[qi] = w;
      hits++;
      hitW += w;
    }
    if (!hits) return -1;
    for (let k = g.ctxStart[f], ce = g.ctxStart[f + 1]; k < ce; k++) {
      const t = g.ctxToks[k];
      if (this.tokStamp[t] !== stamp) continue;
      const qi = this.tokQ[t];
      const w = this.tokW[t] * CONTEXT_W;
      if (w > cover[qi]) cover[qi] = w;
    }
    let sum = 0;
    for (let i = 0; i < nq; i++) sum += cover[i];
    this.lastCover = sum / nq;
    return 0.7 * this.lastCover + 0.3 * (Math.min(hitW, e - s) / (e - s));
  }
}
