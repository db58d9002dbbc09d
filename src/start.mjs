// `npm start`: runs src/main.ts as one bundled JavaScript file instead of through the tsx loader.
// Loading ~400 TypeScript modules through tsx costs most of a second at every start (its loader
// thread reads and transforms each file); the bundle loads in a fraction of that and is rebuilt
// only when a file it was made from changed (src/core/cached-bundle.mjs), so an edit is never
// served stale. `SVC_BUNDLE=0` runs through tsx as before.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cachedBundle } from './core/cached-bundle.mjs';
import { pglitePreload } from './store/pglite-preload.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

if (process.env.SVC_BUNDLE === '0') {
  await import('tsx/esm');
  await import(pathToFileURL(join(ROOT, 'src', 'main.ts')).href);
} else {
  // with the embedded database, its WebAssembly compiles off this thread while the code loads
  if (!process.env.DATABASE_URL) pglitePreload();
  const { file } = await cachedBundle({ root: ROOT, entry: 'src/main.ts', name: 'main' });
  await import(pathToFileURL(file).href);
}
