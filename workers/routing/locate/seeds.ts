// Where a search starts and ends for a snapped point, on the edge-based graph (a node per drivable
// direction of a base edge; graph-build/contract/edge-based.ts). A source is its edge's node in each
// open direction, at the cost of the rest of the edge ahead. A target is reached from every
// predecessor of its edge's node (and of the node's via-way copies): the turn onto the edge plus the
// part driven to the point. Every search shares these rules: a route's legs, the matrix, map
// matching, isochrones, alternatives.
import type { GraphViews } from '../../../src/core/format/route.ts';
import type { Snap } from './snap.ts';

/** Weight (unrounded) of metres x..y of base edge e driven in direction dir (0 along u→v). */
export type PartCost = (e: number, dir: 0 | 1, x: number, y: number) => number;

/** The routing weight of a part of an edge: its share of the edge's weight. */
export const weightShare = (g: GraphViews): PartCost => (e, _dir, x, y) => { const len = g.edgeDist[e]; return len > 0 ? ((y - x) / len) * g.edgeWeight[e] : 0; };
/** The travel time of a part of an edge: its share of the edge's time. */
export const timeShare = (g: GraphViews): PartCost => (e, _dir, x, y) => { const len = g.edgeDist[e]; return len > 0 ? ((y - x) / len) * g.edgeW[e] : 0; };

export interface SourceSeed {
  node: number;
  /** 0: the edge is left along u→v, 1: against */
  dir: 0 | 1;
  /** metres of the edge still ahead */
  dist: number;
}

export interface TargetSeed {
  /** the predecessor the search ends at */
  node: number;
  /** the target's edge-based node it turns into */
  into: number;
  dir: 0 | 1;
  /** turn weight and duration (ms) into the target's edge */
  turnWeight: number;
  turnDur: number;
  /** metres driven on the target's edge */
  dist: number;
}

/** Seeds of a snapped point as a source. */
export function sourceSeeds(g: GraphViews, s: Snap, out: SourceSeed[] = []): SourceSeed[] {
  out.length = 0;
  const e = s.edge, len = g.edgeDist[e];
  for (const dir of [0, 1] as const) {
    const x = g.edgeEb[2 * e + dir];
    if (x >= 0) out.push({ node: x, dir, dist: dir === 0 ? len - s.pos : s.pos });
  }
  return out;
}

/** Seeds of a snapped point as a target. */
export function targetSeeds(g: GraphViews, t: Snap, out: TargetSeed[] = []): TargetSeed[] {
  out.length = 0;
  const e = t.edge, len = g.edgeDist[e];
  for (const dir of [0, 1] as const) {
    for (let x = g.edgeEb[2 * e + dir]; x >= 0; x = g.copyNext[x]) {
      for (let k = g.ebInFirst[x]; k < g.ebInFirst[x + 1]; k++) {
        out.push({ node: g.ebIn[3 * k], into: x, dir, turnWeight: g.ebIn[3 * k + 1], turnDur: g.ebIn[3 * k + 2], dist: dir === 0 ? t.pos : len - t.pos });
      }
    }
  }
  return out;
}

/** The part of the source edge ahead of a source point, in direction dir. */
export const aheadOf = (g: GraphViews, s: Snap, dir: 0 | 1): [number, number] => (dir === 0 ? [s.pos, g.edgeDist[s.edge]] : [0, s.pos]);
/** The part of the target edge driven to a target point, in direction dir. */
export const upTo = (g: GraphViews, t: Snap, dir: 0 | 1): [number, number] => (dir === 0 ? [0, t.pos] : [t.pos, g.edgeDist[t.edge]]);
