// A road build lets the network's OSM node ids go (8 bytes a node, held through segments and
// turns) once it has the index of the few nodes restrictions name; the turns then read the same
// restrictions as from the ids themselves.
import { describe, it, expect, vi } from 'vitest';
import { join } from 'node:path';

const seen = vi.hoisted(() => ({ net: null as any }));
vi.mock('../../graph-build/osm/read.ts', async (orig) => {
  const m = await orig<typeof import('../../graph-build/osm/read.ts')>();
  return { ...m, readOsm: async (...a: Parameters<typeof m.readOsm>) => { const r = await m.readOsm(...a); seen.net = r.net; return r; } };
});

const { readOsm } = await import('../../graph-build/osm/read.ts');
const { buildRoadExtract } = await import('../../graph-build/roads.ts');
const { readRestrictions, restrictionNodeIndex } = await import('../../graph-build/turns/restrictions.ts');
const { profileFor } = await import('../../graph-build/profiles/index.ts');
const { SHARED_DATA } = await import('../helpers/paths.ts');
const { tempDir } = await import('../routing/helpers.ts');

const MONACO = join(SHARED_DATA, 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf');

describe('restriction nodes', () => {
  it('index every node a restriction names, as nodeIds would', async () => {
    const { net } = await readOsm(MONACO);
    const index = restrictionNodeIndex(net);
    expect(index.size).toBeGreaterThan(10);
    for (const [id, i] of index) expect(net.nodeIds![i]).toBe(id);
    const withIds = readRestrictions(net, profileFor('driving'));
    const withIndex = readRestrictions({ ...net, nodeIds: undefined, restrictionNodes: index }, profileFor('driving'));
    expect(withIndex.read).toBe(withIds.read);
    expect(withIndex.unresolved).toBe(withIds.unresolved);
    expect([...withIndex.byFromVia.entries()]).toEqual([...withIds.byFromVia.entries()]);
    // without either, every via node is unresolved
    expect(readRestrictions({ ...net, nodeIds: undefined, restrictionNodes: new Map() }, profileFor('driving')).byFromVia.size).toBe(0);
  });

  it('are all a road build keeps of the OSM node ids', async () => {
    const tmp = tempDir();
    try {
      await buildRoadExtract({ input: MONACO, name: 'ids', out: tmp.dir, profiles: ['driving'] });
    } finally { tmp.remove(); }
    expect(seen.net.nodeIds).toBeUndefined();
    expect(seen.net.restrictionNodes.size).toBeGreaterThan(10);
  });
});
