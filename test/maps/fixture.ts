// The real tile set for the maps tests. Building it costs ~12 s of CPU, so one build is shared
// by every test file: it is kept in the temp folder under a hash of the code and inputs that make
// it (graph-build/tiles, the OSM reader, the gazetteer readers, src/core/maps, sources.json), so
// any change to them rebuilds it. Each suite links it into its own built/ folder.
import { mkdtempSync, readFileSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { hashTrees } from '../helpers/tree-hash.ts';
import { buildTiles } from '../../graph-build/tiles/index.ts';
import { PmArchive } from '../../src/core/maps/pmtiles.ts';
import { decodeMvt } from '../../src/core/maps/mvt.ts';
import { unproject } from '../../src/core/maps/staticmap.ts';

export { REPO, SHARED_DATA } from '../helpers/paths.ts';
import { REPO, SHARED_DATA } from '../helpers/paths.ts';

/** Web-mercator tile of a point. */
export function tileOf(lat: number, lng: number, z: number): [number, number] {
  const n = 2 ** z, r = (lat * Math.PI) / 180;
  return [Math.floor(((lng + 180) / 360) * n), Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n)];
}

function codeHash(): string {
  const h = hashTrees(createHash('sha1'), REPO, ['graph-build/tiles', 'graph-build/osm', 'graph-build/gazetteer', 'src/core/maps']);
  h.update(readFileSync(join(REPO, 'data/sources.json')));
  h.update(readFileSync(join(REPO, 'src/core/format/kinds.ts')));
  return h.digest('hex').slice(0, 16);
}

let shared: Promise<{ dir: string; tiles: number }> | null = null;

async function sharedBuild(): Promise<{ dir: string; tiles: number }> {
  const root = join(tmpdir(), `svc-test-tiles-${codeHash()}`);
  const dir = join(root, 'tiles');
  if (!existsSync(join(dir, 'manifest.json'))) {
    mkdirSync(root, { recursive: true });
    const s = JSON.parse(readFileSync(join(REPO, 'data/sources.json'), 'utf8'));
    await buildTiles({ sharedDataDir: SHARED_DATA, out: root, sources: { ...s.gazetteer, ...s.tiles }, roads: s.roads, progress: false });
  }
  return { dir, tiles: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).tiles };
}

/** Link the shared tile set into `builtDir/tiles` (a fresh temp folder by default). */
export async function buildTestTiles(builtDir = join(mkdtempSync(join(tmpdir(), 'svc-maps-')), 'built')) {
  shared ??= sharedBuild();
  const { dir, tiles } = await shared;
  mkdirSync(builtDir, { recursive: true });
  if (!existsSync(join(builtDir, 'tiles'))) symlinkSync(dir, join(builtDir, 'tiles'), 'dir');
  return { builtDir, tiles };
}

let gaz: Promise<string> | null = null;

/** The real gazetteer (for the geocoder adapter), shared the same way, linked into `builtDir/gazetteer`. */
export async function buildTestGazetteer(builtDir: string): Promise<void> {
  gaz ??= (async () => {
    const h = hashTrees(createHash('sha1'), REPO, ['graph-build/gazetteer', 'graph-build/osm', 'src/core']);
    h.update(readFileSync(join(REPO, 'data/sources.json')));
    const root = join(tmpdir(), `svc-test-gazetteer-${h.digest('hex').slice(0, 16)}`);
    if (!existsSync(join(root, 'gazetteer', 'manifest.json'))) {
      const { buildGazetteer } = await import('../../graph-build/gazetteer/index.ts');
      const s = JSON.parse(readFileSync(join(REPO, 'data/sources.json'), 'utf8'));
      await buildGazetteer({ sharedDataDir: SHARED_DATA, out: root, sources: s.gazetteer, roads: s.roads, progress: false });
    }
    return join(root, 'gazetteer');
  })();
  const dir = await gaz;
  mkdirSync(builtDir, { recursive: true });
  if (!existsSync(join(builtDir, 'gazetteer'))) symlinkSync(dir, join(builtDir, 'gazetteer'), 'dir');
}

/**
 * A vertex of a trunk road in the Sikonge z14 tile (or one beside it), well inside its tile and not
 * an end of its line, read from the built tiles themselves: where a map drawn from them must show
 * the road.
 */
export function trunkVertex(builtDir: string): [number, number] {
  const a = new PmArchive(readFileSync(join(builtDir, 'tiles', 'tiles.pmtiles')));
  const [tx, ty] = tileOf(-5.6333, 32.7667, 14);
  for (let dx = -2; dx <= 2; dx++) for (let dy = -2; dy <= 2; dy++) {
    const t = a.tileRaw(14, tx + dx, ty + dy);
    if (!t) continue;
    for (const f of decodeMvt(t)[0].features) {
      if (f.props.class !== 'trunk') continue;
      const g = f.geometry[0];
      for (let i = 2; i + 2 < g.length; i += 2) {
        if (g[i] < 500 || g[i] > 3600 || g[i + 1] < 500 || g[i + 1] > 3600) continue;
        return unproject(((tx + dx) * 4096 + g[i]) / 16, ((ty + dy) * 4096 + g[i + 1]) / 16, 14);
      }
    }
  }
  throw new Error('no trunk road vertex in the test tiles');
}
