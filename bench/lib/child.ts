// Run a bench step in a fresh Node process (so its peak RSS and timings are its own) and
// read back the JSON object it prints as its last stdout line.
import { spawn } from 'node:child_process';

export function runChild(script: string, args: string[], opts: { env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<any> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...opts.env },
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${script} exited with ${code}: ${out.slice(-2000)}`));
      try { resolve(JSON.parse(last)); } catch { reject(new Error(`${script} printed no JSON: ${out.slice(-2000)}`)); }
    });
  });
}

/** Peak resident set of this process so far, in MB. */
export const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
