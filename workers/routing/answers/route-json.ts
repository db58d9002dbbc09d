// The native /route answer, written in one place for both of its paths: the plain route (the
// coordinates straight from the unpacking, answers/coords.ts) and the guided one (steps and
// alternatives, guidance/guided.ts). The fields, their order and their rounding are the same:
// {"route":{mode, distance_m, duration_s, geometry, legs[, steps], snapped, extract[, profile][, traffic]}
// [, "alternatives":[…]]}.
import { JsonText } from '../../../src/core/task.ts';
import type { GuidedRouteArgs, RouteArgs, RouteReply } from '../../../src/core/tasks/index.ts';
import type { Snap } from '../locate/snap.ts';
import type { LoadedGraph } from '../graphs.ts';
import { solve, type Solved } from '../search/solve.ts';
import type { TrafficUse } from '../search/traffic-search.ts';
import { guide, STEP_MODE, type GuidedRoute } from '../guidance/guided.ts';
import type { Step } from '../guidance/steps.ts';
import { JsonCoordSink } from './coords.ts';
import { JsonBytes, startBytes } from './json-bytes.ts';
import { LineTexts } from './line-texts.ts';

const round1 = (x: number) => Math.round(x * 10) / 10;
const snapped = (s: Snap) => ({ lat: Math.round(s.lat * 1e7) / 1e7, lng: Math.round(s.lng * 1e7) / 1e7, distance_m: round1(s.dist) });

/** The answer's `snapped`: each point where it met the road. */
export function snappedAll(snaps: Snap[]) {
  const out: Record<string, unknown> = { from: snapped(snaps[0]), to: snapped(snaps[snaps.length - 1]) };
  if (snaps.length > 2) out.via = snaps.slice(1, -1).map(snapped);
  return out;
}

/**
 * The fields after the best route's legs: where the points met the road, the extract, the rules of
 * an operator's driving_tracks graph (car.lua's driving graph says nothing extra), the traffic used.
 */
const tail = (snaps: Snap[], graph: LoadedGraph, traffic: TrafficUse | null) =>
  `,"snapped":${JSON.stringify(snappedAll(snaps))},"extract":${JSON.stringify(graph.extract)}${graph.rules !== graph.profile ? `,"profile":${JSON.stringify(graph.rules)}` : ''}${traffic ? `,"traffic":${JSON.stringify(traffic)}` : ''}`;

/** One route object of the answer: its totals, its line (written by `line`), its legs (with steps), then `more` fields. */
interface RouteFields { dist: number; cost: number; legs: { dist: number; cost: number; steps?: Step[] }[] }

/** GET /route without steps or alternatives: the legs searched with the plain CH (or traffic) search, coordinates as they unpack. */
export function plainRouteTask(args: RouteArgs): JsonText<RouteReply> {
  const r: Solved<JsonCoordSink> = solve(args, () => new JsonCoordSink());
  let cost = 0, dist = 0;
  for (const l of r.legs) { cost += l.cost; dist += l.dist; }
  startBytes();
  const out: (string | Uint8Array)[] = [];
  const w = new JsonBytes(out).text('{"route":');
  const coords = r.coords.bytes();
  routeObject(w, args.mode ?? 'driving', { dist, cost, legs: r.legs }, (x) => x.bytes(coords), null, tail(r.snaps, r.graph, r.traffic));
  w.text('}').cut();
  return new JsonText(out, true);
}

/** GET /route with steps and/or alternatives: the plain body plus legs[].steps and `alternatives`. */
export function guidedRouteTask(args: GuidedRouteArgs): JsonText<RouteReply> {
  const mode = args.mode ?? 'driving';
  const res = guide(args, { steps: !!args.steps, lang: args.lang ?? 'en', alternatives: args.alternatives ?? 0, stepMode: STEP_MODE[mode] ?? mode });
  const t = new LineTexts();
  const [best, ...alts] = res.routes;
  const out: (string | Uint8Array)[] = [];
  const w = new JsonBytes(out).text('{"route":');
  const line = (rt: GuidedRoute) => (x: JsonBytes) => { x.text('['); t.linePieces(rt.line, x); x.text(']'); };
  routeObject(w, mode, best, line(best), t, tail(res.snaps, res.graph, res.traffic));
  if (args.alternatives) {
    w.text(',"alternatives":[');
    alts.forEach((a, i) => { if (i) w.text(','); routeObject(w, mode, a, line(a), t); });
    w.text(']');
  }
  w.text('}').cut();
  return new JsonText(out, true);
}

/**
 * A route of the native answer as JSON text (mode, totals, geometry, legs with their steps), then
 * `more` fields before the closing brace. Steps need the LineTexts their lines were written to.
 */
function routeObject(w: JsonBytes, mode: string, rt: RouteFields, line: (w: JsonBytes) => void, t: LineTexts | null, more = '') {
  w.text(`{"mode":${q(mode)},"distance_m":${tenths(rt.dist)},"duration_s":${tenths(rt.cost / 1000)},"geometry":{"type":"LineString","coordinates":`);
  line(w);
  let s = '},"legs":[';
  for (let i = 0; i < rt.legs.length; i++) {
    const l = rt.legs[i];
    s += `${i ? ',' : ''}{"distance_m":${tenths(l.dist)},"duration_s":${tenths(l.cost / 1000)}`;
    if (l.steps) { w.text(s + ',"steps":'); s = stepsText(l.steps, t!, w) + '}'; } else s += '}';
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

