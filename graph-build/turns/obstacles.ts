// OSRM's ObstacleMap (extractor/obstacles.cpp): the obstacles of every tagged node, each bound to
// the traffic it stops. An undirected one (direction none or both) binds every road into the node;
// a directed one (forward / backward along a way) binds only traffic arriving from the way's node
// before it (forward) or after it (backward), for every routed way through the node, at the node's
// first occurrence in the way as OSRM finds it. Nodes are RawNetwork indices.
import type { RawNetwork } from '../osm/read.ts';
import type { Obstacle, Profile } from '../profiles/types.ts';

const ANY = -1;

export class ObstacleMap {
  /** via node → [from node (ANY: any), obstacle] */
  private at = new Map<number, { from: number; obstacle: Obstacle }[]>();

  constructor(net: RawNetwork, profile: Profile, routed: (way: number) => boolean) {
    const directed = new Map<number, Obstacle[]>();
    if (net.nodeTags) for (const [v, tags] of net.nodeTags) {
      for (const o of profile.processNode(tags)) {
        if (o.direction === 'forward' || o.direction === 'backward') {
          const l = directed.get(v); if (l) l.push(o); else directed.set(v, [o]);
        } else this.add(v, ANY, o);
      }
    }
    if (!directed.size) return;
    for (let w = 0; w < net.ways.length; w++) {
      if (!routed(w)) continue;
      const refs = net.ways[w].refs;
      for (let i = 0; i < refs.length; i++) {
        const obs = directed.get(refs[i]);
        if (!obs) continue;
        for (const o of obs) {
          // the first occurrence of the node in refs[1..] (forward) or refs[..n-2] (backward)
          const fw = o.direction === 'forward';
          const k = fw ? refs.indexOf(refs[i], 1) : refs.indexOf(refs[i]);
          if (k !== i) continue; // counted at its first occurrence only
          if (fw && k >= 1) this.add(refs[i], refs[k - 1], o);
          if (!fw && k <= refs.length - 2) this.add(refs[i], refs[k + 1], o);
        }
      }
    }
  }

  private add(v: number, from: number, obstacle: Obstacle) {
    const l = this.at.get(v);
    if (l) l.push({ from, obstacle }); else this.at.set(v, [{ from, obstacle }]);
  }

  /** ObstacleMap::get(from, via): the obstacles at `via` binding traffic from `from` (ANY: only the undirected ones). */
  get(from: number, via: number): Obstacle[] {
    const l = this.at.get(via);
    if (!l) return [];
    const out: Obstacle[] = [];
    for (const e of l) if (e.from === ANY || e.from === from) out.push(e.obstacle);
    return out;
  }

  /** ObstacleMap::any(SPECIAL_NODEID, via, types): an undirected obstacle of one of `types` at `via`. */
  anyUndirected(via: number, types: ReadonlySet<string>): boolean {
    const l = this.at.get(via);
    return !!l && l.some((e) => e.from === ANY && types.has(e.obstacle.type));
  }

  has(via: number) { return this.at.has(via); }
}

export { ANY as ANY_NODE };
