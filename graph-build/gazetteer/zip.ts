// Minimal ZIP reader for GTFS feeds: reads the central directory and inflates one
// entry with node:zlib. Handles stored (0) and deflate (8) entries, which is what
// GTFS producers write; ZIP64 and encryption are refused with a clear error.
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry { name: string; method: number; compressed: number; size: number; localOffset: number }

export function zipEntries(buf: Buffer, file = 'zip'): Map<string, ZipEntry> {
  // End of central directory: signature 0x06054b50 within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error(`${file}: not a zip archive (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (p === 0xffffffff) throw new Error(`${file}: ZIP64 archives are not supported`);
  const out = new Map<string, ZipEntry>();
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: corrupt central directory`);
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nlen = buf.readUInt16LE(p + 28), xlen = buf.readUInt16LE(p + 30), clen = buf.readUInt16LE(p + 32);
    const localOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nlen);
    if (flags & 1) throw new Error(`${file}: entry ${name} is encrypted`);
    out.set(name, { name, method, compressed, size, localOffset });
    p += 46 + nlen + xlen + clen;
  }
  return out;
}

export function zipRead(buf: Buffer, e: ZipEntry, file = 'zip'): Buffer {
  const lp = e.localOffset;
  if (buf.readUInt32LE(lp) !== 0x04034b50) throw new Error(`${file}: bad local header for ${e.name}`);
  const start = lp + 30 + buf.readUInt16LE(lp + 26) + buf.readUInt16LE(lp + 28);
  const data = buf.subarray(start, start + e.compressed);
  if (e.method === 0) return data;
  if (e.method === 8) return inflateRawSync(data);
  throw new Error(`${file}: entry ${e.name} uses compression method ${e.method}`);
}

/** The text of `name` (matched by base name, since some feeds nest files in a folder), or null. */
export function zipText(buf: Buffer, entries: Map<string, ZipEntry>, name: string, file = 'zip'): string | null {
  for (const e of entries.values()) {
    if (e.name === name || e.name.endsWith('/' + name)) return zipRead(buf, e, file).toString('utf8');
  }
  return null;
}
