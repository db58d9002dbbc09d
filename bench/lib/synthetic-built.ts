// The SYNTHETIC grid of `bench -- scale` as the server and the engine load graphs: built once into
// a cache folder, then served from a built folder of its own (the graph file linked, a manifest).
import { mkdirSync, writeFileSync, existsSync, symlinkSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openGraph, ROUTE_KIND, ROUTE_FORMAT_VERSION, type GraphViews } from '../../src/core/format/route.ts';
import { runChild } from './child.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The cached grid of `nodes` (built into `cache` when absent, ~1 min per million nodes): its path without extension. */
export async function syntheticGraph(cache: string, nodes: number, label: string): Promise<string> {
  const base = join(cache, `synthetic-${nodes}-seed1-v${ROUTE_FORMAT_VERSION}`);
  if (!existsSync(`${base}.route.bin`) || !existsSync(`${base}.json`)) {
    mkdirSync(cache, { recursive: true });
    process.stderr.write(`${label}: building the ${nodes}-node synthetic grid into ${cache} (kept for next time)…\n`);
    await runChild(join(HERE, 'build-child.ts'), ['synthetic', String(nodes), '1', '10', '1', cache], { nodeArgs: ['--max-old-space-size=8192'] });
  }
  return base;
}

export function loadGraphFile(path: string): GraphViews {
  const b = readFileSync(path);
  return openGraph(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer, path);
}

/** A built folder `root/name` serving the grid at `base` (whose views the caller holds: `g`) as extract `name` (driving). */
export function syntheticBuilt(base: string, g: GraphViews, root: string, name: string) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  symlinkSync(`${base}.route.bin`, join(dir, 'driving.route.bin'));
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({
    dataset: 'road', name, format_version: ROUTE_FORMAT_VERSION, built_at: new Date().toISOString(),
    files: [{ file: 'driving.route.bin', kind: ROUTE_KIND, version: ROUTE_FORMAT_VERSION, profile: 'driving' }],
    bbox: g.meta.bbox, weight_unit: 'ms', synthetic: true,
  }));
}
