// One intersection as OSRM's extractor sees it (extractor/intersection/intersection_analysis.cpp):
// its roads with their bearings, which turns between them are allowed (isTurnAllowed: one-ways,
// restrictions, u-turns only at dead ends and designated places, barriers, roundabouts driven the
// wrong way), and, for a road arriving, the ordered view of the roads leaving whose angles
// process_turn reads (convertToIntersectionView).
import { angleBetween, reverse, restrictAngle, type Fixed } from './geometry.ts';
import { turnRestricted, type NodeRestriction } from './restrictions.ts';

/** One road at the intersection (a base edge, or a twin pair, seen from one of its ends). */
export interface Road {
  /** base edge (the first of a twin pair) and which of its ends the intersection is */
  edge: number;
  atU: boolean;
  /** signed directed base edge leaving along the road / arriving along it; 0 where that direction is closed */
  out: number;
  in: number;
  /** RawNetwork node next to the intersection along the road */
  nextRaw: number;
  way: number;
  roundabout: boolean;
  /** shape from the intersection outward, duplicates removed (OSRM's fixed point) */
  coords: Fixed[];
  /** metres along the shape */
  length: number;
  /** bearings leaving the intersection: from the point 2 m along, and from the representative coordinate */
  initial: number;
  perceived: number;
}

export interface Intersection {
  /** RawNetwork node of the intersection */
  raw: number;
  roads: Road[];
  /** an undirected barrier / a designated turning place at the node (OSRM's Obstacle::Type::Barrier, ::Turning) */
  barrier: boolean;
  turning: boolean;
  /** restrictions leaving "from,via" pairs at this node */
  restrictions: (fromRaw: number) => readonly NodeRestriction[] | undefined;
  /** the arriving road's way has a u-turn lane in its travelled direction */
  uTurnLane: (road: Road) => boolean;
}

/** isTurnAllowed, `from` arriving and `to` leaving (both roads of `x`). */
export function turnAllowed(x: Intersection, from: Road, to: Road): boolean {
  if (!from.in || !to.out) return false;
  const restrictions = x.restrictions(from.nextRaw);
  if (turnRestricted(restrictions, to.nextRaw)) return false;
  // the arriving edge's bearing is the road's perceived one reversed; reversed again, the road's own
  const fromReversed = from.perceived;
  let allowedExits = 0, bidirectional = 0;
  let rbFrom: Road | null = null, rbTo: Road | null = null, rbFromAngle = 0, rbToAngle = 0;
  for (const r of x.roads) {
    if (r.out && !turnRestricted(restrictions, r.nextRaw)) allowedExits++;
    if (r.in) bidirectional++;
    if (r.roundabout) {
      if (!r.out) {
        const a = angleBetween(reverse(r.perceived), fromReversed);
        if (a > rbFromAngle) { rbFrom = r; rbFromAngle = a; }
      } else {
        const a = angleBetween(fromReversed, r.perceived);
        if (a > rbToAngle) { rbTo = r; rbToAngle = a; }
      }
    }
  }
  if (from === to) {
    if (x.barrier || x.turning) return true;
    if (x.roads.length === 1) return true;
    if (allowedExits === 1 || bidirectional <= 1) return true;
    return x.uTurnLane(from);
  }
  if (x.barrier) return false;
  if (rbFrom && rbTo) {
    const rbFromBearing = reverse(rbFrom.perceived), rbToBearing = rbTo.perceived;
    const rbAngle = angleBetween(rbFromBearing, rbToBearing);
    const fromAngle = angleBetween(rbFromBearing, fromReversed);
    const toAngle = angleBetween(rbFromBearing, to.perceived);
    if ((fromAngle < rbAngle && toAngle < fromAngle) || (fromAngle > rbAngle && toAngle > fromAngle)) return false;
  }
  return true;
}

/** A road of the view and its turn angle (0 u-turn, 180 straight on, below 180 to the right). */
export interface ViewRoad { road: Road; angle: number; allowed: boolean }

const isUTurnAngle = (a: number) => Math.abs(a) < Number.EPSILON;

/**
 * convertToIntersectionView for the road `from` arrives on: the u-turn road first, then the others
 * counter-clockwise… as OSRM orders them, with its angle adjustments. `merged`: roads whose bearing
 * was merged into a neighbour's (a dual carriageway's other half).
 */
export function intersectionView(x: Intersection, from: Road, merged: ReadonlySet<Road>): ViewRoad[] {
  const inBearing = reverse(from.perceived), inInitial = reverse(from.initial);
  const pre: { v: ViewRoad; key: number }[] = [];
  let uturn: ViewRoad | null = null;
  let allowedUTurns = 0;
  for (const r of x.roads) {
    const allowed = turnAllowed(x, from, r);
    let angle = (Math.round(angleBetween(inBearing, r.perceived) * 1e8) / 1e8) % 360;
    let initial = angleBetween(inInitial, r.initial);
    if (allowed && ((angle < 15 && initial > 180) || (angle > 345 && initial < 180))) { angle = 0; initial = 0; }
    const u = isUTurnAngle(angle);
    const v: ViewRoad = { road: r, angle, allowed };
    if (r === from) uturn = v;
    else if (allowed || (!merged.has(r) && !u)) {
      if (u) allowedUTurns++;
      const useTurnAngle = (angle > 270 && initial < 90) || (angle < 90 && initial > 270);
      const key = isUTurnAngle(initial) ? (angle > 180 ? 360 : 0) : useTurnAngle ? angle : initial;
      pre.push({ v, key });
    }
  }
  const u = uturn!;
  u.angle = 0;
  if (u.allowed || allowedUTurns === 0) pre.unshift({ v: u, key: 0 });
  // stable: ties keep the adjacency order, as std::stable_sort does
  pre.sort((a, b) => a.key - b.key || a.v.angle - b.v.angle);
  for (let i = 0; i + 1 < pre.length; i++) {
    const cur = pre[i].v, next = pre[i + 1].v;
    if (next.angle < cur.angle) next.angle = restrictAngle(cur.angle + Math.min(0.5, restrictAngle(360 - cur.angle) / 2));
  }
  if (!pre.some((p) => isUTurnAngle(p.v.angle))) pre.unshift({ v: u, key: 0 });
  return pre.map((p) => p.v);
}

/** guidance::getTurnDirection(angle) === UTurn */
export const isUTurn = (angle: number) => !(angle > 0 && angle < 360);
