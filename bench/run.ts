// `npm run bench -- <name> [args]` runs bench/<name>.ts's main(args): every file of bench/ but
// this one is a benchmark, so adding one is adding its file.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [name, ...args] = process.argv.slice(2);
const known = readdirSync(import.meta.dirname).filter((f) => f.endsWith('.ts') && f !== 'run.ts').map((f) => f.slice(0, -3)).sort();
if (!name || !known.includes(name)) {
  console.error(`usage: npm run bench -- <${known.join('|')}> [options]`);
  process.exit(2);
}
if (args.includes('--help') || args.includes('-h')) {
  // a bench's usage is the comment block its file opens with
  const head = readFileSync(join(import.meta.dirname, `${name}.ts`), 'utf8').split('\n');
  console.log(head.slice(0, head.findIndex((l) => !l.startsWith('//'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
const mod = await import(`./${name}.ts`);
await mod.main(args);
