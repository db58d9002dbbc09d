// Name records: what scoring a posting reads, in one place. Per name n, from recStart[n]:
//   [feature, importance (Float32 bits), L | C << 16, L name tokens…, C context tokens…]
// i.e. the name's feature and importance, its tokens and its feature's context tokens
// (locality, admin-1, country), which otherwise sit in five arrays (nameFeat, importance,
// nameTokStart/nameToks, ctxStart/ctxToks): one or two cache lines per candidate instead of
// six scattered reads. Written by the gazetteer build (text.bin v2); derived for a v1 file.

export interface NameRecords {
  recStart: Uint32Array;
  rec: Uint32Array;
}

export function buildNameRecords(
  nameFeat: ArrayLike<number>, nameTokStart: ArrayLike<number>, nameToks: ArrayLike<number>,
  ctxStart: ArrayLike<number>, ctxToks: ArrayLike<number>, importance: (f: number) => number,
): NameRecords {
  const N = nameFeat.length;
  const recStart = new Uint32Array(N + 1);
  let total = 0;
  for (let n = 0; n < N; n++) {
    recStart[n] = total;
    const f = nameFeat[n];
    total += 3 + (nameTokStart[n + 1] - nameTokStart[n]) + (ctxStart[f + 1] - ctxStart[f]);
  }
  recStart[N] = total;
  const rec = new Uint32Array(total);
  const recF = new Float32Array(rec.buffer);
  for (let n = 0; n < N; n++) {
    const f = nameFeat[n];
    const L = nameTokStart[n + 1] - nameTokStart[n], C = ctxStart[f + 1] - ctxStart[f];
    if (L > 0xffff || C > 0xffff) throw new Error(`name ${n}: ${L} tokens, ${C} context tokens (at most 65535 each)`);
    let o = recStart[n];
    rec[o] = f; recF[o + 1] = importance(f); rec[o + 2] = L | (C << 16); o += 3;
    for (let k = nameTokStart[n]; k < nameTokStart[n + 1]; k++) rec[o++] = nameToks[k];
    for (let k = ctxStart[f]; k < ctxStart[f + 1]; k++) rec[o++] = ctxToks[k];
  }
  return { recStart, rec };
}
