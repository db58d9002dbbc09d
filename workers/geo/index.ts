// Geo module: geocode, reverse, suggest, nearby over the gazetteer and point layers.
import type { EngineModule } from '../task.ts';

export const geo: EngineModule = {
  init() {},
  tasks: {},
};
