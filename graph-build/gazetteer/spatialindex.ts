// Spatial sections: a kdbush index per point layer, and flatbush indexes over polygon
// rings (countries, lakes) and line segments (streets, rivers and lake shores).
import KDBush from 'kdbush';
import Flatbush from 'flatbush';
import type { Rings } from './sources/naturalearth.ts';

export function pointIndex(lng: Float64Array, lat: Float64Array, start: number, end: number): Uint8Array {
  const kd = new KDBush(end - start, 64, Float64Array);
  for (let i = start; i < end; i++) kd.add(lng[i], lat[i]);
  kd.finish();
  return new Uint8Array(kd.data);
}

/** Rings as CSR arrays plus a flatbush over each ring's bbox (item = ring index). */
export function ringSections(r: Rings, owner: (o: number) => number, prefix: string): Record<string, Uint8Array | Uint32Array | Float64Array> {
  const n = r.owner.length;
  const start = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) start[i] = r.start[i];
  start[n] = r.coords.length / 2;
  const coords = Float64Array.from(r.coords);
  const own = new Uint32Array(n);
  for (let i = 0; i < n; i++) own[i] = owner(r.owner[i]);
  const out: Record<string, Uint8Array | Uint32Array | Float64Array> = { [`${prefix}Start`]: start, [`${prefix}Coords`]: coords, [`${prefix}Owner`]: own };
  if (n > 0) {
    const fb = new Flatbush(n, 16, Float64Array);
    for (let i = 0; i < n; i++) {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (let k = start[i]; k < start[i + 1]; k++) {
        const x = coords[2 * k], y = coords[2 * k + 1];
        if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
      }
      fb.add(x0, y0, x1, y1);
    }
    fb.finish();
    out[`${prefix}Index`] = new Uint8Array(fb.data);
  }
  return out;
}

/** Line segments (consecutive vertices of each line) with their owner, and a flatbush over them (item = segment). */
export function segmentSections(r: Rings, owner: (o: number) => number, prefix: string): Record<string, Uint8Array | Uint32Array | Float64Array> {
  const n = r.owner.length;
  const coords = Float64Array.from(r.coords);
  const segStart: number[] = [], segOwner: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = r.start[i], e = i + 1 < n ? r.start[i + 1] : r.coords.length / 2;
    for (let k = s; k < e - 1; k++) { segStart.push(k); segOwner.push(owner(r.owner[i])); }
  }
  const out: Record<string, Uint8Array | Uint32Array | Float64Array> = {
    [`${prefix}Coords`]: coords, [`${prefix}Seg`]: Uint32Array.from(segStart), [`${prefix}SegOwner`]: Uint32Array.from(segOwner),
  };
  if (segStart.length) {
    const fb = new Flatbush(segStart.length, 16, Float64Array);
    for (const k of segStart) {
      const ax = coords[2 * k], ay = coords[2 * k + 1], bx = coords[2 * k + 2], by = coords[2 * k + 3];
      fb.add(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
    }
    fb.finish();
    out[`${prefix}Index`] = new Uint8Array(fb.data);
  }
  return out;
}
