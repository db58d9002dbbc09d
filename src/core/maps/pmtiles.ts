// Reads a PMTiles v3 archive held in memory (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md):
// the header, then every directory (root and leaves) flattened once into a Map from tile id to
// the tile's byte range, so serving a tile is one Map lookup and a subarray, never a search.
import { gunzipSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';

export const PMTILES_MAGIC = 'PMTiles';

export interface PmHeader {
  rootOffset: number; rootLength: number;
  metadataOffset: number; metadataLength: number;
  leafOffset: number; leafLength: number;
  dataOffset: number; dataLength: number;
  addressed: number; entries: number; contents: number;
  clustered: boolean; internalCompression: number; tileCompression: number; tileType: number;
  minZoom: number; maxZoom: number;
  bounds: [number, number, number, number];
  centerZoom: number; center: [number, number];
}

export interface DirEntry { tileId: number; offset: number; length: number; runLength: number }

/** Compression codes of the spec. */
export const COMPRESSION = { unknown: 0, none: 1, gzip: 2 } as const;
export const HEADER_BYTES = 127;

const u64 = (v: DataView, o: number) => v.getUint32(o + 4, true) * 2 ** 32 + v.getUint32(o, true);

export function readHeader(b: Uint8Array): PmHeader {
  if (b.byteLength < HEADER_BYTES) throw new Error(`PMTiles archive too short (${b.byteLength} bytes)`);
  const magic = new TextDecoder().decode(b.subarray(0, 7));
  if (magic !== PMTILES_MAGIC) throw new Error('not a PMTiles archive (bad magic)');
  if (b[7] !== 3) throw new Error(`PMTiles spec version ${b[7]}, this build reads 3`);
  const v = new DataView(b.buffer, b.byteOffset, HEADER_BYTES);
  const e7 = (o: number) => v.getInt32(o, true) / 1e7;
  return {
    rootOffset: u64(v, 8), rootLength: u64(v, 16), metadataOffset: u64(v, 24), metadataLength: u64(v, 32),
    leafOffset: u64(v, 40), leafLength: u64(v, 48), dataOffset: u64(v, 56), dataLength: u64(v, 64),
    addressed: u64(v, 72), entries: u64(v, 80), contents: u64(v, 88),
    clustered: b[96] === 1, internalCompression: b[97], tileCompression: b[98], tileType: b[99],
    minZoom: b[100], maxZoom: b[101], bounds: [e7(102), e7(106), e7(110), e7(114)],
    centerZoom: b[118], center: [e7(119), e7(123)],
  };
}

function readVarint(b: Uint8Array, pos: { i: number }): number {
  let val = 0, mul = 1;
  for (;;) {
    if (pos.i >= b.length) throw new Error('PMTiles directory: truncated varint');
    const byte = b[pos.i++];
    val += (byte & 0x7f) * mul;
    if (byte < 0x80) return val;
    mul *= 128;
  }
}

export function decodeDirectory(raw: Uint8Array): DirEntry[] {
  const pos = { i: 0 };
  const n = readVarint(raw, pos);
  const out: DirEntry[] = new Array(n);
  let id = 0;
  for (let k = 0; k < n; k++) { id += readVarint(raw, pos); out[k] = { tileId: id, offset: 0, length: 0, runLength: 0 }; }
  for (let k = 0; k < n; k++) out[k].runLength = readVarint(raw, pos);
  for (let k = 0; k < n; k++) out[k].length = readVarint(raw, pos);
  for (let k = 0; k < n; k++) {
    const o = readVarint(raw, pos);
    out[k].offset = o === 0 && k > 0 ? out[k - 1].offset + out[k - 1].length : o - 1;
  }
  return out;
}

/** An opened archive: header, metadata and every tile's range. */
export class PmArchive {
  readonly header: PmHeader;
  readonly metadata: Record<string, any>;
  /** tile id → [offset into the archive, length]. */
  private ranges = new Map<number, [number, number]>();

  constructor(readonly bytes: Uint8Array) {
    const h = (this.header = readHeader(bytes));
    const inflate = (o: number, n: number) => {
      if (o + n > bytes.byteLength) throw new Error('PMTiles archive truncated');
      const s = bytes.subarray(o, o + n);
      return h.internalCompression === COMPRESSION.gzip ? new Uint8Array(gunzipSync(s)) : s;
    };
    this.metadata = h.metadataLength ? JSON.parse(new TextDecoder().decode(inflate(h.metadataOffset, h.metadataLength))) : {};
    const walk = (entries: DirEntry[], depth: number) => {
      if (depth > 3) throw new Error('PMTiles directories nested too deep');
      for (const e of entries) {
        if (e.runLength === 0) walk(decodeDirectory(inflate(h.leafOffset + e.offset, e.length)), depth + 1);
        else for (let r = 0; r < e.runLength; r++) this.ranges.set(e.tileId + r, [h.dataOffset + e.offset, e.length]);
      }
    };
    walk(decodeDirectory(inflate(h.rootOffset, h.rootLength)), 0);
    if (this.ranges.size !== h.addressed) throw new Error(`PMTiles: header says ${h.addressed} tiles, directories hold ${this.ranges.size}`);
  }

  get tileCount(): number { return this.ranges.size; }

  /** Every tile id the archive holds (benchmarks sample real tiles from it). */
  tileIds(): IterableIterator<number> { return this.ranges.keys(); }

  /** The stored (still compressed) bytes of a tile, or null when the archive has none there. */
  tile(z: number, x: number, y: number): Uint8Array | null {
    if (z < this.header.minZoom || z > this.header.maxZoom) return null;
    const r = this.ranges.get(zxyToTileId(z, x, y));
    return r ? this.bytes.subarray(r[0], r[0] + r[1]) : null;
  }

  /** Same, with the offset: equal offsets mean equal bytes (deduplicated), which makes a cheap ETag. */
  range(z: number, x: number, y: number): [number, number] | null {
    if (z < this.header.minZoom || z > this.header.maxZoom) return null;
    return this.ranges.get(zxyToTileId(z, x, y)) ?? null;
  }

  /** Decompressed MVT bytes of a tile, or null. */
  tileRaw(z: number, x: number, y: number): Uint8Array | null {
    const t = this.tile(z, x, y);
    if (!t) return null;
    return this.header.tileCompression === COMPRESSION.gzip ? new Uint8Array(gunzipSync(t)) : t;
  }
}
