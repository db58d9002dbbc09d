// A build collects garbage after each profile's turns, before its contraction: the turns leave
// their intersection objects dead but uncollected, and contraction's working set would be added
// on top of them (the 1M stitched build peaked at 554-567 MB without, 423-428 with).
import { describe, it, expect, vi } from 'vitest';
import { join } from 'node:path';

const calls = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../graph-build/collect.ts', () => ({ collectNow: () => { calls.n++; } }));

const { buildRoadNetwork } = await import('../../graph-build/roads.ts');
const { readOsm } = await import('../../graph-build/osm/read.ts');
const { SHARED_DATA } = await import('../helpers/paths.ts');
const { tempDir } = await import('../routing/helpers.ts');

describe('a road build', () => {
  it('collects garbage after each profile\'s turns, before its contraction', async () => {
    const { net } = await readOsm(join(SHARED_DATA, 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf'));
    const atContract: number[] = [], seen = new Set<string>();
    const tmp = tempDir();
    try {
      buildRoadNetwork(net, {
        name: 'gc', out: tmp.dir, profiles: ['driving', 'walk'],
        progress: { update: (phase) => { if (phase.startsWith('contract') && !seen.has(phase)) { seen.add(phase); atContract.push(calls.n); } }, done: () => {}, summary: () => {} },
      });
    } finally { tmp.remove(); }
    expect(atContract).toEqual([1, 2]);
  });
});
