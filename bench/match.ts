// npm run bench -- match [--traces 20]
//
// Issue 11 §5: map matching speed and accuracy. Traces generated from real routes on Tanzania SW and
// eastern Algiers (bench/lib/traces.ts: a fix every 5–30 s, σ = 20 m, 3% outliers), matched by the
// worker task in one thread. Prints and writes bench/results/match.json: points matched per second,
// share of the true route length recovered, matched length / true length, and the RSS the process
// grew by while matching (the query state a busy worker adds). Shared 2-core machine.
import { mkdirSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRoadExtract } from '../graph-build/roads.ts';
import { openGraph } from '../src/core/format/route.ts';
import { readShared } from '../src/core/format/index.ts';
import { JsonText } from '../src/core/task.ts';
import { LoadedGraph, setLoadedGraphs } from '../workers/routing/graphs.ts';
import { routing } from '../workers/routing/index.ts';
import { mainComponentPoints } from './matrix.ts';
import { traceFromRoute, recovered } from './lib/traces.ts';
import { round } from './lib/stats.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const SHARED = resolve(HERE, '..', '..', 'shared', 'data');
const EXTRACTS = [
  { name: 'tanzania-sw', file: 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf' },
  { name: 'algiers-east', file: 'algiers-east-streets-osmnx-2025.osm.pbf' },
];

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { traces: { type: 'string' } } });
  const nTraces = Number(values.traces ?? 20);
  const tmp = mkdtempSync(join(tmpdir(), 'svc-bench-match-'));
  const out: Record<string, unknown> = { bench: 'match', at: new Date().toISOString(), note: 'Synthetic traces from real routes (fix every 5–30 s, σ = 20 m, 3% outliers); one thread, in process; shared 2-core machine.' };
  try {
    for (const e of EXTRACTS) {
      await buildRoadExtract({ input: join(SHARED, e.file), name: e.name, out: tmp, profiles: ['driving'] });
      const f = join(tmp, e.name, 'driving.route.bin');
      const g = openGraph(readShared(f), f);
      setLoadedGraphs([new LoadedGraph(e.name, 'driving', g)]);
      const pts = mainComponentPoints(g, 4 * nTraces, 5);
      const traces = [];
      for (let k = 0; k + 1 < pts.length && traces.length < nTraces; k += 2) {
        const r = JSON.parse((routing.tasks.route({ from: pts[k], to: pts[k + 1] }) as JsonText).text).route;
        if (r.distance_m < 1000) continue;
        const tr = traceFromRoute(r.geometry.coordinates, r.duration_s, r.distance_m, 20, 0.03, k);
        if (tr.points.length <= 2000) traces.push(tr);
      }
      global.gc?.();
      const rss0 = process.memoryUsage().rss;
      let points = 0, ms = 0, truth = 0, rec = 0, matched = 0, peak = rss0;
      for (const tr of traces) {
        const t0 = performance.now();
        const m = JSON.parse((routing.tasks.route_match({ points: tr.points }) as JsonText).text);
        ms += performance.now() - t0; points += tr.points.length;
        peak = Math.max(peak, process.memoryUsage().rss);
        truth += tr.length_m;
        rec += recovered(tr.truth, m.matchings.map((x: any) => x.geometry.coordinates)) * tr.length_m;
        matched += m.matchings.reduce((a: number, x: any) => a + x.distance_m, 0);
      }
      out[e.name] = {
        traces: traces.length, points, points_per_s: Math.round(points / (ms / 1000)),
        recovered_share: round(rec / truth, 3), matched_over_true_length: round(matched / truth, 3),
        rss_growth_mb: round((peak - rss0) / 1e6, 1),
      };
      process.stderr.write(`match: ${e.name} ${JSON.stringify(out[e.name])}\n`);
    }
  } finally { rmSync(tmp, { recursive: true, force: true }); }
  mkdirSync(join(HERE, 'results'), { recursive: true });
  writeFileSync(join(HERE, 'results', 'match.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(JSON.stringify(out));
}
