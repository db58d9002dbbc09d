// A process's memory as /proc/<pid>/smaps_rollup counts it: RSS, and PSS (a page shared between
// processes, such as a memory-mapped built file, is split between them), anonymous and file-backed.
import { readFileSync } from 'node:fs';

export interface Memory { rss_mb: number; pss_mb: number; pss_anon_mb: number; pss_file_mb: number }

export function memory(pid: number): Memory {
  const kb = (k: string, text: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  const t = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const mb = (k: string) => Math.round(kb(k, t) / 102.4) / 10;
  return { rss_mb: mb('Rss'), pss_mb: mb('Pss'), pss_anon_mb: mb('Pss_Anon'), pss_file_mb: mb('Pss_File') };
}
