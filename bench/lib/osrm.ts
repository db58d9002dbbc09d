// osrm-routed beside us, for the side-by-side checks and benchmarks: locate the OSRM build
// (../shared/tools/osrm, or OSRM_DIR), prepare an extract with the car profile once into a cache
// folder (osrm-extract + osrm-contract, CH), and serve it on a loopback port.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve, basename } from 'node:path';

export const OSRM_DIR = process.env.OSRM_DIR ?? resolve(import.meta.dirname, '..', '..', '..', 'shared', 'tools', 'osrm');
export const osrmAvailable = () => existsSync(join(OSRM_DIR, 'bin', 'osrm-routed'));

const env = () => ({ ...process.env, LD_LIBRARY_PATH: join(OSRM_DIR, 'lib') });

/** The .osrm base path for `pbf` under `cacheDir`, built with the car profile if missing. */
export function prepareOsrm(pbf: string, cacheDir: string, threads = 1): string {
  mkdirSync(cacheDir, { recursive: true });
  const b = basename(pbf).replace(/\.osm\.pbf$/, '');
  const link = join(cacheDir, `${b}.osm.pbf`);
  // existsSync follows the link: a link left dangling by a moved checkout is replaced, not reused
  if (!existsSync(link)) { rmSync(link, { force: true }); symlinkSync(resolve(pbf), link); }
  const base = join(cacheDir, `${b}.osrm`);
  if (!existsSync(`${base}.hsgr`)) {
    for (const [tool, args] of [['osrm-extract', ['-t', String(threads), '-p', join(OSRM_DIR, 'profiles', 'car.lua'), link]], ['osrm-contract', ['-t', String(threads), base]]] as const) {
      const r = spawnSync(join(OSRM_DIR, 'bin', tool), args, { env: env(), stdio: ['ignore', 'ignore', 'pipe'] });
      if (r.status !== 0) throw new Error(`${tool} failed: ${r.stderr?.toString().slice(-2000)}`);
    }
  }
  return base;
}

export interface OsrmServer { url: string; proc: ChildProcess; stop(): Promise<void> }

/** osrm-routed (CH) on 127.0.0.1:port; resolves once it answers. */
export async function startOsrm(base: string, port: number, threads = 2, maxTableSize = 10000): Promise<OsrmServer> {
  const proc = spawn(join(OSRM_DIR, 'bin', 'osrm-routed'), ['--algorithm', 'ch', '-i', '127.0.0.1', '-p', String(port), '-t', String(threads), '--max-table-size', String(maxTableSize), base], { env: env(), stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  // polled often, so a start is timed to a few ms; a large graph may take minutes to load
  for (const until = Date.now() + 600_000; Date.now() < until;) {
    try { const r = await fetch(`${url}/nearest/v1/driving/0,0`); if (r.status) break; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    url, proc,
    stop: () => new Promise<void>((res) => { if (proc.exitCode !== null) return res(); proc.once('exit', () => res()); proc.kill('SIGTERM'); }),
  };
}
