// The speed publisher writes only the directed edges its rows name and clears those it published
// before and no longer has: a fake store hands it rows, the traffic state is read back directly.
import { describe, it, expect, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRoadNetwork } from '../../graph-build/roads.ts';
import { loadDataset } from '../../src/data/catalog.ts';
import { TrafficState } from '../../src/core/traffic-state.ts';
import { openGraph } from '../../src/core/format/route.ts';
import { SpeedPublisher } from '../../src/traffic/speeds.ts';
import type { Store } from '../../src/store/index.ts';
import type { WorkerPool } from '../../src/pool/worker-pool.ts';
import { network } from '../routing/helpers.ts';

const P = (y: number, x: number): [number, number] => [y * 0.001, 30 + x * 0.001];
// a T: three edges meeting at B
const net = network({ A: P(0, 0), B: P(0, 4), C: P(0, 8), D: P(3, 4) }, [
  [['A', 'B', 'C'], { highway: 'residential' }],
  [['B', 'D'], { highway: 'residential' }],
]);

describe('SpeedPublisher', () => {
  const out = mkdtempSync(join(tmpdir(), 'svc-speeds-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  buildRoadNetwork(net, { name: 'tee', out, profiles: ['driving'] });
  const ds = loadDataset(join(out, 'tee'))!;
  const buf = ds.traffic!.driving;
  let live: object[] = [], profile: object[] = [];
  const store = { pool: { query: async (sql: string) => ({ rows: sql.includes('traffic_samples') ? live : profile }) } } as unknown as Store;
  const pub = new SpeedPublisher(store, { datasets: [ds] } as unknown as WorkerPool);
  const edges = openGraph(ds.files['driving.route.bin'], 'driving.route.bin').edgeU.length;
  const state = () => new TrafficState(buf, edges);
  const now = Date.now();
  const samples = (edge: number, dir: number, kph: number, devices = ['a', 'b', 'c']) =>
    devices.map((device) => ({ extract: 'tee', profile: 'driving', edge, dir, ms: now - 60_000, speed_kph: kph, device }));

  it('publishes the edges seen by three devices and clears the ones that drop out', async () => {
    pub.now = () => now;
    expect(edges).toBeGreaterThanOrEqual(2);
    live = [...samples(0, 0, 10), ...samples(1, 1, 20), ...samples(1, 0, 30, ['a', 'b'])];
    expect((await pub.publish()).live).toBe(2);
    let s = state();
    expect([s.speedKph[0], s.speedKph[3], s.speedKph[2]]).toEqual([10, 20, 0]);
    expect(s.weightMs[0]).toBeGreaterThan(0);
    expect(s.meta[1]).toBe(2);
    // edge 0 has no samples any more: its speed and weight are cleared, edge 1 stays
    live = samples(1, 1, 25);
    expect((await pub.publish()).live).toBe(1);
    s = state();
    expect([s.speedKph[0], s.weightMs[0], s.samples[0], s.speedKph[3]]).toEqual([0, 0, 0, 25]);
    expect(s.meta[1]).toBe(1);
  });

  it('writes the weekly profile sparsely and clears slots no longer published', async () => {
    const row = (edge: number, dir: number, dow: number, hour: number, kph: number) => ({ extract: 'tee', profile: 'driving', edge, dir, dow, hour, kph });
    profile = [row(0, 0, 1, 8, 15), row(1, 1, 1, 8, 30), row(0, 1, 6, 23, 40)];
    pub.now = () => now + 61_000;
    expect((await pub.publish()).profile).toBe(3);
    let s = state();
    const slot = 1 * 24 + 8;
    expect(s.profileSlot(slot)[0]).toBeGreaterThan(0);
    expect(s.profileSlot(slot)[3]).toBeGreaterThan(0);
    expect(s.profileSlot(6 * 24 + 23)[1]).toBeGreaterThan(0);
    expect([s.meta[2 + slot], s.meta[2 + 6 * 24 + 23], s.meta[2]]).toEqual([2, 1, 0]);
    profile = [row(1, 1, 1, 8, 30)];
    pub.now = () => now + 122_000;
    expect((await pub.publish()).profile).toBe(1);
    s = state();
    expect([s.profileSlot(slot)[0], s.profileSlot(6 * 24 + 23)[1]]).toEqual([0, 0]);
    expect(s.profileSlot(slot)[3]).toBeGreaterThan(0);
    expect([s.meta[2 + slot], s.meta[2 + 6 * 24 + 23]]).toEqual([1, 0]);
  });
});
