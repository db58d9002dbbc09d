// Generic wrk runner: cycles through a list of request paths (one per request, in order,
// each wrk thread starting at its own offset) and returns throughput and latency percentiles.
// The load generator runs on the same machine as the server: say so next to any figure.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WrkOptions {
  /** e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** request paths with query, e.g. /api/v1/route?from=…; cycled in order */
  paths: string[];
  headers?: Record<string, string>;
  threads?: number;
  connections?: number;
  durationS?: number;
}

export interface WrkResult {
  requests: number;
  duration_s: number;
  req_s: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  /** responses with a status outside 2xx/3xx (both spellings are in use by the benches) */
  non_2xx: number;
  non2xx: number;
  socket_errors: number;
}

const lua = (s: string) => JSON.stringify(s); // a JSON string literal is a valid Lua string literal for our ASCII paths

/**
 * wrk comes from Debian's package; install it on first use when it is missing (we run as root
 * on the bench machines). Fails with the command to run by hand otherwise.
 */
let wrkChecked = false;
export function ensureWrk(): void {
  if (wrkChecked) return;
  if (spawnSync('wrk', ['--version']).error) {
    process.stderr.write('bench: wrk is missing; installing Debian package wrk…\n');
    const r = spawnSync('sh', ['-c', 'apt-get install -y -qq wrk || (apt-get update -qq && apt-get install -y -qq wrk)'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0 || spawnSync('wrk', ['--version']).error) throw new Error('wrk is not installed and apt-get could not install it: run `apt-get install -y wrk`');
  }
  wrkChecked = true;
}

function writeScript(o: WrkOptions): { dir: string; script: string; args: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-wrk-'));
  const script = join(dir, 'paths.lua');
  const hdrs = Object.entries(o.headers ?? {}).map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`).join('\n');
  writeFileSync(script, `${hdrs}
local paths = {
${o.paths.map((p) => `  ${lua(p)},`).join('\n')}
}
local counter = 0
next_thread = 0
setup = function(thread) thread:set("thread_id", next_thread); next_thread = next_thread + 1 end
init = function(args) counter = (thread_id or 0) * 997 end
request = function()
  counter = counter + 1
  return wrk.format("GET", paths[(counter % #paths) + 1])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("WRKJSON {\\"requests\\":%d,\\"duration_us\\":%d,\\"p50_us\\":%d,\\"p90_us\\":%d,\\"p99_us\\":%d,\\"non2xx\\":%d,\\"socket_errors\\":%d}\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
`);
  const args = ['-t', String(o.threads ?? 1), '-c', String(o.connections ?? 16), '-d', `${o.durationS ?? 10}s`, '--latency', '-s', script, o.baseUrl];
  return { dir, script, args };
}

/** Run wrk asynchronously (the server may live in this process). */
export async function runWrk(o: WrkOptions): Promise<WrkResult> {
  ensureWrk();
  const { dir, args } = writeScript(o);
  try {
    const out = await new Promise<string>((resolve, reject) => {
      const p = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let s = '', err = '';
      p.stdout.on('data', (d) => (s += d));
      p.stderr.on('data', (d) => (err += d));
      p.on('error', (e) => reject(new Error(`cannot run wrk (apt-get install -y wrk): ${e.message}`)));
      p.on('close', (code) => (code === 0 ? resolve(s) : reject(new Error(`wrk exited ${code}: ${err || s}`))));
    });
    return parse(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Synchronous form for benches whose server runs in another process. */
export function wrk(o: { base: string; paths: string[]; headers?: Record<string, string>; seconds?: number; connections?: number; threads?: number }): WrkResult {
  ensureWrk();
  const { dir, args } = writeScript({ baseUrl: o.base, paths: o.paths, headers: o.headers, durationS: o.seconds, connections: o.connections, threads: o.threads });
  try {
    const r = spawnSync('wrk', args, { encoding: 'utf8' });
    if (r.error) throw new Error(`cannot run wrk (apt-get install -y wrk): ${r.error.message}`);
    if (r.status !== 0) throw new Error(`wrk exited ${r.status}: ${r.stderr || r.stdout}`);
    return parse(r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export { median } from './stats.ts';

function parse(out: string): WrkResult {
  const line = out.split('\n').find((l) => l.startsWith('WRKJSON '));
  if (!line) throw new Error(`wrk printed no summary:\n${out}`);
  const j = JSON.parse(line.slice(8));
  const dur = j.duration_us / 1e6;
  return {
    requests: j.requests, duration_s: round(dur, 2), req_s: round(j.requests / dur, 0),
    p50_ms: round(j.p50_us / 1000, 3), p90_ms: round(j.p90_us / 1000, 3), p99_ms: round(j.p99_us / 1000, 3),
    non_2xx: j.non2xx, non2xx: j.non2xx, socket_errors: j.socket_errors,
  };
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
