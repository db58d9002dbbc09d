// Addresses and administrative boundaries from full-tag OpenStreetMap extracts (a country's own
// file, as `graph-build -- country` is given): what a road-only extract does not carry.
//   - An address is a node or a way (a building) with addr:housenumber and addr:street (or
//     addr:place); a way stands at the mean of its nodes.
//   - A boundary is a relation boundary=administrative with a name and a numeric admin_level. Its
//     member ways are joined end to end into rings; a relation with any ring left open (clipped
//     by the extract's edge, a member missing) is left out, because a partial polygon would
//     answer "inside" for points that are not.
// .osm.pbf or .osm XML. Two passes over each file: relations come last in a PBF, and which ways a boundary needs is
// known only once they are read; keeping every way's nodes instead would cost more than reading twice.
import { resolve } from 'node:path';
import { readElements } from '../../osm/elements.ts';
import { closedRings } from '../../osm/rings.ts';
import { NodeIndex } from '../../osm/node-index.ts';
import type { Feat } from '../model.ts';
import type { Rings } from './naturalearth.ts';

const ADDR_TAGS = ['addr:housenumber', 'addr:street', 'addr:place', 'addr:postcode', 'addr:city'];
const ADMIN_TAGS = ['type', 'boundary', 'admin_level', 'name', 'name:en', 'name:fr', 'official_name', 'alt_name', 'ISO3166-2', 'ref'];
const ADMIN_LEVELS = [2, 11];

interface Boundary { id: number; level: number; tags: Record<string, string>; ways: number[]; label: number | null }

export interface ExtractPlaces {
  addresses: Feat[];
  /** Administrative units (layer admin), most general level first, and their rings (owner = index into admins). */
  admins: Feat[];
  rings: Rings;
  /** Boundary relations left out because a ring did not close (clipped at the extract's edge). */
  openBoundaries: number;
}

const num = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : NaN);

export async function readExtractPlaces(dir: string, extracts: { name: string; input: string }[], progress?: (msg: string) => void): Promise<ExtractPlaces> {
  const addresses: Feat[] = [];
  const admins: Feat[] = [];
  const rings: Rings = { owner: [], start: [], coords: [] };
  let openBoundaries = 0;
  for (const ex of extracts) {
    const file = resolve(dir, ex.input);
    progress?.(`addresses and boundaries: relations of ${ex.input}`);
    const bounds: Boundary[] = [];
    const needWay = new Set<number>();
    for await (const r of readElements(file, { node: false, way: false, relation: ADMIN_TAGS })) {
      if (r.type !== 'relation') continue;
      const t = r.tags;
      const level = num(t?.admin_level);
      if (t?.boundary !== 'administrative' || !t.name || !(level >= ADMIN_LEVELS[0] && level <= ADMIN_LEVELS[1])) continue;
      if (t.type !== 'boundary' && t.type !== 'multipolygon') continue;
      const ways: number[] = [];
      let label: number | null = null;
      for (const m of r.members as { type: string; ref: number; role: string }[]) {
        if (m.type === 'way' && m.role !== 'subarea') { ways.push(m.ref); needWay.add(m.ref); }
        else if (m.type === 'node' && (m.role === 'label' || (m.role === 'admin_centre' && label === null))) label = m.ref;
      }
      bounds.push({ id: r.id, level, tags: t, ways, label });
    }

    progress?.(`addresses and boundaries: nodes and ways of ${ex.input}`);
    const nodes = new NodeIndex();
    const wayNodes = new Map<number, number[]>();
    for await (const e of readElements(file, { node: ADDR_TAGS, way: ADDR_TAGS, relation: false })) {
      if (e.type === 'node') {
        nodes.add(e.id, e.lat, e.lon);
        const a = address(e.tags);
        if (a) addresses.push(addressFeat(`osm.n${e.id}`, a, e.lat, e.lon, ex.name));
      } else if (e.type === 'way') {
        if (needWay.has(e.id)) wayNodes.set(e.id, e.refs);
        const a = address(e.tags);
        if (!a) continue;
        let sy = 0, sx = 0, k = 0;
        for (const ref of e.refs as number[]) {
          const i = nodes.find(ref);
          if (i >= 0) { sy += nodes.lat(i); sx += nodes.lon(i); k++; }
        }
        if (k) addresses.push(addressFeat(`osm.w${e.id}`, a, sy / k, sx / k, ex.name));
      }
    }

    bounds.sort((a, b) => a.level - b.level || a.id - b.id);
    for (const b of bounds) {
      const closed = closedRings(b.ways.map((w) => wayNodes.get(w)));
      const pts = closed?.map((ring) => ring.map((id) => nodes.find(id)));
      if (!pts || pts.some((ring) => ring.some((i) => i < 0))) { openBoundaries++; continue; }
      const owner = admins.length;
      let big = pts[0];
      for (const ring of pts) {
        if (ring.length > big.length) big = ring;
        rings.owner.push(owner); rings.start.push(rings.coords.length / 2);
        for (const i of ring) rings.coords.push(nodes.lon(i), nodes.lat(i));
      }
      const li = b.label !== null ? nodes.find(b.label) : -1;
      let lat = 0, lng = 0;
      if (li >= 0) { lat = nodes.lat(li); lng = nodes.lon(li); } else {
        for (const i of big) { lat += nodes.lat(i); lng += nodes.lon(i); }
        lat /= big.length; lng /= big.length;
      }
      const t = b.tags;
      const alt = [t['name:en'], t['name:fr'], t.official_name, t.alt_name].filter((s): s is string => !!s && s !== t.name);
      admins.push({
        code: `osm.r${b.id}`, layer: 'admin', cat: 'admin', name: t.name, alt: [...new Set(alt)], lat, lng, country: null, admin1: null,
        pop: 0, importance: 0.3 + 0.03 * (10 - Math.min(b.level, 10)), sources: ['osm_admin'],
        extra: { admin_level: b.level, osm_relation: b.id, extract: ex.name, ...(t['ISO3166-2'] ? { iso3166_2: t['ISO3166-2'] } : {}), ...(t.ref ? { ref: t.ref } : {}) },
      });
    }
  }
  return { addresses, admins, rings, openBoundaries };
}

interface Addr { housenumber: string; street: string; postcode?: string; city?: string }

function address(t: Record<string, string> | undefined): Addr | null {
  const hn = t?.['addr:housenumber'];
  const street = t?.['addr:street'] ?? t?.['addr:place'];
  if (!hn || !street) return null;
  return { housenumber: hn, street, postcode: t['addr:postcode'], city: t['addr:city'] };
}

function addressFeat(code: string, a: Addr, lat: number, lng: number, extract: string): Feat {
  // "12 Rue Grimaldi" is how French, English and Portuguese speakers write it; "Rue Grimaldi 12" is kept as an alternative
  return {
    code, layer: 'address', cat: 'address', name: `${a.housenumber} ${a.street}`, alt: [`${a.street} ${a.housenumber}`], lat, lng,
    country: null, admin1: null, pop: 0, importance: 0.2, sources: ['osm_addresses'],
    extra: { housenumber: a.housenumber, street: a.street, ...(a.postcode ? { postcode: a.postcode } : {}), ...(a.city ? { city: a.city } : {}), extract },
  };
}
