// Writes a PMTiles v3 archive: header, root directory, metadata, leaf directories, tile data
// (clustered: tiles in tile-id order, identical tiles stored once and runs collapsed).
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { COMPRESSION, HEADER_BYTES, PMTILES_MAGIC, type DirEntry } from '../../src/core/maps/pmtiles.ts';

function varint(out: number[], v: number) {
  while (v >= 0x80) { out.push((v % 128) | 0x80); v = Math.floor(v / 128); }
  out.push(v);
}

export function encodeDirectory(entries: DirEntry[]): Uint8Array {
  const b: number[] = [];
  varint(b, entries.length);
  let last = 0;
  for (const e of entries) { varint(b, e.tileId - last); last = e.tileId; }
  for (const e of entries) varint(b, e.runLength);
  for (const e of entries) varint(b, e.length);
  entries.forEach((e, i) => varint(b, i > 0 && e.offset === entries[i - 1].offset + entries[i - 1].length ? 0 : e.offset + 1));
  return gzipSync(Uint8Array.from(b), { level: 9 });
}

/** Root directory (and leaves when the root would not fit in the first 16 KiB). */
function directories(entries: DirEntry[]): { root: Uint8Array; leaves: Uint8Array } {
  const root = encodeDirectory(entries);
  if (root.length <= 16384 - HEADER_BYTES) return { root, leaves: new Uint8Array(0) };
  for (let leafSize = 4096; ; leafSize *= 2) {
    const parts: Uint8Array[] = [];
    const rootEntries: DirEntry[] = [];
    let off = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const leaf = encodeDirectory(entries.slice(i, i + leafSize));
      rootEntries.push({ tileId: entries[i].tileId, offset: off, length: leaf.length, runLength: 0 });
      parts.push(leaf);
      off += leaf.length;
    }
    const r = encodeDirectory(rootEntries);
    if (r.length <= 16384 - HEADER_BYTES) return { root: r, leaves: Buffer.concat(parts) };
  }
}

export interface ArchiveInfo {
  minZoom: number; maxZoom: number;
  bounds: [number, number, number, number];
  center: [number, number, number];
  metadata: Record<string, unknown>;
}

/** tiles: [tileId, gzip-compressed MVT]; returns the complete archive. */
export function writePmtiles(tiles: [number, Uint8Array][], info: ArchiveInfo): { bytes: Uint8Array; contents: number } {
  tiles.sort((a, b) => a[0] - b[0]);
  const byHash = new Map<string, [number, number]>();
  const data: Uint8Array[] = [];
  const entries: DirEntry[] = [];
  let dataLen = 0;
  for (const [id, t] of tiles) {
    const h = createHash('sha1').update(t).digest('hex');
    let at = byHash.get(h);
    if (!at) {
      at = [dataLen, t.length];
      byHash.set(h, at);
      data.push(t);
      dataLen += t.length;
    }
    const prev = entries[entries.length - 1];
    if (prev && prev.offset === at[0] && prev.tileId + prev.runLength === id) prev.runLength++;
    else entries.push({ tileId: id, offset: at[0], length: at[1], runLength: 1 });
  }
  const { root, leaves } = directories(entries);
  const meta = gzipSync(Buffer.from(JSON.stringify(info.metadata)), { level: 9 });
  const rootOff = HEADER_BYTES, metaOff = rootOff + root.length, leafOff = metaOff + meta.length, dataOff = leafOff + leaves.length;
  const h = Buffer.alloc(HEADER_BYTES);
  h.write(PMTILES_MAGIC, 0, 'ascii');
  h[7] = 3;
  const u64 = (o: number, v: number) => h.writeBigUInt64LE(BigInt(v), o);
  u64(8, rootOff); u64(16, root.length); u64(24, metaOff); u64(32, meta.length);
  u64(40, leafOff); u64(48, leaves.length); u64(56, dataOff); u64(64, dataLen);
  u64(72, tiles.length); u64(80, entries.length); u64(88, data.length);
  h[96] = 1; h[97] = COMPRESSION.gzip; h[98] = COMPRESSION.gzip; h[99] = 1; // clustered, gzip dirs, gzip tiles, MVT
  h[100] = info.minZoom; h[101] = info.maxZoom;
  const e7 = (o: number, v: number) => h.writeInt32LE(Math.round(v * 1e7), o);
  e7(102, info.bounds[0]); e7(106, info.bounds[1]); e7(110, info.bounds[2]); e7(114, info.bounds[3]);
  h[118] = info.center[2]; e7(119, info.center[0]); e7(123, info.center[1]);
  return { bytes: Buffer.concat([h, root, meta, leaves, ...data]), contents: data.length };
}
