// Contraction hierarchies. Nodes are contracted cheapest first (edge difference +
// contracted neighbours + level, with lazy re-evaluation); a bounded witness search
// decides which shortcuts are needed; each shortcut records its middle node.
//
// The working graph keeps, per node, one entry per neighbour holding both directions
// (weight x→y and y→x) in a pool of typed arrays. When a node is contracted its
// block is frozen: at that moment every neighbour left is higher in the order, so
// the frozen block is exactly the node's upward/downward CH adjacency.
import { MinHeap } from '../../src/core/heap.ts';
import { ARC, ARC_HEAD, ARC_W, HEAD_FW, HEAD_BW, HEAD_LAST, HEAD_SHIFT, MAX_NODES, type GraphViews } from '../../src/core/format/route.ts';
import type { BaseGraph } from './compress.ts';
import { chAddon, contractNative } from './ch-native.ts';

/** The CH sections exactly as the route file stores them (src/core/format/route.ts), plus the order. */
export interface CH extends Pick<GraphViews, 'chFirst' | 'chArc' | 'chMid'> {
  rank: Uint32Array;
  shortcuts: number;
  arcs: number;
}

export interface ContractOptions {
  /** Settled-node limit of witness searches while estimating priorities / while contracting. */
  simLimit?: number;
  contractLimit?: number;
  /** Re-evaluate the neighbours of each contracted node at once (better order, slower build). */
  eagerNeighbours?: boolean;
  /** Contract in TypeScript even where the C++ addon loaded (the reference it is tested against). */
  typescript?: boolean;
  onProgress?: (fraction: number, done: number, total: number) => void;
}

/**
 * From this many nodes on, the C++ contractor works in rounds (every locally cheapest node at once,
 * as OSRM does) unless GRAPH_BUILD_ORDER says otherwise. It is the faster order on large graphs (a
 * 10.2M-node stitched input, 1.43M nodes here: 40.5 against 49.7 s; the 1M input, 159k nodes: 6.8-7.3
 * against 8.8-8.9 s). It needs more memory than the sequential order (at 159k nodes the build peaked
 * at 554-567 against 433-448 MB), which the collection before contraction more than makes up for
 * (graph-build/collect.ts: 423-428 MB in rounds). Every graph the tests, the
 * OSRM suite and the default data build (26k nodes at most) keeps the sequential order, the one the
 * TypeScript contractor gives byte for byte.
 */
export const ROUNDS_FROM_NODES = 100_000;

/** The contraction order of a graph of n nodes: GRAPH_BUILD_ORDER (`rounds`, `sequential`), else by size. */
export function contractionOrder(n: number, env: NodeJS.ProcessEnv = process.env): 'rounds' | 'sequential' {
  const o = env.GRAPH_BUILD_ORDER;
  if (o === 'rounds' || o === 'sequential') return o;
  return n >= ROUNDS_FROM_NODES ? 'rounds' : 'sequential';
}

export function contract(g: BaseGraph, opts: ContractOptions = {}): CH {
  const n = g.nodes;
  // Limits measured on synthetic 100k/1M grids: 30/200 builds 1M nodes in ~47 s with the same
  // query speed as 60/400; lazy-only updates build 2× faster but answer ~50% slower.
  const SIM = opts.simLimit ?? 30, CON = opts.contractLimit ?? 200;
  const EAGER = opts.eagerNeighbours ?? true;
  if (n > MAX_NODES) throw new Error(`graph of ${n} nodes: the route format holds at most ${MAX_NODES}`);
  const native = opts.typescript ? null : chAddon();
  if (native) return contractNative(native, g, SIM, CON, EAGER, opts.onProgress, contractionOrder(n) === 'rounds');
  // --- working adjacency pool
  const start = new Int32Array(n), len = new Int32Array(n), cap = new Int32Array(n);
  const deg = new Int32Array(n);
  for (let e = 0; e < g.edges; e++) if (g.edgeU[e] !== g.edgeV[e]) { deg[g.edgeU[e]]++; deg[g.edgeV[e]]++; }
  let poolEnd = 0;
  for (let v = 0; v < n; v++) { start[v] = poolEnd; cap[v] = deg[v] + 2; poolEnd += cap[v]; }
  let poolCap = Math.ceil(poolEnd * 1.5) + 16;
  let nbr = new Int32Array(poolCap), fw = new Int32Array(poolCap), bw = new Int32Array(poolCap);
  let fwMid = new Int32Array(poolCap), bwMid = new Int32Array(poolCap);
  const growPool = (need: number) => {
    if (need <= poolCap) return;
    poolCap = Math.max(need, Math.ceil(poolCap * 1.5));
    const re = (a: Int32Array) => { const b = new Int32Array(poolCap); b.set(a.subarray(0, poolEnd)); return b; };
    nbr = re(nbr); fw = re(fw); bw = re(bw); fwMid = re(fwMid); bwMid = re(bwMid);
  };
  const find = (x: number, y: number): number => {
    const s = start[x], e = s + len[x];
    for (let k = s; k < e; k++) if (nbr[k] === y) return k;
    return -1;
  };
  const append = (x: number, y: number): number => {
    if (len[x] === cap[x]) {
      // relocate the block to the end of the pool with double capacity
      const nc = cap[x] * 2;
      growPool(poolEnd + nc);
      const s = start[x], l = len[x];
      nbr.copyWithin(poolEnd, s, s + l); fw.copyWithin(poolEnd, s, s + l); bw.copyWithin(poolEnd, s, s + l);
      fwMid.copyWithin(poolEnd, s, s + l); bwMid.copyWithin(poolEnd, s, s + l);
      start[x] = poolEnd; cap[x] = nc; poolEnd += nc;
    }
    const k = start[x] + len[x]++;
    nbr[k] = y; fw[k] = -1; bw[k] = -1; fwMid[k] = 0; bwMid[k] = 0;
    return k;
  };
  /** Arc x→y with weight w: kept only if better than an existing x→y. Returns true when it changed. */
  const addArc = (x: number, y: number, w: number, mid: number): boolean => {
    let kx = find(x, y);
    if (kx >= 0 && fw[kx] >= 0 && fw[kx] <= w) return false;
    if (kx < 0) kx = append(x, y);
    fw[kx] = w; fwMid[kx] = mid;
    let ky = find(y, x);
    if (ky < 0) ky = append(y, x);
    bw[ky] = w; bwMid[ky] = mid;
    return true;
  };
  const removeNbr = (x: number, y: number) => {
    const k = find(x, y);
    if (k < 0) return;
    const last = start[x] + --len[x];
    nbr[k] = nbr[last]; fw[k] = fw[last]; bw[k] = bw[last]; fwMid[k] = fwMid[last]; bwMid[k] = bwMid[last];
  };
  for (let e = 0; e < g.edges; e++) {
    const u = g.edgeU[e], v = g.edgeV[e];
    if (u === v) continue;
    const f = g.edgeFlags[e], w = g.edgeW[e], mid = -(e + 1);
    if (f & 1) addArc(u, v, w, mid);
    if (f & 2) addArc(v, u, w, mid);
  }

  // --- witness search: Dijkstra from `src` over uncontracted nodes, skipping `skip`
  const dist = new Float64Array(n);
  const stamp = new Uint32Array(n);
  let cur = 0;
  const heap = new MinHeap(1024);
  // targets of the current witness search: stop as soon as all of them are settled
  const tstamp = new Uint32Array(n);
  let tcur = 0, tleft = 0;
  const witness = (src: number, skip: number, limit: number, maxSettle: number) => {
    cur++;
    if (cur === 0xffffffff) { stamp.fill(0); cur = 1; }
    heap.clear();
    dist[src] = 0; stamp[src] = cur; heap.push(0, src);
    let settled = 0;
    while (heap.length) {
      const d = heap.peekKey(), x = heap.peekId();
      heap.pop();
      if (d > dist[x]) continue;
      if (d > limit || ++settled > maxSettle) break;
      if (tstamp[x] === tcur && --tleft === 0) break;
      const s = start[x], e = s + len[x];
      for (let k = s; k < e; k++) {
        const w = fw[k];
        if (w < 0) continue;
        const y = nbr[k];
        if (y === skip) continue;
        const nd = d + w;
        if (stamp[y] !== cur || nd < dist[y]) { stamp[y] = cur; dist[y] = nd; heap.push(nd, y); }
      }
    }
  };
  const reached = (y: number, w: number) => stamp[y] === cur && dist[y] <= w;

  // Shortcuts that contracting v would need, found with witness searches of `limit` settled nodes.
  // With `collect`, they are also kept in (scU, scW, scWeight) so the caller can apply them without searching again.
  const ins: number[] = [], outs: number[] = [];
  let scU = new Int32Array(64), scW = new Int32Array(64), scWeight = new Int32Array(64);
  let scCount = 0;
  const shortcutsFor = (v: number, limit: number, collect: boolean): number => {
    ins.length = 0; outs.length = 0;
    scCount = 0;
    const s = start[v], e = s + len[v];
    let maxOut = 0;
    for (let k = s; k < e; k++) {
      if (bw[k] >= 0) ins.push(k);
      if (fw[k] >= 0) { outs.push(k); if (fw[k] > maxOut) maxOut = fw[k]; }
    }
    let added = 0;
    for (const ki of ins) {
      const u = nbr[ki], a = bw[ki];
      tcur++; tleft = 0;
      for (const ko of outs) { const w = nbr[ko]; if (w !== u && tstamp[w] !== tcur) { tstamp[w] = tcur; tleft++; } }
      if (tleft === 0) continue;
      witness(u, v, a + maxOut, limit);
      for (const ko of outs) {
        const w = nbr[ko];
        if (w === u) continue;
        const need = a + fw[ko];
        if (reached(w, need)) continue;
        added++;
        if (collect) {
          if (scCount === scU.length) {
            const g2 = (x: Int32Array) => { const y = new Int32Array(x.length * 2); y.set(x); return y; };
            scU = g2(scU); scW = g2(scW); scWeight = g2(scWeight);
          }
          scU[scCount] = u; scW[scCount] = w; scWeight[scCount] = need; scCount++;
        }
      }
    }
    return added;
  };

  const contracted = new Uint8Array(n);
  const deleted = new Int32Array(n);
  const level = new Int32Array(n);
  const prio = new Float64Array(n);
  const priority = (v: number, limit = SIM, collect = false): number => {
    const sc = shortcutsFor(v, limit, collect);
    const removed = len[v];
    return 2 * (sc - removed) + deleted[v] + level[v];
  };
  const pq = new MinHeap(n + 16);
  for (let v = 0; v < n; v++) { prio[v] = priority(v); pq.push(prio[v], v); }

  const rank = new Uint32Array(n);
  let order = 0;
  const step = Math.max(1, Math.floor(n / 100));
  while (pq.length) {
    const v = pq.peekId(), p = pq.peekKey();
    pq.pop();
    if (contracted[v] || p !== prio[v]) continue;
    // lazy update: re-evaluate with the full witness limit; if no longer the cheapest, put it
    // back, else add exactly the shortcuts that evaluation found (no second search)
    const np = priority(v, CON, true);
    if (pq.length && np > pq.peekKey()) { prio[v] = np; pq.push(np, v); continue; }
    for (let i = 0; i < scCount; i++) addArc(scU[i], scW[i], scWeight[i], v);
    contracted[v] = 1;
    rank[v] = order++;
    const s = start[v], e = s + len[v];
    for (let k = s; k < e; k++) {
      const u = nbr[k];
      removeNbr(u, v);
      deleted[u]++;
      if (level[u] < level[v] + 1) level[u] = level[v] + 1;
    }
    // neighbours' costs changed: re-evaluate them now (their old heap entries become stale)
    if (EAGER) for (let k = start[v], e2 = start[v] + len[v]; k < e2; k++) {
      const u = nbr[k];
      prio[u] = priority(u);
      pq.push(prio[u], u);
    }
    if (opts.onProgress && order % step === 0) opts.onProgress(order / n, order, n);
  }

  // --- freeze: each node's block, as it was at contraction, is its CH adjacency, packed as the route
  // file stores it (src/core/format/route.ts): one entry per neighbour, or two when its arcs differ
  const split = (k: number) => fw[k] >= 0 && bw[k] >= 0 && (fw[k] !== bw[k] || fwMid[k] !== bwMid[k]);
  const chFirst = new Uint32Array(n + 1);
  for (let v = 0; v < n; v++) {
    let c = 0;
    for (let k = start[v]; k < start[v] + len[v]; k++) c += split(k) ? 2 : 1;
    chFirst[v + 1] = chFirst[v] + c;
  }
  const total = chFirst[n];
  const chArc = new Int32Array(ARC * total), chMid = new Int32Array(total);
  let realShortcuts = 0, o = 0;
  const put = (y: number, dirs: number, w: number, mid: number) => {
    chArc[ARC * o + ARC_HEAD] = (y << HEAD_SHIFT) | dirs; chArc[ARC * o + ARC_W] = w; chMid[o] = mid; o++;
  };
  for (let v = 0; v < n; v++) {
    for (let k = start[v]; k < start[v] + len[v]; k++) {
      if (split(k)) { put(nbr[k], HEAD_FW, fw[k], fwMid[k]); put(nbr[k], HEAD_BW, bw[k], bwMid[k]); }
      else if (fw[k] >= 0) put(nbr[k], bw[k] >= 0 ? HEAD_FW | HEAD_BW : HEAD_FW, fw[k], fwMid[k]);
      else put(nbr[k], HEAD_BW, bw[k], bwMid[k]);
      if (fw[k] >= 0 && fwMid[k] >= 0) realShortcuts++;
      if (bw[k] >= 0 && bwMid[k] >= 0) realShortcuts++;
    }
    if (o > chFirst[v]) chArc[ARC * (o - 1) + ARC_HEAD] |= HEAD_LAST;
  }
  return { chFirst, chArc, chMid, rank, shortcuts: realShortcuts, arcs: total };
}
