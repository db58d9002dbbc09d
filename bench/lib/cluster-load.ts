// Steady load on a cluster for the restart tests and the cluster bench: each client loops over
// idempotent reads (GET /ping, and GET /ping?pool=1 through the worker pool) and acknowledged
// writes (POST /track/ping, one new timestamp each, so every 202 must leave one row), and every
// request is recorded with its start time, duration and outcome.
import http from 'node:http';

export interface Sample { t: number; ms: number; kind: 'read' | 'pool' | 'write'; status: number; error?: string; ts?: string; device?: string }

export interface LoadOptions {
  base: string;
  key: string;
  clients: number;
  /** Stop after this long, or when stop() is called. */
  durationMs: number;
  /** One request in `writeEvery` is a write (default 3). */
  writeEvery?: number;
  /** Prefix of the device ids (one device per client). */
  device: string;
}

export interface Load { done: Promise<Sample[]>; stop(): void; samples: Sample[] }

export function startLoad(o: LoadOptions): Load {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.clients });
  const url = new URL(o.base);
  const samples: Sample[] = [];
  let stopped = false;
  const t0 = Date.now();
  const request = (method: string, path: string, body?: string) => new Promise<{ status: number; error?: string }>((resolve) => {
    const req = http.request({
      host: url.hostname, port: url.port, method, path, agent, timeout: 30_000,
      headers: { authorization: `Bearer ${o.key}`, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.on('error', (e) => resolve({ status: 0, error: e.message }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ status: 0, error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end(body);
  });
  const client = async (c: number) => {
    const device = `${o.device}-${c}`;
    for (let i = 0; !stopped && Date.now() - t0 < o.durationMs; i++) {
      const kind: Sample['kind'] = i % (o.writeEvery ?? 3) === 0 ? 'write' : i % 2 ? 'pool' : 'read';
      const start = performance.now(), t = Date.now();
      let r: { status: number; error?: string };
      let ts: string | undefined;
      if (kind === 'write') {
        ts = new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + (i * 97 + c) * 1000).toISOString();
        r = await request('POST', '/api/v1/track/ping', JSON.stringify({ device, lat: 6.4281, lng: 3.4219, ts }));
      } else r = await request('GET', kind === 'pool' ? '/api/v1/ping?pool=1' : '/api/v1/ping');
      samples.push({ t, ms: performance.now() - start, kind, status: r.status, ...(r.error ? { error: r.error } : {}), ...(ts ? { ts, device } : {}) });
    }
  };
  const done = Promise.all(Array.from({ length: o.clients }, (_, c) => client(c))).then(() => { agent.destroy(); return samples; });
  return { done, samples, stop: () => { stopped = true; } };
}

/** A request that failed the client: a connection error, or an answer other than 2xx and 429. */
export const failed = (s: Sample) => s.status === 0 || ((s.status < 200 || s.status >= 300) && s.status !== 429);

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export interface WindowStats { requests: number; failed_reads: number; failed_writes: number; p50_ms: number; p99_ms: number; max_ms: number; errors: Record<string, number> }

/** Requests that started within [from, to) (ms since epoch). */
export function windowStats(samples: Sample[], from: number, to: number): WindowStats {
  const w = samples.filter((s) => s.t >= from && s.t < to);
  const ms = w.map((s) => s.ms).sort((a, b) => a - b);
  const errors: Record<string, number> = {};
  for (const s of w.filter(failed)) { const k = s.error ?? String(s.status); errors[k] = (errors[k] ?? 0) + 1; }
  return {
    requests: w.length,
    failed_reads: w.filter((s) => s.kind !== 'write' && failed(s)).length,
    failed_writes: w.filter((s) => s.kind === 'write' && failed(s)).length,
    p50_ms: round(percentile(ms, 50)), p99_ms: round(percentile(ms, 99)), max_ms: round(ms.at(-1) ?? NaN),
    errors,
  };
}

const round = (x: number) => Math.round(x * 10) / 10;

/** Writes answered 202 whose row is not in the database: `stored` holds "device|ts" of the rows read back. */
export function lostWrites(samples: Sample[], stored: Set<string>): Sample[] {
  return samples.filter((s) => s.kind === 'write' && s.status === 202 && !stored.has(`${s.device}|${s.ts}`));
}
