// Built files as the engine holds them: memory-mapped read-only through our addon
// (native/mmap), so every worker thread and every server process on the machine views the
// same page-cache pages and a process's RSS grows with the pages its queries touch, not with
// the file's size. Without the addon (no compiler at `npm ci`, or BUILT_MMAP=0) a file is read
// into a SharedArrayBuffer instead, as before: one copy per process, shared by its threads.
//
// A mapped ArrayBuffer cannot cross to another thread (structured clone would copy it, and it
// cannot be transferred), so threads receive a FileRef and each maps the file itself.
//
// Node 20 caps an ArrayBuffer at 2^32 bytes: a larger file is mapped in pieces, one mapping per
// section (MappedPieces), each section at most 4 GiB (the writer refuses larger ones).
import { createRequire } from 'node:module';
import { existsSync, openSync, closeSync, fstatSync } from 'node:fs';
import { readShared, FormatError, type Pieces, type FileBytes } from './container.ts';

interface Addon {
  map(path: string, offset?: number, length?: number, identity?: string): ArrayBuffer;
  release(buf: ArrayBuffer): void;
  pageSize: number;
}

/** Node 20 refuses an ArrayBuffer over 2^32 bytes, mapped or not (buffer.constants.MAX_LENGTH). */
export const MAX_MAPPED_BYTES = 2 ** 32;

/** How a file reaches a worker thread: its bytes shared (read path), or where to map it from. */
export type FileRef = SharedArrayBuffer | { mapped: string; identity: string; bytes: number; addon: string; pieces?: true };

const loaded = new Map<string, Addon | null>();
const mappedFrom = new WeakMap<ArrayBuffer, { path: string; identity: string; addon: string }>();
let told = false;
const closeWhenCollected = new FinalizationRegistry<number>((fd) => { try { closeSync(fd); } catch { /* already closed */ } });

function addonAt(path: string): Addon | null {
  if (!loaded.has(path)) {
    try {
      loaded.set(path, createRequire(import.meta.url)(path) as Addon);
    } catch (e) {
      loaded.set(path, null);
      warnOnce(`the mmap addon did not load (${(e as Error).message.split('\n')[0]}): built files are read into memory; run npm install (node-gyp and a C++ compiler) to map them`);
    }
  }
  return loaded.get(path)!;
}

function warnOnce(msg: string) {
  if (told) return;
  told = true;
  process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level: 'warn', msg: 'built_files_not_mapped', why: msg }) + '\n');
}

/** A file over 4 GiB, each range mapped on its own when asked for (a section, a checksum chunk). */
export class MappedPieces implements Pieces {
  constructor(private addon: Addon, readonly addonPath: string, readonly via: string, readonly identity: string, readonly byteLength: number) {}

  bytes(offset: number, length: number): Uint8Array {
    const base = offset - (offset % this.addon.pageSize);
    const buf = this.addon.map(this.via, base, offset - base + length, this.identity);
    return new Uint8Array(buf, offset - base, length);
  }

  release(bytes: Uint8Array) {
    if (bytes.buffer.byteLength > 0) this.addon.release(bytes.buffer as ArrayBuffer);
  }
}

/**
 * The file's bytes: mapped when the addon at `addonPath` loads and the file fits one ArrayBuffer,
 * else read into a SharedArrayBuffer. `addonPath` null = read (BUILT_MMAP=0).
 */
export function loadFile(path: string, addonPath: string | null): ArrayBuffer | SharedArrayBuffer | MappedPieces {
  const addon = addonPath && existsSync(addonPath) ? addonAt(addonPath) : null;
  if (addonPath && !addon) warnOnce(`no mmap addon at ${addonPath}: built files are read into memory; run npm install (node-gyp and a C++ compiler) to build it`);
  if (addon && addonPath) {
    // The descriptor stays open while the buffer lives: threads started later (a replacement for
    // one that died) map the same inode through it even after a build renamed a new file over
    // the path, and the identity makes sure of it.
    const fd = openSync(path, 'r');
    const st = fstatSync(fd, { bigint: true });
    const size = Number(st.size);
    if (size <= MAX_MAPPED_BYTES) {
      const identity = `${st.dev}:${st.ino}`;
      const via = existsSync(`/proc/self/fd/${fd}`) ? `/proc/self/fd/${fd}` : path;
      let buf: ArrayBuffer;
      try { buf = addon.map(via, 0, size, identity); } catch (e) { closeSync(fd); throw e; }
      mappedFrom.set(buf, { path: via, identity, addon: addonPath });
      closeWhenCollected.register(buf, fd);
      return buf;
    }
    const identity = `${st.dev}:${st.ino}`;
    const via = existsSync(`/proc/self/fd/${fd}`) ? `/proc/self/fd/${fd}` : path;
    const pieces = new MappedPieces(addon, addonPath, via, identity, size);
    closeWhenCollected.register(pieces, fd);
    return pieces;
  }
  return readShared(path);
}

/** True when `buf` is a mapping made by loadFile. */
export function isMapped(buf: FileBytes): boolean {
  return buf instanceof MappedPieces || (buf instanceof ArrayBuffer && mappedFrom.has(buf));
}

/**
 * Drop this process's resident pages of a mapping (the page cache keeps them): after the start-up
 * checksum has read every page, the server's RSS is back to what queries touch.
 */
export function releaseResident(buf: FileBytes): void {
  if (!(buf instanceof ArrayBuffer)) return;
  const from = mappedFrom.get(buf);
  if (from && buf.byteLength > 0) addonAt(from.addon)?.release(buf);
}

/** What to send a worker thread for a loaded file. */
export function toRef(buf: FileBytes): FileRef {
  if (buf instanceof SharedArrayBuffer) return buf;
  if (buf instanceof MappedPieces) return { mapped: buf.via, identity: buf.identity, bytes: buf.byteLength, addon: buf.addonPath, pieces: true };
  const from = mappedFrom.get(buf as ArrayBuffer);
  if (!from) throw new TypeError('a built file must be mapped by loadFile or read into a SharedArrayBuffer to reach a worker');
  return { mapped: from.path, identity: from.identity, bytes: buf.byteLength, addon: from.addon };
}

/** In a worker thread: the bytes of a FileRef, mapping the file again (the kernel shares the pages). */
export function fromRef(ref: FileRef): ArrayBuffer | SharedArrayBuffer | MappedPieces {
  if (ref instanceof SharedArrayBuffer) return ref;
  const addon = addonAt(ref.addon);
  if (!addon) throw new FormatError(ref.mapped, 'mapped by the main thread, but the mmap addon does not load in this thread');
  if (ref.pieces) {
    // Map one byte now so a replaced file is refused here, not at the first section.
    const p = new MappedPieces(addon, ref.addon, ref.mapped, ref.identity, ref.bytes);
    p.bytes(0, 1);
    return p;
  }
  // Throws ERR_FILE_REPLACED when a build renamed a new file over the one the main thread verified:
  // the replacement thread of a dataset whose file changed must wait for the reload.
  const buf = addon.map(ref.mapped, 0, ref.bytes, ref.identity);
  mappedFrom.set(buf, { path: ref.mapped, identity: ref.identity, addon: ref.addon });
  return buf;
}
