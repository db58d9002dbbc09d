// Real datasets for suites that need everything loaded, each built once and shared by every test
// file and run: it is kept in the temp folder under a hash of the code that builds it and of its
// input, so a change to either rebuilds it. A suite links them into its own built/ folder
// (catalog.ts follows the links), so nothing is copied into the repository.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { hashTrees } from './tree-hash.ts';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { buildPois } from '../../graph-build/pois/index.ts';
import { buildTestGazetteer, buildTestTiles } from '../maps/fixture.ts';
import { REPO, SHARED_DATA } from './server.ts';

/** The full-tag OSM extract the POI suites build businesses, markets and protected areas from. */
export const POI_INPUT = 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf';

function hashOf(dirs: string[], inputs: string[]): string {
  const h = hashTrees(createHash('sha1'), REPO, dirs);
  // The shared inputs are large and never edited in place: name, size and time identify them.
  for (const i of inputs) {
    const st = statSync(join(SHARED_DATA, i));
    h.update(`${i}:${st.size}:${st.mtimeMs}`);
  }
  return h.digest('hex').slice(0, 16);
}

const building = new Map<string, Promise<string>>();

/**
 * The dataset folder `name` built by `build(out)` into `out/name`, once per hash. It is built
 * beside its final place and renamed into it, so a suite running at the same time never sees half of it.
 */
function shared(name: string, hash: string, build: (out: string) => Promise<unknown>): Promise<string> {
  const root = join(tmpdir(), `svc-test-${name}-${hash}`);
  let p = building.get(root);
  if (!p) {
    p = (async () => {
      if (!existsSync(join(root, name, 'manifest.json'))) {
        const tmp = `${root}.${process.pid}.tmp`;
        rmSync(tmp, { recursive: true, force: true });
        mkdirSync(tmp, { recursive: true });
        await build(tmp);
        try { renameSync(tmp, root); } catch { rmSync(tmp, { recursive: true, force: true }); } // another suite won
      }
      return join(root, name);
    })();
    building.set(root, p);
  }
  return p;
}

const link = (dir: string, builtDir: string, name: string) => {
  mkdirSync(builtDir, { recursive: true });
  if (!existsSync(join(builtDir, name))) symlinkSync(dir, join(builtDir, name), 'dir');
};

// Everything a build may import; a change anywhere in it rebuilds (a few seconds), never a stale file.
const CODE = ['graph-build', 'src/core'];

/** Road extracts named in data/sources.json (all their profiles), linked into `builtDir`. */
export async function linkRoads(builtDir: string, names: string[]): Promise<void> {
  const roads: { name: string; input: string; profiles: string[] }[] = JSON.parse(readFileSync(join(REPO, 'data/sources.json'), 'utf8')).roads;
  const code = hashOf(CODE, []);
  await Promise.all(names.map(async (n) => {
    const r = roads.find((x) => x.name === n);
    if (!r) throw new Error(`no road extract '${n}' in data/sources.json`);
    const hash = createHash('sha1').update(code).update(hashOf([], [r.input])).update(r.profiles.join(',')).digest('hex').slice(0, 16);
    const dir = await shared(n, hash, (out) => buildRoadExtract({ input: join(SHARED_DATA, r.input), name: n, out, profiles: r.profiles as any }));
    link(dir, builtDir, n);
  }));
}

/** Businesses, markets and protected areas of the Monaco full-tag extract, linked as `pois-monaco`. */
export async function linkPois(builtDir: string): Promise<void> {
  const dir = await shared('pois-monaco', hashOf(CODE, [POI_INPUT]),
    (out) => buildPois({ input: join(SHARED_DATA, POI_INPUT), name: 'pois-monaco', out, progress: false }));
  link(dir, builtDir, 'pois-monaco');
}

/**
 * Every kind of dataset the API serves from: the gazetteer, the tile set, the POI build and the
 * road extracts the declared examples are placed in (Sikonge in tanzania-sw, Accra, eastern Algiers).
 */
export async function linkEverything(builtDir: string): Promise<void> {
  await buildTestGazetteer(builtDir);
  await buildTestTiles(builtDir);
  await linkPois(builtDir);
  await linkRoads(builtDir, ['tanzania-sw', 'accra', 'algiers-east']);
}
