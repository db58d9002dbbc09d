// `npm run bench -- fuzz [--count 100000] [--concurrency 16] [--seed N] [--built DIR] [--database-url URL] [--base URL --key KEY]`
// Sends requests generated from every declaration (test/helpers/fuzz.ts: valid, boundary and
// hostile) to a running server and writes bench/results/fuzz.json: count by status, 5xx count and
// examples, answers that break the error envelope or lack X-Attribution, and /healthz latency
// sampled every 50 ms during the run (is the server still responsive?).
// Without --base it starts the service as a child process on the datasets in --built (default
// data/built; SKIP_BUILD, so build them first with `npm start` once). Operations whose capability
// is off on that server (data not loaded) are left out and listed.
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { allRoutes } from '../src/api/index.ts';
import { displayPath } from '../src/http/router.ts';
import { requestsFor, fuzzProblem, type FuzzRequest } from '../test/helpers/fuzz.ts';
import { startServerProcess, REPO, type ServerProcess } from './lib/server-process.ts';
import { percentile, round } from './lib/stats.ts';

export async function main(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      count: { type: 'string', default: '100000' }, concurrency: { type: 'string', default: '16' }, seed: { type: 'string', default: '20261124' },
      built: { type: 'string', default: join(REPO, 'data', 'built') }, base: { type: 'string' }, key: { type: 'string' }, port: { type: 'string', default: '9331' },
      'database-url': { type: 'string', default: '' },
    },
  });
  const count = Number(values.count), concurrency = Number(values.concurrency), seed = Number(values.seed);
  let svc: ServerProcess | null = null;
  let base = values.base;
  let key = values.key ?? null;
  if (!base) {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-fuzz-'));
    const env = { SKIP_BUILD: '1', WORKERS: '2', BURST_RPS: '0', DATA_DIR: dataDir, BUILT_DIR: resolve(values.built!), DATABASE_URL: values['database-url']!, LOG_LEVEL: 'silent' };
    svc = await startServerProcess(env, Number(values.port));
    base = svc.base;
    const cli = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'create', '--project', 'fuzz', '--plan', 'enterprise'], {
      cwd: REPO, env: { ...process.env, ...env }, encoding: 'utf8',
    });
    key = cli.trim().split('\n').pop()!;
  }
  if (!key) throw new Error('--key is required with --base');

  try {
    const caps = ((await (await fetch(`${base}/api/v1/capabilities`)).json()) as { capabilities: Record<string, boolean> }).capabilities;
    const live = (r: (typeof allRoutes)[number]) => !r.capabilities?.length || r.capabilities.some((c) => caps[c]);
    const routes = allRoutes.filter(live);
    const skipped = allRoutes.filter((r) => !live(r)).map((r) => `${r.method} ${displayPath(r.path)}`);
    // No admin token: operator routes are fuzzed on their refusal path (a valid token would reload datasets thousands of times).
    const arb = requestsFor(routes, key, null);

    // /healthz every 50 ms, on its own connection pool, for the whole run.
    const health: number[] = [];
    let healthFailures = 0;
    let running = true;
    const prober = (async () => {
      while (running) {
        const t0 = performance.now();
        try {
          const r = await fetch(`${base}/healthz`);
          await r.arrayBuffer();
          if (r.status !== 200) healthFailures++;
        } catch { healthFailures++; }
        health.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const byStatus: Record<string, number> = {};
    const byOperation: Record<string, number> = {};
    const fiveXX: { label: string; path: string; body?: string; status: number; answer: string }[] = [];
    const problems: { label: string; path: string; problem: string }[] = [];
    let sent = 0, problemCount = 0, networkErrors = 0;
    const t0 = performance.now();
    const CHUNK = 1000;
    for (let c = 0; sent < count; c++) {
      const batch: FuzzRequest[] = fc.sample(arb, { numRuns: Math.min(CHUNK, count - sent), seed: seed + c });
      let next = 0;
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (next < batch.length) {
          const q = batch[next++];
          try {
            const r = await fetch(base + q.path, { method: q.method, headers: q.headers, ...(q.body !== undefined ? { body: q.body } : {}) });
            const text = await r.text();
            byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
            const op = q.label.replace(/ \[.*\]$/, '');
            byOperation[op] = (byOperation[op] ?? 0) + 1;
            if (r.status >= 500 && fiveXX.length < 20) fiveXX.push({ label: q.label, path: q.path.slice(0, 300), body: q.body?.slice(0, 300), status: r.status, answer: text.slice(0, 300) });
            const p = r.status >= 500 ? null : fuzzProblem(r.status, r.headers, text, q);
            if (p) {
              problemCount++;
              if (problems.length < 20) problems.push({ label: q.label, path: q.path.slice(0, 300), problem: p });
            }
          } catch (e) {
            networkErrors++;
            if (problems.length < 20) problems.push({ label: q.label, path: q.path.slice(0, 300), problem: `network: ${(e as Error).message}` });
          }
        }
      }));
      sent += batch.length;
      if (c % 10 === 9) process.stderr.write(`fuzz: ${sent}/${count}\n`);
    }
    const seconds = (performance.now() - t0) / 1000;
    running = false;
    await prober;
    const h = Float64Array.from(health).sort();
    const total5xx = Object.entries(byStatus).filter(([s]) => Number(s) >= 500).reduce((a, [, n]) => a + n, 0);
    const out = {
      bench: 'fuzz',
      date: new Date().toISOString(),
      machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version, loadavg_1m_at_end: round(loadavg()[0], 2) },
      note: 'Requests generated by test/helpers/fuzz.ts from every declared operation whose capability is on; the machine was shared with other engineers during the run',
      server: values.base ? values.base : `child process, WORKERS=2, ${values['database-url'] ? 'PostgreSQL' : 'PGlite'}, BUILT_DIR=${resolve(values.built!)}`,
      requests: sent, seconds: round(seconds, 1), req_per_s: round(sent / seconds, 0), concurrency, seed,
      by_status: Object.fromEntries(Object.entries(byStatus).sort()),
      status_5xx: total5xx,
      envelope_or_attribution_problems: problemCount,
      network_errors: networkErrors,
      healthz_during_run: { samples: h.length, failures: healthFailures, p50_ms: round(percentile(h, 50), 2), p99_ms: round(percentile(h, 99), 2), max_ms: round(h[h.length - 1], 2) },
      operations: routes.length,
      skipped_operations_capability_off: skipped,
      by_operation: byOperation,
      examples_5xx: fiveXX,
      examples_problems: problems,
    };
    mkdirSync(join(REPO, 'bench/results'), { recursive: true });
    writeFileSync(join(REPO, 'bench/results/fuzz.json'), JSON.stringify(out, null, 2) + '\n');
    console.log(JSON.stringify({ ...out, by_operation: undefined }, null, 2));
  } finally {
    await svc?.stop();
  }
}
