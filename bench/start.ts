// npm run bench -- start [--built data/built] [--runs 7] [--workers 2] [--entry npm-start|tsx] [--repo DIR] [--old DIR] [--out start.json]
//
// How long a restart takes: spawn what `npm start` runs (src/start.mjs; `--entry tsx`: `node --import
// tsx src/main.ts`) with SKIP_BUILD=1 on an existing
// built folder and embedded database, until /healthz answers (polled every 20 ms), then stop it.
// The first start creates the database and is reported apart. Each run also records the phases
// the server logs on its "listening" line (when the database, the validators and the workers were
// ready, in ms since the app began), and the median of each is reported. `--old DIR` alternates each
// run with a start of another checkout (its own database folder) and reports the two side by side.
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir, cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { REPO, startServerProcess } from './lib/server-process.ts';
import { median, round } from './lib/stats.ts';

export async function main(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      built: { type: 'string', default: join(REPO, 'data', 'built') }, runs: { type: 'string', default: '7' },
      workers: { type: 'string', default: '2' }, out: { type: 'string', default: 'start.json' }, entry: { type: 'string', default: 'npm-start' },
      repo: { type: 'string', default: REPO }, old: { type: 'string' },
    },
  });
  const env = { WORKERS: values.workers!, BUILT_DIR: resolve(values.built!), SKIP_BUILD: '1', LOG_LEVEL: 'info' };
  const port = 19600 + Math.floor(Math.random() * 300);
  const phases = (out: string) => JSON.parse(/"start_ms":(\{[^}]*\})/.exec(out)?.[1] ?? 'null') as Record<string, number> | null;
  const entry = values.entry === 'tsx' ? 'tsx' : 'npm-start';
  const checkouts = [resolve(values.repo!), ...(values.old ? [resolve(values.old)] : [])]; // [0] measured, [1] the A/B's other side
  const sides = checkouts.map((cwd) => ({ cwd, env: { ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-start-')) }, firstMs: 0, runs: [] as { ms: number; phases: Record<string, number> | null }[] }));
  for (const side of sides) {
    const first = await startServerProcess(side.env, port, { pollMs: 20, entry, cwd: side.cwd });
    side.firstMs = first.startedMs;
    await first.stop();
  }
  for (let i = 0; i < Number(values.runs); i++) {
    for (const side of i % 2 ? [...sides].reverse() : sides) {
      const s = await startServerProcess(side.env, port, { pollMs: 20, settleMs: 50, entry, cwd: side.cwd });
      side.runs.push({ ms: s.startedMs, phases: phases(s.output()) });
      await s.stop();
      process.stderr.write(`start ${i + 1} ${side.cwd}: ${s.startedMs} ms ${JSON.stringify(side.runs.at(-1)!.phases)}\n`);
    }
  }
  const summary = (side: (typeof sides)[number]) => {
    const keys = [...new Set(side.runs.flatMap((r) => Object.keys(r.phases ?? {})))];
    return {
      first_start_ms: side.firstMs,
      restart_ms: { median: median(side.runs.map((r) => r.ms)), runs: side.runs.map((r) => r.ms) },
      phases_median_ms: Object.fromEntries(keys.map((k) => [k, median(side.runs.map((r) => r.phases?.[k] ?? NaN).filter((x) => !Number.isNaN(x)))])),
    };
  };
  const mine = summary(sides[0]), old = sides[1] ? summary(sides[1]) : null;
  const result = {
    bench: 'start', date: new Date().toISOString(), repo: sides[0].cwd, entry, built: env.BUILT_DIR, workers: Number(values.workers),
    machine: { cores: cpus().length, node: process.version }, load_average_at_end: loadavg().map((x) => round(x, 2)),
    ...mine,
    ...(old ? { old: { repo: sides[1].cwd, ...old }, old_over_new: round(old.restart_ms.median / mine.restart_ms.median, 3) } : {}),
  };
  console.log(JSON.stringify(result, null, 1));
  const dir = join(REPO, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(resolve(dir, values.out!), JSON.stringify(result, null, 1) + '\n');
}
