// Builds the text index the worker searches: a sorted token dictionary, postings
// (token → name ids, most important feature first), per-name and per-feature-context
// token lists, and a SymSpell-style deletion table (hash of every token with up to
// 1 or 2 characters deleted → token id) so typo lookups are hash probes, not scans, and
// per token its neighbour list (what that lookup returns for the token itself), so a query
// word found in the dictionary reads one list instead of probing; and per name a record of
// what scoring it reads (workers/geo/records.ts).
import { tokens, deletes, hash32 } from '../../src/core/text/normalize.ts';
import { neighbourLists } from '../../src/core/text/fuzzy.ts';
import { buildNameRecords } from '../../src/core/text/records.ts';
import type { Feat } from './model.ts';
import { stringTable } from '../string-table.ts';

export interface TextIndex {
  sections: Record<string, Uint8Array | Uint32Array | Float32Array>;
  counts: { tokens: number; names: number; postings: number; deletion_entries: number; neighbour_entries: number };
}

/** Edits the dictionary side must pre-delete so any query within maxEdits(query) meets it (see docs/geo.md). */
export function storedDeletes(len: number): number {
  return len >= 9 ? 2 : len >= 5 ? 1 : 0;
}

export function buildTextIndex(feats: Feat[], contextOf: (i: number) => string[]): TextIndex {
  const nameFeat: number[] = [];
  const nameToks: string[][] = [];
  const nameText: string[] = [];
  const ctxToks: string[][] = [];
  const dict = new Set<string>();
  for (let i = 0; i < feats.length; i++) {
    const f = feats[i];
    const seen = new Set<string>();
    if (f.name) {
      for (const n of [f.name, ...f.alt]) {
        const t = tokens(n);
        const key = t.join(' ');
        if (!t.length || seen.has(key)) continue;
        seen.add(key);
        nameFeat.push(i); nameToks.push(t); nameText.push(n);
        for (const x of t) dict.add(x);
      }
    }
    const ctx = [...new Set(contextOf(i).flatMap((s) => tokens(s)))];
    ctxToks.push(ctx);
    for (const x of ctx) dict.add(x);
  }
  const sorted = [...dict].sort();
  const tokId = new Map(sorted.map((t, i) => [t, i]));

  // Postings: name ids per token, ordered by feature importance (desc), then name id.
  const post: number[][] = sorted.map(() => []);
  for (let n = 0; n < nameToks.length; n++) for (const t of new Set(nameToks[n])) post[tokId.get(t)!].push(n);
  const imp = (n: number) => feats[nameFeat[n]].importance;
  const postStart = new Uint32Array(sorted.length + 1);
  let total = 0;
  for (let t = 0; t < sorted.length; t++) { postStart[t] = total; total += post[t].length; }
  postStart[sorted.length] = total;
  const postings = new Uint32Array(total);
  const maxImp = new Float32Array(sorted.length);
  for (let t = 0; t < sorted.length; t++) {
    const l = post[t].sort((a, b) => imp(b) - imp(a) || a - b);
    postings.set(l, postStart[t]);
    maxImp[t] = l.length ? imp(l[0]) : -1;
  }

  const csr = (lists: string[][]) => {
    const start = new Uint32Array(lists.length + 1);
    let n = 0;
    for (let i = 0; i < lists.length; i++) { start[i] = n; n += lists[i].length; }
    start[lists.length] = n;
    const ids = new Uint32Array(n);
    let k = 0;
    for (const l of lists) for (const t of l) ids[k++] = tokId.get(t)!;
    return { start, ids };
  };
  const names = csr(nameToks);
  const ctx = csr(ctxToks);
  // Importance as features.bin stores it (Float32), so scores match whichever array is read.
  const recs = buildNameRecords(nameFeat, names.start, names.ids, ctx.start, ctx.ids, (f) => Math.fround(feats[f].importance));

  // Deletion table, sorted by hash, with a directory over the top bits of the hash.
  const pairs: number[] = [];
  const tmp = new Set<string>();
  for (let t = 0; t < sorted.length; t++) {
    tmp.clear();
    for (const v of deletes(sorted[t], storedDeletes(sorted[t].length), tmp)) pairs.push(hash32(v), t);
  }
  const m = pairs.length / 2;
  const order = new Uint32Array(m);
  for (let i = 0; i < m; i++) order[i] = i;
  order.sort((a, b) => pairs[2 * a] - pairs[2 * b] || pairs[2 * a + 1] - pairs[2 * b + 1]);
  const delHash: number[] = [], delTok: number[] = [];
  for (const i of order) {
    const h = pairs[2 * i], t = pairs[2 * i + 1];
    const k = delHash.length - 1;
    if (k >= 0 && delHash[k] === h && delTok[k] === t) continue;
    delHash.push(h); delTok.push(t);
  }
  const bits = Math.max(4, Math.min(24, Math.ceil(Math.log2(Math.max(2, delHash.length))) - 1));
  const dir = new Uint32Array((1 << bits) + 1);
  const shift = 32 - bits;
  for (let i = 0, b = 0; b <= 1 << bits; b++) {
    while (i < delHash.length && delHash[i] >>> shift < b) i++;
    dir[b] = i;
  }

  const delHashArr = Uint32Array.from(delHash), delTokArr = Uint32Array.from(delTok);
  const nb = neighbourLists({ tokens: sorted, delDir: dir, delHash: delHashArr, delTok: delTokArr, delShift: shift });

  const tok = stringTable(sorted);
  const nt = stringTable(nameText);
  return {
    sections: {
      tokStr: tok.bytes, tokOff: tok.off, tokMaxImp: maxImp,
      postStart, postings,
      nameFeat: Uint32Array.from(nameFeat), nameTokStart: names.start, nameToks: names.ids, nameStr: nt.bytes, nameOff: nt.off,
      ctxStart: ctx.start, ctxToks: ctx.ids,
      delDir: dir, delHash: delHashArr, delTok: delTokArr,
      nbStart: nb.start, nbTok: nb.tok,
      nameRecStart: recs.recStart, nameRec: recs.rec,
    },
    counts: { tokens: sorted.length, names: nameToks.length, postings: total, deletion_entries: delHash.length, neighbour_entries: nb.tok.length },
  };
}
