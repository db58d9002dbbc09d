// Natural Earth 10m admin-1 polygons (states, provinces, regions), c. 2012-2013: the admin-1
// every feature, reverse answer and address gets by point-in-polygon. The file's quirks (data
// README): `iso_3166_2` is mostly truncated, so units are keyed by `adm1_code` (unique) and
// carry `code_hasc`; 6 unassigned pieces have no name and are skipped; Kenya is its 8
// pre-2013 provinces.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { Rings } from './naturalearth.ts';

export interface Admin1Unit {
  /** Natural Earth `adm1_code`, e.g. KEN-1196. */
  code: string;
  name: string;
  /** ISO 3166-1 alpha-2 of the country (Somaliland → SO). */
  country: string;
  /** `type_en`: Province, State, Region, County… */
  type: string | null;
  hasc: string | null;
  /** Other spellings: `name_alt` (pipe-separated in NE), `name_local`, `gn_name`, `woe_name`. */
  alt: string[];
  /** Natural Earth's label point. */
  lat: number;
  lng: number;
}

function polygonsOf(g: any): number[][][][] {
  if (!g) return [];
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return g.coordinates;
  return [];
}

const clean = (s: unknown): string | null => (typeof s === 'string' && s.trim() && s !== '-99' ? s.trim() : null);

/** Units and their rings (owner = unit index). `iso3` maps adm0_a3 / ISO alpha-3 → alpha-2. */
export function readAdmin1(dir: string, file: string, iso3: Map<string, string>): { units: Admin1Unit[]; rings: Rings } {
  const raw = readFileSync(join(dir, file));
  const j = JSON.parse((file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'));
  const units: Admin1Unit[] = [];
  const rings: Rings = { owner: [], start: [], coords: [] };
  for (const ft of j.features) {
    const p = ft.properties;
    const name = clean(p.name);
    if (!name) continue; // unassigned pieces (adm1_code …+99?)
    const country = iso3.get(p.adm0_a3) ?? iso3.get(p.sov_a3) ?? (clean(p.iso_a2) && p.iso_a2 !== '-1' ? p.iso_a2 : null);
    if (!country) continue;
    const idx = units.length;
    const alt = new Set<string>();
    for (const s of [p.name_alt, p.name_local, p.gn_name, p.woe_name, p.gns_name]) {
      const c = clean(s);
      if (c) for (const part of c.split('|')) if (part.trim() && part.trim() !== name) alt.add(part.trim());
    }
    units.push({
      code: String(p.adm1_code), name, country, type: clean(p.type_en), hasc: clean(p.code_hasc), alt: [...alt],
      lat: Number(p.latitude), lng: Number(p.longitude),
    });
    for (const poly of polygonsOf(ft.geometry)) for (const ring of poly) {
      rings.owner.push(idx);
      rings.start.push(rings.coords.length / 2);
      for (const [x, y] of ring) rings.coords.push(x, y);
      const [x0, y0] = ring[0], [xn, yn] = ring[ring.length - 1];
      if (x0 !== xn || y0 !== yn) rings.coords.push(x0, y0);
    }
  }
  return { units, rings };
}
