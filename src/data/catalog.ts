// Finds built datasets (data/built/<name>/manifest.json) and maps their files (or reads them into
// SharedArrayBuffers without the mmap addon), verifying each container once here so workers
// never see a bad file.
import { readdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open, readManifest, wholeFile, FormatError } from '../core/format/index.ts';
import { loadFile, releaseResident, isMapped } from '../core/format/mapped.ts';
import { MMAP_ADDON } from '../core/config.ts';
import type { Dataset } from '../core/task.ts';
import { ROUTE_KIND, ROUTE_FORMAT_VERSION, type GraphMeta } from '../core/format/route.ts';
import { PmArchive } from '../core/maps/pmtiles.ts';
import { DATASET_FORMATS } from '../core/format/kinds.ts';
import { TrafficState } from '../core/traffic-state.ts';
import { fileIdentity, readVerified, recordVerified, type VerifyMode } from '../core/format/verified.ts';

/** Profiles whose graphs carry live and historical traffic (probes come from motor vehicles). */
export const TRAFFIC_PROFILES = ['driving'];

/**
 * Format version this build reads, per container kind. The manifest's own `version` only says
 * what was written; without this an old file would pass here and fail later inside every worker.
 */
const READS: Record<string, number> = { [ROUTE_KIND]: ROUTE_FORMAT_VERSION };

export interface LoadReport {
  datasets: Dataset[];
  errors: { dir: string; error: string }[];
  bytes: number;
  /** Of `bytes`, those mapped rather than read into memory. */
  mappedBytes: number;
  seconds: number;
}

/**
 * Load every complete dataset under builtDir. A dataset with a bad file is skipped and reported.
 * `mmap`: the addon to map files with, null to read them (src/core/format/mapped.ts).
 */
export function loadCatalog(builtDir: string, mmap: string | null = MMAP_ADDON, verify: VerifyMode = 'once'): LoadReport {
  const t0 = performance.now();
  const datasets: Dataset[] = [];
  const errors: LoadReport['errors'] = [];
  let bytes = 0, mappedBytes = 0;
  if (!existsSync(builtDir)) return { datasets, errors, bytes, mappedBytes, seconds: 0 };
  for (const name of readdirSync(builtDir).sort()) {
    const dir = join(builtDir, name);
    if (!statSync(dir).isDirectory()) continue;
    try {
      const ds = loadDataset(dir, mmap, verify);
      if (!ds) continue;
      datasets.push(ds);
      for (const f of Object.values(ds.files)) {
        bytes += f.byteLength;
        if (isMapped(f)) mappedBytes += f.byteLength;
      }
    } catch (e) {
      errors.push({ dir, error: (e as Error).message });
    }
  }
  return { datasets, errors, bytes, mappedBytes, seconds: (performance.now() - t0) / 1000 };
}

export function loadDataset(dir: string, mmap: string | null = MMAP_ADDON, verifyMode: VerifyMode = 'once'): Dataset | null {
  const m = readManifest(dir);
  if (!m) return null;
  const files: Dataset['files'] = {};
  const traffic: Record<string, SharedArrayBuffer> = {};
  const known = verifyMode === 'always' ? {} : readVerified(dir);
  const passed: Record<string, string> = {};
  for (const f of m.files) {
    const path = join(dir, f.file);
    if (!existsSync(path)) throw new FormatError(path, 'listed in manifest.json but missing');
    const id = fileIdentity(path);
    const verify = known[f.file] !== id;
    const buf = loadFile(path, mmap);
    if (f.kind === 'pmtiles') {
      // A PMTiles archive is not an svc container: check its format version and that its header and directories parse.
      if (f.version !== DATASET_FORMATS.tiles) throw new FormatError(path, `tiles format version ${f.version}, this build reads ${DATASET_FORMATS.tiles}: rebuild`);
      try { new PmArchive(wholeFile(buf, path)); } catch (e) { throw new FormatError(path, (e as Error).message); }
    } else {
      const o = open(buf, { file: path, kind: f.kind, version: READS[f.kind] ?? f.version, verify });
      if (verify) passed[f.file] = id;
      const meta = o.meta as GraphMeta;
      if (f.kind === ROUTE_KIND && TRAFFIC_PROFILES.includes(meta.profile) && meta.edges > 0) {
        traffic[meta.profile] = TrafficState.create(meta.edges).buffer;
      }
    }
    // The checksum read every page: give them back, so RSS grows with what queries touch.
    if (verify) releaseResident(buf);
    files[f.file] = buf;
  }
  recordVerified(dir, passed);
  return { dataset: m.dataset, name: m.name, dir, manifest: m, files, ...(Object.keys(traffic).length ? { traffic } : {}) };
}
