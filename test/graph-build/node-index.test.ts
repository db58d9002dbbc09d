// Node coordinates by OSM id, as the gazetteer, places and country builds read a whole extract.
import { describe, it, expect } from 'vitest';
import { NodeIndex } from '../../graph-build/osm/node-index.ts';

describe('NodeIndex', () => {
  it('finds every node by id past its growth steps, and none that is absent', () => {
    const ix = new NodeIndex();
    const n = 200_000; // several doublings of the 65,536-node start
    for (let k = 0; k < n; k++) ix.add(3 * k + 1, k / 1e4, -k / 1e4);
    expect(ix.size).toBe(n);
    for (const k of [0, 1, 65_535, 65_536, 131_072, n - 1]) {
      const i = ix.find(3 * k + 1);
      expect([ix.lat(i), ix.lon(i)]).toEqual([k / 1e4, -k / 1e4]);
    }
    expect(ix.find(3)).toBe(-1);
    expect(ix.find(3 * n + 1)).toBe(-1);
  });

  it('sorts nodes that came out of order (several files) before the first lookup', () => {
    const ix = new NodeIndex();
    for (const id of [50, 10, 40, 20, 30]) ix.add(id, id, -id);
    for (const id of [10, 20, 30, 40, 50]) expect(ix.lat(ix.find(id))).toBe(id);
    expect(ix.find(25)).toBe(-1);
  });

  it('keeps the first copy of a node two files share, and hands out trimmed sorted arrays', () => {
    const ix = new NodeIndex();
    for (const [id, lat] of [[30, 1], [10, 2], [30, 3], [20, 4]]) ix.add(id, lat, -lat);
    const { ids, lat, lon } = ix.arrays();
    expect([...ids]).toEqual([10, 20, 30]);
    expect([...lat]).toEqual([2, 4, 1]); // node 30 as the first file gave it
    expect([...lon]).toEqual([-2, -4, -1]);
    expect(ix.find(30)).toBe(2);
  });
});
