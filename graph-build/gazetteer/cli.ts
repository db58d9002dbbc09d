// `npm run graph-build -- gazetteer [--out data/built] [--data ../shared/data]`: builds the
// gazetteer from the "gazetteer" and "roads" entries of data/sources.json.
import { readFileSync } from 'node:fs';
import { resolve, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGazetteer } from './index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const USAGE = `usage: npm run graph-build -- gazetteer [--out data/built] [--data ../shared/data] [--sources data/sources.json]
Builds <out>/gazetteer/ (features.bin, text.bin, spatial.bin, manifest.json) from the "gazetteer"
and "roads" entries of the sources file; file names are relative to --data (or SHARED_DATA_DIR).`;

export async function main(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const known = new Set(['--out', '--data', '--sources']);
  for (let i = 0; i < argv.length; i += 2) {
    if (!known.has(argv[i]) || argv[i + 1] === undefined) throw new Error(`unexpected argument '${argv[i]}'\n${USAGE}`);
  }
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const sourcesFile = arg('--sources') ?? join(ROOT, 'data/sources.json');
  const sources = JSON.parse(readFileSync(sourcesFile, 'utf8'));
  const out = resolve(arg('--out') ?? join(ROOT, 'data/built'));
  const sharedDataDir = resolve(arg('--data') ?? process.env.SHARED_DATA_DIR ?? join(ROOT, '../shared/data'));
  await buildGazetteer({ sharedDataDir, out, sources: sources.gazetteer, roads: sources.roads ?? [], progress: true });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((e) => { console.error(e); process.exit(1); });
}
