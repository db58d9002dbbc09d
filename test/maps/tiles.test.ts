// The tile build on the real data: one PMTiles v3 archive that the reference reader (the
// pmtiles package) reads the same as ours, the documented layers and fields, roads where the
// OSM extracts have roads, nothing where there is no data, glyphs and sprites beside it.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PMTiles, type Source } from 'pmtiles';
import { PmArchive } from '../../src/core/maps/pmtiles.ts';
import { decodeMvt } from '../../src/core/maps/mvt.ts';
import { readManifest } from '../../src/core/format/index.ts';
import { loadDataset } from '../../src/data/catalog.ts';
import { buildTestTiles, tileOf } from './fixture.ts';
import { roadClass } from '../../graph-build/tiles/layers.ts';

let dir: string;
let a: PmArchive;

beforeAll(async () => {
  const b = await buildTestTiles();
  dir = join(b.builtDir, 'tiles');
  a = new PmArchive(readFileSync(join(dir, 'tiles.pmtiles')));
}, 600_000);

const layersAt = (z: number, lat: number, lng: number) => {
  const [x, y] = tileOf(lat, lng, z);
  const t = a.tileRaw(z, x, y);
  return t ? decodeMvt(t) : null;
};

describe('tile build', () => {
  it('writes a manifest the server loads, and a PMTiles v3 archive z0–14', () => {
    const m = readManifest(dir)!;
    expect(m.dataset).toBe('tiles');
    expect(m.files[0]).toMatchObject({ file: 'tiles.pmtiles', kind: 'pmtiles' });
    expect(loadDataset(dir)!.files['tiles.pmtiles'].byteLength).toBe(m.files[0].bytes);
    expect(a.header).toMatchObject({ minZoom: 0, maxZoom: 14, tileType: 1, tileCompression: 2, clustered: true });
    expect(a.tileCount).toBeGreaterThan(5000);
    expect(a.metadata.vector_layers.map((l: any) => l.id).sort()).toEqual(['boundaries', 'places', 'pois', 'roads', 'water']);
  });

  it('the pmtiles reference reader returns the same bytes for sampled tiles', async () => {
    const bytes = readFileSync(join(dir, 'tiles.pmtiles'));
    const src: Source = { getKey: () => 'mem', getBytes: async (o, n) => ({ data: bytes.buffer.slice(bytes.byteOffset + o, bytes.byteOffset + o + n) }) };
    const ref = new PMTiles(src, undefined, async (buf) => buf); // keep tiles compressed, as stored
    for (const [z, lat, lng] of [[0, 0, 0], [5, -5.6, 32.7], [8, 5.6, -0.2], [14, -5.6333, 32.7667], [12, 36.75, 3.1]] as const) {
      const [x, y] = tileOf(lat, lng, z);
      const r = await ref.getZxy(z, x, y);
      const ours = a.tile(z, x, y);
      expect(!!r, `${z}/${x}/${y}`).toBe(!!ours);
      if (r && ours) expect(Buffer.from(r.data).equals(Buffer.from(ours))).toBe(true);
    }
    const h = await ref.getHeader();
    expect(h.numAddressedTiles).toBe(a.tileCount);
  });

  it('z0 holds country polygons and water; places enter by population rank', () => {
    const z0 = decodeMvt(gunzipSync(a.tile(0, 0, 0)!));
    const b = z0.find((l) => l.name === 'boundaries')!;
    expect(b.features.length).toBeGreaterThan(50);
    expect(b.features.every((f) => f.type === 3 && f.props.admin_level === 2)).toBe(true);
    expect(z0.find((l) => l.name === 'places')).toBeUndefined(); // minzoom 2
    const z5 = layersAt(5, -1.2864, 36.8172)!; // Nairobi
    const places = z5.find((l) => l.name === 'places')!.features;
    const nairobi = places.find((f) => f.props.name === 'Nairobi')!;
    expect(nairobi.props).toMatchObject({ class: 'city', capital: 1, iso_a2: 'KE' });
    expect(Number(nairobi.props.population)).toBeGreaterThan(1_000_000);
    expect(places.every((f) => Number(f.props.population) >= 100_000 || f.props.capital === 1)).toBe(true);
    const z8 = layersAt(8, -1.2864, 36.8172)!;
    const groups = new Set(z8.find((l) => l.name === 'pois')!.features.map((f) => f.props.group));
    expect(groups).toEqual(new Set(['health', 'transit', 'airport']));
    expect(z8.find((l) => l.name === 'boundaries')!.features.some((f) => f.props.admin_level === 4 && f.props.name === 'Nairobi')).toBe(true);
  });

  it('z14 tiles have the roads of the extract with class, name and ref; none where no extract is', () => {
    const L = layersAt(14, -5.6333, 32.7667)!; // Sikonge, Tanzania (tanzania-sw extract)
    expect(L.map((l) => l.name)).toEqual(['roads']);
    expect(L[0].extent).toBe(4096);
    const roads = L[0].features;
    expect(roads.length).toBeGreaterThan(0);
    expect(roads.every((f) => f.type === 2 && typeof f.props.class === 'string')).toBe(true);
    // Algiers east streets: many named.
    const alg = layersAt(14, 36.7525, 3.0420) ?? layersAt(14, 36.72, 3.15);
    expect(alg).not.toBeNull();
    expect(layersAt(14, 0.3, 20.0)).toBeNull(); // central DR Congo: no extract, no z14 tile
    expect(a.tile(15, 0, 0)).toBeNull();
  });

  it('road classes follow OSM highway tags', () => {
    expect(roadClass({ highway: 'trunk_link' })).toBe('trunk');
    expect(roadClass({ highway: 'residential' })).toBe('minor');
    expect(roadClass({ route: 'ferry' })).toBe('ferry');
    expect(roadClass({ highway: 'proposed' })).toBeNull();
  });

  it('writes glyph ranges for Latin, Arabic and Ethiopic and sprites at 1x and 2x', () => {
    for (const r of ['0-255', '1536-1791', '4608-4863']) expect(existsSync(join(dir, 'glyphs', 'Noto Sans Regular', `${r}.pbf`))).toBe(true);
    const s1 = JSON.parse(readFileSync(join(dir, 'sprites', 'sprite.json'), 'utf8'));
    const s2 = JSON.parse(readFileSync(join(dir, 'sprites', 'sprite@2x.json'), 'utf8'));
    expect(s1.hospital.pixelRatio).toBe(1);
    expect(s2.hospital.width).toBe(2 * s1.hospital.width);
    expect(readFileSync(join(dir, 'sprites', 'sprite@2x.png')).subarray(1, 4).toString()).toBe('PNG');
  });
});
