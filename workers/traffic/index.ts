// Traffic module: the GeoJSON segments of GET /traffic, and the speed samples map matching
// derives from probe traces. Reads the routing module's graphs and their shared traffic state.
import type { WorkerModule } from '../../src/core/task.ts';
import { loadedGraphs } from '../routing/graphs.ts';
import type { TaskTable } from '../../src/core/tasks/index.ts';
import { segments } from './segments.ts';
import { trafficSamples } from './probes.ts';

export const traffic = {
  init() {},
  tasks: {
    traffic_segments: (args) => segments(loadedGraphs(), args),
    traffic_samples: (args) => trafficSamples(args),
  } satisfies TaskTable<'traffic_segments' | 'traffic_samples'>,
} satisfies WorkerModule;
