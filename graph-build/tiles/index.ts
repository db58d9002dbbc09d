// Builds the vector tile set: data/built/tiles/{tiles.pmtiles, glyphs/, sprites/, manifest.json}.
// Continental layers are cut at z0–8; roads of the OSM extracts again at z9–14 where the
// extracts are. Tiles are cut with geojson-vt, encoded as MVT with vt-pbf, gzipped and stored in
// one PMTiles v3 archive, so serving a tile is a lookup.
import { mkdirSync, rmSync, renameSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import GeoJSONVT from 'geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { zxyToTileId } from 'pmtiles';
import { writeAtomic } from '../../src/core/format/index.ts';
import { writeManifest } from '../../src/core/format/manifest.ts';
import { DATASET_FORMATS } from '../../src/core/format/kinds.ts';
import { ATTRIBUTION_HEADER } from '../../src/core/attribution.ts';
import { BASE_EXTENT, BASE_MAXZOOM, DETAIL_EXTENT, DETAIL_MINZOOM, LAYER, MAXZOOM } from '../../src/core/maps/schema.ts';
import { progressBar } from '../progress.ts';
import { boundaryFeatures, placeFeatures, poiFeatures, roadFeatures, waterFeatures, type GeoFeature } from './layers.ts';
import { writePmtiles } from './pmtiles-write.ts';
import { buildGlyphs } from './glyphs.ts';
import { buildSprites } from './sprites.ts';

export const TILES_DATASET = 'tiles';
export const TILES_FILE = 'tiles.pmtiles';

export interface TileBuildOptions {
  sharedDataDir: string;
  out: string;
  sources: Record<string, any>;
  roads: { name: string; input: string }[];
  progress?: boolean;
  /** Highest zoom to cut (default 14); tests use a lower one to build quickly. */
  maxZoom?: number;
}

type Index = { getTile(z: number, x: number, y: number): { features: any[] } | null };

interface LayerSet { name: string; index: Index }

function index(feats: GeoFeature[], maxZoom: number, extent: number): Index {
  return new (GeoJSONVT as any)({ type: 'FeatureCollection', features: feats } as any, {
    maxZoom, indexMaxZoom: Math.min(5, maxZoom), indexMaxPoints: 100000, extent, buffer: extent / 64, tolerance: 3, generateId: false,
  }) as unknown as Index;
}

/** Walk the quadtree from (z0,0,0) down to maxZoom, descending only where some layer has data. */
function cut(layers: LayerSet[], minZoom: number, maxZoom: number, extent: number, onTile: (z: number, x: number, y: number, bytes: Uint8Array) => void, onProgress: (n: number) => void) {
  let seen = 0;
  const visit = (z: number, x: number, y: number) => {
    const tiles: Record<string, any> = {};
    let any = false, some = false;
    for (const l of layers) {
      const t = l.index.getTile(z, x, y);
      if (!t) continue;
      some = true;
      const feats = t.features.filter((f: any) => (f.tags?.minzoom ?? 0) <= z);
      if (!feats.length) continue;
      const tags = feats.map((f: any) => { const { minzoom: _m, ...rest } = f.tags; return { ...f, tags: rest }; });
      tiles[l.name] = { ...t, features: tags };
      any = true;
    }
    if (!some) return;
    if (any && z >= minZoom) onTile(z, x, y, fromGeojsonVt(tiles as any, { version: 2, extent } as any));
    if ((++seen & 63) === 0) onProgress(seen);
    if (z < maxZoom) for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) visit(z + 1, 2 * x + dx, 2 * y + dy);
  };
  visit(0, 0, 0);
}

export async function buildTiles(o: TileBuildOptions): Promise<{ tiles: number; bytes: number; seconds: number }> {
  const t0 = performance.now();
  const bar = progressBar(!!o.progress);
  const dir = o.sharedDataDir, s = o.sources;
  const maxZoom = o.maxZoom ?? MAXZOOM;

  const roads: GeoFeature[] = [];
  const boxes: [number, number, number, number][] = [];
  for (let i = 0; i < o.roads.length; i++) {
    const r = o.roads[i];
    const input = resolve(dir, r.input); // an absolute path (a country command's extract) stays as it is
    if (!existsSync(input)) continue;
    const { feats, bbox } = await roadFeatures(input, (f) => bar.update(`tiles: roads ${r.name}`, f));
    roads.push(...feats);
    if (feats.length) boxes.push(bbox);
  }
  bar.update('tiles: reading NE', 0);
  const boundaries = boundaryFeatures(dir, s.countries, s.admin1_polygons);
  const water = waterFeatures(dir, s.rivers, s.lakes);
  const places = placeFeatures(dir, s as any);
  const pois = poiFeatures(dir, s);

  const out: [number, Uint8Array][] = [];
  const put = (z: number, x: number, y: number, mvt: Uint8Array) => out.push([zxyToTileId(z, x, y), gzipSync(mvt, { level: 6 })]);
  const baseMax = Math.min(BASE_MAXZOOM, maxZoom);
  const base: LayerSet[] = [
    { name: LAYER.boundaries, index: index(boundaries, baseMax, BASE_EXTENT) },
    { name: LAYER.water, index: index(water, baseMax, BASE_EXTENT) },
    { name: LAYER.roads, index: index(roads.filter((f) => (f.properties.minzoom as number) <= baseMax), baseMax, BASE_EXTENT) },
    { name: LAYER.places, index: index(places, baseMax, BASE_EXTENT) },
    { name: LAYER.pois, index: index(pois, baseMax, BASE_EXTENT) },
  ];
  cut(base, 0, baseMax, BASE_EXTENT, put, (n) => bar.update('tiles: z0-8', Math.min(0.99, n / 6000)));
  if (maxZoom >= DETAIL_MINZOOM) {
    const detail: LayerSet[] = [{ name: LAYER.roads, index: index(roads, maxZoom, DETAIL_EXTENT) }];
    cut(detail, DETAIL_MINZOOM, maxZoom, DETAIL_EXTENT, put, (n) => bar.update('tiles: z9-14 roads', Math.min(0.99, n / 60000)));
  }

  const bounds: [number, number, number, number] = [-26, -47, 64, 38];
  const vector_layers = [
    { id: LAYER.boundaries, description: 'Countries (admin_level 2) and first-level divisions (admin_level 4) as polygons', minzoom: 0, maxzoom: BASE_MAXZOOM, fields: { admin_level: 'Number', name: 'String', iso_a2: 'String' } },
    { id: LAYER.water, description: 'Rivers (lines) and lakes (polygons)', minzoom: 0, maxzoom: BASE_MAXZOOM, fields: { class: 'String', name: 'String' } },
    { id: LAYER.roads, description: 'Roads of the OpenStreetMap extracts by class', minzoom: 5, maxzoom: MAXZOOM, fields: { class: 'String', name: 'String', ref: 'String', oneway: 'Number' } },
    { id: LAYER.places, description: 'Populated places ranked by population', minzoom: 2, maxzoom: BASE_MAXZOOM, fields: { name: 'String', class: 'String', population: 'Number', rank: 'Number', capital: 'Number', iso_a2: 'String' } },
    { id: LAYER.pois, description: 'Health facilities, transit stops, airports and ports', minzoom: 5, maxzoom: BASE_MAXZOOM, fields: { group: 'String', class: 'String', name: 'String', iata: 'String' } },
  ];
  const { bytes, contents } = writePmtiles(out, {
    minZoom: 0, maxZoom, bounds, center: [20, 2, 3],
    metadata: { name: 'svc', format: 'pbf', attribution: ATTRIBUTION_HEADER, description: 'svc vector tiles from OpenStreetMap extracts, Natural Earth, GeoNames, healthsites.io, WHO and GTFS', vector_layers, extract_bounds: boxes },
  });

  // Write into a fresh folder and swap it in, so a server never reads a half-built set.
  const final = join(o.out, TILES_DATASET);
  const tmp = join(o.out, `.${TILES_DATASET}.${process.pid}.tmp`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  writeAtomic(join(tmp, TILES_FILE), bytes);
  bar.update('tiles: glyphs', 0);
  const glyphs = buildGlyphs(join(tmp, 'glyphs'), (f) => bar.update('tiles: glyphs', f));
  const sprites = buildSprites(join(tmp, 'sprites'));
  bar.done();
  const seconds = (performance.now() - t0) / 1000;
  writeManifest(tmp, {
    dataset: 'tiles' as any, name: TILES_DATASET, format_version: DATASET_FORMATS.tiles, built_at: new Date().toISOString(), build_seconds: Math.round(seconds * 10) / 10,
    files: [{ file: TILES_FILE, kind: 'pmtiles', version: DATASET_FORMATS.tiles, bytes: bytes.length }],
    tiles: out.length, tile_contents: contents, min_zoom: 0, max_zoom: maxZoom, extract_bounds: boxes,
    glyphs, sprites,
    features: { roads: roads.length, boundaries: boundaries.length, water: water.length, places: places.length, pois: pois.length },
  });
  const old = `${final}.old.${process.pid}`;
  if (existsSync(final)) renameSync(final, old);
  renameSync(tmp, final);
  rmSync(old, { recursive: true, force: true });
  return { tiles: out.length, bytes: bytes.length, seconds };
}
