// `npm start`: runs src/main.ts as one bundled JavaScript file instead of through the tsx loader.
// Loading ~400 TypeScript modules through tsx costs most of a second at every start (its loader
// thread reads and transforms each file); one esbuild bundle loads in a tenth of that. The bundle
// is rebuilt only when one of the files it was made from changed (their mtimes against the
// bundle's, from esbuild's own list of inputs), so an edit is never served stale.
//
// Each source file keeps its own import.meta.url in the bundle: paths relative to a module (the
// repository root, SQL migrations, dashboard assets) resolve as they do unbundled. npm packages
// stay external and load from node_modules. `SVC_BUNDLE=0` runs through tsx as before.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = join(ROOT, 'node_modules', '.cache', 'svc');
const OUT = join(OUT_DIR, 'main.mjs');
const META = join(OUT_DIR, 'main.inputs.json');

/** True when the bundle exists and no file it was built from is newer or gone. */
function fresh() {
  if (!existsSync(OUT) || !existsSync(META)) return false;
  const built = statSync(OUT).mtimeMs;
  try {
    const inputs = JSON.parse(readFileSync(META, 'utf8'));
    for (const f of inputs) if (statSync(join(ROOT, f)).mtimeMs > built) return false;
    return inputs.length > 0;
  } catch {
    return false;
  }
}

/** esbuild plugin: a module's import.meta.url is its own source file's URL, not the bundle's. */
const ownUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      if (args.path.includes(`${join('node_modules', '')}`)) return undefined;
      const src = readFileSync(args.path, 'utf8');
      if (!src.includes('import.meta.url')) return undefined;
      return { contents: src.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

async function bundle() {
  const { build } = await import('esbuild');
  mkdirSync(OUT_DIR, { recursive: true });
  const tmp = `${OUT}.${process.pid}.tmp.mjs`;
  const r = await build({
    entryPoints: [join(ROOT, 'src', 'main.ts')],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // No source map: parsing one at every start costs ~0.1 s; the bundle is unminified and marks
    // each source file with a comment, so a stack trace's line leads back to it.
    sourcemap: false,
    metafile: true,
    logLevel: 'error',
    plugins: [ownUrl],
    absWorkingDir: ROOT,
  });
  // both written whole then renamed: nodes of one machine starting together never read half a file
  writeFileSync(`${META}.${process.pid}.tmp`, JSON.stringify(Object.keys(r.metafile.inputs).filter((f) => !f.includes('node_modules'))));
  renameSync(`${META}.${process.pid}.tmp`, META);
  renameSync(tmp, OUT);
}

if (process.env.SVC_BUNDLE === '0') {
  await import('tsx/esm');
  await import(pathToFileURL(join(ROOT, 'src', 'main.ts')).href);
} else {
  if (!fresh()) await bundle();
  await import(pathToFileURL(OUT).href);
}
