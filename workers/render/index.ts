// The static-map renderer (task `staticmap`): draws the built vector tiles with the styles'
// colours on a @napi-rs/canvas and answers PNG bytes. Registered only when the tile set is
// loaded and the canvas module loads, so the capability follows what works.
import { createRequire } from 'node:module';
import { BinaryBody, type Dataset, type WorkerModule } from '../../src/core/task.ts';
import type { TaskTable } from '../../src/core/tasks/index.ts';
import { PmArchive } from '../../src/core/maps/pmtiles.ts';
import { wholeFile } from '../../src/core/format/index.ts';
import type { StaticMapSpec } from '../../src/core/maps/staticmap.ts';
import { Renderer } from './draw.ts';

/** Filled at init, only when the tile set and the canvas module load. */
const tasks: Partial<TaskTable<'staticmap'>> = {};
let renderer: Renderer | null = null;

export const render = {
  init(datasets: Dataset[]) {
    const ds = datasets.find((d) => d.dataset === 'tiles');
    delete tasks.staticmap;
    renderer = null;
    if (!ds) return;
    let canvas: typeof import('@napi-rs/canvas');
    try {
      canvas = createRequire(import.meta.url)('@napi-rs/canvas');
    } catch (e) {
      console.error(JSON.stringify({ level: 'warn', where: 'worker', msg: 'staticmap_disabled', error: String(e) }));
      return;
    }
    renderer = new Renderer(new PmArchive(wholeFile(ds.files['tiles.pmtiles'], `${ds.dir}/tiles.pmtiles`)), canvas);
    tasks.staticmap = (args) => new BinaryBody(renderer!.png(args));
  },
  tasks,
} satisfies WorkerModule;

/** For tests and benchmarks: render in-process. */
export function rendererFor(ds: Dataset): Renderer {
  return new Renderer(new PmArchive(wholeFile(ds.files['tiles.pmtiles'], `${ds.dir}/tiles.pmtiles`)), createRequire(import.meta.url)('@napi-rs/canvas'));
}
