// One esbuild bundle of a TypeScript entry, kept in node_modules/.cache/svc/ and rebuilt unless
// every file it was made from (esbuild's own list of inputs) has the size and modification time
// it had then, and the bundle itself is the file that build wrote (another checkout sharing this
// node_modules, or an older version of this code, may have written over it): the server's main
// thread (src/start.mjs) and its worker threads (src/pool/worker-bundle.ts) each load one file
// instead of hundreds of modules.
//
// Each source module keeps its own import.meta.url in the bundle, so paths relative to a module
// (the repository root, SQL migrations, dashboard assets) resolve as they do unbundled. npm packages
// stay external and load from node_modules. Plain JavaScript, so the launcher can use it before any
// TypeScript loader exists.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const identity = (file) => { const st = statSync(file); return `${st.size}:${st.mtimeMs}`; };

/** True when the record beside `out` says it was built here from files that are all unchanged. */
function fresh(root, entry, out, inputsFile) {
  try {
    const rec = JSON.parse(readFileSync(inputsFile, 'utf8'));
    if (rec.root !== root || rec.entry !== entry || rec.bundle !== identity(out) || !rec.inputs?.length) return false;
    for (const [f, id] of rec.inputs) if (identity(join(root, f)) !== id) return false;
    return true;
  } catch {
    return false; // no record, no bundle, or an input gone
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
  if (fresh(o.root, o.entry, out, inputsFile)) return { file: out, rebuilt: false };
  const { build } = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const tag = `${process.pid}.${started}.tmp`;
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
  // the bundle and its record are each written whole then renamed: processes of one machine
  // starting together never read half a file
  const inputs = Object.keys(r.metafile.inputs).filter((f) => !f.includes('node_modules')).map((f) => [f, identity(join(o.root, f))]);
  renameSync(`${out}.${tag}.mjs`, out);
  // a file edited while esbuild read it: no record, so the next start builds again
  if (inputs.some(([f]) => statSync(join(o.root, f)).mtimeMs >= started)) return { file: out, rebuilt: true };
  writeFileSync(`${inputsFile}.${tag}`, JSON.stringify({ root: o.root, entry: o.entry, bundle: identity(out), inputs }));
  renameSync(`${inputsFile}.${tag}`, inputsFile);
  return { file: out, rebuilt: true };
}
