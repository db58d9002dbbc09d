// Built files are memory-mapped through our addon (native/mmap): the bytes are the file's, every
// thread maps the same inode, a file renamed over the path later is not what a thread maps, and
// without the addon the file is read into a SharedArrayBuffer as before.
import { describe, it, expect, afterAll } from 'vitest';
import { Worker } from 'node:worker_threads';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeContainer, open, isPieces, type FileBytes } from '../../src/core/format/container.ts';
import { loadFile, isMapped, releaseResident, toRef, fromRef, MappedPieces, MAX_MAPPED_BYTES } from '../../src/core/format/mapped.ts';
import { MMAP_ADDON } from '../../src/core/config.ts';
import { REPO } from '../helpers/paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-mapped-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function container(name: string, seed: number): string {
  const path = join(dir, name);
  writeContainer(path, 'map-test', 1, { v: new Float64Array(5000).map((_, i) => i * seed), s: new Uint8Array([seed, 1, 2]) }, { seed });
  return path;
}

/** One buffer, not pieces: the files here are small. */
function one(b: FileBytes): ArrayBufferLike {
  if (isPieces(b)) throw new Error('a small file came back in pieces');
  return b;
}

/** Byte offset of section v (v[i] = i × seed). */
const vAt = (b: FileBytes) => open(b, { file: 'x', kind: 'map-test', version: 1 }).get('v', Float64Array).byteOffset;

const mappings = (path: string) => readFileSync('/proc/self/maps', 'utf8').split('\n').filter((l) => l.endsWith(path)).length;

describe('mapped built files', () => {
  it('npm install built the addon', () => {
    expect(existsSync(MMAP_ADDON)).toBe(true);
  });

  it('maps a file: the same bytes, views over the mapping, a mapping the kernel lists', () => {
    const path = container('a.bin', 3);
    const buf = one(loadFile(path, MMAP_ADDON));
    expect(isMapped(buf)).toBe(true);
    expect(buf).not.toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.compare(Buffer.from(new Uint8Array(buf)), readFileSync(path))).toBe(0);
    const o = open(buf, { file: path, kind: 'map-test', version: 1, verify: true });
    expect(o.get('v', Float64Array)[4999]).toBe(4999 * 3);
    expect(mappings(path)).toBeGreaterThan(0);
    releaseResident(buf); // the pages stay readable: the page cache still has them
    expect(o.get('v', Float64Array)[10]).toBe(30);
    expect(o.meta).toEqual({ seed: 3 });
  });

  it('a worker thread maps the very file the main thread loaded, even after a new one is renamed over it', async () => {
    const path = container('b.bin', 5);
    const buf = one(loadFile(path, MMAP_ADDON));
    const ref = toRef(buf);
    expect(ref).toMatchObject({ bytes: buf.byteLength, addon: MMAP_ADDON });
    // A build replaces the file (rename): the loaded one keeps serving, and threads map it, not the new one.
    const fresh = container('b.new', 7);
    renameSync(fresh, path);
    const inThread = await new Promise<number>((resolve, reject) => {
      const w = new Worker(`
        const { workerData, parentPort } = require('node:worker_threads');
        const addon = require(workerData.ref.addon);
        const b = addon.map(workerData.ref.mapped, 0, workerData.ref.bytes, workerData.ref.identity);
        parentPort.postMessage(new Float64Array(b, workerData.at, 2)[1]);
      `, { eval: true, workerData: { ref, at: vAt(buf) } });
      w.once('message', resolve);
      w.once('error', reject);
    });
    const seedAt = (b: FileBytes) => new Float64Array(one(b), vAt(b), 2)[1];
    expect(seedAt(buf)).toBe(5);
    expect(inThread).toBe(5);
    expect(seedAt(fromRef(ref))).toBe(seedAt(buf));
    expect(seedAt(loadFile(path, MMAP_ADDON))).toBe(7); // the path now holds the new file
  });

  it('refuses to map another file than the one verified', () => {
    const path = container('c.bin', 2);
    const ref = toRef(loadFile(path, MMAP_ADDON));
    if (ref instanceof SharedArrayBuffer) throw new Error('expected a mapped ref');
    expect(() => fromRef({ ...ref, identity: '1:2' })).toThrow(/replaced since it was loaded/);
  });

  it('reads into a SharedArrayBuffer without the addon (BUILT_MMAP=0) or when it is missing', () => {
    const path = container('d.bin', 4);
    const read = one(loadFile(path, null));
    expect(read).toBeInstanceOf(SharedArrayBuffer);
    expect(isMapped(read)).toBe(false);
    expect(toRef(read)).toBe(read);
    const missing = one(loadFile(path, join(dir, 'no-such-addon.node')));
    expect(missing).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.compare(Buffer.from(new Uint8Array(missing)), readFileSync(path))).toBe(0);
  });

  it('a server process started without the addon logs it once and serves from memory', () => {
    // The warning names the missing addon; the module is loaded the way catalog.ts loads it.
    const script = `
      import { loadFile } from ${JSON.stringify(join(REPO, 'src/core/format/mapped.ts'))};
      const a = loadFile(${JSON.stringify(container('e.bin', 1))}, '/nonexistent/svc_mmap.node');
      loadFile(${JSON.stringify(container('f.bin', 1))}, '/nonexistent/svc_mmap.node');
      console.log(a instanceof SharedArrayBuffer);
    `;
    writeFileSync(join(dir, 'probe.mts'), script);
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, 'probe.mts')], { cwd: REPO, encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('true');
    const warnings = r.stderr.split('\n').filter((l) => l.includes('built_files_not_mapped'));
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toContain('/nonexistent/svc_mmap.node');
  });

  it('addresses a file in pieces, one mapping per section, checksum included', () => {
    const path = container('g.bin', 9);
    const whole = one(loadFile(path, MMAP_ADDON));
    const ref = toRef(whole);
    if (ref instanceof SharedArrayBuffer) throw new Error('expected a mapped ref');
    const pieces = fromRef({ ...ref, pieces: true });
    expect(pieces).toBeInstanceOf(MappedPieces);
    const o = open(pieces, { file: path, kind: 'map-test', version: 1, verify: true });
    const v = o.get('v', Float64Array);
    expect(v.buffer).not.toBe(whole);
    expect(v.byteOffset % 8).toBe(0);
    expect([...v]).toEqual([...new Float64Array(5000).map((_, i) => i * 9)]);
    expect([...o.get('s', Uint8Array)]).toEqual([9, 1, 2]);
    expect(o.meta).toEqual({ seed: 9 });
    // A flipped byte in a copy: the chunked checksum over the pieces catches it.
    const bad = readFileSync(path);
    bad[bad.length - 40] ^= 0xff;
    writeFileSync(join(dir, 'g-bad.bin'), bad);
    const badRef = toRef(one(loadFile(join(dir, 'g-bad.bin'), MMAP_ADDON)));
    expect(() => open(fromRef({ ...(badRef as Exclude<typeof badRef, SharedArrayBuffer>), pieces: true }), { file: 'g-bad.bin', kind: 'map-test', version: 1, verify: true })).toThrow(/g-bad\.bin: checksum mismatch/);
  });

  it('maps a file over 4 GiB in pieces: sections past 4 GiB read right, and a worker gets pieces too', () => {
    // A sparse container: two sections of zeros (holes on disk, 5 GB), then one of values past 2^32.
    const path = join(dir, 'big.bin');
    const tableEnd = 48 + 4 * 40 + 8;
    const padAt = tableEnd, pad2At = padAt + 3e9, tailAt = pad2At + 2e9, tail = new Float64Array([1.5, -2, 2 ** 40]);
    const meta = new TextEncoder().encode('{"big":true}');
    const metaAt = tailAt + 24, total = metaAt + 16;
    const head = new Uint8Array(tableEnd);
    const dv = new DataView(head.buffer);
    dv.setUint32(0, 0x42435653, true); dv.setUint32(4, 1, true);
    head.set(new TextEncoder().encode('map-test'), 8);
    dv.setUint32(24, 1, true); dv.setUint32(28, 4, true); dv.setFloat64(40, total, true);
    const table: [string, number, number, number][] = [['pad', 1, 3e9, padAt], ['pad2', 1, 2e9, pad2At], ['tail', 8, 3, tailAt], ['meta', 1, meta.length, metaAt]];
    table.forEach(([name, code, len, off], i) => {
      const e = 48 + i * 40;
      head.set(new TextEncoder().encode(name), e);
      dv.setUint32(e + 24, code, true); dv.setUint32(e + 28, len, true); dv.setFloat64(e + 32, off, true);
    });
    const { openSync, writeSync, ftruncateSync, closeSync } = require('node:fs') as typeof import('node:fs');
    const fd = openSync(path, 'w');
    writeSync(fd, head, 0, head.length, 0);
    writeSync(fd, new Uint8Array(tail.buffer), 0, 24, tailAt);
    writeSync(fd, meta, 0, meta.length, metaAt);
    ftruncateSync(fd, total);
    closeSync(fd);
    expect(total).toBeGreaterThan(MAX_MAPPED_BYTES);

    const big = loadFile(path, MMAP_ADDON);
    expect(big).toBeInstanceOf(MappedPieces);
    expect(isMapped(big)).toBe(true);
    const o = open(big, { file: path, kind: 'map-test', version: 1 });
    expect([...o.get('tail', Float64Array)]).toEqual([1.5, -2, 2 ** 40]);
    const pad2 = o.get('pad2', Uint8Array);
    expect(pad2.length).toBe(2e9);
    expect(pad2[2e9 - 1]).toBe(0);
    expect(o.meta).toEqual({ big: true });
    const ref = toRef(big);
    expect(ref).toMatchObject({ pieces: true, bytes: total });
    const again = open(fromRef(ref), { file: path, kind: 'map-test', version: 1 });
    expect(again.get('tail', Float64Array)[2]).toBe(2 ** 40);
  });
});
