// `npm run bench -- <name> [args]` runs bench/<name>.ts's main(args).
const [name, ...args] = process.argv.slice(2);
const known = ['http', 'route', 'scale', 'geocode', 'ingest', 'crash', 'overload', 'osrm-pairs', 'matrix', 'match'];
if (!name || !known.includes(name)) {
  console.error(`usage: npm run bench -- <${known.join('|')}> [options]`);
  process.exit(2);
}
const mod = await import(`./${name}.ts`);
await mod.main(args);
