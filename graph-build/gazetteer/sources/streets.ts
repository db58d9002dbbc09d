// Named streets from the road extracts: every way with `highway` and `name`. Ways of one
// street are grouped by normalised name + the locality they lie in (nearest populated
// place), so "Ring Road" in Accra and in Kumasi stay two streets. The id is the smallest
// OSM way id of the group, which is stable across rebuilds of the same extract.
import { resolve } from 'node:path';
import { createOSMStream } from 'osm-pbf-parser-node';
import type { Feat } from '../model.ts';
import type { Rings } from './naturalearth.ts';
import { tokens } from '../../../src/core/text/normalize.ts';
import { NodeIndex } from '../../osm/node-index.ts';

const IMPORTANCE: Record<string, number> = {
  motorway: 0.4, trunk: 0.38, primary: 0.35, secondary: 0.32, tertiary: 0.3, residential: 0.25, unclassified: 0.25,
};

interface Way { id: number; name: string; highway: string; refs: number[]; alt: string[] }

export async function readStreets(dir: string, roads: { name: string; input: string }[], nearestPlace: (lng: number, lat: number) => number,
  progress?: (msg: string) => void): Promise<{ feats: Feat[]; lines: Rings; ways: number }> {
  const feats: Feat[] = [];
  const lines: Rings = { owner: [], start: [], coords: [] };
  let waysTotal = 0;
  for (const road of roads) {
    progress?.(`streets: reading ${road.input}`);
    const nodes = new NodeIndex();
    const ways: Way[] = [];
    const opts = { withTags: { node: false as const, way: ['highway', 'name', 'name:en', 'name:fr', 'alt_name', 'old_name', 'ref'], relation: false as const }, withInfo: false };
    for await (const item of createOSMStream(resolve(dir, road.input), opts) as AsyncGenerator<any>) {
      if (item.type === 'node') nodes.add(item.id, item.lat, item.lon);
      else if (item.type === 'way') {
        const t = item.tags;
        if (!t?.highway || !t.name) continue;
        const alt = [t['name:en'], t['name:fr'], t.alt_name, t.old_name, t.ref].filter((s: unknown): s is string => typeof s === 'string' && !!s && s !== t.name);
        ways.push({ id: item.id, name: t.name, highway: t.highway, refs: item.refs, alt });
      }
    }
    waysTotal += ways.length;
    const groups = new Map<string, { ways: Way[]; place: number }>();
    const at = (w: Way) => w.refs.map((r) => nodes.find(r)).filter((i) => i >= 0);
    for (const w of ways) {
      const pts = at(w);
      if (pts.length < 2) continue;
      const mid = pts[pts.length >> 1];
      const place = nearestPlace(nodes.lon(mid), nodes.lat(mid));
      const key = `${tokens(w.name).join(' ')}|${place}`;
      const g = groups.get(key);
      if (g) g.ways.push(w); else groups.set(key, { ways: [w], place });
    }
    for (const g of groups.values()) {
      const idx = feats.length;
      g.ways.sort((a, b) => a.id - b.id);
      let longest: number[] = [], rank = 0;
      const alt = new Set<string>();
      for (const w of g.ways) {
        const pts = at(w);
        if (pts.length > longest.length) longest = pts;
        rank = Math.max(rank, IMPORTANCE[w.highway] ?? 0.22);
        for (const a of w.alt) alt.add(a);
        lines.owner.push(idx); lines.start.push(lines.coords.length / 2);
        for (const p of pts) lines.coords.push(nodes.lon(p), nodes.lat(p));
      }
      const mid = longest[longest.length >> 1];
      const w0 = g.ways[0];
      feats.push({
        code: `osm.w${w0.id}`, layer: 'street', cat: 'street', name: w0.name, alt: [...alt], lat: nodes.lat(mid), lng: nodes.lon(mid),
        country: null, admin1: null, pop: 0, importance: rank, sources: ['osm_roads'], locality: g.place,
        extra: { highway: w0.highway, extract: road.name, osm_ways: g.ways.length },
      });
    }
  }
  return { feats, lines, ways: waysTotal };
}
