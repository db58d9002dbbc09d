// Turn restriction relations resolved onto OSM node paths as OSRM's extractor does
// (extraction_containers.cpp find_turn_nodes / find_via_way_path): the from and to ways must
// end at the via node (or at the via ways' ends), and a restriction is the node path
// from-node → via… → to-node through them. Nodes are RawNetwork indices.
import type { RawNetwork } from '../osm/read.ts';
import type { Profile } from '../profiles/types.ts';

/** A restriction through one node: arriving from `from` at `via`, leaving to `to`. */
export interface NodeRestriction { from: number; via: number; to: number; only: boolean }
/** A restriction over via ways: the node path from, via[0], …, via[n-1], to. */
export interface WayRestriction { from: number; via: number[]; to: number; only: boolean }

export interface Restrictions {
  /** "from,via" → the restrictions leaving that turn */
  byFromVia: Map<string, NodeRestriction[]>;
  viaWay: WayRestriction[];
  /** relations read, and those that did not resolve onto the network (unknown or unconnected ways) */
  read: number;
  unresolved: number;
}

const NONE = -1;
type WayNodes = number[];

/** find_turn_nodes: [from, via, to] where `from` ends at `via`'s first or last node (and at `at` when given). */
function turnNodes(from: WayNodes, via: WayNodes, at: number): [number, number, number] {
  const fFirst = from[0], fLast = from[from.length - 1], vFirst = via[0], vLast = via[via.length - 1];
  if (at === NONE || at === fFirst) {
    if (fFirst === vFirst) return [from[1], vFirst, via[1]];
    if (fFirst === vLast) return [from[1], vLast, via[via.length - 2]];
  }
  if (at === NONE || at === fLast) {
    if (fLast === vFirst) return [from[from.length - 2], vFirst, via[1]];
    if (fLast === vLast) return [from[from.length - 2], vLast, via[via.length - 2]];
  }
  return [NONE, NONE, NONE];
}

/** The node index of every node member of the network's restrictions, from nodeIds. */
export function restrictionNodeIndex(net: RawNetwork): Map<number, number> {
  const out = new Map<number, number>(), ids: Float64Array | undefined = net.nodeIds;
  if (!ids) return out;
  for (const rel of net.relations ?? []) for (const m of rel.members) {
    if (m.type !== 'node' || out.has(m.ref)) continue;
    let lo = 0, hi: number = ids.length - 1;
    while (lo <= hi) {
      const mid: number = (lo + hi) >>> 1;
      if (ids[mid] === m.ref) { out.set(m.ref, mid); break; }
      if (ids[mid] < m.ref) lo = mid + 1; else hi = mid - 1;
    }
  }
  return out;
}

export function readRestrictions(net: RawNetwork, profile: Profile): Restrictions {
  const out: Restrictions = { byFromVia: new Map(), viaWay: [], read: 0, unresolved: 0 };
  if (!profile.properties.useTurnRestrictions || !net.relations?.length) return out;
  const wayById = new Map<number, WayNodes>();
  for (const w of net.ways) if (!wayById.has(w.id)) wayById.set(w.id, w.refs);
  const index = net.restrictionNodes ?? restrictionNodeIndex(net);
  const nodeIndex = (id: number): number => index.get(id) ?? NONE;
  for (const rel of net.relations) for (const r of profile.parseRestriction(rel.tags, rel.members)) {
    out.read++;
    const from = wayById.get(r.from), to = wayById.get(r.to);
    if (!from || !to) { out.unresolved++; continue; }
    if (r.viaNode !== undefined) {
      const via = nodeIndex(r.viaNode);
      const [a, v, b] = via === NONE ? [NONE, NONE, NONE] : turnNodes(from, to, via);
      if (v === NONE) { out.unresolved++; continue; }
      const key = a + ',' + v;
      const l = out.byFromVia.get(key), x = { from: a, via: v, to: b, only: r.only };
      if (l) l.push(x); else out.byFromVia.set(key, [x]);
      continue;
    }
    const vias = r.viaWays!.map((id) => wayById.get(id));
    if (vias.some((v) => !v)) { out.unresolved++; continue; }
    const path = viaWayPath(from, vias as WayNodes[], to);
    if (!path) { out.unresolved++; continue; }
    out.viaWay.push({ ...path, only: r.only });
  }
  return out;
}

/** find_via_way_path: the node path through the via ways, oriented by how they connect. */
function viaWayPath(from: WayNodes, vias: WayNodes[], to: WayNodes): { from: number; via: number[]; to: number } | null {
  const [a, v] = turnNodes(from, vias[0], NONE);
  if (v === NONE) return null;
  const via = [v];
  let next = v;
  for (const w of vias) {
    if (next === w[0]) { for (let i = 1; i < w.length; i++) via.push(w[i]); next = w[w.length - 1]; }
    else if (next === w[w.length - 1]) { for (let i = w.length - 2; i >= 0; i--) via.push(w[i]); next = w[0]; }
    else return null;
  }
  let b: number;
  if (next === to[0]) b = to[1];
  else if (next === to[to.length - 1]) b = to[to.length - 2];
  else return null;
  return { from: a, via, to: b };
}

/** isTurnRestricted: does a restriction leaving from→via forbid going on to `to`? */
export function turnRestricted(list: readonly NodeRestriction[] | undefined, to: number): boolean {
  if (!list) return false;
  for (const r of list) if (r.only ? r.to !== to : r.to === to) return true;
  return false;
}

/**
 * Drops the restrictions whose node path the graph cannot drive (turn_path_filter.cpp
 * removeInvalidTurnPaths): a step along a one-way's wrong direction, or off the profile's roads.
 */
export function dropUndrivable(r: Restrictions, drivable: (a: number, b: number) => boolean): number {
  let dropped = 0;
  for (const [k, l] of r.byFromVia) {
    const kept = l.filter((x) => drivable(x.from, x.via) && drivable(x.via, x.to));
    dropped += l.length - kept.length;
    if (kept.length) r.byFromVia.set(k, kept); else r.byFromVia.delete(k);
  }
  const ways = r.viaWay.filter((x) => {
    const path = [x.from, ...x.via, x.to];
    for (let i = 0; i + 1 < path.length; i++) if (!drivable(path[i], path[i + 1])) return false;
    return true;
  });
  dropped += r.viaWay.length - ways.length;
  r.viaWay = ways;
  return dropped;
}

/** Every node a restriction names. */
export function restrictionNodes(r: Restrictions): Set<number> {
  const s = new Set<number>();
  for (const l of r.byFromVia.values()) for (const x of l) { s.add(x.from); s.add(x.via); s.add(x.to); }
  for (const x of r.viaWay) { s.add(x.from); s.add(x.to); for (const v of x.via) s.add(v); }
  return s;
}
