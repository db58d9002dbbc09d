// Text search over the gazetteer: typo-tolerant token lookup (deletion hash table),
// candidate generation from the rarest query tokens' postings, and scoring by text
// match, importance and optional distance to a focus point.
import type { Gazetteer } from './store.ts';
import { tokens as tokenize, prefixDistance } from '../../src/core/text/normalize.ts';
import { Fuzzy } from '../../src/core/text/fuzzy.ts';
import { haversine } from '../../src/core/geometry.ts';

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
  /**
   * Per dictionary token, 16 bytes in one place (one cache line per token touched):
   * [4t] stamp of the query word that last looked it up (fuzzy dedupe), [4t+1] stamp of the
   * query that matched it, [4t+2] the query word it matched, [4t+3] the match weight
   * (Float32, through tokF).
   */
  private tokI: Int32Array;
  private tokF: Float32Array;
  /**
   * Per feature, 16 bytes in one place: [4f] stamp of the query that scored it, [4f+1] its
   * best name, [4f+2] that name's text score and [4f+3] its coverage (Float32, through featF).
   */
  private featI: Int32Array;
  private featF: Float32Array;
  /** Query coverage of the name scored last (set by scoreName). */
  private lastCover = 0;
  private nameStamp: Int32Array;
  private cover = new Float32Array(32);
  private fz: Fuzzy;
  /** Matched dictionary tokens of every query word, flat (see search). */
  private mTok = new Int32Array(1024);
  private nm = 0;
  private mStart = new Int32Array(33);
  private df = new Float64Array(32);
  private qBest = new Float64Array(32);
  /** Per query word: the most its context can cover (0.9 × best weight, as the Float32 cover stores it). */
  private qCtx = new Float32Array(32);
  private nameW = new Float64Array(32);
  /** Country of each posting's feature, in posting order (derived once per worker, 1 byte per posting). */
  private postCountry: Uint8Array;

  constructor(private g: Gazetteer) {
    const T = g.tokens.length;
    this.tokI = new Int32Array(4 * T);
    this.tokF = new Float32Array(this.tokI.buffer);
    this.fz = new Fuzzy(g, this.tokI, 4);
    this.featI = new Int32Array(4 * g.n);
    this.featF = new Float32Array(this.featI.buffer);
    this.nameStamp = new Int32Array(g.nameFeat.length);
    const P = g.postings.length;
    this.postCountry = new Uint8Array(P);
    for (let k = 0; k < P; k++) this.postCountry[k] = g.country[g.nameFeat[g.postings[k]]];
  }

  private mark(t: number, qi: number, w: number) {
    // Float32 as tokF stores it, so bounds built from qBest hold for the scores built from it.
    const w32 = Math.fround(w);
    if (w32 > this.qBest[qi]) this.qBest[qi] = w32;
    const tokI = this.tokI, tokF = this.tokF, o = 4 * t;
    if (tokI[o + 1] === this.stamp) {
      if (w <= tokF[o + 3]) return;
    }
    tokI[o + 1] = this.stamp;
    tokI[o + 2] = qi;
    tokF[o + 3] = w;
  }

  /** Dictionary tokens within the typo budget of `q`, as [token, edits] pairs. */
  fuzzy(q: string, extend = true): [number, number][] {
    const n = this.fz.near(q, extend);
    const out: [number, number][] = [];
    for (let i = 0; i < n; i++) out.push([this.fz.tok[i], this.fz.d[i]]);
    return out;
  }

  /** Token id of `q` exactly, or -1 (a probe of the deletion table with no deletion). */
  lookup(q: string): number {
    return this.fz.lookup(q);
  }

  /**
   * Marks the dictionary tokens matching query word `q` (number qi) and adds them to its
   * matches. A whole word found in the dictionary reads its neighbour list (built offline
   * by the same lookup, so the same tokens in the same order); other words probe.
   */
  private matchWord(q: string, qi: number, partial: boolean) {
    const g = this.g, fz = this.fz;
    if (!partial && g.nbStart) {
      const x = fz.lookup(q);
      if (x >= 0) {
        const nbTok = g.nbTok!;
        for (let i = g.nbStart[x], e = g.nbStart[x + 1]; i < e; i++) {
          const t = nbTok[i];
          this.mark(t, qi, t === x ? EDIT_W[0] : EDIT_W[1]);
          this.addMatch(t);
        }
        return;
      }
      const n = fz.near(q, true, false);
      for (let i = 0; i < n; i++) { const t = fz.tok[i]; this.mark(t, qi, EDIT_W[fz.d[i]]); this.addMatch(t); }
      return;
    }
    const n = fz.near(q, !partial);
    for (let i = 0; i < n; i++) { const t = fz.tok[i]; this.mark(t, qi, EDIT_W[fz.d[i]]); this.addMatch(t); }
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
    const partialQi = prefixLast ? nq - 1 : -1;
    // Per query token: matched dictionary tokens (mTok[mStart[qi]..mStart[qi+1])), their total
    // posting count, and the best weight any of them was marked with.
    const { qBest, mStart, df } = this;
    const postStart = g.postStart;
    this.nm = 0;
    for (let qi = 0; qi < nq; qi++) {
      const q = qt[qi];
      qBest[qi] = 0;
      mStart[qi] = this.nm;
      this.matchWord(q, qi, qi === partialQi);
      if (qi === partialQi) this.prefixTokens(q, qi);
      let n = 0;
      for (let i = mStart[qi]; i < this.nm; i++) { const t = this.mTok[i]; n += postStart[t + 1] - postStart[t]; }
      df[qi] = n;
    }
    mStart[nq] = this.nm;
    // Drivers: the two rarest query tokens that match any name (ties: the earlier word).
    let d1 = -1, d2 = -1;
    for (let qi = 0; qi < nq; qi++) {
      if (df[qi] <= 0) continue;
      if (d1 < 0 || df[qi] < df[d1]) { d2 = d1; d1 = qi; } else if (d2 < 0 || df[qi] < df[d2]) d2 = qi;
    }
    if (d1 < 0) return [];
    const focus = opts.focus;
    const minCover = opts.minCover ?? 0.5;
    const k = opts.limit;
    // Upper bound of the text score of the names not read yet, per query word: name words can
    // match it at most at nameW[qi] (its best weight at first, lowered as the drivers read
    // their tokens' postings, best weight first: a name not met yet holds none of the tokens
    // already read), and context words at 0.9 × its best weight (qCtx). So the bound is
    // 0.7 × Σ max(nameW, qCtx) / nq + 0.3 × max nameW (completeness: every name word
    // matched). Postings are ordered by importance, so a token's list stops as soon as
    // bound + 0.2·importance (+ the largest focus bonus) cannot beat the k-th score.
    let sumBest = 0;
    const nameW = this.nameW, qCtx = this.qCtx;
    for (let qi = 0; qi < nq; qi++) { sumBest += qBest[qi]; nameW[qi] = qBest[qi]; qCtx[qi] = qBest[qi] * CONTEXT_W; }
    const cMax = sumBest / nq;
    const topF = new Int32Array(k).fill(-1);
    const topS = new Float64Array(k).fill(-Infinity);
    const focusMax = focus ? FOCUS_W : 0;
    const { postings, recStart, rec, recF } = g;
    const postCountry = this.postCountry;
    const country = filter.country;
    const nameStamp = this.nameStamp, featI = this.featI, featF = this.featF, tokF = this.tokF;
    const cats = filter.cats, accept = filter.accept;
    for (let di = 0; di < 2; di++) {
      const qi = di === 0 ? d1 : d2;
      if (qi < 0) break;
      // The second driver only rescues queries whose rarest word matched the wrong thing:
      // skip it when the first already found a name covering the query (as well as the
      // typos allow: coverage relative to the best any name can reach).
      if (di > 0 && topF[0] >= 0 && featF[4 * topF[0] + 3] >= 0.85 * cMax) break;
      // Tokens of the driver by best match first (exact before fuzzy), then by importance.
      const ts = mStart[qi], te = mStart[qi + 1];
      this.sortDriver(ts, te);
      // A partial word's completions are only partly listed (and read): no bound from them.
      const tight = qi !== partialQi;
      let budget = POSTING_CAP;
      let capped = false;
      for (let ti = ts; ti < te; ti++) {
        const t = this.mTok[ti];
        if (tight) nameW[qi] = tokF[4 * t + 3];
        let c = 0, w = 0;
        for (let i = 0; i < nq; i++) { c += nameW[i] > qCtx[i] ? nameW[i] : qCtx[i]; if (nameW[i] > w) w = nameW[i]; }
        const bound = 0.7 * (c / nq) + 0.3 * w;
        // Later tokens weigh no more: nothing left can reach minCover.
        if (bound + 1e-6 < minCover) break;
        // (1e-6 absorbs Float32 rounding between the bound and the scores; a bound of 1 is exact.)
        const lim = (bound >= 1 ? 1 : bound + 1e-6) + focusMax;
        const s = postStart[t];
        // Completions of a partial word only contribute their head: suggestions want the important ones.
        const cap = tokF[4 * t + 3] === PREFIX_W ? Math.min(budget, COMPLETION_CAP) : budget;
        const e = Math.min(postStart[t + 1], s + cap);
        let k2 = s;
        for (; k2 < e; k2++) {
          // The country is read from a per-posting copy (sequential) before anything else.
          if (country >= 0 && postCountry[k2] !== country) continue;
          const n = postings[k2];
          const ro = recStart[n];
          const f = rec[ro];
          const imp = recF[ro + 1];
          if (lim + 0.2 * imp <= topS[k - 1]) break;
          if (nameStamp[n] === stamp) continue;
          nameStamp[n] = stamp;
          if (cats && !cats.has(g.cat[f])) continue;
          if (accept && !accept(f)) continue;
          // The least text score that could still pass minCover and enter the top k.
          const kth = topS[k - 1] - 0.2 * imp - focusMax;
          const text = this.scoreName(ro, nq, (kth > minCover ? kth : minCover) - 1e-6);
          if (text < minCover) continue;
          let score = text + 0.2 * imp;
          if (focus) score += FOCUS_W * Math.exp(-haversine(focus[0], focus[1], g.lat[f], g.lng[f]) / 50_000);
          // Below the k-th score a name can neither enter the list nor raise its feature's entry
          // there (that entry scores at least the k-th), so the feature's record is left alone.
          if (score < topS[k - 1]) continue;
          const o = 4 * f;
          if (featI[o] !== stamp) {
            featI[o] = stamp;
            featF[o + 2] = -1;
          }
          if (text > featF[o + 2] || (text === featF[o + 2] && n < featI[o + 1])) {
            featF[o + 2] = text;
            featF[o + 3] = this.lastCover;
            featI[o + 1] = n;
            pushTop(topF, topS, f, score);
          }
        }
        budget -= k2 - s;
        if (budget <= 0) { capped = true; break; }
      }
      // Every posting of this word that could still rank was read: names met later hold none
      // of its tokens (those cut off by minCover cannot pass it anyway).
      if (tight && !capped) nameW[qi] = 0;
    }
    const hits: Hit[] = [];
    for (let i = 0; i < k && topF[i] >= 0; i++) {
      const f = topF[i];
      hits.push({ f, name: this.featI[4 * f + 1], score: topS[i], text: this.featF[4 * f + 2] });
    }
    return hits;
  }

  private addMatch(t: number) {
    if (this.nm === this.mTok.length) { const m = new Int32Array(this.mTok.length * 2); m.set(this.mTok); this.mTok = m; }
    this.mTok[this.nm++] = t;
  }

  /** Sorts mTok[s..e) by match weight (desc), then by the token's most important feature (desc). */
  private sortDriver(s: number, e: number) {
    const m = this.mTok, w = this.tokF, imp = this.g.tokMaxImp;
    for (let i = s + 1; i < e; i++) {
      const t = m[i], tw = w[4 * t + 3], ti = imp[t];
      let j = i - 1;
      while (j >= s && (w[4 * m[j] + 3] < tw || (w[4 * m[j] + 3] === tw && imp[m[j]] < ti))) { m[j + 1] = m[j]; j--; }
      m[j + 1] = t;
    }
  }

  /** Stamps tokens that complete the last (partial) query token; adds the most useful ones to the matches. */
  private prefixTokens(q: string, qi: number) {
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
    const s = this.mStart[qi];
    for (const t of top) {
      let dup = false;
      for (let i = s; i < this.nm; i++) if (this.mTok[i] === t) { dup = true; break; }
      if (!dup) this.addMatch(t);
    }
    // Typo in a partial word: compare with the same-length prefix of completions sharing the first two letters.
    if (q.length >= 4 && hi - lo < 8) {
      // Anchored on the first three letters: a typo there is left to the whole-word lookup.
      const [a, b] = this.prefixRange(q.slice(0, 3));
      const max = q.length >= 9 ? 2 : 1;
      let found = 0;
      for (let t = a; t < b && t < a + 2000 && found < 64; t++) {
        if (this.tokI[4 * t + 1] === this.stamp) continue;
        const tok = g.tokens[t];
        if (tok.length < q.length - 1) continue;
        const d = prefixDistance(q, tok, max);
        if (d <= max) { this.mark(t, qi, PREFIX_W * EDIT_W[d]); this.addMatch(t); found++; }
      }
    }
  }

  /**
   * Text score of the name whose record starts at `ro` (records.ts) against the stamped query
   * tokens; -1 when no name token matches, or when the score cannot reach `floor` (then its
   * context is not read).
   */
  private scoreName(ro: number, nq: number, floor: number): number {
    const cover = this.cover, tokI = this.tokI, tokF = this.tokF, stamp = this.stamp, rec = this.g.rec;
    for (let i = 0; i < nq; i++) cover[i] = 0;
    let hits = 0, hitW = 0;
    const lc = rec[ro + 2], L = lc & 0xffff, C = lc >>> 16;
    const s = ro + 3, e = s + L;
    for (let k = s; k < e; k++) {
      const t = rec[k];
      const o = 4 * t;
      if (tokI[o + 1] !== stamp) continue;
      const qi = tokI[o + 2];
      const w = tokF[o + 3];
      if (w > cover[qi]) cover[qi] = w;
      hits++;
      hitW += w;
    }
    if (!hits) return -1;
    // The context raises a word's coverage to at most 0.9 × its best weight (qCtx): skip
    // reading it when the name itself already covers every word that well.
    const qCtx = this.qCtx;
    const compl = 0.3 * (Math.min(hitW, L) / L);
    let i = 0;
    while (i < nq && cover[i] >= qCtx[i]) i++;
    if (i < nq) {
      // Completeness is known now: give up before the context when even a context covering
      // every remaining word cannot lift the score to the floor.
      let ub = 0;
      for (let j = 0; j < nq; j++) ub += cover[j] > qCtx[j] ? cover[j] : qCtx[j];
      if (0.7 * (ub / nq) + compl < floor) return -1;
      for (let k = e, ce = e + C; k < ce; k++) {
        const t = rec[k];
        const o = 4 * t;
        if (tokI[o + 1] !== stamp) continue;
        const qi = tokI[o + 2];
        const w = tokF[o + 3] * CONTEXT_W;
        if (w > cover[qi]) cover[qi] = w;
      }
    }
    let sum = 0;
    for (let j = 0; j < nq; j++) sum += cover[j];
    this.lastCover = sum / nq;
    return 0.7 * this.lastCover + compl;
  }

}
