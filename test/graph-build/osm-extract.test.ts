// Addresses and admin_level boundaries read from a full-tag extract (the real Monaco file): the
// rings of a boundary relation are joined from its member ways, and a relation cut by the
// extract's edge is left out rather than answered with a partial polygon.
import { describe, it, expect } from 'vitest';
import { readExtractPlaces } from '../../graph-build/gazetteer/sources/osm-extract.ts';
import { closedRings } from '../../graph-build/osm/rings.ts';
import { inRing } from '../../src/core/geometry.ts';
import { SHARED_DATA } from '../helpers/paths.ts';

describe('closedRings', () => {
  it('joins ways given in any order and direction into closed rings', () => {
    // a square 1-2-3-4 in three pieces, one reversed, and a separate triangle 5-6-7
    expect(closedRings([[1, 2], [4, 3, 2], [4, 1], [5, 6, 7, 5]])).toEqual([[1, 2, 3, 4, 1], [5, 6, 7, 5]]);
  });
  it('refuses a ring with a gap or a missing member', () => {
    expect(closedRings([[1, 2], [2, 3], [4, 1]])).toBeNull();
    expect(closedRings([[1, 2, 3, 1], undefined])).toBeNull();
    expect(closedRings([])).toBeNull();
  });
});

describe('readExtractPlaces on the Monaco extract', async () => {
  const r = await readExtractPlaces(SHARED_DATA, [{ name: 'mc', input: 'monaco-2016-03-full-tags-osrm-fixture.osm.pbf' }]);

  it('reads the addresses, housenumber first, with the street kept apart', () => {
    // README: 77 objects carry addr:housenumber; those without addr:street or addr:place are not addresses
    expect(r.addresses.length).toBeGreaterThan(50);
    expect(r.addresses.length).toBeLessThanOrEqual(77);
    const a = r.addresses.find((x) => x.name === '6 Quai Antoine 1er');
    expect(a?.extra).toMatchObject({ housenumber: '6', street: 'Quai Antoine 1er' });
    expect(a?.alt).toEqual(['Quai Antoine 1er 6']);
  });

  it('keeps the closed boundaries with their level and leaves out those cut by the edge', () => {
    const units = r.admins.map((u) => `${u.extra!.admin_level} ${u.name}`);
    expect(units).toContain('8 Monaco');
    expect(units).toContain('8 Beausoleil');
    expect(units).toContain('10 La Condamine');
    // Monaco's and France's admin_level 2 run out to sea, past the extract's edge
    expect(units.some((u) => u.startsWith('2 '))).toBe(false);
    expect(r.openBoundaries).toBeGreaterThan(0);
    // the unit's point lies inside its own rings (Monaco's Palace is on the Rock)
    const mc = r.admins.findIndex((u) => u.name === 'Monaco' && u.extra!.admin_level === 8);
    let inside = false;
    r.rings.owner.forEach((o, k) => {
      if (o !== mc) return;
      const e = k + 1 < r.rings.owner.length ? r.rings.start[k + 1] : r.rings.coords.length / 2;
      if (inRing(7.4205, 43.7311, r.rings.coords, r.rings.start[k], e)) inside = !inside;
    });
    expect(inside).toBe(true);
  });
});
