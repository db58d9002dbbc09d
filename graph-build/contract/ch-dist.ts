// Metres of every CH entry (base edge or shortcut, fully unpacked), so that many-to-many searches
// (the distance matrix, map matching) carry a distance beside the weight without unpacking a
// path per cell. A shortcut's length is the sum of its two halves, found in the middle node's
// block exactly as the query unpacks them (workers/routing/search/ch-query.ts).
import { ARC, ARC_HEAD, HEAD_FW, HEAD_BW, HEAD_SHIFT } from '../../src/core/format/route.ts';
import type { BaseGraph } from './compress.ts';
import type { CH } from './ch.ts';

export function chDistances(base: BaseGraph, ch: CH): Float32Array {
  return Float32Array.from(chSums(ch, (mid) => base.edgeDist[-mid - 1])[0]);
}

type Original = (mid: number, tail: number, head: number) => number;

/**
 * Values of every CH entry summed over the original arcs it stands for, one array per `original`
 * (`original(mid, tail, head)` gives an original arc's own value, mid < 0 as the entry stores it).
 * Several values share one walk: finding a shortcut's halves is most of the work.
 */
export function chSums(ch: Pick<CH, 'chFirst' | 'chArc' | 'chMid'>, ...originals: Original[]): Float64Array[] {
  const { chFirst, chArc, chMid } = ch;
  const k = chMid.length, m = originals.length;
  const outs = originals.map(() => new Float64Array(k).fill(NaN)), done = outs[0];
  const find = (owner: number, nbr: number, dir: number): number => {
    for (let j = chFirst[owner], e = chFirst[owner + 1]; j < e; j++) {
      const head = chArc[ARC * j + ARC_HEAD];
      if (head >>> HEAD_SHIFT === nbr && head & dir) return j;
    }
    throw new Error(`CH entry ${owner}/${nbr} missing`);
  };
  // Iterative post-order over entries: a shortcut's value needs its two halves first.
  const stack: number[] = [];
  const owner = new Int32Array(k);
  for (let x = 0; x + 1 < chFirst.length; x++) for (let j = chFirst[x]; j < chFirst[x + 1]; j++) owner[j] = x;
  for (let j0 = 0; j0 < k; j0++) {
    if (!Number.isNaN(done[j0])) continue;
    stack.push(j0);
    while (stack.length) {
      const j = stack[stack.length - 1];
      const mid = chMid[j], x = owner[j], head = chArc[ARC * j + ARC_HEAD], y = head >>> HEAD_SHIFT;
      if (mid < 0) {
        for (let i = 0; i < m; i++) outs[i][j] = head & HEAD_FW ? originals[i](mid, x, y) : originals[i](mid, y, x);
        stack.pop(); continue;
      }
      // FW: x→y = x→mid (mid's entry for x, BW) then mid→y (mid's entry for y, FW); BW: y→x likewise.
      const a = head & HEAD_FW ? find(mid, x, HEAD_BW) : find(mid, y, HEAD_BW);
      const b = head & HEAD_FW ? find(mid, y, HEAD_FW) : find(mid, x, HEAD_FW);
      if (Number.isNaN(done[a])) { stack.push(a); continue; }
      if (Number.isNaN(done[b])) { stack.push(b); continue; }
      for (let i = 0; i < m; i++) outs[i][j] = outs[i][a] + outs[i][b];
      stack.pop();
    }
  }
  return outs;
}
