// npm run bench -- osrm-pairs [--pairs 300] [--osrm-cache DIR]
//
// Issue 11 §1, "never a false no_route": on every default road extract (data/sources.json), random
// pairs of drivable road vertices (shape points of our driving graph, seeded) are asked of
// osrm-routed with OSRM's car profile and of our router. Writes
//   test/routing/osrm-car-pairs.json — the pairs with OSRM's answer (distance or null), which
//     test/routing/no-route.test.ts replays without OSRM;
//   bench/results/osrm-pairs.json    — per extract: pairs OSRM routes, how many of those we route,
//     our false no_route count, and the distance ratio ours/OSRM (median, p95).
// OSRM snaps without a radius (it moved one Algiers point 11.6 km onto its big component); we snap
// within `radius` (max 10 km). So a pair OSRM routes is asked of us with radius = the farther of
// OSRM's two snap distances (at least our default 1,000 m); pairs OSRM snapped farther than our
// maximum are counted apart ("osrm_snapped_beyond_max_radius"), not as misses.
import { mkdirSync, writeFileSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRoadExtract } from '../graph-build/roads.ts';
import { loadDataset } from '../src/data/catalog.ts';
import { routing } from '../workers/routing/index.ts';
import { readShared } from '../src/core/format/index.ts';
import { openGraph, E7 } from '../src/core/format/route.ts';
import { TaskError } from '../src/core/task.ts';
import { rng } from './lib/rand.ts';
import { percentile, median, round } from './lib/stats.ts';
import { osrmAvailable, prepareOsrm, startOsrm, OSRM_DIR } from './lib/osrm.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..');
const SHARED = resolve(REPO, '..', 'shared', 'data');
export const PAIRS_FILE = join(REPO, 'test', 'routing', 'osrm-car-pairs.json');

export interface PairsFile {
  osrm: string;
  profile: 'car';
  seed: number;
  extracts: Record<string, { input: string; pairs: [number, number, number, number, number | null, number | null][] }>;
}

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { pairs: { type: 'string' }, 'osrm-cache': { type: 'string' } } });
  if (!osrmAvailable()) throw new Error(`no OSRM build at ${OSRM_DIR} (set OSRM_DIR)`);
  const nPairs = Number(values.pairs ?? 300), seed = 20251124;
  const cache = resolve(values['osrm-cache'] ?? join(tmpdir(), 'svc-osrm-cache'));
  const sources = JSON.parse(readFileSync(join(REPO, 'data', 'sources.json'), 'utf8')).roads as { name: string; input: string }[];
  const tmp = mkdtempSync(join(tmpdir(), 'svc-osrm-pairs-'));
  const out: PairsFile = { osrm: readFileSync(join(OSRM_DIR, 'README.txt'), 'utf8').split('\n')[0], profile: 'car', seed, extracts: {} };
  const results: Record<string, unknown> = {};
  let port = 5990;
  try {
    for (const src of sources) {
      const pbf = join(SHARED, src.input);
      await buildRoadExtract({ input: pbf, name: src.name, out: tmp, profiles: ['driving'] });
      const file = join(tmp, src.name, 'driving.route.bin');
      const g = openGraph(readShared(file), file);
      const rand = rng(seed);
      const vertex = (): [number, number] => { const p = Math.floor(rand() * g.shapeLat.length); return [g.shapeLat[p] / E7, g.shapeLon[p] / E7]; };
      const osrm = await startOsrm(prepareOsrm(pbf, cache), port++, 1);
      const pairs: PairsFile['extracts'][string]['pairs'] = [];
      try {
        for (let i = 0; i < nPairs; i++) {
          const a = vertex(), b = vertex();
          const r = await fetch(`${osrm.url}/route/v1/driving/${a[1]},${a[0]};${b[1]},${b[0]}?overview=false`);
          const j = await r.json() as any;
          const ok = j.code === 'Ok';
          pairs.push([a[0], a[1], b[0], b[1], ok ? round(j.routes[0].distance, 1) : null, ok ? round(Math.max(...j.waypoints.map((w: any) => w.distance)), 1) : null]);
        }
      } finally { await osrm.stop(); }
      out.extracts[src.name] = { input: src.input, pairs };
      routing.init([loadDataset(join(tmp, src.name))!]);
      results[src.name] = compare(pairs);
      console.error(src.name, JSON.stringify(results[src.name]));
    }
  } finally { rmSync(tmp, { recursive: true, force: true }); }
  writeFileSync(PAIRS_FILE, JSON.stringify(out) + '\n');
  mkdirSync(join(HERE, 'results'), { recursive: true });
  const report = { when: new Date().toISOString(), osrm: out.osrm, pairs_per_extract: nPairs, extracts: results };
  writeFileSync(join(HERE, 'results', 'osrm-pairs.json'), JSON.stringify(report, null, 2) + '\n');
  console.log(JSON.stringify(report));
}

/** Our answers on the pairs (routing must be initialised on the extract). */
export const MAX_RADIUS_M = 10000;

/**
 * The radius a pair is asked with: OSRM's farther snap, at least our default (1,000 m), plus 1%:
 * OSRM measures snap distances on another earth model (7,763 m there is 7,769 m by our haversine).
 */
export const pairRadius = (osrmSnap: number | null) => Math.max(1000, Math.ceil((osrmSnap ?? 0) * 1.01 + 1));

export function compare(pairs: PairsFile['extracts'][string]['pairs']) {
  let osrmRouted = 0, ours = 0, falseNoRoute = 0, extra = 0, beyond = 0;
  const ratios: number[] = [], misses: unknown[] = [];
  for (const [la1, lo1, la2, lo2, d, osrmSnap] of pairs) {
    const radius = pairRadius(osrmSnap);
    if (radius > MAX_RADIUS_M) { beyond++; continue; }
    let mine: number | null = null, code = '';
    try { mine = (routing.tasks.route_cost({ from: [la1, lo1], to: [la2, lo2], radius })).distance_m; }
    catch (e) { if (!(e instanceof TaskError)) throw e; code = e.code; }
    if (d !== null) {
      osrmRouted++;
      if (mine !== null) { ours++; if (d > 50) ratios.push(mine / d); }
      else { falseNoRoute++; if (misses.length < 5) misses.push({ from: [la1, lo1], to: [la2, lo2], osrm_m: d, radius, code }); }
    } else if (mine !== null) extra++;
  }
  return {
    pairs: pairs.length, osrm_snapped_beyond_max_radius: beyond, osrm_routed: osrmRouted, we_route_of_those: ours, false_no_route: falseNoRoute, we_route_osrm_does_not: extra,
    distance_ratio_ours_over_osrm: { p50: round(median(ratios), 3), p5: round(percentile(ratios.sort((a, b) => a - b), 5), 3), p95: round(percentile(ratios, 95), 3) },
    misses,
  };
}
