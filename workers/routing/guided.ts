// Routes with guidance: turn-by-turn steps (steps.ts) and alternatives (alternatives.ts), for
// GET /route?steps=…&alternatives=… and the OSRM-compatible layer (osrm.ts). A plain /route
// keeps its own faster path (index.ts routeTask); this one records the edges each leg drives.
import { JsonText, TaskError } from '../../src/core/task.ts';
import type { GraphViews } from '../../src/core/format/route.ts';
import type { LoadedGraph } from './graphs.ts';
import type { Snap } from './snap.ts';
import { leg, tracePath } from './route.ts';
import { solve, searchFor, type RouteArgs } from './index.ts';
import { Pieces, pieceCoords, legSteps, E7Line, type Piece, type Step } from './steps.ts';
import { ViaSearch, MAX_ALTERNATIVES, type Seed } from './alternatives.ts';
import { writeE7 } from './geometry.ts';
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

export interface GuidedLeg { cost: number; dist: number; pieces: Piece[]; steps?: Step[] }
export interface GuidedRoute { cost: number; dist: number; line: E7Line; legs: GuidedLeg[] }
export interface Guided { graph: LoadedGraph; snaps: Snap[]; routes: GuidedRoute[]; traffic: ReturnType<typeof searchFor>['traffic'] }

const vias = new WeakMap<LoadedGraph, ViaSearch>();
const r = Math.round;

/** The best route (and alternatives) with the pieces of every leg, steps when asked. */
export function guide(args: RouteArgs, o: GuideOptions): Guided {
  const solved = solve(args, () => null);
  const { graph, snaps } = solved;
  const g = graph.g;
  const legs: GuidedLeg[] = [];
  // With traffic=live|forecast the legs (and their steps) follow the traffic-aware search, as /route does.
  const search = searchFor(graph, args);
  for (let i = 0; i + 1 < snaps.length; i++) {
    const tr = new Pieces();
    const l = leg(g, search.q, snaps[i], snaps[i + 1], undefined, tr);
    if (!l) throw new TaskError(400, 'no_route', 'No route between the points.');
    legs.push({ cost: l.cost, dist: l.dist, pieces: tr.list });
  }
  const routes: GuidedRoute[] = [assemble(g, legs, o)];
  if (o.alternatives > 0 && snaps.length === 2) {
    for (const alt of alternatives(graph, snaps[0], snaps[1], legs[0], Math.min(o.alternatives, MAX_ALTERNATIVES))) routes.push(assemble(g, [alt], o));
  }
  return { graph, snaps, routes, traffic: search.traffic };
}

export function assemble(g: GraphViews, legs: GuidedLeg[], o: GuideOptions): GuidedRoute {
  const c: number[] = [];
  let cost = 0, dist = 0;
  legs.forEach((l, i) => {
    // every piece's first point is the previous piece's last (the node, or the via point between legs)
    const start: number[] = [], end: number[] = [];
    for (const p of l.pieces) { start.push(Math.max(0, c.length / 2 - 1)); pieceCoords(g, p, c); end.push(c.length / 2 - 1); }
    cost += l.cost; dist += l.dist;
    if (o.steps) l.steps = legSteps(g, l.pieces, l.cost, { lang: o.lang, mode: o.stepMode, legIndex: i, legCount: legs.length, intersections: o.intersections, instructions: o.instructions }, { c, start, end });
  });
  return { cost, dist, line: new E7Line(c), legs };
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
  for (const p of best.pieces) bestSet.add(p.e);
  const out: GuidedLeg[] = [];
  for (const a of vs.find(sources, targets, best.cost, want, bestSet, best.dist, graph.query, [s.lat, s.lng], [t.lat, t.lng])) {
    if (a.edges.some((e) => Math.abs(e) - 1 === es || Math.abs(e) - 1 === et)) continue; // leaves by one end and comes back: not simple
    // the same choice of phantom directions as route.ts leg()
    const leaveForward = !!(fs & 1) && g.edgeV[es] === a.start && (!(fs & 2) || g.edgeU[es] !== a.start || (1 - s.frac) <= s.frac);
    const enterForward = !!(ft & 1) && g.edgeU[et] === a.end && (!(ft & 2) || g.edgeV[et] !== a.end || t.frac <= 1 - t.frac);
    const tr = new Pieces();
    tracePath(g, tr, es, leaveForward, s.pos, a.edges, a.edges.length, et, enterForward, t.pos);
    let dist = 0;
    for (const p of tr.list) dist += Math.abs(p.to - p.from);
    out.push({ cost: a.cost, dist, pieces: tr.list });
  }
  return out;
}

// ---- native /route body -------------------------------------------------------------------

const round1 = (x: number) => Math.round(x * 10) / 10;
const snapped = (s: Snap) => ({ lat: Math.round(s.lat * 1e7) / 1e7, lng: Math.round(s.lng * 1e7) / 1e7, distance_m: round1(s.dist) });

/**
 * Collects line texts while the body is built; JSON.stringify then sees only placeholders. A
 * route's line is written once (digits straight from the stored integers, as geometry.ts does);
 * each step's line is a substring of it.
 */
export class LineTexts {
  texts: string[] = [];
  private written = new Map<number[], { text: string; at: Int32Array }>();
  ref(l: E7Line): string { this.texts.push(this.json(l)); return `\u0000L${this.texts.length - 1}`; }
  /** The body's JSON text with every placeholder replaced by its line. */
  stringify(body: unknown): string {
    return JSON.stringify(body).replace(/"\\u0000L(\d+)"/g, (_, i) => this.texts[Number(i)]);
  }
  /** [[lng, lat], …] of the line. */
  json(l: E7Line): string {
    let w = this.written.get(l.c);
    if (!w) { w = writePoints(l.c); this.written.set(l.c, w); }
    const a = w.at[l.from], b = w.at[l.from + 1] - 1;
    if (l.to === l.from) { const p = w.text.slice(a, b); return `[${p},${p}]`; }
    return `[${w.text.slice(a, w.at[l.to + 1] - 1)}]`;
  }
}

let scratch = new Uint8Array(1 << 16);
/** "[x,y],[x,y],…" for every point of c, and where each point's text starts (at[n] = length + 1). */
function writePoints(c: number[]): { text: string; at: Int32Array } {
  const n = c.length / 2;
  if (scratch.length < n * 30 + 16) scratch = new Uint8Array(n * 30 + 16);
  const b = scratch, at = new Int32Array(n + 1);
  let m = 0;
  for (let k = 0; k < n; k++) {
    at[k] = m;
    b[m++] = 91; m = writeE7(b, m, c[2 * k]); b[m++] = 44; m = writeE7(b, m, c[2 * k + 1]); b[m++] = 93;
    b[m++] = 44;
  }
  at[n] = m;
  return { text: Buffer.from(b.buffer, b.byteOffset, m).toString('latin1'), at };
}

const geoJson = (t: LineTexts, l: E7Line) => ({ type: 'LineString', coordinates: t.ref(l) });

function nativeRoute(rt: GuidedRoute, mode: string, t: LineTexts) {
  return {
    mode,
    distance_m: round1(rt.dist),
    duration_s: round1(rt.cost / 1000),
    geometry: geoJson(t, rt.line),
    legs: rt.legs.map((l) => {
      const out: Record<string, unknown> = { distance_m: round1(l.dist), duration_s: round1(l.cost / 1000) };
      if (l.steps) out.steps = l.steps.map((s) => ({ ...s, geometry: geoJson(t, s.geometry) }));
      return out;
    }),
  };
}

export interface GuidedRouteArgs extends RouteArgs { steps?: boolean; lang?: Lang; alternatives?: number }

/** GET /route with steps and/or alternatives: the plain body plus legs[].steps and `alternatives`. */
export function guidedRouteTask(args: GuidedRouteArgs): JsonText {
  const mode = args.mode ?? 'driving';
  const res = guide(args, { steps: !!args.steps, lang: args.lang ?? 'en', alternatives: args.alternatives ?? 0, stepMode: STEP_MODE[mode] ?? mode });
  const t = new LineTexts();
  const [best, ...alts] = res.routes;
  const route: Record<string, unknown> = nativeRoute(best, mode, t);
  const snaps = res.snaps;
  const sn: Record<string, unknown> = { from: snapped(snaps[0]), to: snapped(snaps[snaps.length - 1]) };
  if (snaps.length > 2) sn.via = snaps.slice(1, -1).map(snapped);
  route.snapped = sn;
  route.extract = res.graph.extract;
  if (res.traffic) route.traffic = res.traffic;
  const body: Record<string, unknown> = { route };
  if (args.alternatives) body.alternatives = alts.map((a) => nativeRoute(a, mode, t));
  return new JsonText(t.stringify(body));
}

/** OSRM's mode names on steps. */
export const STEP_MODE: Record<string, string> = { driving: 'driving', walk: 'walking', cycle: 'cycling' };
