// Routing module: contraction-hierarchy queries, snapping and geometry over road graphs.
import type { EngineModule } from '../task.ts';

export const routing: EngineModule = {
  init() {},
  tasks: {},
};
