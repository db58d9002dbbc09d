// What a build lets go of before its largest working sets: the segments once compressed, and the
// network read from the file once the last profile's turns are built (on a country, the two are
// over a gigabyte that contraction would otherwise run beside). Checked with weak references
// made in an earlier task (a WeakRef keeps its target for the rest of the task that made it) and
// a forced collection at the moment the next phase runs.
import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { buildGraph } from '../../graph-build/contract/build.ts';
import { plainTurns } from '../../graph-build/contract/edge-based.ts';
import { buildRoads } from '../../graph-build/roads.ts';
import { collectNow as gc } from '../../graph-build/collect.ts';
import { readOsm, type RawNetwork } from '../../graph-build/osm/read.ts';
import type { Segments } from '../../graph-build/contract/segments.ts';
import { syntheticGrid } from '../../bench/lib/synthetic.ts';
import { SHARED_DATA } from '../helpers/paths.ts';
import { tempDir } from '../routing/helpers.ts';

const nextTask = () => new Promise((r) => setImmediate(r));

describe('a build lets go of what it no longer needs', () => {
  it('holds no segments made by a factory once they are compressed', async () => {
    let segs: Segments | null = syntheticGrid(300, 3);
    const ref = new WeakRef(segs);
    await nextTask();
    let goneAtTurns: boolean | null = null;
    buildGraph(() => { const s = segs!; segs = null; return s; }, 'driving', {
      turns: (base) => { gc(); goneAtTurns = ref.deref() === undefined; return plainTurns(base); },
    });
    expect(goneAtTurns).toBe(true);
  });

  it('contracts the last profile without the network read from the file', async () => {
    const file = join(SHARED_DATA, 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf');
    // the box is made in a function of its own, so no temporary of this one holds the network
    const box: { net: RawNetwork | null } = await (async () => ({ net: (await readOsm(file)).net }))();
    const ref = new WeakRef(box.net!);
    await nextTask();
    let goneAtContract: boolean | null = null;
    const tmp = tempDir();
    try {
      buildRoads(box, {
        name: 'boxed', out: tmp.dir, profiles: ['driving'],
        progress: { update: (phase) => { if (goneAtContract === null && phase.startsWith('contract')) { gc(); goneAtContract = ref.deref() === undefined; } }, done: () => {}, summary: () => {} },
      });
    } finally { tmp.remove(); }
    expect(box.net).toBeNull();
    expect(goneAtContract).toBe(true);
  });
});
