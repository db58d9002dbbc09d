// Which built files have had their checksum checked, so that a start does not read every byte of
// every file again (a country's graphs are gigabytes: the CRC alone took seconds per start and
// paged the whole file in). A file is checked once, by graph-build as it writes it or by the first
// start that meets it, and recorded in verified.json beside its manifest under its identity (size,
// modification time, inode). A file replaced, rewritten or copied has another identity and is
// checked again at the next load; BUILT_VERIFY=always checks every file at every load.
import { statSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomic } from './container.ts';

export const VERIFIED_FILE = 'verified.json';

/** `once`: a file's checksum is checked the first time it is met and then trusted by identity; `always`: at every load (BUILT_VERIFY). */
export type VerifyMode = 'once' | 'always';

/** What a file is on disk now: changes when it is written, replaced or copied. */
export function fileIdentity(path: string): string {
  const st = statSync(path, { bigint: true });
  return `${st.size}:${st.mtimeNs}:${st.ino}`;
}

/** File name → identity it had when its checksum last passed ({} when none is recorded or the record is unreadable). */
export function readVerified(dir: string): Record<string, string> {
  const p = join(dir, VERIFIED_FILE);
  if (!existsSync(p)) return {};
  try {
    const v = JSON.parse(readFileSync(p, 'utf8'));
    return v && typeof v === 'object' && v.files && typeof v.files === 'object' ? v.files : {};
  } catch {
    return {};
  }
}

/**
 * Adds files whose checksum is known good (name → identity). Best effort: a read-only data folder
 * only means the next start checks them again.
 */
export function recordVerified(dir: string, files: Record<string, string>): void {
  if (!Object.keys(files).length) return;
  try {
    const all = { ...readVerified(dir), ...files };
    writeAtomic(join(dir, VERIFIED_FILE), new TextEncoder().encode(JSON.stringify({ note: 'files whose CRC passed, by size:mtime_ns:inode (src/core/format/verified.ts)', files: all }, null, 1) + '\n'));
  } catch {
    /* not writable: nothing is lost but time */
  }
}
