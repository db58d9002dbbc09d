// CPU a server process spends, read from /proc: every thread of it (the HTTP thread, the
// workers), user + system. Machine load disturbs it far less than wall-clock throughput on a
// shared 2-core machine, where the load generator takes cores from the server.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU ms (user + system) of every thread of a process so far; null where /proc is not there. */
export function processCpuMs(pid: number): number | null {
  try {
    let ms = 0;
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      const s = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      ms += (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms
    }
    return ms;
  } catch { return null; }
}

/** Runs f, returning its result and the CPU the process `pid` spent meanwhile. */
export async function withCpu<T>(pid: number | undefined, f: () => Promise<T>): Promise<[T, number | null]> {
  const c0 = pid ? processCpuMs(pid) : null;
  const r = await f();
  const c1 = pid ? processCpuMs(pid) : null;
  return [r, c0 === null || c1 === null ? null : c1 - c0];
}

/** The same for a synchronous f (wrk runs as a blocking child process). */
export function withCpuSync<T>(pid: number | undefined, f: () => T): [T, number | null] {
  const c0 = pid ? processCpuMs(pid) : null;
  const r = f();
  const c1 = pid ? processCpuMs(pid) : null;
  return [r, c0 === null || c1 === null ? null : c1 - c0];
}
