// Routes with guidance: turn-by-turn steps (steps.ts) and alternatives (search/alternatives.ts),
// for GET /route?steps=…&alternatives=… and the OSRM-compatible layer (osrm/). A plain /route
// keeps its own faster path (answers/route-json.ts plainRouteTask); this one records the edges
// each leg drives. The answers are written by answers/route-json.ts and osrm/osrm.ts.
import type { GraphViews } from '../../../src/core/format/route.ts';
import type { LoadedGraph } from '../graphs.ts';
import type { Snap } from '../locate/snap.ts';
import { leg, tracePath, targetEnd } from '../search/legs.ts';
import { sourceSeeds, targetSeeds, aheadOf, upTo, weightShare, timeShare } from '../locate/seeds.ts';
import { solve } from '../search/solve.ts';
import type { RouteArgs, TrafficUse } from '../../../src/core/tasks/index.ts';
import { Pieces, pieceCoords, legSteps, startPieces, type Step } from './steps.ts';
import { Coords, E7Line, startLines, takeInts } from '../answers/lines.ts';
import { ViaSearch, MAX_ALTERNATIVES, type Seed } from '../search/alternatives.ts';
import type { Lang } from './instructions.ts';

export interface GuideOptions {
  steps: boolean;
  lang: Lang;
  /** extra routes wanted (0..MAX_ALTERNATIVES) */
  alternatives: number;
  /** OSRM layer: per-step intersections */
  intersections?: boolean;
  /** mode name written on steps (driving, walking, cycling) */
  stepMode: string;
  /** write instruction text (the OSRM layer has none; default true) */
  instructions?: boolean;
}

/** cost: ms of travel time; weight: the routing weight minimised (ms-scaled) */
export interface GuidedLeg { cost: number; weight: number; dist: number; pieces: Pieces; steps?: Step[] }
export interface GuidedRoute { cost: number; weight: number; dist: number; line: E7Line; legs: GuidedLeg[] }
export interface Guided { graph: LoadedGraph; snaps: Snap[]; routes: GuidedRoute[]; traffic: TrafficUse | null }

const vias = new WeakMap<LoadedGraph, ViaSearch>();
const r = Math.round;

/** The best route (and alternatives) with the pieces of every leg, steps when asked. */
export function guide(args: RouteArgs, o: GuideOptions): Guided {
  // The legs are searched once, recording the pieces they drive (with traffic=live|forecast, the
  // traffic-aware search, as /route).
  startLines(); startPieces();
  const solved = solve(args, () => null, () => new Pieces());
  const { graph, snaps } = solved;
  const g = graph.g;
  const legs: GuidedLeg[] = solved.legs.map((l) => ({ cost: l.cost, weight: l.weight, dist: l.dist, pieces: l.trace! }));
  const routes: GuidedRoute[] = [assemble(g, legs, o)];
  if (o.alternatives > 0 && snaps.length === 2) {
    for (const alt of alternatives(graph, snaps[0], snaps[1], legs[0], solved.traffic !== null, Math.min(o.alternatives, MAX_ALTERNATIVES))) routes.push(assemble(g, [alt], o));
  }
  return { graph, snaps, routes, traffic: solved.traffic };
}

export function assemble(g: GraphViews, legs: GuidedLeg[], o: GuideOptions): GuidedRoute {
  // where each piece's line starts and ends, in the thread's scratch (taken before the line, which
  // grows at the top of that space)
  const ranges = legs.map((l) => ({ start: takeInts(l.pieces.length), end: takeInts(l.pieces.length) }));
  const c = new Coords();
  let cost = 0, weight = 0, dist = 0;
  legs.forEach((l, i) => {
    // every piece's first point is the previous piece's last (the node, or the via point between legs)
    const { start, end } = ranges[i];
    for (let k = 0; k < l.pieces.length; k++) { start[k] = Math.max(0, c.points - 1); pieceCoords(g, l.pieces, k, c); end[k] = c.points - 1; }
    cost += l.cost; weight += l.weight; dist += l.dist;
  });
  const line = c.done();
  if (o.steps) {
    legs.forEach((l, i) => {
      l.steps = legSteps(g, l.pieces, l.cost, { lang: o.lang, mode: o.stepMode, legIndex: i, legCount: legs.length, intersections: o.intersections, instructions: o.instructions }, { c: line, ...ranges[i] });
    });
  }
  return { cost, weight, dist, line: new E7Line(line), legs };
}

/**
 * Alternatives of a one-leg route (via points: none, as OSRM). `traffic`: the best leg was searched
 * on traffic's times, not the static weights the via trees run on.
 */
function alternatives(graph: LoadedGraph, s: Snap, t: Snap, best: GuidedLeg, traffic: boolean, want: number): GuidedLeg[] {
  const g = graph.g;
  let vs = vias.get(graph);
  if (!vs) { vs = new ViaSearch(g); vias.set(graph, vs); }
  const es = s.edge, et = t.edge;
  // seeded as every search is (locate/seeds.ts), on the static weights the via trees run on
  const weight = weightShare(g), time = timeShare(g);
  const sources: Seed[] = sourceSeeds(g, s).map((a) => ({ node: a.node, cost: r(weight(es, a.dir, ...aheadOf(g, s, a.dir))) }));
  const ends = targetSeeds(g, t);
  const targets: Seed[] = ends.map((b) => ({ node: b.node, cost: r(b.turnWeight + weight(et, b.dir, ...upTo(g, t, b.dir))) }));
  // the best route's static routing weight
  const bestWeight = traffic ? leg(g, graph.query, s, t)?.weight : best.weight;
  if (bestWeight === undefined) return [];
  const bestSet = new Set<number>();
  for (let k = 0; k < best.pieces.length; k++) bestSet.add(best.pieces.e(k));
  const out: GuidedLeg[] = [];
  for (const a of vs.find(sources, targets, bestWeight, want, bestSet, graph.query, [s.lat, s.lng], [t.lat, t.lng])) {
    if (a.edges.some((e) => Math.abs(e) - 1 === es || Math.abs(e) - 1 === et)) continue; // leaves by one end and comes back: not simple
    const leaveDir: 0 | 1 = g.ebEdge[a.start] > 0 ? 0 : 1;
    const end = targetEnd(g, ends, a.end, t, weight);
    const tr = new Pieces();
    tracePath(g, tr, es, leaveDir === 0, s.pos, a.edges, a.edges.length, et, end.dir === 0, t.pos);
    let dist = 0;
    for (let k = 0; k < tr.length; k++) dist += tr.len(k);
    const cost = r(time(es, leaveDir, ...aheadOf(g, s, leaveDir)) + a.duration + end.turnDur + time(et, end.dir, ...upTo(g, t, end.dir)));
    out.push({ cost, weight: a.cost, dist, pieces: tr });
  }
  return out;
}

/** OSRM's mode names on steps. */
export const STEP_MODE: Record<string, string> = { driving: 'driving', walk: 'walking', cycle: 'cycling' };
