// Small maps for the turn builder: named points on a grid, ways, tagged nodes and restriction
// relations, built into segments (obstacles on turns), the compressed graph and the turn table.
import type { RawNetwork } from '../../graph-build/osm/read.ts';
import { profileSegments } from '../../graph-build/contract/segments.ts';
import { compress, type BaseGraph } from '../../graph-build/contract/compress.ts';
import { buildTurns } from '../../graph-build/turns/index.ts';
import { profileFor, type ProfileName } from '../../graph-build/profiles/index.ts';

/** ~111 m per grid step: points are [row, column], row 0 at the top (north). */
const STEP = 0.001;

export interface Map {
  points: Record<string, [number, number]>;
  ways: [string, Record<string, string>][];
  nodes?: Record<string, Record<string, string>>;
  /** [type, from way, via (node name or way names), to way, restriction] */
  relations?: { from: string; to: string; viaNode?: string; viaWays?: string[]; restriction: string }[];
}

export function rawNetwork(m: Map): RawNetwork {
  const names = Object.keys(m.points);
  const idx = new globalThis.Map(names.map((n, i) => [n, i]));
  // OSM ids: node i is 1001+i, way k is 1+k (the way's id names it by its node string)
  const wayId = new globalThis.Map(m.ways.map(([nodes], k) => [nodes, k + 1]));
  return {
    lat: Float64Array.from(names.map((n) => -m.points[n][0] * STEP)),
    lon: Float64Array.from(names.map((n) => m.points[n][1] * STEP)),
    nodeIds: Float64Array.from(names.map((_, i) => 1001 + i)),
    ways: m.ways.map(([nodes, tags], k) => ({ id: k + 1, tags: { highway: 'primary', ...tags }, refs: [...nodes].map((c) => idx.get(c)!) })),
    nodeTags: new globalThis.Map(Object.entries(m.nodes ?? {}).map(([n, t]) => [idx.get(n)!, t])),
    relations: (m.relations ?? []).map((r, k) => ({
      id: k + 1,
      tags: { type: 'restriction', restriction: r.restriction },
      members: [
        { type: 'way' as const, ref: wayId.get(r.from)!, role: 'from' },
        ...(r.viaNode ? [{ type: 'node' as const, ref: 1001 + idx.get(r.viaNode)!, role: 'via' }] : []),
        ...(r.viaWays ?? []).map((w) => ({ type: 'way' as const, ref: wayId.get(w)!, role: 'via' })),
        { type: 'way' as const, ref: wayId.get(r.to)!, role: 'to' },
      ],
    })),
  };
}

export interface Built {
  base: BaseGraph;
  /** turn "a>j>b" (points) → { duration, weight } in ms */
  turns: globalThis.Map<string, { duration: number; weight: number }>;
  /** a directed base edge as "x>y" (its end points) */
  name(d: number): string;
  viaWay: { from: string; via: string[]; to: string; only: boolean }[];
}

export function build(m: Map, profile: ProfileName = 'driving'): Built {
  const net = rawNetwork(m);
  const names = Object.keys(m.points);
  const segs = profileSegments(net, profile);
  const base = compress(segs);
  const t = buildTurns(net, base, profileFor(profile));
  const sn = base.shapeNode!;
  // named by the OSM nodes next to the via node, so a turn reads as the map draws it
  const ends = (d: number): [number, number] => {
    const e = Math.abs(d) - 1, s0 = base.edgeShape[e], s1 = base.edgeShape[e + 1] - 1;
    return d > 0 ? [sn[s0], sn[s1]] : [sn[s1], sn[s0]];
  };
  const name = (d: number) => ends(d).map((r) => names[r]).join('>');
  const turns = new globalThis.Map<string, { duration: number; weight: number }>();
  for (let i = 0; i < t.count; i++) {
    const e = Math.abs(t.from[i]) - 1, s0 = base.edgeShape[e], s1 = base.edgeShape[e + 1] - 1;
    const before = t.from[i] > 0 ? sn[s1 - 1] : sn[s0 + 1];
    const [via] = ends(t.to[i]);
    const f = Math.abs(t.to[i]) - 1, r0 = base.edgeShape[f], r1 = base.edgeShape[f + 1] - 1;
    const after = t.to[i] > 0 ? sn[r0 + 1] : sn[r1 - 1];
    turns.set(`${names[before]}>${names[via]}>${names[after]}`, { duration: t.duration[i], weight: t.weight[i] });
  }
  return { base, turns, name, viaWay: t.viaWay.map((v) => ({ from: name(v.from), via: v.via.map(name), to: name(v.to), only: v.only })) };
}

/** car.lua's angle penalty (right-hand driving), seconds, for OSRM's turn.angle. */
export function carAnglePenalty(angle: number): number {
  const bias = 1.075;
  return angle >= 0 ? 7.5 / (1 + Math.exp(-((13 / bias) * angle / 180 - 6.5 * bias))) : 7.5 / (1 + Math.exp(-((13 * bias) * -angle / 180 - 6.5 / bias)));
}

/** Seconds to ms as OSRM stores a turn penalty: truncated to deciseconds. */
export const ms = (s: number) => Math.trunc(s * 10) * 100;
