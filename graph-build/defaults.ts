// Builds the default datasets listed in data/sources.json that are not built yet.
// `npm start` calls this before serving, so a fresh clone serves real data.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../src/config.ts';
import { ROOT } from '../src/config.ts';
import { log } from '../src/log.ts';

export interface Sources {
  roads: { name: string; input: string; profiles?: ('driving' | 'walk' | 'cycle')[] }[];
  gazetteer: { name: string; [k: string]: unknown };
}

export function readSources(): Sources {
  return JSON.parse(readFileSync(join(ROOT, 'data', 'sources.json'), 'utf8'));
}

export async function ensureDefaultData(config: Config): Promise<void> {
  const sources = readSources();
  const progress = process.stdout.isTTY;
  for (const r of sources.roads) {
    if (existsSync(join(config.builtDir, r.name, 'manifest.json'))) continue;
    const input = join(config.sharedDataDir, r.input);
    if (!existsSync(input)) {
      log.warn('source_missing', { extract: r.name, input });
      continue;
    }
    const { buildRoadExtract } = await import('./roads.ts');
    log.info('building', { extract: r.name, input });
    await buildRoadExtract({ input, name: r.name, profiles: r.profiles, out: config.builtDir, progress });
  }
  if (!existsSync(join(config.builtDir, sources.gazetteer.name, 'manifest.json'))) {
    const { buildGazetteer } = await import('./gazetteer/index.ts');
    log.info('building', { dataset: sources.gazetteer.name });
    await buildGazetteer({ sharedDataDir: config.sharedDataDir, out: config.builtDir, sources: sources.gazetteer, roads: sources.roads, progress });
  }
}
