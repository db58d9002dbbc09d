// Turn-by-turn steps of a leg, in the shape of OSRM v5's guidance.
//
// A step (one object of `legs[].steps[]`, native /route and the OSRM layer alike; the Google
// layer maps it to its own):
//   maneuver: {
//     type:      depart | turn | continue | new name | merge | on ramp | off ramp | fork |
//                end of road | roundabout | exit roundabout | arrive
//     modifier?: uturn | sharp right | right | slight right | straight | slight left | left | sharp left
//                (absent on depart and arrive)
//     exit?:     roundabout only: which exit is taken, counting every exit passed (1 = first)
//     bearing_before, bearing_after: degrees clockwise from north (integers), into and out of `location`
//     location:  [lng, lat] of the maneuver
//   }
//   name:         the road driven after the maneuver, in the requested language (name:<lang>, else name; "" unnamed)
//   ref?:         its number (e.g. "N1"); destinations?: signposted destinations (ramps)
//   rotary_name?: the roundabout's own name, on roundabout steps
//   mode:         driving | walking | cycling | ferry
//   distance_m, duration_s: of the step, from the maneuver to the next one (they sum to the leg's)
//   geometry:     GeoJSON LineString of the step (arrive: the end point twice)
//   instruction:  text in the requested language (instructions.ts)
//   intersections?: OSRM layer only: the maneuver's intersection {location, bearings, entry, in?, out?}
//
// How a leg becomes steps: the leg is the sequence of base-edge pieces it drives (search/legs.ts
// LegTrace). Every node between two pieces is a candidate maneuver; it is classified from the
// two pieces' way attributes (name, ref, class, roundabout; graph-build/contract/attrs.ts), the
// turn angle, and the other roads that could be taken there (the node's incident edges the mode
// may leave by). Staying on the same named road through a bend or a junction where it is the
// straightest option, and unnamed road continuing straight, merge into the current step, as OSRM
// does; see decide() for each type.
import { readWayAttrs, type GraphViews, type WayAttr } from '../../../src/core/format/route.ts';
import type { LegTrace } from '../search/legs.ts';
import { instruction, type Lang } from './instructions.ts';
import { E7Line, takeInts, type Coords } from '../answers/lines.ts';

/** A leg's place in its route's line: where each of its pieces starts and ends (point indices of c). */
export interface LegLine { c: ArrayLike<number>; start: ArrayLike<number>; end: ArrayLike<number> }

/**
 * A leg's pieces, four numbers each (edge, 1 if driven u→v, from, to), in a run of the thread's
 * piece space: a leg of a long route has hundreds, and an object apiece (with its two boxed
 * doubles) was most of what guidance allocated; then a Float64Array per leg, allocated and freed
 * outside the heap, was the next.
 */
export class Pieces implements LegTrace {
  private d = space;
  private base = spaceUsed;
  length = 0;
  piece(e: number, fwd: boolean, from: number, to: number) {
    let k = this.base + 4 * this.length;
    // a run grows at the top of the space; another run opened since moves this one up first
    if (this.d !== space || spaceUsed !== k || k + 4 > space.length) k = this.moveUp();
    const d = this.d;
    d[k] = e; d[k + 1] = fwd ? 1 : 0; d[k + 2] = from; d[k + 3] = to;
    spaceUsed = k + 4;
    this.length++;
  }
  e(k: number): number { return this.d[this.base + 4 * k]; }
  fwd(k: number): boolean { return this.d[this.base + 4 * k + 1] === 1; }
  from(k: number): number { return this.d[this.base + 4 * k + 2]; }
  to(k: number): number { return this.d[this.base + 4 * k + 3]; }
  /** metres driven on piece k */
  len(k: number): number { return Math.abs(this.d[this.base + 4 * k + 3] - this.d[this.base + 4 * k + 2]); }
  static of(e: number, fwd: boolean, from: number, to: number): Pieces { const p = new Pieces(); p.piece(e, fwd, from, to); return p; }
  /** Copies the run to the top of the space (a larger space when full); returns where its next piece goes. */
  private moveUp(): number {
    const n = 4 * this.length;
    if (spaceUsed + n + 4 > space.length) { space = new Float64Array(Math.max(space.length, 2 * (n + 4))); spaceUsed = 0; }
    space.set(this.d.subarray(this.base, this.base + n), spaceUsed);
    this.d = space; this.base = spaceUsed;
    return this.base + n;
  }
}

/** The pieces of the thread's current answer (tasks run one at a time; startPieces starts it over). */
let space = new Float64Array(1 << 12);
let spaceUsed = 0;
export function startPieces() { spaceUsed = 0; }

export type Modifier = 'uturn' | 'sharp right' | 'right' | 'slight right' | 'straight' | 'slight left' | 'left' | 'sharp left';

export interface Intersection { location: [number, number]; bearings: number[]; entry: boolean[]; in?: number; out?: number }

export interface Step {
  maneuver: { type: string; modifier?: Modifier; exit?: number; bearing_before: number; bearing_after: number; location: [number, number] };
  name: string;
  ref?: string;
  /** name:pronunciation of the road (the OSRM layer writes it) */
  pronunciation?: string;
  destinations?: string;
  rotary_name?: string;
  mode: string;
  distance_m: number;
  duration_s: number;
  /** E7 coordinates until the answer is written (guided.ts writes a GeoJSON LineString or a polyline). */
  geometry: E7Line;
  instruction: string;
  intersections?: Intersection[];
}

export interface StepOptions { lang: Lang; mode: string; legIndex: number; legCount: number; intersections?: boolean; instructions?: boolean }

const RAD = Math.PI / 180;
/** Metres looked along a road to measure its bearing: shape noise at a junction should not decide a turn. */
const BEARING_LOOK = 12;

/** Signed turn from bearing a to bearing b in (-180, 180]: negative = left. */
export function turnAngle(a: number, b: number): number {
  let d = b - a;
  // bearings in [0, 360) need no remainder (a floating-point % is a call into C, at every node)
  if (d > 180 || d <= -180) {
    d %= 360;
    if (d > 180) d -= 360; else if (d <= -180) d += 360;
  }
  return d;
}

/**
 * OSRM's getTurnDirection on the turn's deviation from straight on: up to 20° straight, to 40°
 * slight, to 120° a plain turn, beyond it sharp; turning back along the road itself (bearings
 * opposite, bar rounding) a u-turn.
 */
export function modifierOf(delta: number): Modifier {
  const a = Math.abs(delta), left = delta < 0;
  if (a <= 20) return 'straight';
  if (a <= 40) return left ? 'slight left' : 'slight right';
  if (a <= 120) return left ? 'left' : 'right';
  if (a < 178) return left ? 'sharp left' : 'sharp right';
  return 'uturn';
}

/** Appends the E7 coordinates [lng, lat, …] of a piece to out. */
export function pieceCoords(g: GraphViews, ps: Pieces, i: number, out: Coords) {
  const e = ps.e(i), from = ps.from(i), to = ps.to(i);
  const s0 = g.edgeShape[e], s1 = g.edgeShape[e + 1], cum = g.shapeCum, lon = g.shapeLon, lat = g.shapeLat;
  // most pieces drive their whole edge: its shape points as they are (an edge's shape measures
  // run from 0 to its length, graph-build/contract/compress.ts: the test need not read them)
  if (Math.min(from, to) <= 0 && Math.max(from, to) >= g.edgeDist[e]) {
    out.addShape(lon, lat, s0, s1, ps.fwd(i));
    return;
  }
  pointAt(g, e, from, out);
  if (ps.fwd(i)) { for (let k = s0; k < s1; k++) { const c = cum[k]; if (c > from && c < to) out.add(lon[k], lat[k]); } }
  else { for (let k = s1 - 1; k >= s0; k--) { const c = cum[k]; if (c < from && c > to) out.add(lon[k], lat[k]); } }
  pointAt(g, e, to, out);
}

function pointAt(g: GraphViews, e: number, pos: number, out: Coords) {
  const s0 = g.edgeShape[e], s1 = g.edgeShape[e + 1];
  // an end at a node (a leg's first and last pieces, one end each) without walking the shape
  if (pos <= 0 && g.shapeCum[s0] === 0) { out.add(g.shapeLon[s0], g.shapeLat[s0]); return; }
  if (pos >= g.shapeCum[s1 - 1] && g.shapeCum[s1 - 1] > g.shapeCum[s1 - 2]) { out.add(g.shapeLon[s1 - 1], g.shapeLat[s1 - 1]); return; }
  let k = s0;
  while (k + 2 < s1 && g.shapeCum[k + 1] < pos) k++;
  const c0 = g.shapeCum[k], c1 = g.shapeCum[k + 1];
  let t = c1 > c0 ? (pos - c0) / (c1 - c0) : 0;
  if (t < 0) t = 0; else if (t > 1) t = 1;
  out.add(Math.round(g.shapeLon[k] + t * (g.shapeLon[k + 1] - g.shapeLon[k])), Math.round(g.shapeLat[k] + t * (g.shapeLat[k + 1] - g.shapeLat[k])));
}

/**
 * Bearing from one E7 point to another a few metres on, on the local plane (dx scaled by cos φ):
 * over the ≤ ~100 m a step's bearing is read from, it equals the great-circle bearing to well
 * under the degree the answer is rounded to, without six trigonometric calls per node.
 */
function planeBearing(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const b = Math.round(Math.atan2((lng2 - lng1) * Math.cos(lat1 * (RAD / 1e7)), lat2 - lat1) / RAD);
  return b < 0 ? b + 360 : b === 360 ? 0 : b;
}

/** BEARING_LOOK metres, squared, in E7 degrees of latitude (the plane's unit). */
const LOOK2 = (BEARING_LOOK / 111_195 * 1e7) ** 2;

/** Whether two E7 points are at least BEARING_LOOK metres apart (k = cos φ). */
function far(lat1: number, lng1: number, lat2: number, lng2: number, k: number): boolean {
  const dx = (lng2 - lng1) * k, dy = lat2 - lat1;
  return dx * dx + dy * dy >= LOOK2;
}

/**
 * The coordinate ~BEARING_LOOK metres from coordinate i (flat E7 pairs) within [lo, hi], going
 * forward (step 1) or back (step -1); -1 when i is at that end. k = cos φ at i.
 */
function lookAt(c: ArrayLike<number>, i: number, step: 1 | -1, lo: number, hi: number, k: number): number {
  const la = c[2 * i + 1], lo0 = c[2 * i];
  for (let j = i + step; j >= lo && j <= hi; j += step) {
    if (j === (step > 0 ? hi : lo) || far(la, lo0, c[2 * j + 1], c[2 * j], k)) return j;
  }
  return -1;
}

/**
 * Direction of travel at coordinate i measured over ~BEARING_LOOK metres within [lo, hi]: leaving
 * i (step 1, bearing_after) or arriving at i (step -1, bearing_before).
 */
export function lookBearing(c: ArrayLike<number>, i: number, step: 1 | -1, lo: number, hi: number): number {
  const j = lookAt(c, i, step, lo, hi, Math.cos(c[2 * i + 1] * (RAD / 1e7)));
  if (j < 0) return 0;
  return step > 0 ? planeBearing(c[2 * i + 1], c[2 * i], c[2 * j + 1], c[2 * j]) : planeBearing(c[2 * j + 1], c[2 * j], c[2 * i + 1], c[2 * i]);
}

/** tan² of the turn below which a node is surely no maneuver on the same road (< 35° after rounding both bearings). */
const GENTLE_TAN2 = Math.tan(32 * RAD) ** 2;

/**
 * Whether the road turns by less than 32° at coordinate `at` (vectors ~BEARING_LOOK metres back
 * and ahead, no trigonometry beyond one cosine): such a node is no maneuver when the road goes on,
 * and its bearings need not be computed. Margin over the 35° rule: each bearing rounds by ≤ 0.5°,
 * and the plane's scale is taken at `at` for both.
 */
export function surelyGentle(c: ArrayLike<number>, at: number, lo: number, hi: number): boolean {
  const k = Math.cos(c[2 * at + 1] * (RAD / 1e7));
  const jb = lookAt(c, at, -1, lo, at, k), ja = lookAt(c, at, 1, at, hi, k);
  if (jb < 0 || ja < 0) return false;
  const x1 = (c[2 * at] - c[2 * jb]) * k, y1 = c[2 * at + 1] - c[2 * jb + 1];
  const x2 = (c[2 * ja] - c[2 * at]) * k, y2 = c[2 * ja + 1] - c[2 * at + 1];
  const dot = x1 * x2 + y1 * y2, cross = x1 * y2 - y1 * x2;
  return dot > 0 && cross * cross < GENTLE_TAN2 * dot * dot;
}

const named = (a: WayAttr) => !!(a.name || a.ref);
const refs = (a: WayAttr) => (a.ref ? a.ref.split(';').map((x) => x.trim()) : []);
/** The same road: equal names, or (a name missing on either side) a common ref, as "RN 8" with and without its street name. */
export function sameRoad(a: WayAttr, b: WayAttr): boolean {
  if (a.name && b.name) return a.name === b.name;
  // most roads outside towns have neither name nor ref: no lists to build for them
  if (!a.ref || !b.ref) return false;
  if (a.ref === b.ref) return true;
  const rb = refs(b);
  return refs(a).some((r) => rb.includes(r));
}
const HIGHWAY = new Set(['motorway', 'trunk']);
/** Ramps in OSRM's sense: links of motorways and trunk roads (a primary_link is a turn lane). */
const isLink = (a: WayAttr) => a.cls === 'motorway_link' || a.cls === 'trunk_link';
const isHighway = (a: WayAttr) => HIGHWAY.has(a.cls);

/** A road at node x (the OSRM layer's intersections): its bearing out of x, and whether the mode may leave by it. */
interface Option { e: number; atU: boolean; bearing: number; enter: boolean }

function nodeOptions(g: GraphViews, x: number): Option[] {
  const out: Option[] = [];
  for (let k = g.adjFirst[x]; k < g.adjFirst[x + 1]; k++) {
    const s = g.adjEdge[k], e = Math.abs(s) - 1, atU = s > 0;
    out.push({ e, atU, bearing: edgeBearing(g, e, atU), enter: !!(g.edgeFlags[e] & (atU ? 1 : 2)) });
  }
  return out;
}

/** Bearing of edge e leaving its u end (atU) or its v end. */
function edgeBearing(g: GraphViews, e: number, atU: boolean): number {
  const s0 = g.edgeShape[e], s1 = g.edgeShape[e + 1];
  const a = atU ? s0 : s1 - 1, step = atU ? 1 : -1;
  const la = g.shapeLat[a], lo = g.shapeLon[a], k = Math.cos(la * (RAD / 1e7));
  for (let j = a + step; j >= s0 && j < s1; j += step) {
    const lb = g.shapeLat[j], lb0 = g.shapeLon[j];
    if (j === (atU ? s1 - 1 : s0) || far(la, lo, lb, lb0, k)) return planeBearing(la, lo, lb, lb0);
  }
  return 0;
}

/**
 * Whether the turn from edge qe (driven u→v when qf) onto edge e (leaving by its u end when atU)
 * is one the graph has: a turn restriction at the node removes it. Read from the edge's own
 * edge-based node, not a via-way restriction's copy: OSRM's guidance sees the junction's node
 * restrictions only.
 */
function turnAllowed(g: GraphViews, qe: number, qf: boolean, e: number, atU: boolean): boolean {
  const tail = g.edgeEb[2 * qe + (qf ? 0 : 1)];
  if (tail < 0) return true;
  const want = atU ? e + 1 : -(e + 1);
  for (let k = g.ebOutFirst[tail]; k < g.ebOutFirst[tail + 1]; k++) if (g.ebEdge[g.ebOut[3 * k]] === want) return true;
  return false;
}

export function localName(a: WayAttr, lang: Lang): string {
  return a[lang] ?? a.name ?? '';
}

interface Building {
  type: string; modifier?: Modifier; exit?: number; bb: number; ba: number; loc: number; // loc: coordinate index
  attr: WayAttr; rotary?: string; /** last coordinate index of the step's line */ to: number; dist: number; dur: number; inter?: Intersection;
  /** intersections the step holds, OSRM's count: its maneuver's and every junction (≥ 3 roads) it drives through */
  inters: number;
}

/**
 * The steps of one leg from its pieces. `costMs` is the leg's duration: piece durations (each
 * edge's time shared by length) are scaled to it so steps sum exactly to the leg.
 */
export function legSteps(g: GraphViews, pieces: Pieces, costMs: number, o: StepOptions, line: LegLine): Step[] {
  const attrs = readWayAttrs(g);
  const c = line.c;
  const edgeAttr = g.edgeAttr, edgeW = g.edgeW, edgeDist = g.edgeDist;
  // zero-length pieces (a point snapped onto a node) carry no direction; keep at least one. For
  // each kept piece: its index, and where its line starts and ends (the first: where the leg does).
  const n = Math.max(1, pieces.length);
  const keep = takeInts(n), ks = takeInts(n), ke = takeInts(n);
  let nk = 0;
  for (let i = 0; i < pieces.length; i++) if (pieces.len(i) > 0.01) { keep[nk] = i; ks[nk] = line.start[i]; ke[nk++] = line.end[i]; }
  if (nk === 0) { keep[0] = 0; ke[nk++] = line.end[0]; }
  const first = ks[0] = line.start[0];
  const last = line.end[line.end.length - 1];
  const steps: Building[] = [];
  const a0 = attrs[edgeAttr[pieces.e(keep[0])]];
  let cur: Building = { type: 'depart', bb: 0, ba: last > first ? lookBearing(c, first, 1, first, ke[0]) : 0, loc: first, attr: a0, to: 0, dist: 0, dur: 0, inters: 1 };
  if (o.intersections) cur.inter = depInter(c, first, cur.ba);
  steps.push(cur);
  let rb: Building | null = null, exits = 0;
  // the current step's length and time, kept in locals while most nodes add to them
  let dist = 0, dur = 0;
  let qe = pieces.e(keep[0]), qf = pieces.fwd(keep[0]), qa = edgeAttr[qe];
  for (let i = 0; i < nk; i++) {
    const p = keep[i], pe = pieces.e(p), pf = pieces.fwd(p), pa = edgeAttr[pe];
    // a node between two pieces: a maneuver, or (a `break node`) the step goes on
    node: if (i > 0) {
      const A = attrs[qa], B = attrs[pa];
      const at = ks[i];
      const x = qf ? g.edgeV[qe] : g.edgeU[qe];
      // a junction driven through counts towards the step's intersections (end of road needs two)
      if (g.adjFirst[x + 1] - g.adjFirst[x] >= 3) cur.inters++;
      // The common case, the same road (or unnamed road) going on within 35° outside roundabouts
      // and ramps, is no maneuver whatever else meets there (decide() agrees): skip the options,
      // and the bearings too when the turn is clearly gentle. The same way attributes on both
      // sides (most nodes) are the same road, or both unnamed.
      const goesOn = !rb && !A.rb && !B.rb && (qa === pa || (isLink(A) === isLink(B) && (sameRoad(A, B) || (!named(A) && !named(B)))));
      if (goesOn && surelyGentle(c, at, ks[i - 1], ke[i])) break node;
      const bb = lookBearing(c, at, -1, ks[i - 1], at), ba = lookBearing(c, at, 1, at, ke[i]);
      const delta = turnAngle(bb, ba);
      if (goesOn && Math.abs(delta) < 35) break node;
      // other roads one may leave x by: not the edge taken, not back along the edge arrived on
      // (their bearings only: every road's is read for the OSRM layer's intersections alone)
      const alts: Alt[] = [];
      let exitHere = !B.rb, through = false;
      for (let k = g.adjFirst[x]; k < g.adjFirst[x + 1]; k++) {
        const s = g.adjEdge[k], e = Math.abs(s) - 1, atU = s > 0;
        if (e === pe || e === qe) continue;
        // the road taken also goes on the other way from here (one-way or not): a through street
        if (!through && named(B) && sameRoad(attrs[edgeAttr[e]], B)) through = true;
        if (!(g.edgeFlags[e] & (atU ? 1 : 2))) continue;
        // a turn a restriction forbids is no option, as a one-way's wrong end is not (OSRM: entry not allowed)
        if (!turnAllowed(g, qe, qf, e, atU)) continue;
        const attr = attrs[edgeAttr[e]];
        alts.push({ angle: turnAngle(bb, edgeBearing(g, e, atU)), attr });
        if (!attr.rb) exitHere = true;
      }
      const d = decide(A, B, delta, alts, !!rb, through && edgeDist[pe] > THROUGH_STRAIGHT_M ? 'straight' : through);
      if (rb && A.rb && exitHere) exits++;
      if (d) {
        if (rb && !B.rb) {
          rb.exit = exits;
          rb.modifier = modifierOf(turnAngle(rb.bb, ba));
          rb.attr = B;
          rb = null;
        }
        cur.dist = dist; cur.dur = dur; dist = dur = 0;
        // the junction is the new step's maneuver, not one the previous step drove through
        if (g.adjFirst[x + 1] - g.adjFirst[x] >= 3) cur.inters--;
        cur = { type: d.type, modifier: d.modifier, bb, ba, loc: at, attr: B, to: 0, dist: 0, dur: 0, inters: 1 };
        if (d.type === 'roundabout') { rb = cur; exits = 0; cur.rotary = localName(B, o.lang) || undefined; }
        if (o.intersections) cur.inter = intersection(c, at, nodeOptions(g, x), pe, pf, qe, qf);
        steps.push(cur);
      }
    }
    const len = pieces.len(p), ed = edgeDist[pe];
    dist += len; dur += ed > 0 ? (edgeW[pe] * len) / ed : 0;
    qe = pe; qf = pf; qa = pa;
  }
  cur.dist = dist; cur.dur = dur;
  let totalDur = 0;
  for (const st of steps) totalDur += st.dur;
  if (rb) { rb.exit = undefined; rb.modifier = rb.modifier ?? 'straight'; }
  plainEndOfRoad(steps);
  suppressShortNames(steps);
  // geometry: each step from its maneuver point to the next one's (a range of the route's line)
  for (let k = 0; k < steps.length; k++) steps[k].to = k + 1 < steps.length ? steps[k + 1].loc : last;
  const scale = totalDur > 0 ? costMs / totalDur : 0;
  const out: Step[] = steps.map((s) => finish(s, s.dur * scale, o, c));
  const lastBb = last > first ? lookBearing(c, last, -1, first, last) : 0;
  const endLoc: [number, number] = [c[2 * last] / 1e7, c[2 * last + 1] / 1e7];
  // the arrive step names the road arrived on: the last piece's (a step keeps the name it began with)
  const arrive: Building = { type: 'arrive', bb: lastBb, ba: 0, loc: last, attr: attrs[edgeAttr[pieces.e(keep[nk - 1])]], to: last, dist: 0, dur: 0, inters: 1 };
  if (o.intersections) arrive.inter = { location: endLoc, bearings: [(lastBb + 180) % 360], entry: [true], in: 0 };
  out.push(finish(arrive, 0, o, c));
  return out;
}

/** Shortest stretch under a new name that is announced (OSRM's NAME_SEGMENT_CUTOFF_LENGTH). */
export const NAME_SEGMENT_CUTOFF_M = 105;

/** How a way is travelled, as OSRM's step modes tell apart: a ferry, a way with no highway class (a shuttle train), a road. */
const travelKind = (a: WayAttr) => (a.cls === 'ferry' ? 'ferry' : a.cls === '' ? 'other' : 'road');

/**
 * OSRM's suppressShortNameSegments (within one travel mode): a name change back to the name already driven, or to a name
 * driven for less than NAME_SEGMENT_CUTOFF_M before the next maneuver (or the arrival), is no
 * step; the stretch joins the step before it.
 */
function suppressShortNames(steps: Building[]) {
  let prev = 0, n = 1;
  for (let k = 1; k < steps.length; k++) {
    const s = steps[k], p = steps[prev];
    if (s.type === 'new name' && travelKind(s.attr) === travelKind(p.attr)
      && ((named(p.attr) && named(s.attr) && sameRoad(p.attr, s.attr)) || s.dist < NAME_SEGMENT_CUTOFF_M)) {
      p.dist += s.dist; p.dur += s.dur; p.inters += s.inters;
      continue;
    }
    steps[n] = s; prev = n++;
  }
  steps.length = n;
}

/** Fewest intersections the step before an end of road must hold for the T to be called one (OSRM's MIN_END_OF_ROAD_INTERSECTIONS). */
const MIN_END_OF_ROAD_INTERSECTIONS = 2;

/**
 * OSRM's post-processing of end of road: the T is worth naming only when the driver has passed
 * another junction since the last maneuver (it tells which junction to turn at); otherwise the
 * step is a plain turn, or a continue when the road keeps its name.
 */
function plainEndOfRoad(steps: Building[]) {
  for (let k = 1; k < steps.length; k++) {
    const s = steps[k];
    if (s.type !== 'end of road' || steps[k - 1].inters >= MIN_END_OF_ROAD_INTERSECTIONS) continue;
    s.type = named(s.attr) && sameRoad(steps[k - 1].attr, s.attr) ? 'continue' : 'turn';
  }
}

function depInter(c: ArrayLike<number>, at: number, ba: number): Intersection {
  return { location: [c[2 * at] / 1e7, c[2 * at + 1] / 1e7], bearings: [ba], entry: [true], out: 0 };
}

function intersection(c: ArrayLike<number>, at: number, all: Option[], pe: number, pf: boolean, qe: number, qf: boolean): Intersection {
  const bs = all.map((op) => ({ b: op.bearing, entry: op.enter, out: op.e === pe && op.atU === pf, in: op.e === qe && op.atU !== qf }));
  bs.sort((a, b) => a.b - b.b);
  const r: Intersection = { location: [c[2 * at] / 1e7, c[2 * at + 1] / 1e7], bearings: bs.map((x) => x.b), entry: bs.map((x) => x.entry) };
  const i = bs.findIndex((x) => x.in), o = bs.findIndex((x) => x.out);
  if (i >= 0) r.in = i;
  if (o >= 0) r.out = o;
  return r;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const list = (v?: string) => v?.split(';').map((x) => x.trim()).filter(Boolean).join(', ');

function finish(s: Building, durMs: number, o: StepOptions, c: ArrayLike<number>): Step {
  const m: Step['maneuver'] = { type: s.type, bearing_before: s.bb, bearing_after: s.ba, location: [c[2 * s.loc] / 1e7, c[2 * s.loc + 1] / 1e7] };
  if (s.modifier) m.modifier = s.modifier;
  if (s.exit !== undefined) m.exit = s.exit;
  const step: Step = {
    maneuver: m,
    name: localName(s.attr, o.lang),
    mode: s.attr.cls === 'ferry' ? 'ferry' : o.mode,
    distance_m: round1(s.dist),
    duration_s: round1(durMs / 1000),
    geometry: new E7Line(c, s.loc, s.to),
    instruction: '',
  };
  if (s.attr.ref) step.ref = s.attr.ref;
  if (s.attr.pron) step.pronunciation = s.attr.pron;
  // OSRM's form: "ref: destination, destination" (OSM separates values with ';')
  if (s.attr.dest || s.attr.destRef) step.destinations = s.attr.destRef && s.attr.dest ? `${list(s.attr.destRef)}: ${list(s.attr.dest)}` : list(s.attr.destRef ?? s.attr.dest);
  if (s.rotary) step.rotary_name = s.rotary;
  if (o.instructions !== false) step.instruction = instruction(o.lang, step, o.legIndex, o.legCount, s.attr);
  if (s.inter) step.intersections = [s.inter];
  return step;
}

interface Alt { angle: number; attr: WayAttr }

/**
 * The maneuver at a node between a road with attributes A and one with B, turning by `delta`
 * degrees, with `opts` the other roads one could take there; null = no maneuver (merge).
 */
/** Road beyond a through-street turn after which OSRM calls a turn within 40° straight (2 × its MAX_COLLAPSE_DISTANCE). */
const THROUGH_STRAIGHT_M = 60;

/**
 * `through`: the road taken runs on both ways from the node ('straight': and goes on for more
 * than THROUGH_STRAIGHT_M).
 */
export function decide(A: WayAttr, B: WayAttr, delta: number, opts: Alt[], inRoundabout: boolean, through: boolean | 'straight' = false): { type: string; modifier?: Modifier } | null {
  const d = decideType(A, B, delta, opts, inRoundabout);
  // OSRM's obvious turn onto a through street is a turn (straight when within 40° and the road
  // goes on), not a name change
  if (d?.type === 'new name' && through) return { type: 'turn', modifier: through === 'straight' && Math.abs(delta) < 40 ? 'straight' : d.modifier };
  return d;
}

function decideType(A: WayAttr, B: WayAttr, delta: number, opts: Alt[], inRoundabout: boolean): { type: string; modifier?: Modifier } | null {
  const m = modifierOf(delta);
  if (B.rb && !A.rb) return { type: 'roundabout', modifier: m };
  if (A.rb && B.rb) return null;
  if (A.rb && !B.rb && inRoundabout) return { type: 'exit roundabout', modifier: m };
  const same = sameRoad(A, B), unnamed = !named(A) && !named(B);
  // a road losing its name is no name to announce (OSRM's requiresNameAnnounced)
  const nameLost = named(A) && !named(B);
  // turning back (at a dead end, or where a restriction leaves nothing else): always announced
  if (m === 'uturn') return { type: same || unnamed ? 'continue' : 'turn', modifier: 'uturn' };
  if (isLink(A) && isHighway(B)) return { type: 'merge', modifier: m === 'straight' ? (delta < 0 ? 'slight left' : 'slight right') : m };
  if (!isLink(A) && isLink(B)) return { type: isHighway(A) ? 'off ramp' : 'on ramp', modifier: m };
  if (opts.length === 0) {
    if (same || unnamed || nameLost) return null;
    // the only way on, under another name: OSRM's obvious turn, a name change whatever the angle
    return { type: 'new name', modifier: m };
  }
  let minAlt = Infinity;
  for (const o of opts) minAlt = Math.min(minAlt, Math.abs(o.angle));
  if ((same || unnamed) && (Math.abs(delta) < 35 || Math.abs(delta) <= minAlt)) return null;
  if (same) return { type: 'continue', modifier: m };
  if (unnamed) return { type: 'turn', modifier: m };
  // a choice between two roads both ahead of the driver
  if (Math.abs(delta) < 45) {
    const other = opts.filter((o) => Math.abs(o.angle) < 45);
    if (other.length === 1) {
      const side: Modifier = delta < other[0].angle ? 'slight left' : 'slight right';
      // where the other road carries on the road driven, it is the obvious way and this a turn off
      // it (OSRM: slight when both are straight on)
      if (sameRoad(other[0].attr, A)) return { type: 'turn', modifier: m === 'straight' ? side : m };
      return { type: 'fork', modifier: side };
    }
    if (other.length === 0) return nameLost ? null : { type: 'new name', modifier: m };
  }
  // the road ends here (nothing goes on straight and it does not continue): end of road
  if (Math.abs(delta) >= 45 && Math.abs(delta) < 150 && minAlt >= 45 && !opts.some((o) => sameRoad(o.attr, A))) {
    return { type: 'end of road', modifier: delta < 0 ? 'left' : 'right' };
  }
  return { type: m === 'straight' ? 'new name' : 'turn', modifier: m };
}
