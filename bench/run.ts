// `npm run bench -- <name> [args]` runs bench/<name>.ts's main(args): every file of bench/ but
// this one is a benchmark, so adding one is adding its file.
import { readdirSync } from 'node:fs';

const [name, ...args] = process.argv.slice(2);
const known = readdirSync(import.meta.dirname).filter((f) => f.endsWith('.ts') && f !== 'run.ts').map((f) => f.slice(0, -3)).sort();
if (!name || !known.includes(name)) {
  console.error(`usage: npm run bench -- <${known.join('|')}> [options]`);
  process.exit(2);
}
const mod = await import(`./${name}.ts`);
await mod.main(args);
