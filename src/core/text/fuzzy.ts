// Typo lookup over the SymSpell-style deletion table (see docs/geo.md, "Text normalisation
// and ranking"). One implementation for the worker (query words) and the gazetteer build,
// which runs it once per dictionary word to store each word's neighbour list: a query word
// found in the dictionary then reads its list instead of probing the table, and gets
// exactly what the probes would have returned, in the same order.
import { maxEdits, deleteHashes, hash32, setPattern, patternDistance } from './normalize.ts';

/** The dictionary and its deletion table (hash of every word with 1 or 2 letters deleted → word). */
export interface DeletionTable {
  tokens: string[];
  delDir: Uint32Array;
  delHash: Uint32Array;
  delTok: Uint32Array;
  delShift: number;
}

export class Fuzzy {
  /** Results of the last `near`: token ids and their edit counts. */
  readonly tok = new Int32Array(4096);
  readonly d = new Uint8Array(4096);
  private hashBuf = new Uint32Array(600);
  private stamp = 0;

  /**
   * `seen[stride * t]` is this lookup's per-word dedupe stamp for token t (the worker keeps
   * it next to the token's other per-query fields, stride 4).
   */
  constructor(private t: DeletionTable, private seen: Int32Array, private stride = 1) {}

  /** Token id of `q` exactly, or -1 (a probe of the deletion table with no deletion). */
  lookup(q: string): number {
    const { tokens, delDir, delHash, delTok, delShift } = this.t;
    const h = hash32(q);
    const b = h >>> delShift;
    for (let k = delDir[b], e = delDir[b + 1]; k < e; k++) if (delHash[k] === h && tokens[delTok[k]] === q) return delTok[k];
    return -1;
  }

  /**
   * Dictionary tokens within the typo budget of `q` into `tok`/`d`; returns the count.
   * `exists` is the caller's `lookup(q) >= 0` when it has it.
   */
  near(q: string, extend: boolean, exists?: boolean): number {
    const { tokens, delDir, delHash, delTok, delShift } = this.t;
    // The budget follows the longer of the two words (at most one letter longer than the
    // query), so a deletion typo ("lbya" for "libya") still gets the edit its 5-letter word
    // allows. A partial word (suggest) is not extended: its completions cover that case.
    const ext = extend ? 1 : 0;
    // Words longer than any place name get exact lookup only: deletion variants grow as n².
    let max = q.length > 32 ? 0 : maxEdits(q.length + ext);
    // A long word that exists as typed is almost surely meant: look one edit around it, not two.
    if (max === 2 && (exists ?? this.lookup(q) >= 0)) max = 1;
    const s = ++this.stamp;
    const hb = this.hashBuf, seen = this.seen, stride = this.stride, outT = this.tok, outD = this.d;
    const nh = deleteHashes(q, max, hb);
    setPattern(q);
    const ql = q.length, qext = ql + ext;
    let n = 0;
    for (let i = 0; i < nh; i++) {
      const h = hb[i];
      const b = h >>> delShift;
      for (let k = delDir[b], e = delDir[b + 1]; k < e; k++) {
        if (delHash[k] !== h) continue;
        const t = delTok[k];
        if (seen[stride * t] === s) continue;
        seen[stride * t] = s;
        const tok = tokens[t];
        const tl = tok.length;
        const allowed = Math.min(max, maxEdits(Math.min(tl > ql ? tl : ql, qext)));
        const d = tok === q ? 0 : patternDistance(tok, allowed);
        if (d <= allowed && n < outT.length) { outT[n] = t; outD[n] = d; n++; }
      }
    }
    return n;
  }
}

/**
 * Neighbour lists of every dictionary word: what `near(word, true)` returns, in its order
 * (the word itself included, at its place; every other entry is one edit away, since a
 * word found as typed gets a budget of at most one). CSR: start[t]..start[t+1] into tok.
 */
export function neighbourLists(table: DeletionTable): { start: Uint32Array; tok: Uint32Array } {
  const T = table.tokens.length;
  const fz = new Fuzzy(table, new Int32Array(T));
  const start = new Uint32Array(T + 1);
  let out = new Uint32Array(T * 4);
  let m = 0;
  for (let t = 0; t < T; t++) {
    start[t] = m;
    const n = fz.near(table.tokens[t], true, true);
    if (m + n > out.length) { const a = new Uint32Array(Math.max(out.length * 2, m + n)); a.set(out); out = a; }
    for (let i = 0; i < n; i++) out[m++] = fz.tok[i];
  }
  start[T] = m;
  return { start, tok: out.slice(0, m) };
}
