// Dual carriageways seen as one road (OSRM's extractor/intersection/mergable_road_detector.cpp and
// getIntersectionGeometries in intersection_analysis.cpp): where the two one-way halves of a road
// meet an intersection, OSRM gives both the bisector of their bearings (so a turn off the road is
// measured from the road's axis, and turning from one half into the other is a u-turn), and a short
// road whose far intersection merges such halves has its bearing turned by the same offset.
import { angularDeviation, bearing, distance, restrictAngle, reverse, angleBetween, same, type Fixed } from './geometry.ts';
import { leastSquares, project, rotate, sample, trimToLength } from './coordinates.ts';
import type { Road, ViewRoad } from './intersection.ts';

const MERGABLE_ANGLE_DIFFERENCE = 95, NARROW_TURN_ANGLE = 40, FUZZY_ANGLE_DIFFERENCE = 25, GROUP_ANGLE = 60;
const STRAIGHT_ANGLE = 180, ORTHOGONAL_ANGLE = 90, MAXIMAL_ALLOWED_NO_TURN_DEVIATION = 3, ASSUMED_LANE_WIDTH = 3.25;
const DISTANCE_TO_EXTRACT = 120, PRUNING_DISTANCE = 30;

/** What the detector reads of svc's graph, in OSRM's node-based terms (a road = an edge leaving a node). */
export interface MergeGraph {
  /** the node's roads, bearings as getIntersectionOutgoingGeometries<false> gives them (no merging), in perceived-bearing order */
  roadsAt(x: number): Road[];
  /** getConnectedRoads<close>: the view of `at`'s roads for traffic arriving by `from` (a road of `at`) */
  viewAt(at: number, from: Road, close: boolean): ViewRoad[];
  /** the node at the other end of a road, and the same road seen from there */
  remote(r: Road): number;
  back(r: Road): Road;
  coord(x: number): Fixed;
  /** the road's whole shape leaving its node */
  shape(r: Road): Fixed[];
  /** the road's node-adjacency order (OSRM's edge order), for "the first road" of a node */
  firstRoadAt(x: number): Road;
  /** interned name (string_view_id) of the road's way in the road's direction */
  nameId(r: Road): number;
  emptyName(id: number): boolean;
  /** requiresNameAnnounced(from, to) */
  announce(from: number, to: number): boolean;
  /** EdgeDataSupportsMerge: no roundabout, same mode, identical names, same road classification */
  supportsMerge(a: Road, b: Road): boolean;
  lanes(r: Road): number;
}

/** The result for one intersection: roads whose bearing merged (the in-only half of each pair, hidden from views). */
export function mergeRoads(g: MergeGraph, x: number, roads: Road[]): Set<Road> {
  const merged = new Set<Road>();
  const n = roads.length;
  const done: boolean[] = new Array(n).fill(false);
  if (n >= 3) {
    for (let i = 0; i < n; i++) {
      if (!pairMergeable(g, roads, x, i)) continue;
      const next = (i + 1) % n, lhs = roads[i], rhs = roads[next];
      done[i] = done[next] = true;
      const m = mergedBearing(g, roads, i, next, false);
      lhs.perceived = lhs.initial = m[1];
      rhs.perceived = rhs.initial = m[1];
      merged.add(lhs.out ? rhs : lhs);
    }
  }
  if (n >= 2) {
    for (let i = 0; i < n; i++) {
      const r = roads[i];
      if (done[i] || r.length > PRUNING_DISTANCE) continue;
      const y = g.remote(r);
      const nb = g.roadsAt(y);
      const m = nb.length;
      if (m <= 1) continue;
      const cur = nb.findIndex((q) => g.remote(q) === x);
      if (cur < 0) continue;
      const prev = (cur + m - 1) % m, nxt = (cur + 1) % m;
      if (pairMergeable(g, nb, y, prev)) {
        const mb = mergedBearing(g, nb, prev, cur, true);
        if (mb[0]) r.perceived = r.initial = (r.perceived + 360 - angularDeviation(mb[1], nb[cur].perceived)) % 360;
      } else if (pairMergeable(g, nb, y, cur)) {
        const mb = mergedBearing(g, nb, cur, nxt, true);
        if (mb[0]) r.perceived = r.initial = (r.perceived + angularDeviation(mb[1], nb[cur].perceived)) % 360;
      }
    }
  }
  return merged;
}

function bisector(a: number, b: number): number {
  const ra = (a * Math.PI) / 180, rb = (b * Math.PI) / 180;
  const avg = (180 * Math.atan2(Math.sin(ra) + Math.sin(rb), Math.cos(ra) + Math.cos(rb))) / Math.PI;
  return (avg + 360) % 360;
}

function closestOpposite(roads: Road[], b: number): number {
  const want = reverse(b);
  let best = roads[0];
  for (const r of roads) if (angularDeviation(r.perceived, want) < angularDeviation(best.perceived, want)) best = r;
  return reverse(best.perceived);
}

/** findMergedBearing: [usable at neighbours, bearing] */
function mergedBearing(g: MergeGraph, roads: Road[], li: number, ri: number, neighbour: boolean): [boolean, number] {
  const lhs = roads[li], rhs = roads[ri];
  const entry = lhs.out ? lhs : rhs;
  const opposite = closestOpposite(roads, entry.perceived);
  const m = bisector(rhs.perceived, lhs.perceived);
  if (angularDeviation(angleBetween(opposite, entry.perceived), STRAIGHT_ANGLE) < MAXIMAL_ALLOWED_NO_TURN_DEVIATION) return [false, entry.perceived];
  if (neighbour) {
    const tl = angleBetween(opposite, lhs.perceived), tr = angleBetween(opposite, rhs.perceived), tn = angleBetween(opposite, m);
    if (angularDeviation(tl, STRAIGHT_ANGLE) < angularDeviation(tn, STRAIGHT_ANGLE) || angularDeviation(tr, STRAIGHT_ANGLE) < angularDeviation(tn, STRAIGHT_ANGLE)) return [false, opposite];
  }
  return [true, m];
}

function pairMergeable(g: MergeGraph, roads: Road[], x: number, i: number): boolean {
  const n = roads.length;
  const llhs = roads[(i + n - 1) % n], lhs = roads[i], rhs = roads[(i + 1) % n], rrhs = roads[(i + 2) % n];
  return distinct(g, llhs, lhs) && canMerge(g, x, lhs, rhs) && distinct(g, rhs, rrhs);
}

/** HaveIdenticalNames */
const identical = (g: MergeGraph, a: number, b: number) => !g.emptyName(a) && !g.emptyName(b) && !g.announce(a, b) && !g.announce(b, a);

function distinct(g: MergeGraph, a: Road, b: Road): boolean {
  if (angularDeviation(a.perceived, b.perceived) > MERGABLE_ANGLE_DIFFERENCE) return true;
  return !identical(g, g.nameId(a), g.nameId(b));
}

function canMerge(g: MergeGraph, x: number, lhs: Road, rhs: Road): boolean {
  if (angularDeviation(lhs.perceived, rhs.perceived) > MERGABLE_ANGLE_DIFFERENCE) return false;
  if (!lhs.out === !rhs.out || !g.supportsMerge(lhs, rhs)) return false;
  if (g.remote(lhs) === x || g.remote(rhs) === x) return false;
  if (trafficLoop(g, x, lhs) || trafficLoop(g, x, rhs)) return false;
  if (trafficIsland(g, x, lhs, rhs)) return true;
  if (linkRoad(g, x, lhs) || linkRoad(g, x, rhs)) return false;
  if (narrowTriangle(g, x, lhs, rhs)) return true;
  return sameDirection(g, x, lhs, rhs) && !circularShape(g, x, lhs, rhs);
}

/** skipDegreeTwoNodes: [node the road leaves, road] at the last stretch before an intersection of another degree */
function skipDegreeTwo(g: MergeGraph, x: number, road: Road): [number, Road] {
  let node = x, r = road, next = g.remote(r);
  for (let guard = 0; guard < 10000 && next !== x; guard++) {
    const rs = g.roadsAt(next);
    if (rs.length !== 2) break;
    const back = g.back(r);
    const other = rs.find((q) => !(q.edge === back.edge && q.atU === back.atU))!;
    node = next; r = other; next = g.remote(r);
  }
  return [node, r];
}

const trafficLoop = (g: MergeGraph, x: number, r: Road) => g.remote(skipDegreeTwo(g, x, r)[1]) === x;

function trafficIsland(g: MergeGraph, x: number, lhs: Road, rhs: Road): boolean {
  const lc = g.remote(skipDegreeTwo(g, x, lhs)[1]), rc = g.remote(skipDegreeTwo(g, x, rhs)[1]);
  if (lc !== rc || lc === x) return false;
  const sameNameDegreeThree = (nid: number) => {
    const rs = g.roadsAt(nid);
    if (rs.length !== 3) return false;
    const req = g.nameId(g.firstRoadAt(nid));
    return rs.every((r) => {
      const id = g.nameId(r);
      if (g.emptyName(req) && g.emptyName(id)) return false;
      return !g.announce(req, id) || !g.announce(id, req);
    });
  };
  const inn = sameNameDegreeThree(x), out = sameNameDegreeThree(lc);
  if (!inn && !out) return false;
  const d = distance(g.coord(x), g.coord(lc));
  return inn && out ? d < 30 : d < 15;
}

/** findClosestTurn(angle, filter): the first road closest to the angle among those the filter keeps */
function closest(view: ViewRoad[], angle: number, exclude?: (v: ViewRoad) => boolean): ViewRoad | undefined {
  let best: ViewRoad | undefined, bestKey = [2, Infinity];
  for (const v of view) {
    const k = [exclude && exclude(v) ? 1 : 0, angularDeviation(v.angle, angle)];
    if (!best || k[0] < bestKey[0] || (k[0] === bestKey[0] && k[1] < bestKey[1])) { best = v; bestKey = k; }
  }
  return best && exclude && exclude(best) ? undefined : best;
}

function linkRoad(g: MergeGraph, x: number, road: Road): boolean {
  const [node, r] = skipDegreeTwo(g, x, road);
  const view = g.viewAt(g.remote(r), g.back(r), false);
  const want = g.nameId(road);
  // makeCheckRoadForName: roads whose name differs (or either is empty) are passed over
  const differs = (v: ViewRoad) => { const id = g.nameId(v.road); return g.emptyName(want) || g.emptyName(id) || g.announce(want, id) || g.announce(id, want); };
  const next = closest(view, STRAIGHT_ANGLE, differs);
  if (!next) return false;
  const opp = closest(view, restrictAngle(next.angle + STRAIGHT_ANGLE))!;
  if (g.remote(opp.road) === node) return false;
  if (angularDeviation(angularDeviation(next.angle, STRAIGHT_ANGLE), angularDeviation(opp.angle, 0)) < FUZZY_ANGLE_DIFFERENCE) return false;
  return angularDeviation(opp.angle, next.angle) >= STRAIGHT_ANGLE - FUZZY_ANGLE_DIFFERENCE && !next.road.out === !opp.road.out && g.supportsMerge(next.road, opp.road);
}

type Selector = (view: ViewRoad[]) => Road | null;

/** SelectStraightmostRoadByNameAndOnlyChoice */
function straightmost(g: MergeGraph, desired: number, initialBearing: number, requiresEntry: boolean, stopOnAmbiguous: boolean): Selector {
  return (view) => {
    if (view.length === 1) return null;
    const score = (v: ViewRoad) => (requiresEntry && !v.allowed ? 360 : 0) + (desired !== g.nameId(v.road) ? 180 : 0) + angularDeviation(v.angle, STRAIGHT_ANGLE);
    const count = view.filter((v) => g.nameId(v.road) === desired).length;
    if (count > 2) return null;
    let min = view[1];
    for (let i = 2; i < view.length; i++) if (score(view[i]) < score(min)) min = view[i];
    if (requiresEntry && !min.allowed) return null;
    const valid = (view.length === 2 || closest(view, STRAIGHT_ANGLE) === min) && angularDeviation(min.angle, STRAIGHT_ANGLE) < NARROW_TURN_ANGLE
      && angularDeviation(initialBearing, min.road.perceived) < NARROW_TURN_ANGLE;
    if (valid) return min.road;
    const onlyChoice = count <= 2 && g.nameId(min.road) === desired && angularDeviation(min.angle, STRAIGHT_ANGLE) < 100;
    if (stopOnAmbiguous && angularDeviation(STRAIGHT_ANGLE, min.angle) > GROUP_ANGLE) {
      const opp = closest(view, reverse(min.angle))!;
      if (angularDeviation(min.angle, opp.angle) > 180 - FUZZY_ANGLE_DIFFERENCE) return null;
      const best = closest(view, STRAIGHT_ANGLE)!;
      if (angularDeviation(best.angle, STRAIGHT_ANGLE) < FUZZY_ANGLE_DIFFERENCE) return null;
    }
    return onlyChoice ? min.road : null;
  };
}

interface Accumulator { update(from: number, road: Road): void; terminate(): boolean }

/** NodeBasedGraphWalker::TraverseRoad */
function traverse(g: MergeGraph, start: number, road: Road, acc: Accumulator, select: Selector): void {
  let node = start, r = road;
  for (let hop = 0; hop < 1000; hop++) {
    acc.update(node, r);
    const y = g.remote(r);
    if (y === start) return;
    const view = g.viewAt(y, g.back(r), true);
    if (view.length <= 1) return;
    const next = select(view);
    if (!next) return;
    if (acc.terminate()) return;
    node = y; r = next;
  }
}

class IntersectionFinder implements Accumulator {
  hops = 0;
  node = -1;
  via!: Road;
  view: ViewRoad[] = [];
  constructor(private g: MergeGraph, private limit: number) {}
  terminate() { if (this.view.length > 2 || this.hops === this.limit) { this.hops = 0; return true; } return false; }
  update(from: number, road: Road) { this.hops++; this.node = from; this.via = road; this.view = this.g.viewAt(this.g.remote(road), this.g.back(road), true); }
}

class LengthLimited implements Accumulator {
  length = 0;
  coords: Fixed[] = [];
  constructor(private g: MergeGraph, private max: number) {}
  terminate() { return this.length >= this.max; }
  update(_from: number, road: Road) {
    let cs = this.g.shape(road);
    let len = 0;
    for (let i = 1; i < cs.length; i++) len += distance(cs[i - 1], cs[i]);
    if (len + this.length > this.max) cs = trimToLength(cs, this.max - this.length);
    this.coords.push(...cs);
    this.length = Math.min(this.length + len, this.max);
  }
}

function narrowTriangle(g: MergeGraph, x: number, lhs: Road, rhs: Road): boolean {
  const left = new IntersectionFinder(g, 5), right = new IntersectionFinder(g, 5);
  const select = straightmost(g, g.nameId(lhs), lhs.perceived, false, false);
  traverse(g, x, lhs, left, select);
  if (!left.view.length) return false;
  if (angularDeviation(closest(left.view, ORTHOGONAL_ANGLE)!.angle, ORTHOGONAL_ANGLE) > NARROW_TURN_ANGLE) {
    traverse(g, g.remote(left.via), closest(left.view, STRAIGHT_ANGLE)!.road, left, select);
  }
  if (distance(g.coord(x), g.coord(g.remote(left.via))) > 80) return false;
  traverse(g, x, rhs, right, select);
  if (!right.view.length) return false;
  if (angularDeviation(closest(right.view, 270)!.angle, 270) > NARROW_TURN_ANGLE) {
    traverse(g, g.remote(right.via), closest(right.view, STRAIGHT_ANGLE)!.road, right, select);
  }
  const connector = closest(left.view, ORTHOGONAL_ANGLE)!;
  if (angularDeviation(connector.angle, ORTHOGONAL_ANGLE) > NARROW_TURN_ANGLE) return false;
  const width = (Math.max(g.lanes(lhs), 1) + Math.max(g.lanes(rhs), 1)) * ASSUMED_LANE_WIDTH;
  if (distance(g.coord(g.remote(left.via)), g.coord(g.remote(right.via))) > width + 10) return false;
  const connect = new IntersectionFinder(g, 5);
  traverse(g, g.remote(left.via), connector.road, connect, select);
  return g.remote(connect.via) === g.remote(right.via);
}

function along(g: MergeGraph, x: number, road: Road, initialBearing: number, stopOnAmbiguous: boolean): LengthLimited {
  const acc = new LengthLimited(g, DISTANCE_TO_EXTRACT);
  traverse(g, x, road, acc, straightmost(g, g.nameId(road), initialBearing, false, stopOnAmbiguous));
  return acc;
}

function circularShape(g: MergeGraph, x: number, lhs: Road, rhs: Road): boolean {
  const l = along(g, x, lhs, lhs.perceived, false), r = along(g, x, rhs, lhs.perceived, false);
  const cl = l.coords, cr = r.coords;
  if (same(cl[cl.length - 1], cr[cr.length - 1]) && same(cl[0], cl[cl.length - 1])) {
    const ratio = Math.abs(area(cl)) / (l.length * l.length);
    if (ratio >= 0.85 / (4 * Math.PI)) return true;
  }
  return false;
}

function sameDirection(g: MergeGraph, x: number, lhs: Road, rhs: Road): boolean {
  if (angularDeviation(lhs.perceived, rhs.perceived) > MERGABLE_ANGLE_DIFFERENCE) return false;
  const l = along(g, x, lhs, lhs.perceived, true);
  if (l.length <= 40) return false;
  const r = along(g, x, rhs, lhs.perceived, true);
  if (r.length <= 40) return false;
  const again = same(l.coords[l.coords.length - 1], r.coords[r.coords.length - 1]);
  let cl = sample(l.coords, DISTANCE_TO_EXTRACT, 5), cr = sample(r.coords, DISTANCE_TO_EXTRACT, 5);
  if (!again) { cl = cl.slice(Math.floor(cl.length / 3)); cr = cr.slice(Math.floor(cr.length / 3)); }
  if (!parallel(cl, cr)) return false;
  const d = Math.min(closestDistance(cl[Math.floor(cl.length / 2)], cr), closestDistance(cr[Math.floor(cr.length / 2)], cl));
  const width = 0.5 * (Math.max(1, g.lanes(lhs)) + Math.max(1, g.lanes(rhs))) * ASSUMED_LANE_WIDTH;
  return d <= width + 12;
}

function closestDistance(c: Fixed, cs: Fixed[]): number {
  let m = Number.MAX_VALUE;
  for (let i = 1; i < cs.length; i++) m = Math.min(m, distance(c, project(cs[i - 1], cs[i], c)));
  return m;
}

/** areParallel: the right regression's slope, once the left's is turned level, is under 20%. */
function parallel(l: Fixed[], r: Fixed[]): boolean {
  const rl = leastSquares(l), rr = leastSquares(r);
  const dl = { lat: rl[0].lat - rl[1].lat, lon: rl[0].lon - rl[1].lon }, dr = { lat: rr[0].lat - rr[1].lat, lon: rr[0].lon - rr[1].lon };
  const b = bearing({ lat: 0, lon: 0 }, dl);
  const rot = rotate(dr, ((b - 90) * Math.PI) / 180);
  const slope = -rot.lon === 0 ? Number.MAX_VALUE : -rot.lat / -rot.lon;
  return Math.abs(slope) < 0.2;
}

/** computeArea of a closed polygon (metres²) */
function area(poly: Fixed[]): number {
  if (!poly.length) return 0;
  let refLat = poly[0].lat;
  for (const p of poly) if (p.lat < refLat) refLat = p.lat;
  let a = 0, prevBase = { lat: refLat, lon: poly[0].lon }, prevY = distance(prevBase, poly[0]);
  for (let i = 1; i < poly.length; i++) {
    const base = { lat: refLat, lon: poly[i].lon }, y = distance(base, poly[i]);
    const chunk = distance(prevBase, base) * (prevY + y);
    a += base.lon >= prevBase.lon ? chunk : -chunk;
    prevBase = base; prevY = y;
  }
  return a / 2;
}
