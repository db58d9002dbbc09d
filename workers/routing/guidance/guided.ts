// Routes with guidance: turn-by-turn steps (steps.ts) and alternatives (alternatives.ts), for
// GET /route?steps=…&alternatives=… and the OSRM-compatible layer (osrm.ts). A plain /route
// keeps its own faster path (index.ts routeTask); this one records the edges each leg drives.
import { JsonText } from '../../../src/core/task.ts';
import type { GraphViews } from '../../../src/core/format/route.ts';
import type { LoadedGraph } from '../graphs.ts';
import type { Snap } from '../locate/snap.ts';
import { tracePath } from '../search/legs.ts';
import { solve, searchFor, snappedAll, type RouteArgs } from '../index.ts';
import { Pieces, pieceCoords, legSteps, startPieces, type Step } from './steps.ts';
import { Coords, E7Line, startLines, lineText, takeInts } from '../answers/lines.ts';
import { JsonBytes } from '../answers/json-bytes.ts';
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

export interface GuidedLeg { cost: number; dist: number; pieces: Pieces; steps?: Step[] }
export interface GuidedRoute { cost: number; dist: number; line: E7Line; legs: GuidedLeg[] }
export interface Guided { graph: LoadedGraph; snaps: Snap[]; routes: GuidedRoute[]; traffic: ReturnType<typeof searchFor>['traffic'] }

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
  const legs: GuidedLeg[] = solved.legs.map((l) => ({ cost: l.cost, dist: l.dist, pieces: l.trace! }));
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
  let cost = 0, dist = 0;
  legs.forEach((l, i) => {
    // every piece's first point is the previous piece's last (the node, or the via point between legs)
    const { start, end } = ranges[i];
    for (let k = 0; k < l.pieces.length; k++) { start[k] = Math.max(0, c.points - 1); pieceCoords(g, l.pieces, k, c); end[k] = c.points - 1; }
    cost += l.cost; dist += l.dist;
  });
  const line = c.done();
  if (o.steps) {
    legs.forEach((l, i) => {
      l.steps = legSteps(g, l.pieces, l.cost, { lang: o.lang, mode: o.stepMode, legIndex: i, legCount: legs.length, intersections: o.intersections, instructions: o.instructions }, { c: line, ...ranges[i] });
    });
  }
  return { cost, dist, line: new E7Line(line), legs };
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
    // the same choice of phantom directions as route.ts leg()
    const leaveForward = !!(fs & 1) && g.edgeV[es] === a.start && (!(fs & 2) || g.edgeU[es] !== a.start || (1 - s.frac) <= s.frac);
    const enterForward = !!(ft & 1) && g.edgeU[et] === a.end && (!(ft & 2) || g.edgeV[et] !== a.end || t.frac <= 1 - t.frac);
    const tr = new Pieces();
    tracePath(g, tr, es, leaveForward, s.pos, a.edges, a.edges.length, et, enterForward, t.pos);
    let dist = 0;
    for (let k = 0; k < tr.length; k++) dist += tr.len(k);
    out.push({ cost: a.cost, dist, pieces: tr });
  }
  return out;
}

// ---- native /route body -------------------------------------------------------------------


/**
 * Collects lines while an OSRM-layer body is built; JSON.stringify then sees only placeholders. A route's
 * line is written once as bytes (digits straight from the stored integers, as geometry.ts does);
 * each step's line is a range of those bytes, and the answer is the skeleton's text with the
 * ranges between its pieces (JsonText), so no coordinate is ever turned into a string.
 */
export class LineTexts {
  private lines: (string | Uint8Array)[][] = [];
  /** A placeholder for the line's text in a body given to parts(). */
  ref(l: E7Line): string { this.lines.push(this.pieces(l)); return `\u0000L${this.lines.length - 1}`; }
  /** The body with every placeholder replaced by its line, as JsonText pieces. */
  parts(body: unknown): (string | Uint8Array)[] {
    const text = JSON.stringify(body), out: (string | Uint8Array)[] = [];
    let last = 0;
    for (let at = text.indexOf(MARK); at >= 0; at = text.indexOf(MARK, at)) {
      out.push(text.slice(last, at));
      const close = text.indexOf('"', at + MARK.length);
      for (const p of this.lines[Number(text.slice(at + MARK.length, close))]) out.push(p);
      at = last = close + 1;
    }
    out.push(text.slice(last));
    return out;
  }
  /** [[lng, lat], …] of the line, in pieces. */
  private pieces(l: E7Line): (string | Uint8Array)[] {
    const out: (string | Uint8Array)[] = [];
    const w = new JsonBytes(out).text('[');
    this.linePieces(l, w);
    w.text(']').cut();
    return out;
  }
  /** Writes the line's points, without the array's brackets (a one-point line: the point twice). */
  linePieces(l: E7Line, w: JsonBytes) {
    if (l.to === l.from) { this.point(l.c, l.from, w); w.text(','); this.point(l.c, l.from, w); return; }
    const t = lineText(l.c);
    w.bytes(t.bytes.subarray(t.at[l.from], t.at[l.to + 1] - 1));
  }
  /** Writes "[lng,lat]" of point k of line c. */
  point(c: ArrayLike<number>, k: number, w: JsonBytes) {
    const t = lineText(c);
    w.small(t.bytes, t.at[k], t.at[k + 1] - 1);
  }
}

/** How a placeholder of ref() reads in JSON text, before its number. */
const MARK = '"\\u0000L';

/**
 * A route of the native answer as JSON text (the fields of the plain /route body, in its order,
 * then the steps), then `more` fields before the closing brace.
 */
function nativeRoute(rt: GuidedRoute, mode: string, t: LineTexts, w: JsonBytes, more = '') {
  w.text(`{"mode":${q(mode)},"distance_m":${tenths(rt.dist)},"duration_s":${tenths(rt.cost / 1000)},"geometry":{"type":"LineString","coordinates":[`);
  t.linePieces(rt.line, w);
  let s = ']},"legs":[';
  for (let i = 0; i < rt.legs.length; i++) {
    const l = rt.legs[i];
    s += `${i ? ',' : ''}{"distance_m":${tenths(l.dist)},"duration_s":${tenths(l.cost / 1000)}`;
    if (l.steps) { w.text(s + ',"steps":'); s = stepsText(l.steps, t, w) + '}'; } else s += '}';
  }
  w.text(`${s}]${more}}`);
}

/**
 * JSON string literals of the few texts steps repeat (types, modes, names, instructions), made
 * once: the same street's name or instruction comes back in route after route.
 */
const quoted = new Map<string, string>();
const QUOTED_MAX = 20_000;
function q(s: string): string {
  let t = quoted.get(s);
  if (t === undefined) {
    if (quoted.size >= QUOTED_MAX) quoted.clear();
    quoted.set(s, (t = JSON.stringify(s)));
  }
  return t;
}

/** A value rounded to tenths (Math.round(x * 10) / 10) as JSON writes it, from its integer tenths (a double's shortest digits cost more). */
function tenths(x: number): string {
  const t = Math.round(x * 10), i = Math.trunc(t / 10), f = Math.abs(t - i * 10);
  return f === 0 ? `${i}` : `${t < 0 && i === 0 ? '-' : ''}${i}.${f}`;
}

/**
 * A leg's steps as JSON text, written field by field (the keys in the order of a Step; each
 * step's line a range of the route's bytes): building an object per step for JSON.stringify,
 * then finding its placeholders in the text, cost more than the steps themselves. Returns the
 * text after the last line, for the caller to go on with.
 */
function stepsText(steps: Step[], t: LineTexts, w: JsonBytes): string {
  let s = '[';
  for (let i = 0; i < steps.length; i++) {
    const st = steps[i], m = st.maneuver;
    if (i > 0) s += ',';
    // the maneuver's point is where the step's line starts: its text is already written
    w.text(`${s}{"maneuver":{"type":${q(m.type)},"bearing_before":${m.bearing_before},"bearing_after":${m.bearing_after},"location":`);
    t.point(st.geometry.c, st.geometry.from, w);
    s = '';
    if (m.modifier !== undefined) s += `,"modifier":${q(m.modifier)}`;
    if (m.exit !== undefined) s += `,"exit":${m.exit}`;
    w.text(`${s}},"name":${q(st.name)},"mode":${q(st.mode)},"distance_m":${tenths(st.distance_m)},"duration_s":${tenths(st.duration_s)},"geometry":{"type":"LineString","coordinates":[`);
    t.linePieces(st.geometry, w);
    s = `]},"instruction":${q(st.instruction)}`;
    if (st.ref !== undefined) s += `,"ref":${q(st.ref)}`;
    if (st.destinations !== undefined) s += `,"destinations":${q(st.destinations)}`;
    if (st.rotary_name !== undefined) s += `,"rotary_name":${q(st.rotary_name)}`;
    if (st.intersections !== undefined) s += `,"intersections":${JSON.stringify(st.intersections)}`;
    s += '}';
  }
  return s + ']';
}

export interface GuidedRouteArgs extends RouteArgs { steps?: boolean; lang?: Lang; alternatives?: number }

/** GET /route with steps and/or alternatives: the plain body plus legs[].steps and `alternatives`. */
export function guidedRouteTask(args: GuidedRouteArgs): JsonText {
  const mode = args.mode ?? 'driving';
  const res = guide(args, { steps: !!args.steps, lang: args.lang ?? 'en', alternatives: args.alternatives ?? 0, stepMode: STEP_MODE[mode] ?? mode });
  const t = new LineTexts();
  const [best, ...alts] = res.routes;
  const out: (string | Uint8Array)[] = [];
  const w = new JsonBytes(out).text('{"route":');
  nativeRoute(best, mode, t, w, `,"snapped":${JSON.stringify(snappedAll(res.snaps))},"extract":${JSON.stringify(res.graph.extract)}${res.traffic ? `,"traffic":${JSON.stringify(res.traffic)}` : ''}`);
  if (args.alternatives) {
    w.text(',"alternatives":[');
    alts.forEach((a, i) => { if (i) w.text(','); nativeRoute(a, mode, t, w); });
    w.text(']');
  }
  w.text('}').cut();
  return new JsonText(out, true);
}

/** OSRM's mode names on steps. */
export const STEP_MODE: Record<string, string> = { driving: 'driving', walk: 'walking', cycle: 'cycling' };
