// One command builds a country from one full-tag extract (graph-build -- country): tested on a
// stitched file of two Monaco copies (../shared/tools/stitch_country.py --inputs monaco), the copies
// moved far from the original and joined by a synthetic road. What the server then holds: a route
// from one copy to the other, the copy's places and lodging, its streets and addresses in the
// geocoder (where the copy lies, not where Monaco is), its own admin_level boundaries in reverse,
// and its roads drawn in the tiles.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildCountry, type CountryBuildReport } from '../../graph-build/country.ts';
import { loadDataset } from '../../src/data/catalog.ts';
import { routing } from '../../workers/routing/index.ts';
import { pois } from '../../workers/pois/index.ts';
import { geo } from '../../workers/geo/index.ts';
import { PmArchive } from '../../src/core/maps/pmtiles.ts';
import { decodeMvt } from '../../src/core/maps/mvt.ts';
import { tileOf } from '../maps/fixture.ts';
import { haversine } from '../../src/core/geometry.ts';
import { tempDir, task, REPO, SHARED_DATA } from '../routing/helpers.ts';

const t = tempDir('svc-country-');
const pbf = join(t.dir, 'mc2.osm.pbf');
const built = join(t.dir, 'built');
let report: CountryBuildReport;
let pairs: number[][];

beforeAll(async () => {
  execFileSync('/usr/bin/python3', [resolve(REPO, '..', 'shared', 'tools', 'stitch_country.py'), pbf, '300000', '--inputs', 'monaco', '--pairs', '20'], { stdio: 'ignore' });
  pairs = readFileSync(pbf.replace(/\.osm\.pbf$/, '.pairs.csv'), 'utf8').trim().split('\n').map((l) => l.split(',').map(Number));
  report = await buildCountry({ input: pbf, name: 'mc2', out: built, sharedDataDir: SHARED_DATA, maxZoom: 12 });
  const ds = ['mc2', 'pois-mc2', 'gazetteer'].map((n) => loadDataset(join(built, n))!);
  routing.init(ds);
  pois.init(ds);
  geo.init(ds);
}, 600_000);
afterAll(() => t.remove());

describe('graph-build -- country', () => {
  it('builds the roads, the places, the gazetteer and the tiles, and says how long each took', () => {
    expect(report.steps.map((s) => [s.step, s.dataset])).toEqual([['roads', 'mc2'], ['places', 'pois-mc2'], ['gazetteer', 'gazetteer'], ['tiles', 'tiles']]);
    const m = JSON.parse(readFileSync(join(built, 'mc2', 'manifest.json'), 'utf8'));
    expect(m.files.map((f: { file: string }) => f.file).sort()).toEqual(['cycle.route.bin', 'driving.route.bin', 'walk.route.bin']);
  });

  it('routes from one copy to the other', () => {
    let routed = 0;
    for (const p of pairs) {
      const r = task('route', { from: [p[0], p[1]], to: [p[2], p[3]], mode: 'driving', radius: 500 });
      if (r.route) { routed++; expect(r.route.distance_m).toBeGreaterThan(1000); }
    }
    expect(routed).toBeGreaterThanOrEqual(pairs.length * 0.8);
  });

  it('finds the copies\' places and lodging', () => {
    const hotels = pois.tasks.hotels_search({ limit: 50 }, { sandbox: false }) as { results: { lat: number; lng: number }[] };
    expect(hotels.results.length).toBeGreaterThan(10);
    // none where Monaco itself lies: the copies were moved
    expect(hotels.results.every((h) => Math.abs(h.lat - 43.73) > 0.5 || Math.abs(h.lng - 7.42) > 0.5)).toBe(true);
  });

  it('geocodes a street of the country where the copy lies', () => {
    const r = geo.tasks.geocode({ q: 'Boulevard Albert 1er' }, { sandbox: false }) as { results: { type: string; name: string; lat: number; lng: number }[] };
    const street = r.results.find((x) => x.type === 'street' && x.name === 'Boulevard Albert 1er');
    expect(street, JSON.stringify(r.results.slice(0, 3))).toBeTruthy();
    // on one of the copies (Monaco is ~4 km across), not where Monaco itself lies
    const km = Math.min(...pairs.flatMap((p) => [haversine(street!.lat, street!.lng, p[0], p[1]), haversine(street!.lat, street!.lng, p[2], p[3])])) / 1000;
    expect(km).toBeLessThan(6);
    expect(Math.abs(street!.lat - 43.73) > 0.5 || Math.abs(street!.lng - 7.42) > 0.5).toBe(true);
  });

  it('geocodes an address of the copy and reverse-geocodes there to the house and its admin_level 8 boundary', () => {
    type R = { type: string; name: string; lat: number; lng: number; address: string; distance_m?: number; admin_level?: number };
    const r = geo.tasks.geocode({ q: '6 Quai Antoine 1er' }, { sandbox: false }) as { results: R[] };
    const house = r.results[0];
    expect(house, JSON.stringify(r.results.slice(0, 3))).toMatchObject({ type: 'address', name: '6 Quai Antoine 1er' });
    expect(Math.abs(house.lat - 43.73) > 0.5 || Math.abs(house.lng - 7.42) > 0.5).toBe(true);
    // named after its OpenStreetMap municipality, not the nearest African town
    expect(house.address.startsWith('6 Quai Antoine 1er, Monaco')).toBe(true);

    const rev = geo.tasks.reverse({ lat: house.lat, lng: house.lng }, { sandbox: false }) as { results: R[] };
    expect(rev.results[0]).toMatchObject({ type: 'address', name: '6 Quai Antoine 1er', distance_m: 0 });
    const admin = rev.results.filter((x) => x.type === 'admin');
    // La Condamine (admin_level 10) inside Monaco (8), most local first
    expect(admin.map((x) => [x.admin_level, x.name])).toEqual([[10, 'La Condamine'], [8, 'Monaco']]);
    const b = geo.tasks.boundaries_at({ lat: house.lat, lng: house.lng }, { sandbox: false }) as unknown as { admin: R[] };
    expect(b.admin.map((x) => x.admin_level)).toEqual([10, 8]);
    // a French commune of the copy is its own unit
    const beau = geo.tasks.geocode({ q: 'Beausoleil' }, { sandbox: false }) as { results: R[] };
    const unit = beau.results.find((x) => x.type === 'admin');
    expect(unit, JSON.stringify(beau.results.slice(0, 3))).toBeTruthy();
    const inBeau = geo.tasks.boundaries_at({ lat: unit!.lat, lng: unit!.lng }, { sandbox: false }) as unknown as { admin: R[] };
    expect(inBeau.admin[0]).toMatchObject({ name: 'Beausoleil', admin_level: 8 });
  });

  it('records the country, so the next one rebuilds the shared gazetteer and tiles with it', () => {
    const list = JSON.parse(readFileSync(join(built, 'countries.json'), 'utf8')).countries;
    expect(list.map((c: { name: string; input: string }) => [c.name, c.input])).toEqual([['mc2', pbf]]);
    const m = JSON.parse(readFileSync(join(built, 'gazetteer', 'manifest.json'), 'utf8'));
    expect(m.extracts.names).toEqual(['mc2']);
    expect(m.counts.address).toBeGreaterThan(100);
  });

  it('draws the country\'s roads in the tiles', () => {
    const a = new PmArchive(readFileSync(join(built, 'tiles', 'tiles.pmtiles')));
    const [x, y] = tileOf(pairs[0][0], pairs[0][1], 12);
    let roads = 0;
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) {
      const tile = a.tileRaw(12, x + dx, y + dy);
      if (tile) for (const layer of decodeMvt(tile)) if (layer.name === 'roads') roads += layer.features.length;
    }
    expect(roads).toBeGreaterThan(0);
  });
});
