// OSRM v5 response bodies (route, nearest, table, trip, match) from our routes, for the /osrm/ compatibility layer
// (src/api/osrm.ts parses OSRM's request grammar). Reference: Project-OSRM/osrm-backend docs/http.md.
// Failures are OSRM bodies too ({code, message}); the HTTP layer answers them with status 400.
import polyline from '@mapbox/polyline';
import { JsonText, TaskError } from '../../../src/core/task.ts';
import { readWayAttrs, type GraphViews } from '../../../src/core/format/route.ts';
import { haversine } from '../../../src/core/geometry.ts';
import { guide, assemble, STEP_MODE, type GuidedRoute, type GuidedLeg } from '../guidance/guided.ts';
import { LineTexts } from '../answers/line-texts.ts';
import { pieceCoords, Pieces, localName, startPieces, type Step } from '../guidance/steps.ts';
import { Coords, E7Line, startLines } from '../answers/lines.ts';
import { snap, type Snap } from '../locate/snap.ts';
import { loadedGraphs } from '../graphs.ts';
import { matrixCosts } from '../matrix/task.ts';
import { optimizeTask } from '../optimize/optimize.ts';
import { matchTrace, type TracePoint } from '../match/match.ts';
import { leg } from '../search/legs.ts';
import type { LoadedGraph } from '../graphs.ts';
import { SNAP_RADIUS } from '../../../src/core/limits.ts';


import type { OsrmRouteArgs, OsrmNearestArgs, OsrmTableArgs, OsrmTripArgs, OsrmMatchArgs, OsrmReply } from '../../../src/core/tasks/index.ts';

/** Our error codes → OSRM's. */
const CODES: Record<string, string> = {
  no_road_nearby: 'NoSegment', out_of_coverage: 'NoSegment', no_route: 'NoRoute', invalid_parameter: 'InvalidValue', missing_parameter: 'InvalidQuery',
};

function osrmError(e: unknown): { code: string; message: string } {
  if (e instanceof TaskError) return { code: CODES[e.code] ?? 'InvalidQuery', message: e.message };
  throw e;
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** `snapped`, when given, receives where the route met the road at each coordinate (the trip's waypoints). */
export function osrmRouteTask(a: OsrmRouteArgs, snapped?: (snaps: Snap[], g: GraphViews, extract: string) => void): JsonText<OsrmReply> | OsrmReply {
  let res;
  try {
    const pts = a.coordinates.map(([lng, lat]) => [lat, lng] as [number, number]);
    res = guide({ from: pts[0], to: pts[pts.length - 1], via: pts.slice(1, -1), mode: a.mode, radius: a.radius, snapping: a.snapping },
      { steps: a.steps, lang: 'en', alternatives: a.alternatives, stepMode: STEP_MODE[a.mode], intersections: true, instructions: false });
  } catch (e) { return osrmError(e); }
  const g = res.graph.g;
  const t = new LineTexts();
  const geom = (l: E7Line) => (a.geometries === 'geojson' ? { type: 'LineString', coordinates: t.ref(l) } : encode(l, a.geometries === 'polyline6' ? 6 : 5));
  const routes = res.routes.map((rt) => osrmRoute(g, rt, a, geom));
  const body: Record<string, unknown> = { code: 'Ok', routes };
  if (!a.skipWaypoints) body.waypoints = res.snaps.map((s, i) => waypoint(g, res.graph.extract, s, a.coordinates[i]));
  snapped?.(res.snaps, g, res.graph.extract);
  return new JsonText(t.parts(body), true);
}

function osrmRoute(g: GraphViews, rt: GuidedRoute, a: OsrmRouteArgs, geom: (l: E7Line) => unknown) {
  const out: Record<string, unknown> = {};
  if (a.overview !== 'false') out.geometry = geom(a.overview === 'full' ? rt.line : simplify(rt.line));
  out.legs = rt.legs.map((l) => osrmLeg(g, l, a, geom));
  out.distance = r1(rt.dist);
  out.duration = r1(rt.cost / 1000);
  out.weight_name = g.meta.weight_name ?? 'duration';
  out.weight = r1(rt.weight / 1000);

  return out;
}

function osrmLeg(g: GraphViews, l: GuidedLeg, a: OsrmRouteArgs, geom: (l: E7Line) => unknown) {
  const out: Record<string, unknown> = {
    steps: l.steps ? l.steps.map((s) => osrmStep(s, geom)) : [],
    summary: l.steps ? summary(l.steps) : '',
    weight: r1(l.weight / 1000),
    duration: r1(l.cost / 1000),
    distance: r1(l.dist),
  };
  if (a.annotations.length) out.annotation = annotation(g, l, a.annotations);
  return out;
}

function osrmStep(s: Step, geom: (l: E7Line) => unknown) {
  const out: Record<string, unknown> = {
    geometry: geom(s.geometry),
    maneuver: s.maneuver,
    mode: s.mode,
    name: s.name,
    intersections: s.intersections ?? [],
    weight: s.duration_s,
    duration: s.duration_s,
    distance: s.distance_m,
  };
  if (s.ref) out.ref = s.ref;
  if (s.pronunciation) out.pronunciation = s.pronunciation;
  if (s.destinations) out.destinations = s.destinations;
  if (s.rotary_name) out.rotary_name = s.rotary_name;
  return out;
}

/** OSRM's leg summary: the names of the two longest named stretches, in route order. */
function summary(steps: Step[]): string {
  const by = new Map<string, { d: number; i: number }>();
  steps.forEach((s, i) => { const n = s.name || s.ref; if (n) { const o = by.get(n); if (o) o.d += s.distance_m; else by.set(n, { d: s.distance_m, i }); } });
  return [...by.entries()].sort((x, y) => y[1].d - x[1].d).slice(0, 2).sort((x, y) => x[1].i - y[1].i).map((x) => x[0]).join(', ');
}

/** Per segment of the leg's line: metres, seconds (the edge's travel time shared by length), m/s, weight. */
function annotation(g: GraphViews, l: GuidedLeg, which: string[]) {
  const distance: number[] = [], duration: number[] = [];
  const line = new Coords();
  for (let i = 0; i < l.pieces.length; i++) {
    const from = line.points, e = l.pieces.e(i);
    pieceCoords(g, l.pieces, i, line);
    const rate = g.edgeDist[e] > 0 ? g.edgeW[e] / g.edgeDist[e] / 1000 : 0;
    for (let k = Math.max(1, from); k < line.points; k++) {
      const d = haversine(line.y(k - 1) / 1e7, line.x(k - 1) / 1e7, line.y(k) / 1e7, line.x(k) / 1e7);
      distance.push(r6(d)); duration.push(r1(d * rate));
    }
  }
  const out: Record<string, unknown> = {};
  if (which.includes('distance')) out.distance = distance;
  if (which.includes('duration')) out.duration = duration;
  if (which.includes('weight')) out.weight = duration;
  if (which.includes('speed')) out.speed = distance.map((d, i) => (duration[i] > 0 ? r1(d / duration[i]) : 0));
  if (which.includes('datasources')) { out.datasources = distance.map(() => 0); out.metadata = { datasource_names: ['profile'] }; }
  // OSM node ids are not kept in the graph files: `nodes` is left out rather than invented.
  return out;
}

function waypoint(g: GraphViews, extract: string, s: Snap, input: [number, number]) {
  return {
    hint: hint(extract, s),
    distance: r6(haversine(input[1], input[0], s.lat, s.lng)),
    name: localName(readWayAttrs(g)[g.edgeAttr[s.edge]], 'en'),
    location: [r6(s.lng), r6(s.lat)],
  };
}

/** An opaque id of the snapped spot; OSRM clients send hints back, and we snap again instead. */
const hint = (extract: string, s: Snap) => Buffer.from(`${extract}:${s.edge}:${s.pos.toFixed(1)}`).toString('base64url');

function encode(l: E7Line, precision: 5 | 6): string {
  const pts: [number, number][] = [];
  for (const [x, y] of l.points()) pts.push([y / 1e7, x / 1e7]);
  return polyline.encode(pts, precision);
}

/**
 * overview=simplified: Douglas–Peucker with a tolerance of 1/1000 of the line's bounding-box
 * diagonal (≈ one pixel when the whole route fills a 1,000-pixel map), at least 1 m. OSRM picks
 * its tolerance from the zoom level that shows the whole route; the intent is the same.
 */
export function simplify(l: E7Line): E7Line {
  const c = Array.prototype.slice.call(l.c, 2 * l.from, 2 * l.to + 2) as number[], n = c.length / 2;
  if (n <= 2) return new E7Line(c);
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let k = 0; k < n; k++) { x0 = Math.min(x0, c[2 * k]); x1 = Math.max(x1, c[2 * k]); y0 = Math.min(y0, c[2 * k + 1]); y1 = Math.max(y1, c[2 * k + 1]); }
  const kx = Math.cos(((y0 + y1) / 2e7) * (Math.PI / 180)) * 111195 / 1e7, ky = 111195 / 1e7;
  const tol = Math.max(1, Math.hypot((x1 - x0) * kx, (y1 - y0) * ky) / 1000);
  const keep = new Uint8Array(n);
  keep[0] = keep[n - 1] = 1;
  const stack = [0, n - 1];
  while (stack.length) {
    const b = stack.pop()!, a = stack.pop()!;
    const ax = c[2 * a] * kx, ay = c[2 * a + 1] * ky, bx = c[2 * b] * kx, by = c[2 * b + 1] * ky;
    const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    let far = -1, fd = tol;
    for (let k = a + 1; k < b; k++) {
      const px = c[2 * k] * kx - ax, py = c[2 * k + 1] * ky - ay;
      let t = l2 > 0 ? (px * dx + py * dy) / l2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const d = Math.hypot(px - t * dx, py - t * dy);
      if (d > fd) { fd = d; far = k; }
    }
    if (far >= 0) { keep[far] = 1; stack.push(a, far, far, b); }
  }
  const out: number[] = [];
  for (let k = 0; k < n; k++) if (keep[k]) out.push(c[2 * k], c[2 * k + 1]);
  return new E7Line(out);
}


/** The `number` nearest road segments (distinct edges) to the point, nearest first. */
export function osrmNearestTask(a: OsrmNearestArgs): OsrmReply {
  const [lng, lat] = a.coordinate;
  const radius = a.radius ?? SNAP_RADIUS.max;
  const graph = loadedGraphs().find((gr) => gr.profile === a.mode && gr.covers(lat, lng, radius));
  if (!graph) return { code: 'NoSegment', message: `No ${a.mode} road extract covers this point.` };
  const g = graph.g;
  const seen = new Set<number>();
  const waypoints: unknown[] = [];
  for (let i = 0; i < a.number; i++) {
    // the next nearest segment on an edge not yet returned
    const s = snap(g, graph.index, lat, lng, radius, (e) => !seen.has(e));
    if (!s) break;
    seen.add(s.edge);
    waypoints.push({ nodes: [0, 0], ...waypoint(g, graph.extract, s, a.coordinate) });
  }
  if (!waypoints.length) return { code: 'NoSegment', message: `No ${a.mode} road within ${radius} m.` };
  return { code: 'Ok', waypoints };
}


/** OSRM's table service over the matrix engine (matrix/): every cell equals /route's answer. */
export function osrmTableTask(a: OsrmTableArgs): OsrmReply {
  const ll = (i: number) => [a.coordinates[i][1], a.coordinates[i][0]] as [number, number];
  let m;
  try {
    m = matrixCosts({ sources: a.sources.map(ll), destinations: a.destinations.map(ll), mode: a.mode, radius: a.radius });
  } catch (e) { return osrmError(e); }
  const miss = m.src.findIndex((s) => !s);
  const missD = m.dst.findIndex((s) => !s);
  if (miss >= 0 || missD >= 0) {
    const i = miss >= 0 ? a.sources[miss] : a.destinations[missD];
    return { code: 'NoSegment', message: `Could not find a matching segment for coordinate ${i}` };
  }
  const g = m.graph.g, cols = m.cols, rows = m.r1 - m.r0;
  const durations: (number | null)[][] = [], distances: (number | null)[][] = [];
  const fallbackCells: [number, number][] = [];
  const at = (snaps: Snap[] | null, i: number): [number, number] => (a.fallbackCoordinate === 'snapped' && snaps ? [snaps[0].lat, snaps[0].lng] : ll(i));
  for (let i = 0; i < rows; i++) {
    const dr: (number | null)[] = [], mr: (number | null)[] = [];
    for (let j = 0; j < cols; j++) {
      const ms = m.ms[i * cols + j], metres = m.metres[i * cols + j];
      if (ms === Infinity) {
        if (a.fallbackSpeed) {
          const p = at(m.src[i], a.sources[i]), q = at(m.dst[j], a.destinations[j]);
          const d = haversine(p[0], p[1], q[0], q[1]);
          dr.push(r1((d / a.fallbackSpeed) * a.scaleFactor)); mr.push(r1(d)); fallbackCells.push([i, j]);
        } else { dr.push(null); mr.push(null); }
      } else { dr.push(r1((ms / 1000) * a.scaleFactor)); mr.push(r1(metres)); }
    }
    durations.push(dr); distances.push(mr);
  }
  const body: OsrmReply = { code: 'Ok' };
  if (a.annotations.includes('duration')) body.durations = durations;
  if (a.annotations.includes('distance')) body.distances = distances;
  if (!a.skipWaypoints) {
    body.sources = m.src.map((s, i) => waypoint(g, m.graph.extract, s![0], a.coordinates[a.sources[i]]));
    body.destinations = m.dst.map((s, j) => waypoint(g, m.graph.extract, s![0], a.coordinates[a.destinations[j]]));
  }
  if (a.fallbackSpeed) body.fallback_speed_cells = fallbackCells;
  return body;
}


/**
 * OSRM's trip service over the stop-order optimiser (optimize.ts: exact up to 10 stops, then
 * insertion and local search): the order, then the route through the coordinates in that order.
 * Supported: roundtrip=true (source any|first, destination any) and roundtrip=false with
 * source=first (destination last or any); src/api/osrm.ts refuses the other combinations.
 */
export function osrmTripTask(a: OsrmTripArgs): JsonText<OsrmReply> | OsrmReply {
  const pts = a.coordinates.map(([lng, lat]) => [lat, lng] as [number, number]);
  const n = pts.length;
  let order: number[];
  try {
    if (n === 1) order = [0];
    else {
      const fixedEnd = !a.roundtrip && a.destinationLast;
      const stops = pts.slice(1, fixedEnd ? -1 : undefined).map(([lat, lng]) => ({ lat, lng }));
      const r = stops.length
        ? optimizeTask({ start: pts[0], ...(fixedEnd ? { end: pts[n - 1] } : {}), round_trip: a.roundtrip, stops, mode: a.mode, radius: a.radius })
        : { order: [] as number[] };
      order = [0, ...r.order.map((i: number) => i + 1), ...(fixedEnd ? [n - 1] : [])];
    }
  } catch (e) {
    const err = osrmError(e);
    return err.code === 'NoRoute' ? { code: 'NoTrips', message: err.message } : err;
  }
  const visit = a.roundtrip && n > 1 ? [...order, order[0]] : order;
  // the waypoints are where the route met the road (snapping picks them per route: locate/candidates.ts)
  let met: unknown[] = [];
  const route = osrmRouteTask({ ...a, coordinates: visit.map((i) => a.coordinates[i]), alternatives: 0, skipWaypoints: true }, (snaps, g, extract) => {
    met = order.map((c, k) => waypoint(g, extract, snaps[k], a.coordinates[c]));
  });
  if (!(route instanceof JsonText)) return route.code === 'NoRoute' ? { code: 'NoTrips', message: route.message } : route;
  // {"code":"Ok","routes":[…]} → {"code":"Ok","trips":[…],"waypoints":[…]} (waypoints in input order)
  const pos = new Array(n);
  order.forEach((c, k) => { pos[c] = k; });
  const waypoints = a.skipWaypoints ? [] : pts.map((_, i) => ({ ...(met[pos[i]] as object), waypoint_index: pos[i], trips_index: 0 }));
  const text = route.text.replace(/^\{"code":"Ok","routes":/, '{"code":"Ok","trips":');
  return new JsonText(a.skipWaypoints ? text : text.replace(/\}$/, `,"waypoints":${JSON.stringify(waypoints)}}`));
}


/**
 * OSRM's match service over the map matcher (match.ts: hidden Markov model, Newson & Krumm): each
 * matched piece of the trace is a route object (`matchings[]`, with `confidence`), routed leg by leg
 * between the matched positions as /route drives them; `tracepoints` are the matched positions
 * (null for a fix dropped as an outlier or with no road near).
 */
export function osrmMatchTask(a: OsrmMatchArgs): JsonText<OsrmReply> | OsrmReply {
  const pts: TracePoint[] = a.coordinates.map(([lng, lat], i) => ({ lat, lng, ...(a.timestamps ? { ts: a.timestamps[i] } : {}), ...(a.radiuses?.[i] ? { accuracy_m: a.radiuses[i]! } : {}) }));
  let graph: LoadedGraph | undefined, most = 0;
  for (const gr of loadedGraphs()) {
    if (gr.profile !== a.mode) continue;
    let k = 0;
    for (const p of pts) if (gr.covers(p.lat, p.lng, 200)) k++;
    if (k > most) { most = k; graph = gr; }
  }
  if (!graph) return { code: 'NoSegment', message: `No ${a.mode} road extract covers these points.` };
  const g = graph.g;
  const r = matchTrace(graph, pts);
  if (!r.matchings.length) return { code: 'NoMatch', message: 'No matchings found.' };
  const t = new LineTexts();
  const geom = (l: E7Line) => (a.geometries === 'geojson' ? { type: 'LineString', coordinates: t.ref(l) } : encode(l, a.geometries === 'polyline6' ? 6 : 5));
  const opts = { steps: a.steps, lang: 'en' as const, alternatives: 0, stepMode: STEP_MODE[a.mode], intersections: true, instructions: false };
  startLines(); startPieces();
  const matchings = r.matchings.map((m) => {
    const legs: GuidedLeg[] = [];
    for (let k = 1; k < m.snaps.length; k++) {
      const tr = new Pieces();
      const l = leg(g, graph!.query, m.snaps[k - 1], m.snaps[k], undefined, tr);
      legs.push(l ? { cost: l.cost, weight: l.weight, dist: l.dist, pieces: tr } : { cost: 0, weight: 0, dist: 0, pieces: new Pieces() });
    }
    if (!legs.length || legs.every((l) => !l.pieces.length)) {
      // one matched fix: a zero-length route at it
      const s = m.snaps[0];
      legs.splice(0, legs.length, { cost: 0, weight: 0, dist: 0, pieces: Pieces.of(s.edge, true, s.pos, s.pos) });
    }
    const rt = assemble(g, legs.filter((l) => l.pieces.length), opts);
    return { ...osrmRoute(g, rt, { ...a, alternatives: 0, radius: 0 }, geom), confidence: Math.round(m.confidence * 1000) / 1000 };
  });
  const body: Record<string, unknown> = { code: 'Ok', matchings };
  if (!a.skipWaypoints) {
    const pos = new Map<number, number>();
    r.matchings.forEach((m) => m.idx.forEach((i, k) => pos.set(i, k)));
    body.tracepoints = r.chosen.map((s, i) => (s ? { ...waypoint(g, graph!.extract, s, a.coordinates[i]), matchings_index: r.piece[i], waypoint_index: pos.get(i) ?? 0, alternatives_count: 0 } : null));
  }
  return new JsonText(t.parts(body), true);
}
