// Gazetteer build: reads the gazetteer sources and the road extracts, assigns each
// feature its country (point-in-polygon), locality and admin-1, and writes three
// containers (features, text, spatial) plus manifest.json, written last.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import KDBush from 'kdbush';
import { around } from 'geokdbush';
import Flatbush from 'flatbush';
import { writeContainer, writeManifest, type Manifest, type ManifestFile } from '../../src/core/format/index.ts';
import { CATEGORIES, CAT, LAYERS, type Layer } from '../../src/core/categories.ts';
import { inRing, segmentDistance, haversine } from '../../src/core/geometry.ts';
import { GAZ_VERSION, GAZ_FILES } from '../../src/core/format/gazetteer.ts';
import type { Feat } from './model.ts';
import { SOURCE_LIST, SOURCE_BIT } from './sources/registry.ts';
import { readPlaces } from './sources/places.ts';
import { readCountries, readAirports, readPorts, readWater, type Rings } from './sources/naturalearth.ts';
import { readHealth } from './sources/health.ts';
import { readGtfs } from './sources/gtfs.ts';
import { readQuakes } from './sources/quakes.ts';
import { readStreets } from './sources/streets.ts';
import { readAdmin1, type Admin1Unit } from './sources/admin1.ts';
import { readExtractPlaces } from './sources/osm-extract.ts';
import { buildTextIndex } from './textindex.ts';
import { pointIndex, ringSections, segmentSections } from './spatialindex.ts';
import { stringTable } from '../string-table.ts';
import { nameKey } from '../../src/core/text/normalize.ts';

export interface GazetteerSources {
  name?: string;
  geonames: string; citiesjson: string; admin1: string; populated_places: string; countries: string;
  airports: string; ports: string; rivers: string; lakes: string; healthsites: string; who_health: string;
  gtfs: { city: string; file: string }[]; earthquakes: string;
  /** Natural Earth 10m admin-1 polygons (optional: without them admin-1 comes from the sources' own columns). */
  admin1_polygons?: string;
}

export interface BuildOptions {
  sharedDataDir: string;
  /** Parent folder of datasets, e.g. data/built; the gazetteer goes to <out>/<name>/. */
  out: string;
  /** The "gazetteer" object of data/sources.json (file names relative to sharedDataDir). */
  sources: object;
  roads: { name: string; input: string }[];
  /** Full-tag extracts (the countries built by `graph-build -- country`): their addresses and admin_level boundaries. */
  extracts?: { name: string; input: string }[];
  progress?: boolean;
}

/** Km within which a feature outside every (generalised, 1:50m) country polygon is given the nearest country. */
const COAST_TOLERANCE_KM = 30;
/** Km within which a point outside every admin-1 polygon (offshore, a generalised coast) takes the nearest one of its country. */
const ADMIN1_COAST_KM = 10;
/** A locality farther than this is not named in a feature's address. */
const LOCALITY_KM = 30;

const REQUIRED = ['geonames', 'citiesjson', 'admin1', 'populated_places', 'countries', 'airports', 'ports', 'rivers', 'lakes',
  'healthsites', 'who_health', 'gtfs', 'earthquakes'] as const;

function checkSources(s: object): GazetteerSources {
  const o = s as Record<string, unknown>;
  const missing = REQUIRED.filter((k) => o[k] === undefined);
  if (missing.length) throw new Error(`data/sources.json "gazetteer" lacks ${missing.join(', ')}`);
  if (!Array.isArray(o.gtfs)) throw new Error('data/sources.json "gazetteer.gtfs" must be a list of {city, file}');
  return o as unknown as GazetteerSources;
}

export async function buildGazetteer(opts: BuildOptions): Promise<Manifest> {
  const t0 = performance.now();
  const dir = opts.sharedDataDir;
  const src = checkSources(opts.sources);
  const name = src.name || 'gazetteer';
  const outDir = join(opts.out, name);
  const tty = !!opts.progress && process.stderr.isTTY;
  const step = (msg: string) => { if (tty) process.stderr.write(`\r\x1b[2Kgazetteer: ${msg} (${((performance.now() - t0) / 1000).toFixed(1)} s)`); };

  step('countries');
  const { countries, rings: countryRings, feats: countryFeats } = readCountries(dir, src.countries);
  // code → polygon index used for the feature's country; an alias (Somaliland) never takes the code.
  const countryIdx = new Map<string, number>();
  countries.forEach((c, i) => { if (!c.alias) countryIdx.set(c.code, i); });
  countries.forEach((c, i) => { if (!countryIdx.has(c.code)) countryIdx.set(c.code, i); });
  const iso3 = new Map<string, string>();
  for (const c of countries) { iso3.set(c.iso3, c.code); iso3.set(c.adm0, c.code); }
  const ringIdx = ringSections(countryRings, (o) => o, 'c');
  const cStart = ringIdx.cStart as Uint32Array, cCoords = ringIdx.cCoords as Float64Array, cOwner = ringIdx.cOwner as Uint32Array;
  const cFb = Flatbush.from((ringIdx.cIndex as Uint8Array).buffer as ArrayBuffer);
  const countryAt = (lng: number, lat: number): number => {
    const parity = new Map<number, boolean>();
    for (const r of cFb.search(lng, lat, lng, lat)) {
      if (inRing(lng, lat, cCoords, cStart[r], cStart[r + 1])) parity.set(cOwner[r], !parity.get(cOwner[r]));
    }
    for (const [c, v] of parity) if (v) return c;
    return -1;
  };
  const nearestCountry = (lng: number, lat: number, km: number): number => {
    const d = km / 111;
    const k = d / Math.max(0.1, Math.cos((lat * Math.PI) / 180));
    let best = -1, bd = km * 1000;
    for (const r of cFb.search(lng - k, lat - d, lng + k, lat + d)) {
      for (let i = cStart[r]; i < cStart[r + 1] - 1; i++) {
        const m = segmentDistance(lat, lng, cCoords[2 * i], cCoords[2 * i + 1], cCoords[2 * i + 2], cCoords[2 * i + 3]);
        if (m < bd) { bd = m; best = cOwner[r]; }
      }
    }
    return best;
  };
  /** Fill `country` where the source has none; false when the feature lies outside Africa. */
  const placeInCountry = (f: Feat, km = COAST_TOLERANCE_KM): boolean => {
    if (f.country && countryIdx.has(f.country)) return true;
    let c = countryAt(f.lng, f.lat);
    if (c < 0) c = nearestCountry(f.lng, f.lat, km);
    if (c < 0) return false;
    f.country = countries[c].code;
    return true;
  };

  // Admin-1 by point-in-polygon (Natural Earth 10m, c. 2012-13).
  step('admin-1 polygons');
  const a1 = src.admin1_polygons ? readAdmin1(dir, src.admin1_polygons, iso3) : { units: [] as Admin1Unit[], rings: { owner: [], start: [], coords: [] } };
  const a1Idx = ringSections(a1.rings, (o) => o, 'a1');
  const a1Start = a1Idx.a1Start as Uint32Array, a1Coords = a1Idx.a1Coords as Float64Array, a1Owner = a1Idx.a1Owner as Uint32Array;
  const a1Fb = a1Idx.a1Index ? Flatbush.from((a1Idx.a1Index as Uint8Array).buffer as ArrayBuffer) : null;
  /** Admin-1 unit containing the point (even-odd per unit), else the nearest of `cc` within ADMIN1_COAST_KM, else -1. */
  const admin1At = (lng: number, lat: number, cc: string | null): number => {
    if (!a1Fb) return -1;
    const parity = new Map<number, boolean>();
    for (const r of a1Fb.search(lng, lat, lng, lat)) {
      if (inRing(lng, lat, a1Coords, a1Start[r], a1Start[r + 1])) parity.set(a1Owner[r], !parity.get(a1Owner[r]));
    }
    for (const [u, v] of parity) if (v && (!cc || a1.units[u].country === cc)) return u;
    const d = ADMIN1_COAST_KM / 111, k = d / Math.max(0.1, Math.cos((lat * Math.PI) / 180));
    let best = -1, bd = ADMIN1_COAST_KM * 1000;
    for (const r of a1Fb.search(lng - k, lat - d, lng + k, lat + d)) {
      if (cc && a1.units[a1Owner[r]].country !== cc) continue;
      for (let i = a1Start[r]; i < a1Start[r + 1] - 1; i++) {
        const m = segmentDistance(lat, lng, a1Coords[2 * i], a1Coords[2 * i + 1], a1Coords[2 * i + 2], a1Coords[2 * i + 3]);
        if (m < bd) { bd = m; best = a1Owner[r]; }
      }
    }
    return best;
  };
  const admin1Feats: Feat[] = a1.units.map((u) => ({
    code: `ne1.${u.code.toLowerCase()}`, layer: 'admin1', cat: 'admin1', name: u.name,
    alt: [...u.alt, ...(u.type ? [`${u.name} ${u.type}`] : [])], lat: u.lat, lng: u.lng, country: u.country, admin1: u.name,
    pop: 0, importance: 0.5, sources: ['ne_admin1'], extra: { adm1_code: u.code, type: u.type, hasc: u.hasc, boundaries: 'Natural Earth 10m admin-1, c. 2012-2013' },
  }) satisfies Feat);

  step('places');
  const { feats: places } = readPlaces(dir, src);
  for (const f of places) placeInCountry(f);
  step('airports, ports, water');
  const pois = [...readAirports(dir, src.airports), ...readPorts(dir, src.ports)].filter((f) => placeInCountry(f));
  const water = readWater(dir, src.rivers, src.lakes);
  // Natural Earth's Africa bbox lets in a few Arabian and European features: keep those in or near Africa.
  const waterKeep = water.feats.map((f) => placeInCountry(f, 50));

  // Nearest populated place (locality) for streets and point features.
  const placeKd = new KDBush(places.length);
  for (const f of places) placeKd.add(f.lng, f.lat);
  placeKd.finish();
  const nearestPlace = (lng: number, lat: number) => {
    const r = around(placeKd, lng, lat, 1);
    return r.length ? r[0] : -1;
  };

  step('health facilities');
  const health = readHealth(dir, src, iso3);
  step('GTFS');
  const transit: Feat[] = [];
  const gtfsCounts: Record<string, { stops: number; routes: number }> = {};
  for (const g of src.gtfs) {
    const r = readGtfs(dir, g);
    gtfsCounts[g.city] = { stops: r.feats.length, routes: r.routes };
    for (const f of r.feats) transit.push(f);
  }
  step('earthquakes');
  const quakes = readQuakes(dir, src.earthquakes, iso3);
  const streets = await readStreets(dir, opts.roads, nearestPlace, step);
  const ex = await readExtractPlaces(dir, opts.extracts ?? [], step);
  // An address or a street inside an OpenStreetMap municipality (admin_level 7-8, else the
  // deepest unit) is named after it rather than after the nearest GeoNames place.
  const exIdx = ringSections(ex.rings, (o) => o, 'ad');
  const adStart = exIdx.adStart as Uint32Array, adCoords = exIdx.adCoords as Float64Array, adOwner = exIdx.adOwner as Uint32Array;
  const adFb = exIdx.adIndex ? Flatbush.from((exIdx.adIndex as Uint8Array).buffer as ArrayBuffer) : null;
  const municipalityAt = (lng: number, lat: number): number => {
    if (!adFb) return -1;
    const parity = new Map<number, boolean>();
    for (const r of adFb.search(lng, lat, lng, lat)) {
      if (inRing(lng, lat, adCoords, adStart[r], adStart[r + 1])) parity.set(adOwner[r], !parity.get(adOwner[r]));
    }
    let best = -1, bestLevel = -1;
    for (const [u, v] of parity) {
      const level = ex.admins[u].extra!.admin_level as number;
      if (v && level <= 8 && level > bestLevel) { best = u; bestLevel = level; }
    }
    return best;
  };
  const municipality = new Map<Feat, number>();
  for (const f of [...streets.feats, ...ex.addresses]) {
    const m = municipalityAt(f.lng, f.lat);
    if (m >= 0) municipality.set(f, m);
  }

  for (const f of [...health.feats, ...transit, ...quakes, ...streets.feats, ...ex.addresses, ...ex.admins]) placeInCountry(f);

  // Assemble in layer order so each layer is a contiguous id range.
  const byLayer: Record<Layer, Feat[]> = {
    country: countryFeats, admin1: admin1Feats, place: places, poi: pois, water: water.feats.filter((_, i) => waterKeep[i]), street: streets.feats,
    health: health.feats, transit, quake: quakes, address: ex.addresses, admin: ex.admins,
  };
  const waterNew = new Map<number, number>();
  { let k = 0; water.feats.forEach((_, i) => { if (waterKeep[i]) waterNew.set(i, k++); }); }
  const feats: Feat[] = [];
  const layerRange: Record<string, [number, number]> = {};
  for (const l of LAYERS) {
    const s = feats.length;
    for (const f of byLayer[l]) feats.push(f);
    layerRange[l] = [s, feats.length];
  }
  const placeBase = layerRange.place[0], adminBase = layerRange.admin[0];

  step('localities and addresses');
  const admin1List: string[] = [];
  const admin1Idx = new Map<string, number>();
  const a1n = (s: string | null) => {
    if (!s) return 0xffff;
    let i = admin1Idx.get(s);
    if (i === undefined) { i = admin1List.length; admin1List.push(s); admin1Idx.set(s, i); }
    return i;
  };
  const countryName = (cc: string | null) => (cc && countryIdx.has(cc) ? countries[countryIdx.get(cc)!].name : null);
  const n = feats.length;
  const lat = new Float64Array(n), lng = new Float64Array(n), importance = new Float32Array(n);
  const cat = new Uint8Array(n), country = new Uint8Array(n), admin1 = new Uint16Array(n), admin1Unit = new Uint16Array(n), pop = new Uint32Array(n), srcMask = new Uint32Array(n);
  const locality = new Int32Array(n).fill(-1);
  const addr: string[] = new Array(n), codes: string[] = new Array(n), names: string[] = new Array(n), extras: string[] = new Array(n);
  const context: string[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const f = feats[i];
    lat[i] = f.lat; lng[i] = f.lng; importance[i] = f.importance; cat[i] = CAT[f.cat]; pop[i] = Math.min(f.pop, 0xffffffff);
    country[i] = f.country && countryIdx.has(f.country) ? countryIdx.get(f.country)! : 0xff;
    for (const s of f.sources) srcMask[i] |= 1 << SOURCE_BIT[s];
    let loc: Feat | null = null;
    const m = municipality.get(f);
    if (m !== undefined) {
      loc = ex.admins[m];
      locality[i] = adminBase + m;
    } else if (f.layer !== 'place' && f.layer !== 'country' && f.layer !== 'admin1' && f.layer !== 'admin') {
      const p = f.locality ?? nearestPlace(f.lng, f.lat);
      if (p >= 0 && (f.layer === 'street' || haversine(f.lat, f.lng, places[p].lat, places[p].lng) <= LOCALITY_KM * 1000)) {
        loc = places[p];
        locality[i] = placeBase + p;
      }
    }
    // Admin-1 by polygon; the source's own column (or the locality's) only where no polygon applies.
    const au = f.layer === 'country' ? -1 : f.layer === 'admin1' ? i - layerRange.admin1[0] : admin1At(f.lng, f.lat, f.country);
    const admin = au >= 0 ? a1.units[au].name : f.admin1 ?? (loc && loc.country === f.country ? loc.admin1 : null);
    admin1[i] = a1n(admin);
    admin1Unit[i] = au >= 0 ? au : 0xffff;
    const cn = countryName(f.country);
    const parts = [f.name, loc?.name, admin, f.layer === 'country' ? null : cn].filter((s): s is string => !!s);
    addr[i] = parts.filter((s, k) => k === 0 || s !== parts[k - 1]).join(', ');
    context[i] = [loc && loc.name !== f.name ? loc.name : null, admin, f.layer === 'country' ? null : cn].filter((s): s is string => !!s);
    codes[i] = f.code; names[i] = f.name ?? '';
    extras[i] = f.extra ? JSON.stringify(f.extra) : '';
  }
  // Stable ids must be unique; a duplicate means two source rows claim one id.
  const codeOrder = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => (codes[a] < codes[b] ? -1 : codes[a] > codes[b] ? 1 : 0));
  for (let k = 1; k < n; k++) if (codes[codeOrder[k]] === codes[codeOrder[k - 1]]) {
    // Keep both, disambiguated deterministically by their order in the source.
    codes[codeOrder[k]] = `${codes[codeOrder[k]]}.${k}`;
  }
  codeOrder.sort((a, b) => (codes[a] < codes[b] ? -1 : codes[a] > codes[b] ? 1 : 0));

  step('text index');
  const text = buildTextIndex(feats, (i) => context[i]);
  // the address parser's key of every name, so a worker's lexicon need not fold them at start
  const nameBlob = Buffer.from(text.sections.nameStr.buffer, text.sections.nameStr.byteOffset, text.sections.nameStr.byteLength);
  const nameOff = text.sections.nameOff;
  const lexKeys = stringTable(Array.from({ length: nameOff.length - 1 }, (_, k) => nameKey(nameBlob.toString('utf8', nameOff[k], nameOff[k + 1]))));

  step('spatial indexes');
  const spatial: Record<string, Uint8Array | Uint32Array | Float64Array> = {};
  for (const l of ['place', 'poi', 'health', 'transit', 'quake', 'street', 'address'] as const) {
    const [s, e] = layerRange[l];
    spatial[`kd_${l}`] = pointIndex(lng, lat, s, e);
  }
  Object.assign(spatial, ringSections(countryRings, (o) => o, 'c'));
  Object.assign(spatial, a1Idx);
  const waterBase = layerRange.water[0];
  const keepRings = (r: Rings): Rings => {
    const out: Rings = { owner: [], start: [], coords: [] };
    for (let i = 0; i < r.owner.length; i++) {
      if (!waterKeep[r.owner[i]]) continue;
      const s = r.start[i], e = i + 1 < r.owner.length ? r.start[i + 1] : r.coords.length / 2;
      out.owner.push(waterNew.get(r.owner[i])!); out.start.push(out.coords.length / 2);
      for (let k = 2 * s; k < 2 * e; k++) out.coords.push(r.coords[k]);
    }
    return out;
  };
  Object.assign(spatial, segmentSections(keepRings(water.lines), (o) => waterBase + o, 'w'));
  Object.assign(spatial, ringSections(keepRings(water.lakeRings), (o) => waterBase + o, 'lk'));
  const streetBase = layerRange.street[0];
  Object.assign(spatial, segmentSections(streets.lines, (o) => streetBase + o, 's'));
  Object.assign(spatial, ringSections(ex.rings, (o) => adminBase + o, 'ad'));

  step('writing');
  mkdirSync(outDir, { recursive: true });
  const cb = stringTable(codes), nb = stringTable(names), ab = stringTable(addr), eb = stringTable(extras);
  const meta = {
    layers: layerRange,
    categories: CATEGORIES,
    countries: countries.map((c) => ({ code: c.code, name: c.name, ...(c.alias ? { alias: true } : {}) })),
    admin1: admin1List,
    /** Admin-1 units of the polygons (index = admin1Unit of a feature, owner of the a1 rings). */
    admin1_units: a1.units.map((u) => ({ code: u.code, name: u.name, country: u.country, type: u.type, hasc: u.hasc, alt: u.alt })),
    admin1_boundaries: src.admin1_polygons ? 'Natural Earth 10m admin-1 states and provinces, c. 2012-2013 (e.g. Kenya as its 8 pre-2013 provinces)' : null,
    sources: SOURCE_LIST.map((s) => ({ key: s.key, title: s.title, licence: s.licence })),
  };
  const files: ManifestFile[] = [];
  const put = (file: string, kind: string, sections: Record<string, any>, m?: unknown) => {
    const bytes = writeContainer(join(outDir, file), kind, GAZ_VERSION, sections, m);
    files.push({ file, kind, version: GAZ_VERSION, bytes });
  };
  put(GAZ_FILES.features.file, GAZ_FILES.features.kind, {
    lat, lng, importance, cat, country, admin1, admin1Unit, pop, srcMask, locality,
    codeStr: cb.bytes, codeOff: cb.off, codeOrder, nameStr: nb.bytes, nameOff: nb.off, addrStr: ab.bytes, addrOff: ab.off, extraStr: eb.bytes, extraOff: eb.off,
  }, meta);
  put(GAZ_FILES.text.file, GAZ_FILES.text.kind, { ...text.sections, lexKeyStr: lexKeys.bytes, lexKeyOff: lexKeys.off });
  put(GAZ_FILES.spatial.file, GAZ_FILES.spatial.kind, spatial);

  const counts: Record<string, number> = {};
  for (const l of LAYERS) counts[l] = layerRange[l][1] - layerRange[l][0];
  const build_seconds = Math.round((performance.now() - t0) / 10) / 100;
  const manifest: Manifest = {
    dataset: 'gazetteer', name, format_version: GAZ_VERSION, built_at: new Date().toISOString(), build_seconds, files,
    counts, features: n,
    text: text.counts,
    health: { healthsites_rows: health.osmRows, who_rows: health.whoRows, who_merged_into_osm: health.merged },
    gtfs: gtfsCounts,
    streets: { named_ways: streets.ways, streets: streets.feats.length, extracts: opts.roads.map((r) => r.name) },
    extracts: {
      names: (opts.extracts ?? []).map((r) => r.name), addresses: ex.addresses.length, admin_units: ex.admins.length,
      /** Boundary relations whose rings did not close (cut at the extract's edge): left out rather than answered wrongly. */
      boundaries_left_open: ex.openBoundaries,
    },
    sources: SOURCE_LIST.map((s) => ({ key: s.key, title: s.title, licence: s.licence })),
    inputs: { ...src, roads: opts.roads.map((r) => r.input), extracts: (opts.extracts ?? []).map((r) => r.input) },
  };
  writeManifest(outDir, manifest);
  if (tty) process.stderr.write('\r\x1b[2K');
  const mb = files.reduce((a, f) => a + f.bytes, 0) / 1e6;
  if (opts.progress !== false) {
    console.log(`gazetteer: ${n} features (${LAYERS.map((l) => `${l} ${counts[l]}`).join(', ')}), ${text.counts.tokens} tokens, ${mb.toFixed(1)} MB in ${build_seconds} s → ${outDir}`);
  }
  return manifest;
}
