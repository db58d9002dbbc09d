// `npm run graph-build`: runs graph-build/cli.ts as one bundled JavaScript file instead of through
// the tsx loader, which reads and transforms each of the build's ~100 TypeScript modules at every
// run (about a second of a 1M-node country's 8). The bundle is rebuilt only when a file it was
// made from changed (src/core/cached-bundle.mjs). `SVC_BUNDLE=0` runs through tsx as before.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cachedBundle } from '../src/core/cached-bundle.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

if (process.env.SVC_BUNDLE === '0') {
  await import('tsx/esm');
  await import(pathToFileURL(join(ROOT, 'graph-build', 'cli.ts')).href);
} else {
  const { file } = await cachedBundle({ root: ROOT, entry: 'graph-build/cli.ts', name: 'graph-build' });
  await import(pathToFileURL(file).href);
}
