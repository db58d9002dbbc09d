// A small Mapbox Vector Tile decoder (spec 2.1): layers, features with their properties and
// geometry as rings of tile coordinates. Used by the static-map renderer and the tests.
import { PbfReader } from 'pbf';

export interface MvtFeature {
  /** 1 point, 2 line, 3 polygon. */
  type: number;
  props: Record<string, string | number | boolean>;
  /** Point lists in tile coordinates (0..extent); for polygons each list is a ring. */
  geometry: number[][];
}
export interface MvtLayer { name: string; extent: number; features: MvtFeature[] }

function readValue(p: PbfReader): string | number | boolean {
  const end = p.readVarint() + p.pos;
  let v: string | number | boolean = '';
  while (p.pos < end) {
    const t = p.readVarint(), tag = t >> 3;
    v = tag === 1 ? p.readString() : tag === 2 ? p.readFloat() : tag === 3 ? p.readDouble() : tag === 4 ? p.readVarint(true) : tag === 5 ? p.readVarint() : tag === 6 ? p.readSVarint() : tag === 7 ? p.readBoolean() : (p.skip(t), v);
  }
  return v;
}

function packed(p: PbfReader, out: number[]) {
  const end = p.readVarint() + p.pos;
  while (p.pos < end) out.push(p.readVarint());
}

function decodeGeometry(cmds: number[]): number[][] {
  const out: number[][] = [];
  let x = 0, y = 0, cur: number[] | null = null;
  for (let i = 0; i < cmds.length;) {
    const c = cmds[i++], id = c & 7, n = c >> 3;
    if (id === 7) { if (cur && cur.length >= 2) cur.push(cur[0], cur[1]); continue; }
    for (let k = 0; k < n; k++) {
      x += (cmds[i] >> 1) ^ -(cmds[i] & 1); y += (cmds[i + 1] >> 1) ^ -(cmds[i + 1] & 1); i += 2;
      if (id === 1) { cur = [x, y]; out.push(cur); } else cur!.push(x, y);
    }
  }
  return out;
}

export function decodeMvt(bytes: Uint8Array, only?: Set<string>): MvtLayer[] {
  const p = new PbfReader(bytes);
  const layers: MvtLayer[] = [];
  while (p.pos < p.length) {
    const lt = p.readVarint();
    if (lt >> 3 !== 3) { p.skip(lt); continue; }
    const end = p.readVarint() + p.pos;
    let name = '', extent = 4096;
    const keys: string[] = [], values: (string | number | boolean)[] = [];
    const raw: { type: number; tags: number[]; geom: number[] }[] = [];
    while (p.pos < end) {
      const t = p.readVarint(), f = t >> 3;
      if (f === 1) name = p.readString();
      else if (f === 5) extent = p.readVarint();
      else if (f === 3) keys.push(p.readString());
      else if (f === 4) values.push(readValue(p));
      else if (f === 2) {
        const fend = p.readVarint() + p.pos;
        const ft = { type: 0, tags: [] as number[], geom: [] as number[] };
        while (p.pos < fend) {
          const t2 = p.readVarint(), ff = t2 >> 3;
          if (ff === 2) packed(p, ft.tags);
          else if (ff === 3) ft.type = p.readVarint();
          else if (ff === 4) packed(p, ft.geom);
          else if (ff === 1) p.readVarint();
          else p.skip(t2);
        }
        raw.push(ft);
      } else if (f === 15) p.readVarint();
      else p.skip(t);
    }
    if (only && !only.has(name)) continue;
    layers.push({
      name, extent,
      features: raw.map((r) => {
        const props: MvtFeature['props'] = {};
        for (let i = 0; i + 1 < r.tags.length; i += 2) props[keys[r.tags[i]]] = values[r.tags[i + 1]];
        return { type: r.type, props, geometry: decodeGeometry(r.geom) };
      }),
    });
  }
  return layers;
}
