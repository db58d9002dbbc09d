// npm run bench -- route-tasks [--extract tanzania-sw|monaco] [--pairs 500] [--rounds 3]
//
// The route task in one thread, in process (no HTTP): plain, steps=true and alternatives=1 over the
// same seeded random road-vertex pairs of the extract's driving graph (the pairs `bench -- route
// --osrm` draws), rounds alternated between variants, median µs a pair (unroutable pairs included:
// they cost a snap and a failed search), and how many pairs the alternatives variant answered with
// an alternative. Writes bench/results/route-tasks-<extract>.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { tmpdir, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRoadExtract } from '../graph-build/roads.ts';
import { openGraph, E7 } from '../src/core/format/route.ts';
import { readShared } from '../src/core/format/index.ts';
import type { GuidedRouteArgs } from '../src/core/tasks/index.ts';
import { LoadedGraph, setLoadedGraphs } from '../workers/routing/graphs.ts';
import { plainRouteTask, guidedRouteTask } from '../workers/routing/answers/route-json.ts';
import { rng } from './lib/rand.ts';
import { median, round } from './lib/stats.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHARED = process.env.SHARED_DATA_DIR ?? resolve(HERE, '..', '..', 'shared', 'data');
const EXTRACTS: Record<string, string> = {
  'tanzania-sw': 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf',
  monaco: 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf',
};

const VARIANTS: Record<string, Partial<GuidedRouteArgs>> = {
  plain: {},
  steps: { steps: true, lang: 'en' },
  alternatives: { alternatives: 1 },
};

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { extract: { type: 'string' }, pairs: { type: 'string' }, rounds: { type: 'string' } } });
  const name = values.extract ?? 'tanzania-sw';
  if (!EXTRACTS[name]) throw new Error(`--extract: one of ${Object.keys(EXTRACTS).join(', ')}`);
  const nPairs = Number(values.pairs ?? 500), rounds = Number(values.rounds ?? 3);
  const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-route-tasks-'));
  try {
    await buildRoadExtract({ input: join(SHARED, EXTRACTS[name]), name, out: tmp, profiles: ['driving'] });
    const file = join(tmp, name, 'driving.route.bin');
    const g = openGraph(readShared(file), file);
    setLoadedGraphs([new LoadedGraph(name, 'driving', g)]);
    const rand = rng(20251124);
    const vertex = (): [number, number] => { const p = Math.floor(rand() * g.shapeLat.length); return [g.shapeLat[p] / E7, g.shapeLon[p] / E7]; };
    const pairs = Array.from({ length: nPairs }, () => [vertex(), vertex()] as const);
    const run = (v: string) => {
      let routed = 0, withAlt = 0;
      const t0 = performance.now();
      for (const [from, to] of pairs) {
        const args: GuidedRouteArgs = { from, to, mode: 'driving', ...VARIANTS[v] };
        try {
          const text = (v === 'plain' ? plainRouteTask(args) : guidedRouteTask(args)).text;
          routed++;
          if (v === 'alternatives' && text.includes('"alternatives":[{')) withAlt++;
        } catch { /* no route: counted in the time, not in routed */ }
      }
      return { us: (1000 * (performance.now() - t0)) / pairs.length, routed, withAlt };
    };
    const us: Record<string, number[]> = {}, last: Record<string, { routed: number; withAlt: number }> = {};
    for (const v of Object.keys(VARIANTS)) { run(v); us[v] = []; } // warm-up (JIT)
    for (let r = 0; r < rounds; r++) for (const v of Object.keys(VARIANTS)) { const x = run(v); us[v].push(x.us); last[v] = x; }
    const out = {
      bench: 'route-tasks', at: new Date().toISOString(), extract: name, eb_nodes: g.meta.eb_nodes, pairs: nPairs, rounds,
      machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
      note: 'one thread, in process; µs a pair include unroutable pairs (a snap and a failed search)',
      variants: Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, {
        us_per_pair: round(median(us[v]), 1), rounds_us: us[v].map((x) => round(x, 1)), routed: last[v].routed,
        ...(v === 'alternatives' ? { with_alternative: last[v].withAlt } : {}),
      }])),
    };
    mkdirSync(join(HERE, 'results'), { recursive: true });
    writeFileSync(join(HERE, 'results', `route-tasks-${name}.json`), JSON.stringify(out, null, 2) + '\n');
    console.log(JSON.stringify(out, null, 2));
  } finally { rmSync(tmp, { recursive: true, force: true }); }
}
