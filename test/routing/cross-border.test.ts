// Routes across a border: two neighbouring extracts built as one map (graph-build --input a,b)
// answer as the single file they were cut from. Monaco is cut at a meridian into a west and an
// east extract the way country extracts are cut from the planet (osmium extract): with the
// "complete_ways" strategy a way that crosses is whole in both, its nodes in both files; with
// "simple" each side holds only its own nodes of it.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { readOsm } from '../../graph-build/osm/read.ts';
import { tempDir, loadInto, task, SHARED_DATA } from './helpers.ts';

const MONACO = join(SHARED_DATA, 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf');
const CUT = 7.42;
const t = tempDir('svc-border-');
const west = join(t.dir, 'west.osm.pbf'), east = join(t.dir, 'east.osm.pbf');
const westCut = join(t.dir, 'west-simple.osm.pbf'), eastCut = join(t.dir, 'east-simple.osm.pbf');
const built = join(t.dir, 'built');

/** Deterministic points on each side of the cut, in the built-up part of Monaco. */
function points(n: number, lng0: number, lng1: number, seed: number): [number, number][] {
  let s = seed;
  const r = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  return Array.from({ length: n }, () => [43.727 + r() * 0.02, lng0 + r() * (lng1 - lng0)] as [number, number]);
}
const W = points(12, 7.408, 7.417, 7), E = points(12, 7.423, 7.436, 11);

function answers(name: string) {
  loadInto(built, [name]);
  const routes = W.map((from, i) => task('route', { from, to: E[i], mode: 'driving', radius: 300 }));
  const matrix = task('route_matrix', { sources: W.slice(0, 6), destinations: E.slice(0, 6), mode: 'driving', radius: 300 });
  const iso = task('route_isochrone', { from: W[0], minutes: [3], mode: 'driving', radius: 300 });
  return { routes, matrix, iso };
}

let whole: ReturnType<typeof answers>, joined: ReturnType<typeof answers>;

beforeAll(async () => {
  for (const [out, bbox, strategy] of [[west, `7.349,43.714,${CUT},43.77`, 'complete_ways'], [east, `${CUT},43.714,7.491,43.77`, 'complete_ways'],
    [westCut, `7.349,43.714,${CUT},43.77`, 'simple'], [eastCut, `${CUT},43.714,7.491,43.77`, 'simple']]) {
    execFileSync('osmium', ['extract', '-b', bbox, '--strategy', strategy, '-O', '-o', out, MONACO], { stdio: 'ignore' });
  }
  await buildRoadExtract({ input: MONACO, name: 'whole', profiles: ['driving'], out: built });
  await buildRoadExtract({ input: [west, east], name: 'joined', profiles: ['driving'], out: built });
  whole = answers('whole');
  joined = answers('joined');
}, 180_000);
afterAll(() => t.remove());

describe('a map of two neighbouring extracts', () => {
  it('holds each node and way the two files share once', async () => {
    const [a, w, e, both] = [await readOsm(MONACO), await readOsm(west), await readOsm(east), await readOsm([west, east])];
    expect(w.info.nodeCount + e.info.nodeCount).toBeGreaterThan(a.info.nodeCount); // the border's nodes are in both
    expect(both.info.nodeCount).toBe(a.info.nodeCount);
    expect(both.net.ways.length).toBe(a.net.ways.length);
    expect(Array.from(both.net.nodeIds!)).toEqual(Array.from(a.net.nodeIds!));
    expect(both.net.relations!.map((r) => r.id)).toEqual(a.net.relations!.map((r) => r.id));
  });

  it('makes a way each side clipped whole again', async () => {
    const [a, w, both] = [await readOsm(MONACO), await readOsm(westCut), await readOsm([westCut, eastCut])];
    expect(w.info.missingRefs).toBeGreaterThan(a.info.missingRefs); // the cut clipped ways on this side
    expect(both.info.missingRefs).toBe(a.info.missingRefs);
    expect(both.net.ways.length).toBe(a.net.ways.length);
  });

  it('routes across the border as the whole file does', () => {
    let crossed = 0;
    whole.routes.forEach((w, i) => {
      const j = joined.routes[i];
      if (!w.route) { expect(j.route, `pair ${i}`).toBeUndefined(); return; }
      expect(j.route.distance_m, `pair ${i}`).toBe(w.route.distance_m);
      expect(j.route.duration_s, `pair ${i}`).toBe(w.route.duration_s);
      crossed++;
    });
    expect(crossed).toBeGreaterThanOrEqual(10);
  });

  it('answers a matrix and an isochrone across the border as the whole file does', () => {
    expect(joined.matrix.durations_s).toEqual(whole.matrix.durations_s);
    expect(joined.matrix.distances_m).toEqual(whole.matrix.distances_m);
    expect(whole.matrix.durations_s.flat().filter((d: number | null) => d !== null).length).toBeGreaterThanOrEqual(30);
    expect(joined.iso.reached_nodes).toBe(whole.iso.reached_nodes);
    expect(joined.iso.features).toEqual(whole.iso.features);
  });

  it('one extract alone does not reach past its border', async () => {
    await buildRoadExtract({ input: west, name: 'west', profiles: ['driving'], out: built });
    loadInto(built, ['west']);
    const far = task('route', { from: W[0], to: [43.74, 7.436], mode: 'driving', radius: 300 });
    expect(far.route).toBeUndefined();
    expect(far.status).toBeGreaterThanOrEqual(400);
  }, 60_000);
});
