// Child process: start the worker engine with N workers over a built folder, answer route
// tasks on every worker, and report the process RSS (datasets are shared, state per worker).
//   rss-child.ts <builtDir> <workers> <pairs.json>
import { readFileSync } from 'node:fs';
import { WorkerPool } from '../../src/pool/worker-pool.ts';

const [builtDir, workers, pairsFile] = process.argv.slice(2);
const pairs: [[number, number], [number, number]][] = JSON.parse(readFileSync(pairsFile, 'utf8'));
const engine = new WorkerPool({ builtDir, workers: Number(workers) });
await engine.start();
let ok = 0;
// Enough concurrency that the pool splits every batch over all the workers (at least 8 tasks per
// worker, see src/pool/worker-pool.ts), so each one allocates its query state and makes its garbage.
const wave = 16 * Number(workers);
for (let i = 0; i < pairs.length; i += wave) {
  const rs = await Promise.all(pairs.slice(i, i + wave).map(([from, to]) => engine.run('route', { from, to, mode: 'driving' })));
  ok += rs.filter((r) => r.status === 200).length;
}
global.gc?.();
await new Promise((r) => setTimeout(r, 200));
const rss = process.memoryUsage().rss / 1048576;
await engine.close();
console.log(JSON.stringify({ workers: Number(workers), rss_mb: Math.round(rss), peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024), routed: ok, tasks: pairs.length }));
