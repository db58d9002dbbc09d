// Engine self-description: which ops this worker serves, which datasets it opened, and the heap
// limits it runs under (WORKER_YOUNG_MB).
// Used by /healthz and by the capability document (a capability is live only when
// its op is registered and its data is loaded).
import { resourceLimits } from 'node:worker_threads';
import type { Dataset, WorkerModule } from '../src/core/task.ts';
import type { TaskTable } from '../src/core/tasks/index.ts';

let loaded: { dataset: string; name: string; files: string[] }[] = [];
let opsList: () => string[] = () => [];

export const system = {
  init(ds: Dataset[]) {
    loaded = ds.map((d) => ({ dataset: d.dataset, name: d.name, files: Object.keys(d.files) }));
  },
  tasks: {
    /** Trivial task: measures the bare pool round trip (bench) and proves workers answer. */
    ping: () => ({ ok: true as const }),
    describe: () => ({ ops: opsList(), datasets: loaded, young_mb: resourceLimits.maxYoungGenerationSizeMb ?? null }),
  } satisfies TaskTable<'ping' | 'describe'>,
} satisfies WorkerModule;

export function setOpsProvider(f: () => string[]) {
  opsList = f;
}
