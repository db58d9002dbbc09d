// SYNTHETIC road networks for the scale benchmark — not real data, and labelled so wherever
// a figure comes from one. A jittered grid (~220 m blocks) with a road hierarchy: every
// 50th line a trunk road, every 10th a secondary road, the rest residential/unclassified;
// 15% of minor blocks removed (dead ends, degree-2 chains) and 3% of minor roads oneway.
import type { Segments } from '../../graph-build/contract/segments.ts';
import { rng } from './rand.ts';

export function syntheticGrid(targetNodes: number, seed = 1): Segments & { side: number } {
  const side = Math.max(2, Math.round(Math.sqrt(targetNodes)));
  const n = side * side;
  const rand = rng(seed);
  const lat = new Float64Array(n), lon = new Float64Array(n);
  const step = 0.002, lat0 = -6, lon0 = 30; // placed in East Africa only so coordinates look familiar
  for (let i = 0; i < side; i++) for (let j = 0; j < side; j++) {
    const v = i * side + j;
    lat[v] = lat0 + i * step + (rand() - 0.5) * step * 0.4;
    lon[v] = lon0 + j * step + (rand() - 0.5) * step * 0.4;
  }
  const cap = 2 * side * (side - 1);
  const a = new Int32Array(cap), b = new Int32Array(cap), flags = new Uint8Array(cap), speed = new Float32Array(cap);
  const lineSpeed = (k: number) => (k % 50 === 0 ? 85 : k % 10 === 0 ? 55 : -1);
  let m = 0;
  const add = (u: number, v: number, k: number) => {
    let s = lineSpeed(k), f = 3;
    if (s < 0) {
      if (rand() < 0.15) return;
      s = rand() < 0.5 ? 25 : 35;
      if (rand() < 0.03) f = rand() < 0.5 ? 1 : 2;
    }
    a[m] = u; b[m] = v; flags[m] = f; speed[m] = s; m++;
  };
  for (let i = 0; i < side; i++) for (let j = 0; j + 1 < side; j++) add(i * side + j, i * side + j + 1, i);
  for (let j = 0; j < side; j++) for (let i = 0; i + 1 < side; i++) add(i * side + j, (i + 1) * side + j, j);
  return { lat, lon, count: m, a, b, flags, speed, side };
}
