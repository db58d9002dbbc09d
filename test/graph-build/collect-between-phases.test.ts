// A build collects garbage before and after each profile's turns. Before: the segments' arrays,
// garbage once compressed, are freed only when V8 collects, and the turns would add their objects
// on top of them. After: the turns leave their intersection objects dead but uncollected, and
// contraction's working set would be added on top of those (the 1M stitched build peaked at
// 554-567 MB with neither collection, 423-428 with the second).
import { describe, it, expect, vi } from 'vitest';
import { join } from 'node:path';

const calls = vi.hoisted(() => ({ n: 0, at: {} as Record<string, number> }));
vi.mock('../../graph-build/collect.ts', () => ({ collectNow: () => { calls.n++; } }));
// the build's own bar, as buildRoadExtract makes it: each phase's first line notes the collections so far
vi.mock('../../graph-build/progress.ts', async (orig) => ({
  ...(await orig<typeof import('../../graph-build/progress.ts')>()),
  progressBar: () => ({ update: (phase: string) => { calls.at[phase] ??= calls.n; }, done: () => {}, summary: () => {} }),
}));

const { buildRoadNetwork, buildRoadExtract } = await import('../../graph-build/roads.ts');
const { readOsm } = await import('../../graph-build/osm/read.ts');
const { SHARED_DATA } = await import('../helpers/paths.ts');
const { tempDir } = await import('../routing/helpers.ts');

describe('a road build', () => {
  it('collects garbage before and after each profile\'s turns', async () => {
    const { net } = await readOsm(join(SHARED_DATA, 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf'));
    const at: Record<string, number> = {};
    const tmp = tempDir();
    try {
      buildRoadNetwork(net, {
        name: 'gc', out: tmp.dir, profiles: ['driving', 'walk'],
        progress: { update: (phase) => { at[phase] ??= calls.n; }, done: () => {}, summary: () => {} },
      });
    } finally { tmp.remove(); }
    // a phase's first progress line comes before its work
    expect([at['turns driving'], at['contract driving'], at['turns walk'], at['contract walk']]).toEqual([0, 2, 2, 4]);
  });

  it('collects what the read of the file left before the first profile\'s segments', async () => {
    const tmp = tempDir();
    calls.n = 0; calls.at = {};
    try {
      await buildRoadExtract({ input: join(SHARED_DATA, 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf'), name: 'gc', out: tmp.dir, profiles: ['driving'] });
    } finally { tmp.remove(); }
    expect([calls.at['reading'], calls.at['segments driving'], calls.at['turns driving']]).toEqual([0, 1, 1]);
  });
});
