// The profile-applied network: straight segments between OSM nodes with direction flags and a
// speed per direction. OSM extracts and synthetic benchmark networks both arrive in this form.
//
// Node obstacles, node-based by default (with `obstacles: 'turns'` only the barrier copies are
// made and every other obstacle node stays a graph node, for graph-build/turns to charge on the
// turns through it, as OSRM does):
// - a blocking barrier (bollard, wall, access=no on the node…) gets one copy of its node per
//   incident segment, so every road reaches it and none passes through: exact;
// - an obstacle with a duration (gate 60 s, traffic signals 2 s, stop 2 s, give way 1 s) splits
//   its node into a hub and one copy per incident segment, joined by zero-length connectors that
//   carry half the duration into the hub and half out of it, so passing through costs exactly
//   the whole duration as OSRM's turn through the node does, and a route that starts or ends on a
//   road beside it pays nothing (no waypoint snaps onto a connector). A directed obstacle
//   (traffic_signals:direction, direction=forward…) charges only traffic moving that way along
//   its way. OSRM also charges a u-turn at the node; so do we (into the hub and out again).
import type { RawNetwork } from '../osm/read.ts';
import { profileFor, type ProfileName } from '../profiles/index.ts';
import type { Obstacle } from '../profiles/types.ts';
import { osrmDistance } from './distance.ts';
import { dropParallelDuplicates } from './parallel.ts';
import { WayAttrTable, type WayAttr } from './attrs.ts';

export interface Segments {
  lat: Float64Array;
  lon: Float64Array;
  count: number;
  a: Int32Array;
  b: Int32Array;
  /** bit 1: a→b allowed, bit 2: b→a allowed */
  flags: Uint8Array;
  /** km/h a→b (and b→a unless speedBack is given) */
  speed: Float32Array;
  /** km/h b→a, when it may differ (maxspeed:backward…) */
  speedBack?: Float32Array;
  /** ms added to travel a→b / b→a (node obstacles) */
  penFw?: Float32Array;
  penBw?: Float32Array;
  /** per segment: a zero-length obstacle connector, whose time is its penalty alone */
  connector?: Uint8Array;
  /** per node: keep it a graph node (an obstacle with a penalty sits there) */
  keep?: Uint8Array;
  /** per segment: a waypoint may not snap here (ferries, private service roads: OSRM's is_startpoint) */
  noStart?: Uint8Array;
  /** Guidance attributes (name, ref, class, roundabout) of each segment's way: index into `attrs`. Absent on synthetic networks. */
  attr?: Int32Array;
  attrs?: WayAttr[];
  /** per segment: index of its way in RawNetwork.ways (connectors: the way of the segment they join) */
  way?: Int32Array;
  /** per node: the RawNetwork node it stands for (barrier copies and obstacle hubs' copies point back at theirs) */
  origin?: Int32Array;
  /**
   * The profile's weight of a segment (OSRM: distance / rate, or a weight given for the whole way
   * split evenly over its segments): metres per weight unit a→b and b→a (0: closed), and the fixed
   * weight of the segment whatever its length (0 when it goes by rate). Connectors weigh their penalty.
   */
  rate?: Float32Array;
  rateBack?: Float32Array;
  fixedWeight?: Float32Array;
  /**
   * Seconds of a segment whatever its length (a way's `duration=` split evenly over its segments, as
   * OSRM's extractor splits it); 0 when its time goes by speed.
   */
  fixedDuration?: Float32Array;
  /** decimal places the profile's weights are kept to (OSRM's weight_precision) */
  weightPrecision?: number;
}

export interface SegmentOptions {
  /**
   * 'hubs' (default): obstacles with a duration become hubs and connectors that carry it.
   * 'turns': they stay plain graph nodes (kept), and graph-build/turns charges them on the turns.
   */
  obstacles?: 'hubs' | 'turns';
}

/** OSRM's Obstacle::Type::Turning: designated places to turn round, never compressed away. */
const TURNING = new Set(['mini_roundabout', 'turning_loop', 'turning_circle']);

/** Apply one profile to every way and tagged node; ways the mode may not use are dropped. */
export function profileSegments(net: RawNetwork, name: ProfileName, opts: SegmentOptions = {}): Segments {
  const profile = profileFor(name);
  const onTurns = opts.obstacles === 'turns';
  const N = net.lat.length;
  // node obstacles: blocking barriers, and those that cost time
  const blocked = new Uint8Array(N);
  const timed = new Map<number, Obstacle[]>();
  const onTurnNodes: number[] = [];
  if (net.nodeTags) for (const [v, tags] of net.nodeTags) {
    const obs = profile.processNode(tags);
    if (obs.some((o) => o.type === 'barrier')) { blocked[v] = 1; continue; }
    // on turns: every node whose obstacle a turn may pay, or where a u-turn is allowed
    if (onTurns) { if (obs.some((o) => o.duration > 0 || o.weight > 0 || o.type === 'stop_minor' || TURNING.has(o.type))) onTurnNodes.push(v); continue; }
    const t = obs.filter((o) => o.duration > 0 && o.type !== 'stop_minor');
    if (t.length) timed.set(v, t);
  }
  let cap = 0;
  for (const w of net.ways) { cap += w.refs.length - 1; if (timed.size) for (const r of w.refs) if (timed.has(r)) cap += 2; }
  const a = new Int32Array(cap), b = new Int32Array(cap), flags = new Uint8Array(cap);
  const speed = new Float32Array(cap), speedBack = new Float32Array(cap), penFw = new Float32Array(cap), penBw = new Float32Array(cap);
  const noStart = new Uint8Array(cap), attr = new Int32Array(cap), connector = new Uint8Array(cap), table = new WayAttrTable();
  const wayOf = new Int32Array(cap);
  const rate = new Float32Array(cap), rateBack = new Float32Array(cap), fixedWeight = new Float32Array(cap), fixedDuration = new Float32Array(cap);
  const byDuration = profile.properties.weightName === 'duration';
  let n = 0, asymmetric = false;
  const wayName: string[] = new Array(net.ways.length).fill(''), waySplit = new Uint8Array(net.ways.length);
  for (let wi = 0; wi < net.ways.length; wi++) {
    const w = net.ways[wi];
    const r = profile.processWay(w.tags);
    if (!r) continue;
    const refs = w.refs;
    let sf = r.forwardSpeed, sb = r.backwardSpeed;
    if (r.duration > 0) {
      // a duration for the whole way (ferries): its speed is the way's length over it
      let len = 0;
      for (let i = 1; i < refs.length; i++) len += osrmDistance(net.lat[refs[i - 1]], net.lon[refs[i - 1]], net.lat[refs[i]], net.lon[refs[i]]);
      sf = sb = len > 0 ? (len / r.duration) * 3.6 : 1;
    }
    const fOpen = r.forwardMode !== 'inaccessible', bOpen = r.backwardMode !== 'inaccessible';
    const f = (fOpen ? 1 : 0) | (bOpen ? 2 : 0);
    if (fOpen && bOpen && sf !== sb) asymmetric = true;
    const at = table.id(w.tags);
    wayName[wi] = r.name;
    waySplit[wi] = fOpen && bOpen && (sf !== sb || r.forwardRate !== r.backwardRate || r.forwardMode !== r.backwardMode) ? 1 : 0;
    // OSRM's weight: a duration profile weighs time; otherwise distance / rate, or the way's whole
    // weight (duration for a duration profile) divided evenly over its OSM segments
    const byWay = byDuration ? r.duration : r.weight;
    const fixed = byWay >= 0 ? byWay / (refs.length - 1) : 0;
    const fixedTime = r.duration > 0 ? r.duration / (refs.length - 1) : 0;
    const rf = byWay >= 0 || !fOpen ? 0 : byDuration ? r.forwardSpeed / 3.6 : r.forwardRate;
    const rb = byWay >= 0 || !bOpen ? 0 : byDuration ? r.backwardSpeed / 3.6 : r.backwardRate;
    for (let i = 1; i < refs.length; i++) {
      if (refs[i - 1] === refs[i]) continue; // repeated node: no segment
      a[n] = refs[i - 1]; b[n] = refs[i]; flags[n] = f; speed[n] = fOpen ? sf : sb; speedBack[n] = bOpen ? sb : sf;
      attr[n] = at; noStart[n] = r.isStartpoint ? 0 : 1; wayOf[n] = wi;
      rate[n] = fOpen ? rf : rb; rateBack[n] = bOpen ? rb : rf; fixedWeight[n] = fixed; fixedDuration[n] = fixedTime; n++;
    }
  }
  if (dropParallelDuplicates({ count: n, a, b, flags, way: wayOf, lat: net.lat, lon: net.lon, speed, speedBack, rate, rateBack, fixedWeight,
    fixedDuration, weightPrecision: profile.properties.weightPrecision, wayName, waySplit })) {
    // the segments left with no direction go
    let m = 0;
    for (let k = 0; k < n; k++) {
      if (!flags[k]) continue;
      a[m] = a[k]; b[m] = b[k]; flags[m] = flags[k]; speed[m] = speed[k]; speedBack[m] = speedBack[k]; noStart[m] = noStart[k];
      attr[m] = attr[k]; wayOf[m] = wayOf[k]; rate[m] = rate[k]; rateBack[m] = rateBack[k]; fixedWeight[m] = fixedWeight[k];
      fixedDuration[m] = fixedDuration[k]; m++;
    }
    n = m;
  }
  const base = n;
  // obstacles with a duration: hub (the node itself), a copy per incident segment, connectors
  let lat = net.lat, lon = net.lon, nodes = N;
  const extraNodes: number[] = [];
  const newNode = (v: number) => { extraNodes.push(v); return nodes++; };
  if (timed.size) {
    const incident = new Map<number, number[]>();
    for (let s = 0; s < base; s++) for (const v of [a[s], b[s]]) { const l = incident.get(v); if (l) l.push(s); else if (timed.has(v)) incident.set(v, [s]); }
    for (const [v, segs] of incident) {
      const obs = timed.get(v)!;
      // which side of each segment v is on, read before any end is moved to a copy
      const intoV = segs.map((s) => b[s] === v);
      for (let k = 0; k < segs.length; k++) {
        const s = segs[k], atB = intoV[k]; // the segment runs into v along its way
        // does the way go on past v (another of its segments at v, on the other side)?
        const goesOn = segs.some((o, j) => o !== s && wayOf[o] === wayOf[s] && intoV[j] !== atB);
        const c = newNode(v);
        if (atB) b[s] = c; else a[s] = c;
        // connector c→hub (a→b) and hub→c
        let inFw = 0, outFw = 0;
        for (const o of obs) {
          const ms = o.duration * 1000;
          if (o.direction === 'none' || o.direction === 'both') { inFw += ms / 2; outFw += ms / 2; continue; }
          // along the way (forward) traffic enters v by the segment that runs into it and leaves by the other
          const along = o.direction === 'forward';
          const enters = along === atB; // this segment is where the bound traffic arrives
          const share = goesOn ? ms / 2 : ms;
          if (enters) inFw += share; else outFw += share;
          asymmetric = true;
        }
        a[n] = c; b[n] = v; flags[n] = 3; speed[n] = speedBack[n] = 1; penFw[n] = inFw; penBw[n] = outFw;
        attr[n] = attr[s]; noStart[n] = 1; connector[n] = 1; wayOf[n] = wayOf[s]; rate[n] = rateBack[n] = 1; n++;
      }
    }
  }
  // blocking barriers: a copy of the node per incident segment
  const inc = new Int32Array(N);
  for (let s = 0; s < n; s++) { if (a[s] < N && blocked[a[s]]) inc[a[s]]++; if (b[s] < N && blocked[b[s]]) inc[b[s]]++; }
  const seen = new Uint8Array(N);
  const copy = (v: number): number => {
    if (!seen[v]) { seen[v] = 1; return v; }
    return newNode(v);
  };
  for (let s = 0; s < n; s++) {
    if (a[s] < N && blocked[a[s]] && inc[a[s]] > 1) a[s] = copy(a[s]);
    if (b[s] < N && blocked[b[s]] && inc[b[s]] > 1) b[s] = copy(b[s]);
  }
  if (extraNodes.length) {
    lat = new Float64Array(nodes); lat.set(net.lat);
    lon = new Float64Array(nodes); lon.set(net.lon);
    for (let i = 0; i < extraNodes.length; i++) { lat[N + i] = net.lat[extraNodes[i]]; lon[N + i] = net.lon[extraNodes[i]]; }
  }
  // obstacle hubs and their copies stay graph nodes, so a connector is an edge of its own; on
  // turns, the obstacle node itself stays one, so a turn passes through it
  const keep = new Uint8Array(nodes);
  for (let s = base; s < n; s++) { keep[a[s]] = 1; keep[b[s]] = 1; }
  for (const v of onTurnNodes) keep[v] = 1;
  const origin = new Int32Array(nodes);
  for (let v = 0; v < N; v++) origin[v] = v;
  for (let i = 0; i < extraNodes.length; i++) origin[N + i] = extraNodes[i];
  return {
    lat, lon, count: n, a, b, flags, speed, attr, attrs: table.list, noStart, keep,
    speedBack: asymmetric ? speedBack : undefined, penFw, penBw, connector: n > base ? connector : undefined,
    way: wayOf.slice(0, n), origin, rate: rate.slice(0, n), rateBack: rateBack.slice(0, n), fixedWeight: fixedWeight.slice(0, n),
    fixedDuration: fixedDuration.slice(0, n),
    weightPrecision: profile.properties.weightPrecision,
  };
}
