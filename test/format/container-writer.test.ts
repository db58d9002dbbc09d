// The streaming container writer puts on disk exactly the bytes the in-memory encoder made
// (and the writer before it made: the golden hash below is of a file written by that one),
// and refuses a section it could not be read back as.
import { describe, it, expect, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { writeContainer, encode, open, align8, type Section } from '../../src/core/format/container.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every section type, odd lengths (padding), a view that does not start its buffer, an empty section. */
function sample(): Record<string, Section> {
  const n = 1001;
  const u8 = new Uint8Array(n).map((_, i) => (i * 7 + 3) & 255);
  return {
    u8: u8.subarray(1),
    i8: new Int8Array(5).map((_, i) => -i * 9),
    u16: new Uint16Array(3).map((_, i) => 65535 - i * 1000),
    i16: new Int16Array(7).map((_, i) => -i * 4000),
    u32: new Uint32Array(n).map((_, i) => (i * 2654435761) >>> 0),
    i32: new Int32Array(9).map((_, i) => -i * 123456789),
    f32: new Float32Array(11).map((_, i) => i / 3),
    f64: new Float64Array(13).map((_, i) => Math.sin(i) * 1e6),
    empty: new Uint8Array(0),
  };
}
const META = { name: 'golden', list: [1, 2, 3] };
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('writeContainer', () => {
  it('writes the bytes of the writer that built the whole file in memory', () => {
    const path = join(dir, 'golden.bin');
    const size = writeContainer(path, 'golden-test', 3, sample(), META);
    const bytes = readFileSync(path);
    expect(size).toBe(bytes.byteLength);
    expect(bytes.byteLength).toBe(5712);
    // Written by the former writeContainer (encode() then writeFileSync) from the same sample.
    expect(sha(bytes)).toBe('6f4cc18f0bd117572a6a468554d4995fbf23afbc860c5109d5f599492ffa71df');
    expect(Buffer.compare(bytes, Buffer.from(encode('golden-test', 3, sample(), META)))).toBe(0);
  });

  it('equals encode() on a container whose last section is empty, and on one with no section', () => {
    for (const [name, sections, meta] of [['tail', { a: new Float64Array([1, 2]), z: new Int16Array(0) }, undefined], ['none', {}, { x: 1 }]] as const) {
      const path = join(dir, `${name}.bin`);
      writeContainer(path, 'k', 1, sections as Record<string, Section>, meta);
      expect(Buffer.compare(readFileSync(path), Buffer.from(encode('k', 1, sections as Record<string, Section>, meta)))).toBe(0);
    }
  });

  it('reads back what it wrote, checksum verified', () => {
    const path = join(dir, 'back.bin');
    writeContainer(path, 'golden-test', 3, sample(), META);
    const b = readFileSync(path);
    const o = open(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength), { file: path, kind: 'golden-test', version: 3, verify: true });
    expect(o.meta).toEqual(META);
    expect([...o.get('f32', Float32Array)]).toEqual([...sample().f32]);
    expect([...o.get('u8', Uint8Array)]).toEqual([...sample().u8]);
    expect(o.get('empty', Uint8Array).length).toBe(0);
  });

  it('places sections past 2 GiB and 4 GiB on 8-byte boundaries (offsets are not 32-bit integers)', () => {
    // A 30M-node country's route file is 2.2 GB: `(n + 7) & ~7` turned its offsets negative.
    expect([0, 1, 7, 8, 9].map(align8)).toEqual([0, 8, 8, 8, 16]);
    expect(align8(2 ** 31 - 1)).toBe(2 ** 31);
    expect(align8(2 ** 31 + 1)).toBe(2 ** 31 + 8);
    expect(align8(2171974380)).toBe(2171974384);
    expect(align8(2 ** 32 + 3)).toBe(2 ** 32 + 8);
    expect(align8(6 * 2 ** 30 + 12)).toBe(6 * 2 ** 30 + 16);
  });

  it('refuses a section over 4 GiB, naming it, and leaves no file behind', () => {
    // A view claiming 2^32 + 8 bytes without allocating them: only its sizes are read before the refusal.
    const huge = { byteLength: 2 ** 32 + 8, length: 2 ** 29 + 1, buffer: new ArrayBuffer(8), byteOffset: 0 } as unknown as Float64Array;
    Object.setPrototypeOf(huge, Float64Array.prototype);
    const path = join(dir, 'huge.bin');
    expect(() => writeContainer(path, 'k', 1, { small: new Uint8Array(4), huge })).toThrow(/section huge is 4294967304 bytes.*at most 4 GiB/);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('huge'))).toEqual([]);
  });
});
