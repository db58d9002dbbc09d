// The profile-applied network: straight segments between OSM nodes with direction flags and a
// speed per direction. OSM extracts and synthetic benchmark networks both arrive in this form.
//
// Node obstacles, node-based (the edge-based graph will take them as OSRM's turns do):
// - a blocking barrier (bollard, wall, access=no on the node…) gets one copy of its node per
//   incident segment, so every road reaches it and none passes through: exact;
// - an obstacle with a duration (gate 60 s, traffic signals 2 s, stop 2 s, give way 1 s) costs
//   half its duration on each segment touching the node, both ways, so passing through costs the
//   whole duration as OSRM's turn through it does; a directed one (traffic_signals:direction,
//   direction=forward…) only in that direction along its way. Ending exactly at the node costs
//   half where OSRM charges nothing; the node stays a graph node so no partial edge pro-rates it.
import type { RawNetwork } from '../osm/read.ts';
import { profileFor, type ProfileName } from '../profiles/index.ts';
import type { Obstacle } from '../profiles/types.ts';
import { osrmDistance } from './distance.ts';
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
  /** per node: keep it a graph node (an obstacle with a penalty sits there) */
  keep?: Uint8Array;
  /** per segment: a waypoint may not snap here (ferries, private service roads: OSRM's is_startpoint) */
  noStart?: Uint8Array;
  /** Guidance attributes (name, ref, class, roundabout) of each segment's way: index into `attrs`. Absent on synthetic networks. */
  attr?: Int32Array;
  attrs?: WayAttr[];
}

/** Does an obstacle bind traffic moving along (fw) or against its way? */
const binds = (o: Obstacle, fw: boolean) => o.direction === 'none' || o.direction === 'both' || o.direction === (fw ? 'forward' : 'backward');

/** Apply one profile to every way and tagged node; ways the mode may not use are dropped. */
export function profileSegments(net: RawNetwork, name: ProfileName): Segments {
  const profile = profileFor(name);
  const N = net.lat.length;
  // node obstacles: blocking barriers, and those that cost time
  const blocked = new Uint8Array(N);
  const timed = new Map<number, Obstacle[]>();
  if (net.nodeTags) for (const [v, tags] of net.nodeTags) {
    const obs = profile.processNode(tags);
    if (obs.some((o) => o.type === 'barrier')) { blocked[v] = 1; continue; }
    const t = obs.filter((o) => o.duration > 0 && o.type !== 'stop_minor');
    if (t.length) timed.set(v, t);
  }
  let cap = 0;
  for (const w of net.ways) cap += w.refs.length - 1;
  const a = new Int32Array(cap), b = new Int32Array(cap), flags = new Uint8Array(cap);
  const speed = new Float32Array(cap), speedBack = new Float32Array(cap), penFw = new Float32Array(cap), penBw = new Float32Array(cap);
  const noStart = new Uint8Array(cap), attr = new Int32Array(cap), table = new WayAttrTable();
  const keep = new Uint8Array(N);
  let n = 0, asymmetric = false;
  for (const w of net.ways) {
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
    const first = n;
    for (let i = 1; i < refs.length; i++) {
      if (refs[i - 1] === refs[i]) continue; // repeated node: no segment
      a[n] = refs[i - 1]; b[n] = refs[i]; flags[n] = f; speed[n] = fOpen ? sf : sb; speedBack[n] = bOpen ? sb : sf;
      attr[n] = at; noStart[n] = r.isStartpoint ? 0 : 1; n++;
    }
    // obstacles at this way's nodes: half on each side of the node, per direction they bind
    for (let s = first; s < n; s++) for (const [v, atA] of [[a[s], true], [b[s], false]] as const) {
      const obs = timed.get(v);
      if (!obs) continue;
      keep[v] = 1;
      for (const o of obs) {
        const ms = o.duration * 1000;
        const both = o.direction === 'none' || o.direction === 'both';
        const endOfWay = (atA && s === first) || (!atA && s === n - 1);
        // a directed obstacle at the way's end: all of it on the way's one segment there
        const share = both || !endOfWay ? ms / 2 : ms;
        if (binds(o, true)) penFw[s] += share;
        if (binds(o, false)) penBw[s] += share;
        if (!both) asymmetric = true;
      }
    }
  }
  // blocking barriers: a copy of the node per incident segment
  const inc = new Int32Array(N);
  for (let s = 0; s < n; s++) { if (blocked[a[s]]) inc[a[s]]++; if (blocked[b[s]]) inc[b[s]]++; }
  let extra = 0;
  for (let v = 0; v < N; v++) if (inc[v] > 1) extra += inc[v] - 1;
  let lat = net.lat, lon = net.lon;
  if (extra > 0) {
    lat = new Float64Array(N + extra); lat.set(net.lat);
    lon = new Float64Array(N + extra); lon.set(net.lon);
    const seen = new Uint8Array(N);
    let next = N;
    const copy = (v: number): number => {
      if (!seen[v]) { seen[v] = 1; return v; }
      lat[next] = lat[v]; lon[next] = lon[v];
      return next++;
    };
    for (let s = 0; s < n; s++) {
      if (blocked[a[s]]) a[s] = copy(a[s]);
      if (blocked[b[s]]) b[s] = copy(b[s]);
    }
  }
  const keepAll = extra > 0 ? (() => { const k = new Uint8Array(N + extra); k.set(keep); return k; })() : keep;
  return {
    lat, lon, count: n, a, b, flags, speed, attr, attrs: table.list, noStart, keep: keepAll,
    speedBack: asymmetric ? speedBack : undefined, penFw, penBw,
  };
}
