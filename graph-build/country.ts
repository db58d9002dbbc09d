// `npm run graph-build -- country --input kenya-latest.osm.pbf --name ke`: one command that adds a
// country to what the server holds, from one full-tag OpenStreetMap extract:
//   <out>/<name>/        driving, walking and cycling graphs (graph-build/roads.ts)
//   <out>/pois-<name>/   its businesses, lodging, markets and protected areas (graph-build/pois)
//   <out>/gazetteer/     rebuilt with the country's named streets, addresses (addr:*) and
//                        admin_level boundaries beside the default sources
//   <out>/tiles/         rebuilt with the country's roads beside the default extracts
// The gazetteer and the tile set are one dataset each for every country served, so they are rebuilt
// from data/sources.json plus every country recorded in <out>/countries.json (this one included);
// `kill -HUP` (or POST /admin/reload) then serves it all. The admin-1 units of the answers stay
// Natural Earth's; the extract's own boundaries come as `admin` units with their admin_level.
import { basename, resolve } from 'node:path';
import { buildRoadExtract } from './roads.ts';
import { buildPois } from './pois/index.ts';
import { buildGazetteer } from './gazetteer/index.ts';
import { buildTiles } from './tiles/index.ts';
import { readSources } from './defaults.ts';
import { PROFILES } from './profiles/index.ts';
import { recordCountry, roadSources } from './countries.ts';

export interface CountryBuildOptions {
  input: string;
  /** The country's dataset name (roads); its places go to pois-<name>. */
  name: string;
  out: string;
  sharedDataDir: string;
  /** Highest tile zoom (default 14); tests use a lower one. */
  maxZoom?: number;
  progress?: boolean;
}

export interface CountryBuildReport {
  name: string;
  seconds: number;
  steps: { step: string; dataset: string; seconds: number }[];
}

export async function buildCountry(o: CountryBuildOptions): Promise<CountryBuildReport> {
  const t0 = performance.now();
  const input = resolve(o.input);
  const steps: CountryBuildReport['steps'] = [];
  const step = async (name: string, dataset: string, f: () => Promise<unknown>) => {
    const s = performance.now();
    // the sub-builds draw their own bars on a terminal; elsewhere each step says it starts
    if (o.progress && !process.stderr.isTTY) process.stderr.write(JSON.stringify({ country: o.name, step: name, event: 'start' }) + '\n');
    await f();
    steps.push({ step: name, dataset, seconds: Math.round((performance.now() - s) / 100) / 10 });
  };
  const sources = readSources();
  await step('roads', o.name, () => buildRoadExtract({ input, name: o.name, profiles: PROFILES, out: o.out, progress: o.progress }));
  await step('places', `pois-${o.name}`, () => buildPois({ input, name: `pois-${o.name}`, out: o.out, progress: o.progress }));
  // recorded once its own datasets exist; the shared ones below then read it with the others
  const countries = recordCountry(o.out, { name: o.name, input });
  const roads = roadSources(sources.roads, countries);
  await step('gazetteer', sources.gazetteer.name, () => buildGazetteer({ sharedDataDir: o.sharedDataDir, out: o.out, sources: sources.gazetteer, roads, extracts: countries, progress: o.progress }));
  if (sources.tiles) {
    await step('tiles', 'tiles', () => buildTiles({ sharedDataDir: o.sharedDataDir, out: o.out, sources: { ...sources.gazetteer, ...sources.tiles }, roads, maxZoom: o.maxZoom, progress: o.progress }));
  }
  const report = { name: o.name, seconds: Math.round((performance.now() - t0) / 100) / 10, steps };
  if (o.progress) process.stderr.write(JSON.stringify({ event: 'summary', country: o.name, input: basename(input), ...report }) + '\n');
  return report;
}
