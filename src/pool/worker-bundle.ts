// Workers run one pre-bundled JavaScript file instead of loading TypeScript through tsx:
// a tsx loader in every worker thread costs ~20 MB of memory per thread and slows start-up,
// which would make memory grow with the worker count. The bundle is rebuilt only when a file
// it was made from changed (src/core/cached-bundle.mjs); npm packages load from node_modules.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../core/config.ts';
import { cachedBundle } from '../core/cached-bundle.mjs';

export interface WorkerEntry {
  filename: string;
  execArgv: string[];
}

let built: Promise<WorkerEntry> | null = null;

/**
 * Piscina's thread first require()s the entry file and imports it only if that throws. Node 20.19+
 * require()s an ES module synchronously, and that path aborted a whole test process once
 * ("FATAL ERROR: v8::Module::IsGraphAsync must be used on an instantiated module", in a replacement
 * thread started while its pool shut down). With require(esm) off in the threads, require throws
 * ERR_REQUIRE_ESM and Piscina takes the ordinary import() path, as on older Node.
 */
const NO_REQUIRE_ESM = process.allowedNodeEnvironmentFlags.has('--no-experimental-require-module') ? ['--no-experimental-require-module'] : [];

export function workerEntry(): Promise<WorkerEntry> {
  built ??= bundle();
  return built;
}

async function bundle(): Promise<WorkerEntry> {
  if (process.env.ENGINE_BUNDLE === '0') {
    // Escape hatch for debugging with source: the workers load TypeScript through tsx.
    const argv = process.execArgv.some((a) => a.includes('tsx')) ? process.execArgv : [...process.execArgv, '--import', 'tsx'];
    return { filename: pathToFileURL(join(ROOT, 'workers', 'worker-entry.ts')).href, execArgv: argv };
  }
  const { file } = await cachedBundle({ root: ROOT, entry: 'workers/worker-entry.ts', name: 'worker-entry' });
  // a server started with --cpu-prof profiles its workers too
  return { filename: pathToFileURL(file).href, execArgv: [...process.execArgv.filter((a) => a.startsWith('--cpu-prof')), ...NO_REQUIRE_ESM] };
}
