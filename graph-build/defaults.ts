// Builds the default datasets listed in data/sources.json that are not built yet.
// `npm start` calls this before serving, so a fresh clone serves real data.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../src/core/config.ts';
import { ROOT } from '../src/core/config.ts';
import { log } from '../src/core/log.ts';
import { readManifest, isStale } from '../src/core/format/index.ts';
import { ROUTE_FORMAT_VERSION } from '../src/core/format/route.ts';
import { GAZ_VERSION } from '../src/core/format/gazetteer.ts';
import { DATASET_FORMATS } from '../src/core/format/kinds.ts';
import { fontsInstalled, FONT_DIR } from '../src/core/maps/fonts.ts';
import { readBuiltCountries, roadSources } from './countries.ts';

export interface Sources {
  roads: { name: string; input: string; profiles?: ('driving' | 'walk' | 'cycle')[] }[];
  gazetteer: { name: string; [k: string]: unknown };
  tiles?: { name: string; admin1_polygons: string };
}

export function readSources(): Sources {
  return JSON.parse(readFileSync(join(ROOT, 'data', 'sources.json'), 'utf8'));
}

export async function ensureDefaultData(config: Config): Promise<void> {
  const sources = readSources();
  const progress = process.stdout.isTTY;
  // countries built with `graph-build -- country` are part of the shared gazetteer and tiles
  const countries = readBuiltCountries(config.builtDir).filter((c) => {
    // a country whose extract was moved away keeps its own datasets but cannot be re-read
    if (existsSync(c.input)) return true;
    log.warn('source_missing', { country: c.name, input: c.input, effect: 'left out of a gazetteer or tiles rebuild' });
    return false;
  });
  const roads = roadSources(sources.roads, countries);
  for (const r of sources.roads) {
    const m = readManifest(join(config.builtDir, r.name));
    const stale = m !== null && isStale(m, ROUTE_FORMAT_VERSION);
    if (m && !stale) continue;
    const input = join(config.sharedDataDir, r.input);
    if (!existsSync(input)) {
      log.warn('source_missing', { extract: r.name, input, ...(stale ? { stale_format_version: m!.format_version, reads: ROUTE_FORMAT_VERSION } : {}) });
      continue;
    }
    const { buildRoadExtract } = await import('./roads.ts');
    if (stale) log.info('rebuilding', { extract: r.name, input, reason: `format version ${m!.format_version}, this build reads ${ROUTE_FORMAT_VERSION}` });
    else log.info('building', { extract: r.name, input });
    await buildRoadExtract({ input, name: r.name, profiles: r.profiles, out: config.builtDir, progress });
  }
  const gm = readManifest(join(config.builtDir, sources.gazetteer.name));
  if (!gm || isStale(gm, GAZ_VERSION)) {
    const { buildGazetteer } = await import('./gazetteer/index.ts');
    if (gm) log.info('rebuilding', { dataset: sources.gazetteer.name, reason: `format version ${gm.format_version}, this build writes ${GAZ_VERSION}` });
    else log.info('building', { dataset: sources.gazetteer.name });
    await buildGazetteer({ sharedDataDir: config.sharedDataDir, out: config.builtDir, sources: sources.gazetteer, roads, extracts: countries, progress });
  }
  if (sources.tiles) {
    const tm = readManifest(join(config.builtDir, sources.tiles.name));
    const admin1 = join(config.sharedDataDir, sources.tiles.admin1_polygons);
    if (!existsSync(admin1)) log.warn('source_missing', { dataset: sources.tiles.name, input: admin1 });
    else if (!fontsInstalled()) log.warn('fonts_missing', { dataset: sources.tiles.name, dir: FONT_DIR, fix: 'apt-get install -y fonts-noto-core' });
    else if (!tm || isStale(tm, DATASET_FORMATS.tiles)) {
      const { buildTiles } = await import('./tiles/index.ts');
      if (tm) log.info('rebuilding', { dataset: sources.tiles.name, reason: `format version ${tm.format_version}, this build writes ${DATASET_FORMATS.tiles}` });
      else log.info('building', { dataset: sources.tiles.name });
      const r = await buildTiles({ sharedDataDir: config.sharedDataDir, out: config.builtDir, sources: { ...sources.gazetteer, ...sources.tiles }, roads, progress });
      log.info('built', { dataset: sources.tiles.name, tiles: r.tiles, bytes: r.bytes, seconds: Math.round(r.seconds * 10) / 10 });
    }
  }
}
