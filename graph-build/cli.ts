// npm run graph-build -- --input <file.osm.pbf|file.osm>[,<neighbour.osm.pbf>…] --name <extract> [--profiles driving,walk,cycle[,driving_tracks]] [--out data/built]
// npm run graph-build -- gazetteer …   (dispatched to graph-build/gazetteer/cli.ts)
// npm run graph-build -- tiles [--out data/built] [--max-zoom 14]   (vector tiles, glyphs, sprites)
// npm run graph-build -- country --input <full extract> --name <name> [--out data/built]   (graph-build/country.ts)
import { parseArgs } from 'node:util';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROFILES, ALL_PROFILES, type ProfileName } from './profiles/index.ts';
import { largeBlocksFromTheSystem } from './allocator.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `usage: npm run graph-build -- --input <file.osm.pbf|file.osm> --name <extract> [--profiles driving,walk,cycle[,driving_tracks]] [--out data/built]
         (several --input files, or a comma-separated list, are built as one map: routes cross between them)
       npm run graph-build -- gazetteer [options]
       npm run graph-build -- tiles [--out data/built] [--max-zoom 14]
       npm run graph-build -- pois --input <full extract .osm.pbf> [--name pois-x] [--out data/built]
       npm run graph-build -- country --input <full extract .osm.pbf> --name <name> [--out data/built] [--max-zoom 14]
         (roads for driving, walk and cycle, its places, and the gazetteer and tiles rebuilt with it)`;

async function main(argv: string[]) {
  largeBlocksFromTheSystem();
  if (argv[0] === 'gazetteer') {
    const mod = await import('./gazetteer/cli.ts');
    return mod.main(argv.slice(1));
  }
  if (argv[0] === 'pois') {
    const mod = await import('./pois/cli.ts');
    return mod.main(argv.slice(1));
  }
  if (argv[0] === 'country') {
    const { values: v } = parseArgs({ args: argv.slice(1), options: { input: { type: 'string' }, name: { type: 'string' }, out: { type: 'string' }, 'max-zoom': { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
    if (v.help) { console.log(USAGE); return; }
    if (!v.input || !v.name) throw new Error(`country: --input and --name are required\n${USAGE}`);
    if (!/^[a-z0-9][a-z0-9_-]*$/i.test(v.name)) throw new Error(`--name must be letters, digits, '-' or '_' (got '${v.name}')`);
    const maxZoom = v['max-zoom'] === undefined ? undefined : Number(v['max-zoom']);
    if (maxZoom !== undefined && !(Number.isInteger(maxZoom) && maxZoom >= 0 && maxZoom <= 14)) throw new Error(`--max-zoom must be a whole number 0-14 (got '${v['max-zoom']}')`);
    const { loadConfig } = await import('../src/core/config.ts');
    const { buildCountry } = await import('./country.ts');
    const r = await buildCountry({ input: v.input, name: v.name, out: resolve(v.out ?? resolve(ROOT, 'data/built')), sharedDataDir: loadConfig().sharedDataDir, maxZoom, progress: true });
    console.log(`built country ${r.name} in ${r.seconds} s: ${r.steps.map((s) => `${s.step} → ${s.dataset} ${s.seconds} s`).join('; ')}; serve it with kill -HUP <server pid>`);
    return;
  }
  if (argv[0] === 'tiles') {
    const { values: v } = parseArgs({ args: argv.slice(1), options: { out: { type: 'string' }, 'max-zoom': { type: 'string' } } });
    const { readSources } = await import('./defaults.ts');
    const { loadConfig } = await import('../src/core/config.ts');
    const { buildTiles } = await import('./tiles/index.ts');
    const s = readSources();
    if (!s.tiles) throw new Error('data/sources.json has no "tiles" entry');
    const r = await buildTiles({
      sharedDataDir: loadConfig().sharedDataDir, out: resolve(v.out ?? resolve(ROOT, 'data/built')), sources: { ...s.gazetteer, ...s.tiles },
      roads: s.roads, progress: true, maxZoom: v['max-zoom'] ? Number(v['max-zoom']) : undefined,
    });
    console.log(`built tiles: ${r.tiles} tiles, ${(r.bytes / 1e6).toFixed(1)} MB in ${r.seconds.toFixed(1)} s`);
    return;
  }
  const { values } = parseArgs({
    args: argv,
    options: {
      input: { type: 'string', multiple: true }, name: { type: 'string' }, profiles: { type: 'string' },
      out: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) { console.log(USAGE); return; }
  const inputs = (values.input ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  if (!inputs.length || !values.name) throw new Error(`--input and --name are required\n${USAGE}`);
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(values.name)) throw new Error(`--name must be letters, digits, '-' or '_' (got '${values.name}')`);
  const profiles = (values.profiles ? values.profiles.split(',').map((s) => s.trim()) : PROFILES) as ProfileName[];
  for (const p of profiles) if (!ALL_PROFILES.includes(p)) throw new Error(`unknown profile '${p}' (known: ${ALL_PROFILES.join(', ')})`);
  const out = resolve(values.out ?? resolve(ROOT, 'data/built'));
  const { buildRoadExtract } = await import('./roads.ts');
  const m = await buildRoadExtract({ input: inputs, name: values.name, profiles, out, progress: true });
  const per = Object.entries(m.profiles as Record<string, any>).map(([p, c]) => `${p} ${c.nodes} nodes/${c.edges} edges/${c.shortcuts} shortcuts`).join('; ');
  console.log(`built ${m.name} in ${m.build_seconds}s → ${resolve(out, m.name)}: ${per}; bbox ${JSON.stringify(m.bbox)}; OSM data date ${m.osm_data_date ?? 'unknown'}`);
}

main(process.argv.slice(2)).catch((e) => {
  console.error(`graph-build: ${(e as Error).message}`);
  process.exit(1);
});
