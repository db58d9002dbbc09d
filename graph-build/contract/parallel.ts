// Two ways over the same two nodes (a road drawn twice, a destination-only way laid over part of a
// through road): OSRM's extractor keeps, per direction, only the cheapest of the parallel segments
// (extraction_containers.cpp: edges sorted by source, target and name, the first smallest
// (weight, duration) wins), so which way's rules and name the road follows is decided there, before
// any turn is built. Segments are compared as OSRM stores them: a way whose two directions differ
// is two one-way edges, the backward one reversed; otherwise one edge in the way's node order.
import { osrmDistance } from './distance.ts';

export interface ParallelInput {
  count: number;
  a: Int32Array;
  b: Int32Array;
  /** bit 1: a→b open, bit 2: b→a open; cleared here for the segments that lose */
  flags: Uint8Array;
  way: Int32Array;
  lat: Float64Array;
  lon: Float64Array;
  /** km/h a→b and b→a */
  speed: Float32Array;
  speedBack: Float32Array;
  /** metres per weight unit a→b and b→a (0: by fixedWeight) */
  rate: Float32Array;
  rateBack: Float32Array;
  fixedWeight: Float32Array;
  fixedDuration: Float32Array;
  weightPrecision: number;
  /** per way: its name (the tie-break), and whether its directions are stored as two edges */
  wayName: readonly string[];
  waySplit: Uint8Array;
}

const E7 = 1e7;
const utf8 = new TextEncoder();

/** OSRM's name order: byte-wise, an empty name after every other. */
function nameBefore(x: string, y: string): boolean {
  if (x === y || x === '') return false;
  if (y === '') return true;
  const bx = utf8.encode(x), by = utf8.encode(y);
  for (let i = 0; i < Math.min(bx.length, by.length); i++) if (bx[i] !== by[i]) return bx[i] < by[i];
  return bx.length < by.length;
}

/**
 * Clears the direction bits of every segment OSRM's extractor would drop as a costlier (or, at
 * equal cost, later-named) duplicate of another over the same two nodes. Returns how many
 * segments lost a direction.
 */
export function dropParallelDuplicates(s: ParallelInput): number {
  const n = s.count;
  // entries: OSRM's edges, 2k along segment k (or its only edge), 2k+1 its reversed backward edge
  const src = (e: number) => (e & 1 ? s.b[e >> 1] : s.a[e >> 1]);
  const dst = (e: number) => (e & 1 ? s.a[e >> 1] : s.b[e >> 1]);
  const split = (k: number) => s.flags[k] === 3 && s.waySplit[s.way[k]] === 1;
  // segments by their start node, to find the ones with the same two ends cheaply
  const head = new Int32Array(s.lat.length).fill(-1);
  const next = new Int32Array(2 * n).fill(-1);
  let found = false;
  for (let k = 0; k < n; k++) {
    if (!s.flags[k]) continue;
    for (const e of split(k) ? [2 * k, 2 * k + 1] : [2 * k]) {
      const u = src(e), v = dst(e);
      for (let o = head[u]; o >= 0 && !found; o = next[o]) if (dst(o) === v) found = true;
      next[e] = head[u];
      head[u] = e;
    }
  }
  if (!found) return 0;
  const scale = 10 ** s.weightPrecision;
  const cost = (e: number, along: boolean): [number, number] => {
    const k = e >> 1, fw = (e & 1) === 0 ? along : !along; // fw: travelled a→b
    const d = osrmDistance(Math.round(s.lat[s.a[k]] * E7) / E7, Math.round(s.lon[s.a[k]] * E7) / E7,
      Math.round(s.lat[s.b[k]] * E7) / E7, Math.round(s.lon[s.b[k]] * E7) / E7);
    // an unsplit edge is stored with its forward values for both directions
    const useFw = split(k) ? fw : s.flags[k] & 1 ? true : false;
    const kmh = useFw ? s.speed[k] : s.speedBack[k];
    const fixedT = s.fixedDuration[k];
    const duration = Math.max(1, Math.round(fixedT > 0 ? fixedT * 10 : (d / (kmh / 3.6)) * 10));
    const r = useFw ? s.rate[k] : s.rateBack[k], fixedW = s.fixedWeight[k];
    const weight = Math.max(1, Math.round((fixedW > 0 ? fixedW : r > 0 ? d / r : 0) * scale));
    return [weight, duration];
  };
  const opens = (e: number, along: boolean) => {
    const f = s.flags[e >> 1];
    if (e & 1) return along ? (f & 2) !== 0 : false; // a reversed backward edge runs one way, b→a
    if (split(e >> 1)) return along ? (f & 1) !== 0 : false;
    return along ? (f & 1) !== 0 : (f & 2) !== 0;
  };
  const less = (x: [number, number], y: [number, number]) => x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);
  const newFlags = Uint8Array.from(s.flags.subarray(0, n));
  let changed = 0;
  const done = new Uint8Array(2 * n);
  for (let node = 0; node < head.length; node++) {
    const first = head[node];
    for (let e = first; e >= 0; e = next[e]) {
      if (done[e]) continue;
      const v = dst(e);
      const group: number[] = [];
      for (let o = first; o >= 0; o = next[o]) if (!done[o] && dst(o) === v) { group.push(o); done[o] = 1; }
      if (group.length < 2) continue;
      // OSRM's sort within the group: by name (stable here for equal names: the earlier way first)
      const name = (o: number) => s.wayName[s.way[o >> 1]];
      group.sort((x, y) => (nameBefore(name(x), name(y)) ? -1 : nameBefore(name(y), name(x)) ? 1 : x - y));
      let bestF = -1, bestB = -1, cf: [number, number] = [Infinity, Infinity], cb: [number, number] = [Infinity, Infinity];
      for (const o of group) {
        if (opens(o, true)) { const c = cost(o, true); if (less(c, cf)) { cf = c; bestF = o; } }
        if (opens(o, false)) { const c = cost(o, false); if (less(c, cb)) { cb = c; bestB = o; } }
      }
      for (const o of group) {
        const k = o >> 1;
        // the direction bits of segment k this entry stood for, and those it keeps
        const along = (o & 1) === 0;
        const abBit = along ? 1 : 2, baBit = along ? 2 : 1; // u→v is a→b for an entry along its segment
        if (o !== bestF && opens(o, true)) newFlags[k] &= ~abBit;
        if (o !== bestB && opens(o, false)) newFlags[k] &= ~baBit;
      }
    }
  }
  for (let k = 0; k < n; k++) if (newFlags[k] !== s.flags[k]) { s.flags[k] = newFlags[k]; changed++; }
  return changed;
}
