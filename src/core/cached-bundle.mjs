// One esbuild bundle of a TypeScript entry, kept in node_modules/.cache/svc/ and rebuilt only when
// a file it was made from changed (their mtimes against the bundle's, from esbuild's own list of
// inputs) or is gone: the server's main thread (src/start.mjs) and its worker threads
// (src/pool/worker-bundle.ts) each load one file instead of hundreds of modules.
//
// Each source module keeps its own import.meta.url in the bundle, so paths relative to a module
// (the repository root, SQL migrations, dashboard assets) resolve as they do unbundled. npm packages
// stay external and load from node_modules. Plain JavaScript, so the launcher can use it before any
// TypeScript loader exists.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** True when `out` exists and no file listed in `inputsFile` is newer or gone. */
function fresh(root, out, inputsFile) {
  if (!existsSync(out) || !existsSync(inputsFile)) return false;
  const built = statSync(out).mtimeMs;
  try {
    const inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
    for (const f of inputs) if (statSync(join(root, f)).mtimeMs > built) return false;
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
      if (args.path.includes(join('node_modules', ''))) return undefined;
      const src = readFileSync(args.path, 'utf8');
      if (!src.includes('import.meta.url')) return undefined;
      return { contents: src.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
    });
  },
};

/**
 * The path of the bundle of `entry` (relative to `root`), named `name`.mjs, built if stale.
 * @param {{ root: string; entry: string; name: string }} o
 * @returns {Promise<{ file: string; rebuilt: boolean }>}
 */
export async function cachedBundle(o) {
  const dir = join(o.root, 'node_modules', '.cache', 'svc');
  const out = join(dir, `${o.name}.mjs`);
  const inputsFile = join(dir, `${o.name}.inputs.json`);
  if (fresh(o.root, out, inputsFile)) return { file: out, rebuilt: false };
  const { build } = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const tag = `${process.pid}.${Date.now()}.tmp`;
  const r = await build({
    entryPoints: [join(o.root, o.entry)],
    outfile: `${out}.${tag}.mjs`,
    absWorkingDir: o.root,
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
  });
  // both written whole then renamed: processes of one machine starting together never read half a file
  writeFileSync(`${inputsFile}.${tag}`, JSON.stringify(Object.keys(r.metafile.inputs).filter((f) => !f.includes('node_modules'))));
  renameSync(`${inputsFile}.${tag}`, inputsFile);
  renameSync(`${out}.${tag}.mjs`, out);
  return { file: out, rebuilt: true };
}
