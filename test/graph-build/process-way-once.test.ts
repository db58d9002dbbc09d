// The profile's process_way is a good part of a build's time outside contraction: the segments and
// the turns read what it made of each way from one pass (the segments fill the turns' way table).
import { describe, it, expect, vi, afterEach } from 'vitest';
import { join } from 'node:path';
import { buildRoadNetwork } from '../../graph-build/roads.ts';
import { readOsm } from '../../graph-build/osm/read.ts';
import { profileFor } from '../../graph-build/profiles/index.ts';
import { SHARED_DATA } from '../helpers/paths.ts';
import { tempDir } from '../routing/helpers.ts';

afterEach(() => { vi.restoreAllMocks(); });

describe('a road build', () => {
  it('asks the profile about each way once', async () => {
    const { net } = await readOsm(join(SHARED_DATA, 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf'));
    const spy = vi.spyOn(profileFor('driving'), 'processWay');
    const tmp = tempDir();
    try {
      buildRoadNetwork(net, { name: 'once', out: tmp.dir, profiles: ['driving'] });
    } finally { tmp.remove(); }
    expect(net.ways.length).toBeGreaterThan(100);
    expect(spy).toHaveBeenCalledTimes(net.ways.length);
  });
});
