// Traffic module: the GeoJSON segments of GET /traffic, and the speed samples map matching
// derives from probe traces. Reads the routing module's graphs and their shared traffic state.
import type { WorkerModule } from '../../src/core/task.ts';
import { loadedGraphs } from '../routing/graphs.ts';
import { segments, type SegmentsArgs } from './segments.ts';
import { trafficSamples, type SamplesArgs } from './probes.ts';

export const traffic: WorkerModule = {
  init() {},
  tasks: {
    traffic_segments: (args: SegmentsArgs) => segments(loadedGraphs(), args),
    traffic_samples: (args: SamplesArgs) => trafficSamples(args),
  },
};
