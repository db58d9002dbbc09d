// The profile-applied network: straight segments between OSM nodes with direction flags
// and a speed. OSM extracts and synthetic benchmark networks both arrive in this form.
import type { RawNetwork } from '../osm/read.ts';
import { wayRule, type ProfileName } from '../profiles/index.ts';
import { haversine } from '../../src/core/geometry.ts';
import { WayAttrTable, type WayAttr } from './attrs.ts';

export interface Segments {
  lat: Float64Array;
  lon: Float64Array;
  count: number;
  a: Int32Array;
  b: Int32Array;
  /** bit 1: a→b allowed, bit 2: b→a allowed */
  flags: Uint8Array;
  /** km/h */
  speed: Float32Array;
  /** Guidance attributes (name, ref, class, roundabout) of each segment's way: index into `attrs`. Absent on synthetic networks. */
  attr?: Int32Array;
  attrs?: WayAttr[];
}

/** Apply one profile to every way; ways the mode may not use are dropped. */
export function profileSegments(net: RawNetwork, profile: ProfileName): Segments {
  let cap = 0;
  for (const w of net.ways) cap += w.refs.length - 1;
  const a = new Int32Array(cap), b = new Int32Array(cap), flags = new Uint8Array(cap), speed = new Float32Array(cap);
  const attr = new Int32Array(cap), table = new WayAttrTable();
  let n = 0;
  for (const w of net.ways) {
    const r = w.refs;
    let len = 0;
    if (w.tags.route === 'ferry') for (let i = 1; i < r.length; i++) len += haversine(net.lat[r[i - 1]], net.lon[r[i - 1]], net.lat[r[i]], net.lon[r[i]]);
    const rule = wayRule(profile, w.tags, len);
    if (!rule) continue;
    const f = (rule.forward ? 1 : 0) | (rule.backward ? 2 : 0);
    const at = table.id(w.tags);
    for (let i = 1; i < r.length; i++) {
      if (r[i - 1] === r[i]) continue; // repeated node: no segment
      a[n] = r[i - 1]; b[n] = r[i]; flags[n] = f; speed[n] = rule.speed; attr[n] = at; n++;
    }
  }
  return { lat: net.lat, lon: net.lon, count: n, a, b, flags, speed, attr, attrs: table.list };
}
