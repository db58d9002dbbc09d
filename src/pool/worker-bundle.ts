// Workers run one pre-bundled JavaScript file instead of loading TypeScript through tsx:
// a tsx loader in every worker thread costs ~20 MB of memory per thread and slows start-up,
// which would make memory grow with the worker count. The bundle is rebuilt at every start
// (≈0.1 s) so it can never be stale; npm packages stay external and load from node_modules.
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../core/config.ts';

export interface WorkerEntry {
  filename: string;
  execArgv: string[];
}

let built: Promise<WorkerEntry> | null = null;

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
  const { build } = await import('esbuild');
  const dir = join(ROOT, 'node_modules', '.cache', 'svc');
  mkdirSync(dir, { recursive: true });
  const out = join(dir, 'worker-entry.mjs');
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp.mjs`;
  await build({
    entryPoints: [join(ROOT, 'workers', 'worker-entry.ts')],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // No source map: workers run without --enable-source-maps, so an inline map would only be
    // ~150 KB more source text held in every thread. The bundle is unminified and marks each file.
    sourcemap: false,
    logLevel: 'error',
  });
  renameSync(tmp, out); // atomic: a concurrent start never loads half a file
  return { filename: pathToFileURL(out).href, execArgv: [] };
}
