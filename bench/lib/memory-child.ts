// Child process of `bench -- memory`: starts the worker engine with N workers over a built folder,
// gives every worker the same load of one task kind, and reports the process RSS idle (engine up,
// no task yet), right after the load, 0.3 s after it, and RELEASE_MS + 0.8 s later (datasets are
// shared; what grows with N is per-worker).
//   memory-child.ts <builtDir> <workers> <load.json>
//   load.json: { op, per_worker: args[] } — each worker gets the whole list, one task at a time
import type { TaskArgs, TaskCall, TaskOp } from '../../src/core/tasks/index.ts';
import { readFileSync } from 'node:fs';
import { WorkerPool } from '../../src/pool/worker-pool.ts';
import { loadConfig } from '../../src/core/config.ts';
import { RELEASE_MS } from '../../workers/routing/matrix/task.ts';

const [builtDir, workersS, loadFile] = process.argv.slice(2);
const workers = Number(workersS);
const load: { op: TaskOp; per_worker: TaskArgs<TaskOp>[] } = JSON.parse(readFileSync(loadFile, 'utf8'));
const rssMb = () => process.memoryUsage().rss / 1048576;
const settle = async () => { global.gc?.(); await new Promise((r) => setTimeout(r, 300)); };

// the server's setting, so `WORKER_YOUNG_MB=6 npm run bench -- memory` measures another cap
const engine = new WorkerPool({ builtDir, workers, youngMb: loadConfig().workerYoungMb });
await engine.start();
await settle();
const idle = rssMb();
// In a function of its own: a suspended async frame keeps the registers of the loop it ran, so
// the last answers (15.5 MB for a 1,000 × 1,000 matrix) stayed referenced here, on the main
// thread, through every reading below; a server writes an answer out and drops it.
async function runLoad(): Promise<{ statuses: Record<number, number>; seconds: number }> {
  const statuses: Record<number, number> = {};
  const t0 = performance.now();
  // One task per worker at a time, each to its own thread (runSpread), so every worker holds the
  // state of this kind of task and none holds two at once.
  for (const args of load.per_worker) {
    const rs = await engine.runSpread(Array.from({ length: workers }, () => ({ op: load.op, args } as TaskCall<TaskOp>)));
    for (const r of rs) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  }
  return { statuses, seconds: (performance.now() - t0) / 1000 };
}
const { statuses, seconds } = await runLoad();
// at once, before the workers have been idle long enough to collect what the load left (IDLE_MS)
const busyNow = rssMb();
await settle();
const busy = rssMb();
// Workers give a large matrix's arrays back RELEASE_MS after their last one (workers/routing/matrix/task.ts).
await new Promise((r) => setTimeout(r, RELEASE_MS + 500));
await settle();
const released = rssMb();
await engine.close();
// peak_rss_mb is getrusage's high-water mark, which on Linux a child inherits from its parent
// across fork + exec (the parent holds the graph it drew the loads from): only idle and busy count.
console.log(JSON.stringify({ op: load.op, workers, tasks: load.per_worker.length * workers, statuses, idle_rss_mb: Math.round(idle * 10) / 10, busy_now_rss_mb: Math.round(busyNow * 10) / 10, busy_rss_mb: Math.round(busy * 10) / 10, released_rss_mb: Math.round(released * 10) / 10, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024), seconds: Math.round(seconds * 10) / 10 }));
