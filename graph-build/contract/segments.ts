// The profile-applied network: straight segments between OSM nodes with direction flags and a
// speed per direction. OSM extracts and synthetic benchmark networks both arrive in this form.
//
// Node obstacles:
// - a blocking barrier (bollard, wall, access=no on the node…) gets one copy of its node per
//   incident segment, so every road reaches it and none passes through: exact;
// - every other obstacle node (signals, stops, give way, gates, turning places) stays a graph node,
//   for graph-build/turns to charge on the turns through it, as OSRM does.
import type { RawNetwork } from '../osm/read.ts';
import { profileFor, type ProfileName } from '../profiles/index.ts';
import { osrmDistance } from './distance.ts';
import { dropParallelDuplicates } from './parallel.ts';
import { WayAttrTable, type WayAttr } from './attrs.ts';
import { WayTable } from '../turns/ways.ts';

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
  /** per node: keep it a graph node (an obstacle with a penalty sits there) */
  keep?: Uint8Array;
  /** per segment: a waypoint may not snap here (ferries, private service roads: OSRM's is_startpoint) */
  noStart?: Uint8Array;
  /** Guidance attributes (name, ref, class, roundabout) of each segment's way: index into `attrs`. Absent on synthetic networks. */
  attr?: Int32Array;
  attrs?: WayAttr[];
  /** per segment: index of its way in RawNetwork.ways  */
  way?: Int32Array;
  /**
   * The RawNetwork node each copy stands for (a blocking barrier gets a copy per road): the copies
   * are the last copyOf.length nodes; every other node stands for itself.
   */
  copyOf?: Int32Array;
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
  /** what the profile made of each way, kept for the turns so process_way runs once per way */
  wayTable?: WayTable;
}

/** OSRM's Obstacle::Type::Turning: designated places to turn round, never compressed away. */
const TURNING = new Set(['mini_roundabout', 'turning_loop', 'turning_circle']);

/** Apply one profile to every way and tagged node; ways the mode may not use are dropped. */
export function profileSegments(net: RawNetwork, name: ProfileName): Segments {
  const profile = profileFor(name);
  const N = net.lat.length;
  // node obstacles: blocking barriers, and those a turn through the node pays
  const blocked = new Uint8Array(N);
  const onTurnNodes: number[] = [];
  if (net.nodeTags) for (const [v, tags] of net.nodeTags) {
    const obs = profile.processNode(tags);
    if (obs.some((o) => o.type === 'barrier')) { blocked[v] = 1; continue; }
    // on turns: every node whose obstacle a turn may pay, or where a u-turn is allowed
    if (obs.some((o) => o.duration > 0 || o.weight > 0 || o.type === 'stop_minor' || TURNING.has(o.type))) onTurnNodes.push(v);
  }
  let cap = 0;
  for (const w of net.ways) cap += w.refs.length - 1;
  const a = new Int32Array(cap), b = new Int32Array(cap), flags = new Uint8Array(cap);
  const speed = new Float32Array(cap), speedBack = new Float32Array(cap);
  const noStart = new Uint8Array(cap), attr = new Int32Array(cap), table = new WayAttrTable();
  const wayOf = new Int32Array(cap);
  const rate = new Float32Array(cap), rateBack = new Float32Array(cap), fixedWeight = new Float32Array(cap), fixedDuration = new Float32Array(cap);
  const byDuration = profile.properties.weightName === 'duration';
  let n = 0, asymmetric = false;
  const wayName: string[] = new Array(net.ways.length).fill(''), waySplit = new Uint8Array(net.ways.length);
  const wayTable = new WayTable(net.ways.length);
  for (let wi = 0; wi < net.ways.length; wi++) {
    const w = net.ways[wi];
    const r = profile.processWay(w.tags);
    if (!r) continue;
    wayTable.add(wi, r);
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
  let lat = net.lat, lon = net.lon, nodes = N;
  const extraNodes: number[] = [];
  const newNode = (v: number) => { extraNodes.push(v); return nodes++; };
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
  // an obstacle node stays a graph node, so a turn passes through it
  const keep = new Uint8Array(nodes);
  for (const v of onTurnNodes) keep[v] = 1;
  // views, not copies: a copy would hold every column twice until V8 collects the first
  return {
    lat, lon, count: n, a, b, flags, speed, attr, attrs: table.list, noStart, keep,
    speedBack: asymmetric ? speedBack : undefined,
    way: wayOf.subarray(0, n), copyOf: Int32Array.from(extraNodes), rate: rate.subarray(0, n), rateBack: rateBack.subarray(0, n), fixedWeight: fixedWeight.subarray(0, n),
    fixedDuration: fixedDuration.subarray(0, n),
    weightPrecision: profile.properties.weightPrecision, wayTable,
  };
}
