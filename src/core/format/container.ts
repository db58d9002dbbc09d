// The one binary container that graph-build writes and workers read.
//
// Layout (little-endian), modelled on kdbush/flatbush: a fixed 48-byte header,
// a section table, then 8-byte-aligned typed-array payloads. `open()` wraps
// views over the caller's buffer without copying, so a SharedArrayBuffer handed
// to every worker is the only copy in memory.
//
//   0  u8[4]  magic "SVCB"
//   4  u32    container version
//   8  u8[16] kind tag (ASCII, NUL padded), e.g. "ch-graph"
//  24  u32    kind version (the format version of that kind)
//  28  u32    section count
//  32  u32    CRC-32 of every byte after the header
//  36  u32    reserved
//  40  f64    total byte length
//  48  section table: per section 40 bytes
//        u8[24] name, u32 type code, u32 reserved, f64 byte offset
//      …then f64 element count per section (8 bytes each)
//  payloads, each starting on an 8-byte boundary.

import { crc32 } from 'node:zlib';
import { openSync, readSync, writeSync, closeSync, fstatSync, writeFileSync, renameSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, basename } from 'node:path';

export const MAGIC = 0x42435653; // "SVCB" read as little-endian u32
export const CONTAINER_VERSION = 1;
const HEADER = 48;
const ENTRY = 40;

export type Section =
  | Uint8Array | Int8Array | Uint16Array | Int16Array
  | Uint32Array | Int32Array | Float32Array | Float64Array;

type Ctor = { new (buf: ArrayBufferLike, offset: number, length: number): Section; BYTES_PER_ELEMENT: number };

const TYPES: Ctor[] = [
  Uint8Array, Int8Array, Uint16Array, Int16Array,
  Uint32Array, Int32Array, Float32Array, Float64Array,
] as unknown as Ctor[];

function typeCode(a: Section): number {
  const i = TYPES.findIndex((t) => a instanceof (t as unknown as Function));
  if (i < 0) throw new TypeError('unsupported section type');
  return i + 1;
}

/** A file that is not what it claims to be. The message always names the file. */
export class FormatError extends Error {
  constructor(public file: string, why: string) {
    super(`${file}: ${why}`);
    this.name = 'FormatError';
  }
}

/** The next multiple of 8: arithmetic, not `& ~7`, which works on 32-bit integers and broke every file past 2 GiB. */
export const align8 = (n: number) => (n % 8 === 0 ? n : n + 8 - (n % 8));

/**
 * Serialise sections (and optional JSON metadata, stored as section "meta") into one buffer: for
 * small containers and as the reference writeContainer's streamed bytes must equal.
 */
export function encode(kind: string, kindVersion: number, sections: Record<string, Section>, meta?: unknown): Uint8Array {
  const { all, offsets, total, head } = layout(kind, kindVersion, sections, meta);
  const out = new Uint8Array(total);
  out.set(head);
  all.forEach(([, a], i) => out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), offsets[i]));
  new DataView(out.buffer).setUint32(32, crc32(out.subarray(HEADER)) >>> 0, true);
  return out;
}

/** Write atomically: temp name in the same folder, then rename, so readers never see half a file. */
export function writeAtomic(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, bytes);
  renameSync(tmp, path);
}

/**
 * A section's limit: its element count is a u32 in the table, and a worker views it as one typed
 * array over a mapping, which Node 20 caps at 2^32 bytes (src/core/format/mapped.ts).
 */
export const MAX_SECTION_BYTES = 2 ** 32;

/** Where each section goes, and the header and table bytes that precede the first one (CRC not yet set). */
function layout(kind: string, kindVersion: number, sections: Record<string, Section>, meta?: unknown) {
  const all: [string, Section][] = Object.entries(sections);
  if (meta !== undefined) all.push(['meta', new TextEncoder().encode(JSON.stringify(meta))]);
  if (Buffer.byteLength(kind) > 16) throw new Error(`kind tag too long: ${kind}`);
  const tableEnd = HEADER + all.length * ENTRY;
  let off = align8(tableEnd);
  const offsets: number[] = [];
  for (const [name, a] of all) {
    if (Buffer.byteLength(name) > 24) throw new Error(`section name too long: ${name}`);
    if (a.byteLength > MAX_SECTION_BYTES || a.length >= 2 ** 32) {
      throw new RangeError(`${kind}: section ${name} is ${a.byteLength} bytes (${a.length} elements); a section holds at most 4 GiB and 2^32 - 1 elements: split it`);
    }
    offsets.push(off);
    off = align8(off + a.byteLength);
  }
  const head = new Uint8Array(align8(tableEnd));
  const dv = new DataView(head.buffer);
  const te = new TextEncoder();
  dv.setUint32(0, MAGIC, true);
  dv.setUint32(4, CONTAINER_VERSION, true);
  head.set(te.encode(kind), 8);
  dv.setUint32(24, kindVersion, true);
  dv.setUint32(28, all.length, true);
  dv.setFloat64(40, off, true);
  all.forEach(([name, a], i) => {
    const e = HEADER + i * ENTRY;
    head.set(te.encode(name), e);
    dv.setUint32(e + 24, typeCode(a), true);
    dv.setUint32(e + 28, a.length, true);
    dv.setFloat64(e + 32, offsets[i], true);
  });
  return { all, offsets, total: off, head, dv };
}

const ZEROS = new Uint8Array(8);
const CHUNK = 1 << 30; // one write() moves at most ~2 GiB on Linux: keep each call well under

function writeAll(fd: number, bytes: Uint8Array, at: number) {
  for (let done = 0; done < bytes.byteLength;) {
    const n = writeSync(fd, bytes, done, Math.min(bytes.byteLength - done, CHUNK), at + done);
    done += n;
  }
}

/**
 * Write a container atomically (temp name, then rename) without building it in memory: each
 * section's bytes go to the file from where they are, then the header with the CRC of it all.
 * The bytes on disk are those encode() returns. Returns the file's size.
 */
export function writeContainer(path: string, kind: string, kindVersion: number, sections: Record<string, Section>, meta?: unknown): number {
  const { all, offsets, total, head, dv } = layout(kind, kindVersion, sections, meta);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    let crc = crc32(head.subarray(HEADER));
    all.forEach(([, a], i) => {
      const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      writeAll(fd, bytes, offsets[i]);
      // Node's crc32 returns 0, not the running value, for a view over an empty ArrayBuffer.
      if (bytes.byteLength) crc = crc32(bytes, crc);
      const pad = align8(a.byteLength) - a.byteLength;
      if (pad) {
        writeAll(fd, ZEROS.subarray(0, pad), offsets[i] + a.byteLength);
        crc = crc32(ZEROS.subarray(0, pad), crc);
      }
    });
    dv.setUint32(32, crc >>> 0, true);
    writeAll(fd, head, 0);
    closeSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  renameSync(tmp, path);
  return total;
}

/** Read a whole file into a SharedArrayBuffer: one copy that every worker can view. */
export function readShared(path: string): SharedArrayBuffer {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const sab = new SharedArrayBuffer(size);
    const view = new Uint8Array(sab);
    let pos = 0;
    while (pos < size) {
      const n = readSync(fd, view, pos, Math.min(size - pos, 1 << 28), pos);
      if (n <= 0) throw new FormatError(path, `short read at byte ${pos} of ${size}`);
      pos += n;
    }
    return sab;
  } finally {
    closeSync(fd);
  }
}

/**
 * A file too large for one ArrayBuffer (Node 20: 2^32 bytes), addressed a range at a time: each
 * section becomes its own view (src/core/format/mapped.ts maps each range).
 */
export interface Pieces {
  readonly byteLength: number;
  /** Bytes [offset, offset + length) of the file; byteOffset keeps the file's alignment modulo 8. */
  bytes(offset: number, length: number): Uint8Array;
  /** Done with bytes() of a range read once (the checksum): its pages need not stay resident. */
  release?(bytes: Uint8Array): void;
}

/** What a loaded built file is: one buffer, or pieces of a file over 4 GiB. */
export type FileBytes = ArrayBufferLike | Pieces;

export function isPieces(b: FileBytes): b is Pieces {
  return typeof (b as Pieces).bytes === 'function';
}

/** The file as one byte array, for formats read whole (the PMTiles archive); refuses pieces. */
export function wholeFile(b: FileBytes, file: string): Uint8Array {
  if (isPieces(b)) throw new FormatError(file, `${b.byteLength} bytes: over the 4 GiB this format can be read as`);
  return new Uint8Array(b);
}

const VERIFY_CHUNK = 1 << 30;

export interface Opened {
  kind: string;
  version: number;
  meta: any;
  sections: Record<string, Section>;
  /** A section, typed; throws FormatError when missing or of another type. */
  get<T extends Section>(name: string, ctor: { new (...a: any[]): T }): T;
}

export interface OpenOptions {
  /** Named in every error. */
  file: string;
  kind: string;
  version: number;
  /** CRC-32 over the payload; do it once where the file is loaded (main thread), not in every worker. */
  verify?: boolean;
}

/**
 * Wrap views over `src` without copying: over the one buffer, or (pieces) each section over its
 * own range of the file. Any mismatch is a FormatError naming the file.
 */
export function open(src: FileBytes, opts: OpenOptions): Opened {
  const { file } = opts;
  const name = basename(file);
  if (src.byteLength < HEADER) throw new FormatError(file, `too small to be a svc container (${src.byteLength} bytes)`);
  const pieces = isPieces(src) ? src : null;
  const buf = pieces ? null : (src as ArrayBufferLike);
  /** The header and section table: a whole file's start, or the range that holds them. */
  const headBytes = (n: number) => (pieces ? pieces.bytes(0, Math.min(n, pieces.byteLength)) : new Uint8Array(buf!));
  let head = headBytes(HEADER);
  let dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (dv.getUint32(0, true) !== MAGIC) throw new FormatError(file, 'bad magic: not a svc container');
  const cv = dv.getUint32(4, true);
  if (cv !== CONTAINER_VERSION) throw new FormatError(file, `container version ${cv}, this build reads ${CONTAINER_VERSION}`);
  const kind = new TextDecoder().decode(head.subarray(8, 24)).replace(/\0+$/, '');
  if (kind !== opts.kind) throw new FormatError(file, `holds "${kind}", expected "${opts.kind}"`);
  const version = dv.getUint32(24, true);
  if (version !== opts.version) throw new FormatError(file, `${kind} format version ${version}, this build reads ${opts.version}; rebuild it with graph-build`);
  const count = dv.getUint32(28, true);
  const total = dv.getFloat64(40, true);
  if (total !== src.byteLength) throw new FormatError(file, `size ${src.byteLength} bytes, header says ${total} (truncated or padded)`);
  if (HEADER + count * ENTRY > total) throw new FormatError(file, 'section table runs past the end');
  if (pieces) {
    head = headBytes(HEADER + count * ENTRY);
    dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  }
  const bytes = head;
  if (opts.verify) {
    const want = dv.getUint32(32, true);
    let got = 0;
    if (pieces) {
      for (let at = HEADER; at < total; at += VERIFY_CHUNK) {
        const b = pieces.bytes(at, Math.min(VERIFY_CHUNK, total - at));
        if (b.byteLength) got = crc32(b, got);
        pieces.release?.(b);
      }
    } else got = crc32(bytes.subarray(HEADER));
    got >>>= 0;
    if (want !== got) throw new FormatError(file, `checksum mismatch (stored ${want.toString(16)}, computed ${got.toString(16)}): the file is corrupt`);
  }
  const sections: Record<string, Section> = {};
  const td = new TextDecoder();
  for (let i = 0; i < count; i++) {
    const e = HEADER + i * ENTRY;
    const sname = td.decode(bytes.subarray(e, e + 24)).replace(/\0+$/, '');
    const code = dv.getUint32(e + 24, true);
    const len = dv.getUint32(e + 28, true);
    const off = dv.getFloat64(e + 32, true);
    const T = TYPES[code - 1];
    if (!T) throw new FormatError(file, `section ${sname} has unknown type code ${code}`);
    if (off % 8 !== 0 || off + len * T.BYTES_PER_ELEMENT > total) throw new FormatError(file, `section ${sname} lies outside the file`);
    if (pieces) {
      if (len * T.BYTES_PER_ELEMENT > MAX_SECTION_BYTES) throw new FormatError(file, `section ${sname} is over 4 GiB, more than one view can hold`);
      const b = pieces.bytes(off, len * T.BYTES_PER_ELEMENT);
      sections[sname] = new T(b.buffer, b.byteOffset, len);
    } else sections[sname] = new T(buf!, off, len);
  }
  let meta: any = undefined;
  if (sections.meta) meta = JSON.parse(td.decode(sections.meta as Uint8Array));
  return {
    kind, version, meta, sections,
    get<T extends Section>(n: string, ctor: { new (...a: any[]): T }): T {
      const s = sections[n];
      if (!s) throw new FormatError(name, `missing section "${n}"`);
      if (!(s instanceof ctor)) throw new FormatError(name, `section "${n}" has the wrong element type`);
      return s as T;
    },
  };
}
