// The embedded database's WebAssembly compiled ahead: compiling PGlite's 9 MB module is about half
// of opening the database, and it runs off the main thread. `npm start` begins it before loading
// the server's code (src/start.mjs), and the store takes it when it opens PGlite. Both hold this
// module's instance through one global key, since the server's bundle has its own copy of it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const KEY = Symbol.for('svc.pglite.preload');

/**
 * PGlite.create's options for precompiled modules and the file-system bundle; started on the first
 * call, shared by later ones.
 * @returns {Promise<{ pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module; fsBundle: Blob }>}
 */
export function pglitePreload() {
  const g = /** @type {any} */ (globalThis);
  if (!g[KEY]) {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const p = (async () => {
      const [pgliteWasmModule, initdbWasmModule] = await Promise.all(['pglite.wasm', 'initdb.wasm'].map((f) => WebAssembly.compile(readFileSync(join(dist, f)))));
      return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([readFileSync(join(dist, 'pglite.data'))]) };
    })();
    p.catch(() => {}); // the store awaits it and reports a failure there
    g[KEY] = p;
  }
  return g[KEY];
}
