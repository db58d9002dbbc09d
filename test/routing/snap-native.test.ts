// Snapping's nearest-segment search in C++ (native/query nearest.cc) against the TypeScript one
// it stands in for (workers/routing/locate/snap.ts): the same segment, fraction and metres, bit for
// bit, on real extracts, with points on and off the roads, several radii, with and without the
// start-edge rule and the big-component mask. Every candidate, route and matrix cell starts here.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadedGraphs, type LoadedGraph } from '../../workers/routing/graphs.ts';
import { nearestSeg, boxSlack, snap } from '../../workers/routing/locate/snap.ts';
import { queryAddon, useNativeQuery } from '../../workers/routing/search/native-query.ts';
import { EDGE_NO_START } from '../../src/core/format/route.ts';
import { M_PER_DEG } from '../../src/core/geometry.ts';
import { linkRoads } from '../helpers/built.ts';
import { tempDir, loadInto, bothQueries, pointsNearRoads } from './helpers.ts';

const tmp = tempDir();
beforeAll(async () => {
  await linkRoads(tmp.dir, ['accra', 'tanzania-sw']);
  loadInto(tmp.dir, ['accra', 'tanzania-sw']);
}, 300_000);
afterAll(() => { useNativeQuery(true); tmp.remove(); });

const graphOf = (name: string): LoadedGraph => loadedGraphs().find((x) => x.extract === name && x.profile === 'driving')!;

/** n points on the roads, half of them moved up to ~3 km off. */
const points = (graph: LoadedGraph, n: number, seed: number) => pointsNearRoads(graph.g, n, seed, 0.5, 0.06);

function nearest(graph: LoadedGraph, lat: number, lng: number, radius: number, skip: number, mask?: Uint8Array) {
  const g = graph.g, slack = boxSlack(g, lat);
  return nearestSeg(g, graph.index, lng * g.meta.index_cos_lat, lat, lat, lng, (radius / M_PER_DEG) * slack, slack, skip, mask);
}

describe('the native nearest-segment search', () => {
  it('built at install', () => {
    expect(queryAddon()).not.toBeNull();
  });

  for (const name of ['accra', 'tanzania-sw']) {
    it(`${name}: the segment, fraction and metres equal the TypeScript search's, bit for bit`, () => {
      const graph = graphOf(name);
      const pts = points(graph, 400, name.length);
      // a mask of one small component: most points find nothing on it, or something far
      const comps = graph.g.edgeComp;
      const small = new Uint8Array(graph.bigMask.length + 2);
      small[graph.bigMask.length + 1] = 1;
      for (let e = 0; e < comps.length; e++) if (comps[e] >= 0 && !graph.bigMask[comps[e]]) { small[comps[e]] = 1; break; }
      let found = 0, differsFromUnmasked = 0;
      for (const radius of [25, 1000, 20_000]) {
        for (const skip of [0, EDGE_NO_START]) {
          for (const mask of [undefined, graph.bigMask, small]) {
            const { native, ts } = bothQueries(() => pts.map(([la, lo]) => nearest(graph, la, lo, radius, skip, mask)));
            expect(native).toEqual(ts);
            found += ts.filter((x) => x.i >= 0).length;
            if (mask) differsFromUnmasked += ts.filter((x, k) => x.i !== nearest(graph, pts[k][0], pts[k][1], radius, skip).i).length;
          }
        }
      }
      // the cases are not all empty, nor the masks without effect
      expect(found).toBeGreaterThan(pts.length * 6);
      expect(differsFromUnmasked).toBeGreaterThan(0);
    });
  }

  it('snap() answers the same snaps either way, and a filter function still applies', () => {
    const graph = graphOf('tanzania-sw');
    const pts = points(graph, 200, 77);
    const { native, ts } = bothQueries(() => pts.map(([la, lo]) => snap(graph.g, graph.index, la, lo, 5000, graph.bigMask)));
    expect(native).toEqual(ts);
    const onBig = bothQueries(() => pts.map(([la, lo]) => snap(graph.g, graph.index, la, lo, 5000, graph.onBig)));
    expect(onBig.native).toEqual(ts);
    expect(onBig.ts).toEqual(ts);
  });
});
