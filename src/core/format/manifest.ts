// manifest.json sits beside the binary files of one built dataset (data/built/<name>/).
// The server loads exactly the files a manifest lists, verifying each one's kind,
// version and checksum once on the main thread before any worker sees it.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomic } from './container.ts';
import { fileIdentity, recordVerified } from './verified.ts';

export interface ManifestFile {
  /** File name inside the dataset folder, e.g. "driving.ch.bin". */
  file: string;
  /** Container kind tag and kind version (see container.ts). */
  kind: string;
  version: number;
  bytes: number;
  /** Free-form role, e.g. { profile: "driving" }. */
  [k: string]: unknown;
}

export interface Manifest {
  /** "road" for a routing extract, "gazetteer" for the place indexes, "tiles" for vector tiles, "pois" for places from a full OSM extract. */
  dataset: 'road' | 'gazetteer' | 'tiles' | 'pois';
  name: string;
  format_version: number;
  built_at: string;
  build_seconds: number;
  files: ManifestFile[];
  [k: string]: unknown;
}

export function readManifest(dir: string): Manifest | null {
  const p = join(dir, 'manifest.json');
  if (!existsSync(p)) return null;
  return JSON.parse(readFileSync(p, 'utf8')) as Manifest;
}

/**
 * True when a build was written in another format version than `version`, by the manifest or
 * by any of its files: such a build would be refused at load, so `npm start` rebuilds it.
 */
export function isStale(m: Manifest, version: number): boolean {
  return m.format_version !== version || m.files.some((f) => f.version !== version);
}

/**
 * Written last and atomically: a dataset folder is complete exactly when its manifest exists.
 * graph-build computed each container's checksum from the bytes it wrote, so the files are
 * recorded as verified: the first start skips reading them whole (verified.ts).
 */
export function writeManifest(dir: string, m: Manifest): void {
  const ids: Record<string, string> = {};
  for (const f of m.files) if (existsSync(join(dir, f.file))) ids[f.file] = fileIdentity(join(dir, f.file));
  recordVerified(dir, ids);
  writeAtomic(join(dir, 'manifest.json'), new TextEncoder().encode(JSON.stringify(m, null, 2) + '\n'));
}
