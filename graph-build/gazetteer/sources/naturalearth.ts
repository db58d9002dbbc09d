// Natural Earth layers: country polygons (point-in-polygon and country features),
// airports, ports, rivers (lines) and lakes (polygons; the shore is their ring).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Feat } from '../model.ts';
import { stableHash } from '../model.ts';

export interface Rings {
  /** Per ring: owner index (country index, or feature index for water), start into coords (pairs). */
  owner: number[];
  start: number[];
  /** lng,lat pairs, each ring closed (first == last). */
  coords: number[];
}
export interface Country {
  code: string; name: string; iso3: string; adm0: string;
  /** Somaliland: its own polygon, but ISO 3166 (and so country_code) is Somalia's. */
  alias?: boolean;
}

const readJson = (dir: string, f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8'));

function polygonsOf(g: any): number[][][][] {
  if (!g) return [];
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return g.coordinates;
  return [];
}
function linesOf(g: any): number[][][] {
  if (!g) return [];
  if (g.type === 'LineString') return [g.coordinates];
  if (g.type === 'MultiLineString') return g.coordinates;
  return [];
}

function addRing(r: Rings, owner: number, ring: number[][]) {
  r.owner.push(owner);
  r.start.push(r.coords.length / 2);
  for (const [x, y] of ring) r.coords.push(x, y);
  const [x0, y0] = ring[0], [xn, yn] = ring[ring.length - 1];
  if (x0 !== xn || y0 !== yn) r.coords.push(x0, y0);
}

/** Area-weighted centroid of the largest outer ring: the point a country or lake result carries. */
function labelPoint(polys: number[][][][]): [number, number] {
  let best: number[][] = polys[0][0], bestA = 0;
  for (const p of polys) {
    const ring = p[0];
    let a = 0;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) a += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
    if (Math.abs(a) > bestA) { bestA = Math.abs(a); best = ring; }
  }
  let a = 0, cx = 0, cy = 0;
  for (let i = 0, j = best.length - 1; i < best.length; j = i++) {
    const f = best[j][0] * best[i][1] - best[i][0] * best[j][1];
    a += f; cx += (best[j][0] + best[i][0]) * f; cy += (best[j][1] + best[i][1]) * f;
  }
  if (a === 0) return [best[0][0], best[0][1]];
  return [cx / (3 * a), cy / (3 * a)];
}

export function readCountries(dir: string, file: string): { countries: Country[]; rings: Rings; feats: Feat[] } {
  const j = readJson(dir, file);
  const countries: Country[] = [];
  const rings: Rings = { owner: [], start: [], coords: [] };
  const feats: Feat[] = [];
  for (const ft of j.features) {
    const p = ft.properties;
    // Somaliland has no ISO code (-99); ISO 3166 places it in Somalia.
    const code = p.ISO_A2 && p.ISO_A2 !== '-99' ? p.ISO_A2 : p.ADM0_A3 === 'SOL' ? 'SO' : null;
    if (!code) continue;
    const idx = countries.length;
    countries.push({ code, name: p.NAME, iso3: p.ISO_A3 !== '-99' ? p.ISO_A3 : p.ADM0_A3, adm0: p.ADM0_A3, ...(p.ISO_A2 === '-99' ? { alias: true } : {}) });
    const polys = polygonsOf(ft.geometry);
    for (const poly of polys) for (const ring of poly) addRing(rings, idx, ring);
    const [lng, lat] = labelPoint(polys);
    const alt = [p.NAME_LONG, p.FORMAL_EN, p.FORMAL_FR, p.NAME_ALT, p.ADMIN, p.NAME_CIAWF, p.ISO_A3].filter((s: unknown): s is string => typeof s === 'string' && !!s && s !== '-99');
    feats.push({
      code: `ne0.${p.ADM0_A3.toLowerCase()}`, layer: 'country', cat: 'country', name: p.NAME, alt,
      lat, lng, country: code, admin1: null, pop: Number(p.POP_EST) || 0, importance: 1, sources: ['ne_countries'],
    });
  }
  return { countries, rings, feats };
}

export function readAirports(dir: string, file: string): Feat[] {
  return readJson(dir, file).features.map((ft: any) => {
    const p = ft.properties;
    const [lng, lat] = ft.geometry.coordinates;
    const code = p.iata_code || p.gps_code || stableHash(p.name, lng, lat);
    const major = /major/.test(p.type || '');
    const alt = [p.iata_code, p.gps_code, `${p.name} Airport`, `${p.name} International Airport`].filter(Boolean);
    return {
      code: `ne.ap.${String(code).toLowerCase()}`, layer: 'poi', cat: 'airport', name: p.name, alt, lat, lng, country: null, admin1: null,
      pop: 0, importance: major ? 0.75 : 0.6, sources: ['ne_airports'],
      extra: { iata: p.iata_code || null, icao: p.gps_code || null, airport_type: p.type || null, wikipedia: p.wikipedia || null },
    } satisfies Feat;
  });
}

export function readPorts(dir: string, file: string): Feat[] {
  return readJson(dir, file).features.map((ft: any) => {
    const p = ft.properties;
    const [lng, lat] = ft.geometry.coordinates;
    return {
      code: `ne.pt.${stableHash(p.name, lng, lat)}`, layer: 'poi', cat: 'port', name: p.name, alt: [`Port of ${p.name}`, `${p.name} Port`],
      lat, lng, country: null, admin1: null, pop: 0, importance: 0.55, sources: ['ne_ports'], extra: p.website ? { website: p.website } : undefined,
    } satisfies Feat;
  });
}

/** Rivers (grouped by Natural Earth river number) and lakes; `lines` are shore rings and river lines, owner = index into feats. */
export function readWater(dir: string, riversFile: string, lakesFile: string): { feats: Feat[]; lines: Rings; lakeRings: Rings } {
  const feats: Feat[] = [];
  const lines: Rings = { owner: [], start: [], coords: [] };
  const lakeRings: Rings = { owner: [], start: [], coords: [] };
  const groups = new Map<string, any[]>();
  for (const ft of readJson(dir, riversFile).features) {
    const p = ft.properties;
    if (!p.name) continue; // unnamed centerlines carry nothing a caller can use
    const key = p.rivernum != null ? `n${p.rivernum}|${p.name}` : p.name;
    const l = groups.get(key);
    if (l) l.push(ft); else groups.set(key, [ft]);
  }
  for (const [key, fts] of groups) {
    const idx = feats.length;
    const all = fts.flatMap((ft) => linesOf(ft.geometry));
    // Representative point: the middle vertex of the longest line.
    const longest = all.reduce((a, b) => (b.length > a.length ? b : a));
    const [lng, lat] = longest[longest.length >> 1];
    const p = fts[0].properties;
    const alt = [p.name_alt, p.name_en].filter((s: unknown): s is string => typeof s === 'string' && !!s && s !== p.name);
    feats.push({ code: `ne.rv.${stableHash(key)}`, layer: 'water', cat: 'river', name: p.name, alt: [...alt, `${p.name} River`],
      lat, lng, country: null, admin1: null, pop: 0, importance: 0.5, sources: ['ne_rivers'] });
    for (const line of all) {
      lines.owner.push(idx); lines.start.push(lines.coords.length / 2);
      for (const [x, y] of line) lines.coords.push(x, y);
    }
  }
  for (const ft of readJson(dir, lakesFile).features) {
    const p = ft.properties;
    if (!p.name) continue;
    const idx = feats.length;
    const polys = polygonsOf(ft.geometry);
    const [lng, lat] = labelPoint(polys);
    const alt = [p.name_alt, p.name_abb].filter((s: unknown): s is string => typeof s === 'string' && !!s && s !== p.name);
    feats.push({ code: `ne.lk.${stableHash(p.name, lng.toFixed(4), lat.toFixed(4))}`, layer: 'water', cat: 'lake', name: p.name,
      alt: [...alt, /^lake /i.test(p.name) ? '' : `Lake ${p.name}`].filter(Boolean), lat, lng, country: null, admin1: null, pop: 0,
      importance: 0.6, sources: ['ne_lakes'] });
    for (const poly of polys) for (const ring of poly) { addRing(lines, idx, ring); addRing(lakeRings, idx, ring); }
  }
  return { feats, lines, lakeRings };
}
