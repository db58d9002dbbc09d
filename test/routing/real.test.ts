// Real OpenStreetMap extracts from ../shared/data: build, then the issue 3 §9 check on a
// sample (CH cost == Dijkstra exactly, continuous geometry, length within 0.5%).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { readFileSync, writeFileSync, mkdirSync, readdirSync, copyFileSync } from 'node:fs';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { openGraph, ROUTE_FORMAT_VERSION } from '../../src/core/format/route.ts';
import { checkGraph } from '../../bench/lib/check.ts';
import { snap, loadIndex } from '../../workers/routing/locate/snap.ts';
import { E7 } from '../../src/core/format/route.ts';
import { M_PER_DEG } from '../../src/core/geometry.ts';
import { rng } from '../../bench/lib/rand.ts';
import { loadDataset } from '../../src/data/catalog.ts';
import { readShared, readManifest, writeManifest, isStale } from '../../src/core/format/index.ts';
import { tempDir, loadInto, task, SHARED_DATA } from './helpers.ts';
import type { Manifest } from '../../src/core/format/index.ts';

const EXTRACTS = [
  { name: 'tanzania-sw', file: 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf' },
  { name: 'algiers-east', file: 'algiers-east-streets-osmnx-2025.osm.pbf' },
];

describe('routing on real extracts', () => {
  const tmp = tempDir();
  const manifests: Record<string, Manifest> = {};
  beforeAll(async () => {
    for (const e of EXTRACTS) manifests[e.name] = await buildRoadExtract({ input: join(SHARED_DATA, e.file), name: e.name, out: tmp.dir });
    loadInto(tmp.dir, EXTRACTS.map((e) => e.name));
  });
  afterAll(() => tmp.remove());

  it('writes a manifest with source, bbox, counts and format version', () => {
    const m = manifests['tanzania-sw'] as any;
    expect(m.dataset).toBe('road');
    expect(m.source.file).toBe('tanzania-sw-rural-roads-gostnets-2025.osm.pbf');
    expect(m.source.osm_nodes).toBe(181842);
    expect(m.files.map((f: any) => f.profile).sort()).toEqual(['cycle', 'driving', 'walk']);
    const [w, s, e, n] = m.bbox;
    expect(w).toBeGreaterThan(31.5); expect(e).toBeLessThan(34.8); expect(s).toBeGreaterThan(-8.7); expect(n).toBeLessThan(-5.2);
    for (const p of ['driving', 'walk', 'cycle']) {
      expect(m.profiles[p].nodes).toBeGreaterThan(1000);
      expect(m.profiles[p].shortcuts).toBeGreaterThan(0);
    }
    // Djibouti's header carries a replication timestamp; these two files carry none, so the date is honest null
    expect(m.osm_data_date).toBeNull();
  });

  for (const e of EXTRACTS) {
    for (const p of ['driving', 'walk', 'cycle']) {
      it(`${e.name}/${p}: CH equals Dijkstra on 100 random pairs, geometry continuous and measured`, () => {
        const f = join(tmp.dir, e.name, `${p}.route.bin`);
        const g = openGraph(readShared(f), f, true);
        const r = checkGraph(g, 100, 42);
        expect(r.examples).toEqual([]);
        expect(r.cost_mismatches).toBe(0);
        expect(r.discontinuities).toBe(0);
        expect(r.length_mismatches).toBe(0);
        expect(r.routed).toBeGreaterThan(20);
      });
    }
  }

  it('routes between two villages near Sikonge and picks the extract by coverage', () => {
    const r = task('route', { from: [-5.6316, 32.7663], to: [-5.75, 32.9], mode: 'driving' });
    expect(r.route, JSON.stringify(r)).toBeTruthy();
    expect(r.route.extract).toBe('tanzania-sw');
    expect(r.route.distance_m).toBeGreaterThan(15000);
    expect(r.route.duration_s).toBeGreaterThan(r.route.distance_m / 40); // slower than 144 km/h
    const c = r.route.geometry.coordinates;
    expect(c.length).toBeGreaterThan(10);
    const a = task('route', { from: [36.72, 3.18], to: [36.73, 3.2], mode: 'walk' });
    expect(a.route?.extract, JSON.stringify(a)).toBe('algiers-east');
  });

  it('snaps to the exactly nearest segment (brute force over every segment agrees)', () => {
    const f = join(tmp.dir, 'algiers-east', 'walk.route.bin');
    const g = openGraph(readShared(f), f);
    const index = loadIndex(g);
    const rand = rng(3);
    const [w, so, e, n] = g.meta.bbox;
    // half the points unfiltered, half only onto edges a filter accepts (as the big-component candidate is)
    const every3 = (edge: number) => edge % 3 === 0;
    for (let k = 0; k < 150; k++) {
      const lat = so + rand() * (n - so), lng = w + rand() * (e - w);
      const filter = k % 2 ? every3 : undefined;
      const kx = Math.cos((lat * Math.PI) / 180) * M_PER_DEG;
      let best = Infinity;
      for (let i = 0; i < g.segPt.length; i++) {
        if (filter && !filter(g.segEdge[i])) continue;
        const p = g.segPt[i];
        const ax = (g.shapeLon[p] / E7 - lng) * kx, ay = (g.shapeLat[p] / E7 - lat) * M_PER_DEG;
        const dx = (g.shapeLon[p + 1] / E7 - lng) * kx - ax, dy = (g.shapeLat[p + 1] / E7 - lat) * M_PER_DEG - ay;
        const l2 = dx * dx + dy * dy;
        const t = l2 > 0 ? Math.min(1, Math.max(0, -(ax * dx + ay * dy) / l2)) : 0;
        best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
      }
      const s = snap(g, index, lat, lng, 10000, filter);
      if (best > 9990) continue;
      expect(s, `point ${lat},${lng}`).not.toBeNull();
      // s.dist is haversine, best is planar: they differ by ~1e-4 relative at several km
      expect(Math.abs(s!.dist - best)).toBeLessThan(0.05 + best * 3e-4);
    }
  });

  it('refuses a corrupt graph file with an error naming it', () => {
    const t2 = tempDir();
    try {
      const src = join(tmp.dir, 'algiers-east');
      const dst = join(t2.dir, 'algiers-east');
      buildCopy(src, dst);
      const f = join(dst, 'driving.route.bin');
      const b = readFileSync(f);
      b[b.length - 100] ^= 0xff;
      writeFileSync(f, b);
      expect(() => loadDataset(dst)).toThrow(/driving\.route\.bin.*checksum/);
    } finally { t2.remove(); }
  });

  it('refuses a graph in an older format, and npm start would rebuild it', () => {
    const t2 = tempDir();
    try {
      const dst = join(t2.dir, 'algiers-east');
      buildCopy(join(tmp.dir, 'algiers-east'), dst);
      const old = ROUTE_FORMAT_VERSION - 1;
      // what an older build left behind: its own version in every file header and in the manifest
      for (const p of ['driving', 'walk', 'cycle']) {
        const f = join(dst, `${p}.route.bin`);
        const b = readFileSync(f);
        b.writeUInt32LE(old, 24); // kind version (outside the checksummed payload)
        writeFileSync(f, b);
      }
      const m = readManifest(dst)!;
      expect(isStale(m, ROUTE_FORMAT_VERSION)).toBe(false);
      m.format_version = old;
      for (const f of m.files) f.version = old;
      writeManifest(dst, m);
      expect(isStale(readManifest(dst)!, ROUTE_FORMAT_VERSION)).toBe(true);
      expect(() => loadDataset(dst)).toThrow(new RegExp(`route\\.bin: road-graph format version ${old}, this build reads ${ROUTE_FORMAT_VERSION}; rebuild`));
    } finally { t2.remove(); }
  });

  it('fails clearly on a missing or non-PBF input', async () => {
    await expect(buildRoadExtract({ input: '/nonexistent.osm.pbf', name: 'x', out: tmp.dir })).rejects.toThrow(/not found/);
    await expect(buildRoadExtract({ input: join(SHARED_DATA, 'README.md'), name: 'x', out: tmp.dir })).rejects.toThrow(/README\.md/);
  });
});

function buildCopy(src: string, dst: string) {
  mkdirSync(dst, { recursive: true });
  for (const f of readdirSync(src)) copyFileSync(join(src, f), join(dst, f));
}
