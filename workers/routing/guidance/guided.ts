// Routes with guidance: turn-by-turn steps (steps.ts) and alternatives (search/alternatives.ts),
// for GET /route?steps=…&alternatives=… and the OSRM-compatible layer (osrm/). A plain /route
// keeps its own faster path (answers/route-json.ts plainRouteTask); this one records the edges
// each leg drives. The answers are written by answers/route-json.ts and osrm/osrm.ts.
import type { GraphViews } from '../../../src/core/format/route.ts';
import type { LoadedGraph } from '../graphs.ts';
import type { Snap } from '../locate/snap.ts';
import { tracePath } from '../search/legs.ts';
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
    for (const alt of alternatives(graph, snaps[0], snaps[1], legs[0], Math.min(o.alternatives, MAX_ALTERNATIVES))) routes.push(assemble(g, [alt], o));
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

/** Alternatives of a one-leg route (via points: none, as OSRM). */
function alternatives(graph: LoadedGraph, s: Snap, t: Snap, best: GuidedLeg, want: number): GuidedLeg[] {
  const g = graph.g;
  let vs = vias.get(graph);
  if (!vs) { vs = new ViaSearch(g); vias.set(graph, vs); }
  const es = s.edge, et = t.edge, fs = g.edgeFlags[es], ft = g.edgeFlags[et];
  const sources: Seed[] = [], targets: Seed[] = [];
  if (fs & 1) sources.push({ node: g.edgeV[es], cost: r((1 - s.frac) * g.edgeW[es]) });
  if (fs & 2) sources.push({ node: g.edgeU[es], cost: r(s.frac * g.edgeW[es]) });
  if (ft & 1) targets.push({ node: g.edgeU[et], cost: r(t.frac * g.edgeW[et]) });
  if (ft & 2) targets.push({ node: g.edgeV[et], cost: r((1 - t.frac) * g.edgeW[et]) });
  const bestSet = new Set<number>();
  for (let k = 0; k < best.pieces.length; k++) bestSet.add(best.pieces.e(k));
  const out: GuidedLeg[] = [];
  for (const a of vs.find(sources, targets, best.cost, want, bestSet, best.dist, graph.query, [s.lat, s.lng], [t.lat, t.lng])) {
    if (a.edges.some((e) => Math.abs(e) - 1 === es || Math.abs(e) - 1 === et)) continue; // leaves by one end and comes back: not simple
    // the same choice of phantom directions as search/legs.ts leg()
    const leaveForward = !!(fs & 1) && g.edgeV[es] === a.start && (!(fs & 2) || g.edgeU[es] !== a.start || (1 - s.frac) <= s.frac);
    const enterForward = !!(ft & 1) && g.edgeU[et] === a.end && (!(ft & 2) || g.edgeV[et] !== a.end || t.frac <= 1 - t.frac);
    const tr = new Pieces();
    tracePath(g, tr, es, leaveForward, s.pos, a.edges, a.edges.length, et, enterForward, t.pos);
    let dist = 0;
    for (let k = 0; k < tr.length; k++) dist += tr.len(k);
    out.push({ cost: a.cost, weight: a.cost, dist, pieces: tr });
  }
  return out;
}

/** OSRM's mode names on steps. */
export const STEP_MODE: Record<string, string> = { driving: 'driving', walk: 'walking', cycle: 'cycling' };
