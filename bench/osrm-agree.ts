// npm run bench -- osrm-agree [--pairs 300] [--extracts monaco,tanzania-sw] [--radius M] [--built DIR] [--osrm-cache DIR] [--out FILE] [--detail]
//
// Where each engine puts the ends of a route: random pairs of drivable road points (shape points of
// our driving graph, seeded) are asked of osrm-routed (car profile, CH, `../shared/tools/osrm`)
// and of our /route task in process (default radius, or --radius), and per extract it counts the pairs with an
// end we moved more than 30 m, an end OSRM moved more than 30 m, an end where the two engines'
// snapped points lie more than 30 m apart, and, over the pairs both route with every end within
// 30 m, how many distances agree within 1% and durations within 2%. A road point snaps to its own
// road at 0 m, so an end we move more than 30 m is a candidate choice (workers/routing/locate/candidates.ts).
// `--built DIR` reuses (or leaves) the built extracts there; else they are built in a temp folder.
// `--detail` also writes every pair (both engines' ends, moves, distances, durations) to the file.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRoadExtract } from '../graph-build/roads.ts';
import { loadDataset } from '../src/data/catalog.ts';
import { routing } from '../workers/routing/index.ts';
import { readShared } from '../src/core/format/index.ts';
import { openGraph, E7 } from '../src/core/format/route.ts';
import { JsonText, TaskError } from '../src/core/task.ts';
import { haversine } from '../src/core/geometry.ts';
import { rng } from './lib/rand.ts';
import { osrmAvailable, prepareOsrm, startOsrm, OSRM_DIR } from './lib/osrm.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHARED = resolve(HERE, '..', '..', 'shared', 'data');
const INPUTS: Record<string, string> = {
  monaco: 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf',
  'tanzania-sw': 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf',
};
const FAR_M = 30;

interface Pair { a: [number, number]; b: [number, number]; osrm: { dist: number; dur: number; ends: [number, number][]; moved: number[] } | null; ours: { dist: number; dur: number; ends: [number, number][]; moved: number[] } | null }

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { pairs: { type: 'string' }, extracts: { type: 'string' }, built: { type: 'string' }, 'osrm-cache': { type: 'string' }, out: { type: 'string' }, detail: { type: 'boolean' }, radius: { type: 'string' } } });
  if (!osrmAvailable()) throw new Error(`no OSRM build at ${OSRM_DIR} (set OSRM_DIR)`);
  const nPairs = Number(values.pairs ?? 300), seed = 20261127;
  const radius = values.radius ? Number(values.radius) : undefined;
  const cache = resolve(values['osrm-cache'] ?? join(tmpdir(), 'svc-osrm-cache'));
  const built = values.built ? resolve(values.built) : mkdtempSync(join(tmpdir(), 'svc-osrm-agree-'));
  const report: Record<string, unknown> = {};
  let port = 6090 + Math.floor(Math.random() * 500);
  try {
    for (const name of (values.extracts ?? 'monaco,tanzania-sw').split(',')) {
      const pbf = join(SHARED, INPUTS[name]);
      if (!existsSync(join(built, name, 'manifest.json'))) await buildRoadExtract({ input: pbf, name, out: built, profiles: ['driving'] });
      const file = join(built, name, 'driving.route.bin');
      const g = openGraph(readShared(file), file);
      routing.init([loadDataset(join(built, name))!]);
      const rand = rng(seed);
      const vertex = (): [number, number] => { const p = Math.floor(rand() * g.shapeLat.length); return [g.shapeLat[p] / E7, g.shapeLon[p] / E7]; };
      const osrm = await startOsrm(prepareOsrm(pbf, cache), port++, 1);
      const pairs: Pair[] = [];
      try {
        for (let i = 0; i < nPairs; i++) {
          const a = vertex(), b = vertex();
          const j = await (await fetch(`${osrm.url}/route/v1/driving/${a[1]},${a[0]};${b[1]},${b[0]}?overview=false`)).json() as any;
          const o = j.code === 'Ok'
            ? { dist: j.routes[0].distance, dur: j.routes[0].duration, ends: j.waypoints.map((w: any) => [w.location[1], w.location[0]]), moved: j.waypoints.map((w: any) => w.distance) }
            : null;
          pairs.push({ a, b, osrm: o, ours: ours(a, b, radius) });
        }
      } finally { await osrm.stop(); }
      report[name] = { ...summary(pairs), ...(values.detail ? { detail: pairs } : {}) };
      console.error(name, JSON.stringify(summary(pairs)));
    }
  } finally { if (!values.built) rmSync(built, { recursive: true, force: true }); }
  const out = { when: new Date().toISOString(), osrm: OSRM_DIR, pairs_per_extract: nPairs, seed, far_m: FAR_M, radius: radius ?? 'default', extracts: report };
  const path = resolve(values.out ?? join(HERE, 'results', 'osrm-agree.json'));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(out, null, 2) + '\n');
  console.log(JSON.stringify({ ...out, extracts: Object.fromEntries(Object.entries(report).map(([k, v]) => [k, { ...(v as object), detail: undefined }])) }, null, 2));
}

function ours(a: [number, number], b: [number, number], radius?: number): Pair['ours'] {
  try {
    const r = routing.tasks.route({ from: a, to: b, radius });
    const j = JSON.parse((r as JsonText).text).route;
    const s = [j.snapped.from, j.snapped.to];
    return { dist: j.distance_m, dur: j.duration_s, ends: s.map((x: any) => [x.lat, x.lng]), moved: s.map((x: any) => x.distance_m) };
  } catch (e) {
    if (e instanceof TaskError) return null;
    throw e;
  }
}

function summary(pairs: Pair[]) {
  const both = pairs.filter((p) => p.osrm && p.ours);
  const far = (m: number[]) => m.some((x) => x > FAR_M);
  const apart = (p: Pair) => [0, 1].some((k) => haversine(p.osrm!.ends[k][0], p.osrm!.ends[k][1], p.ours!.ends[k][0], p.ours!.ends[k][1]) > FAR_M);
  const close = both.filter((p) => !far(p.osrm!.moved) && !far(p.ours!.moved));
  const within = (x: number, y: number, f: number) => Math.abs(x - y) <= f * Math.max(y, 1e-9);
  return {
    pairs: pairs.length,
    osrm_routes: pairs.filter((p) => p.osrm).length,
    we_route: pairs.filter((p) => p.ours).length,
    both_route: both.length,
    we_moved_an_end_over_30m: pairs.filter((p) => p.ours && far(p.ours.moved)).length,
    osrm_moved_an_end_over_30m: pairs.filter((p) => p.osrm && far(p.osrm.moved)).length,
    ends_over_30m_apart: both.filter(apart).length,
    both_ends_within_30m_on_both: close.length,
    of_those_distance_within_1pct: close.filter((p) => within(p.ours!.dist, p.osrm!.dist, 0.01)).length,
    of_those_duration_within_2pct: close.filter((p) => within(p.ours!.dur, p.osrm!.dur, 0.02)).length,
    our_largest_move_m: Math.max(0, ...pairs.filter((p) => p.ours).flatMap((p) => p.ours!.moved)),
  };
}
