// A built file's checksum is checked once, not at every start: graph-build records the files it
// wrote, a load records the files it checked, and a file whose identity changed (replaced, copied,
// rewritten) is checked again. BUILT_VERIFY=always checks at every load.
import { describe, it, expect, afterAll } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync, openSync, writeSync, closeSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeContainer } from '../../src/core/format/container.ts';
import { writeManifest } from '../../src/core/format/manifest.ts';
import { VERIFIED_FILE, readVerified, fileIdentity } from '../../src/core/format/verified.ts';
import { loadDataset } from '../../src/data/catalog.ts';
import { loadConfig } from '../../src/core/config.ts';

const root = mkdtempSync(join(tmpdir(), 'svc-verified-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A dataset folder as graph-build leaves it: one container and its manifest. */
function built(name: string): string {
  const dir = join(root, name);
  const bytes = writeContainer(join(dir, 'a.bin'), 'verify-test', 1, { v: new Float64Array(4096).map((_, i) => i) }, { n: 4096 });
  writeManifest(dir, { dataset: 'pois', name, format_version: 1, built_at: new Date(0).toISOString(), build_seconds: 0, files: [{ file: 'a.bin', kind: 'verify-test', version: 1, bytes }] });
  return dir;
}

/** Flips one payload byte in place and puts the modification time back: the same size, inode and mtime. */
function corruptKeepingIdentity(path: string): void {
  // touch -r puts back the nanoseconds that utimes' seconds-as-a-double would round
  execFileSync('cp', ['-p', path, `${path}.ref`]);
  const fd = openSync(path, 'r+');
  const b = readFileSync(path);
  writeSync(fd, Buffer.from([b[b.length >> 1] ^ 0xff]), 0, 1, b.length >> 1);
  closeSync(fd);
  execFileSync('touch', ['-r', `${path}.ref`, path]);
  rmSync(`${path}.ref`);
}

describe('checksums checked once', () => {
  it('graph-build records what it wrote, so a load reads no file whole', () => {
    const dir = built('stamped');
    expect(readVerified(dir)['a.bin']).toBe(fileIdentity(join(dir, 'a.bin')));
    // A corruption that keeps the identity is not seen with `once` (the file is trusted) and is with `always`.
    corruptKeepingIdentity(join(dir, 'a.bin'));
    expect(fileIdentity(join(dir, 'a.bin'))).toBe(readVerified(dir)['a.bin']);
    expect(loadDataset(dir, null, 'once')).not.toBeNull();
    expect(() => loadDataset(dir, null, 'always')).toThrow(/a\.bin.*checksum/);
  });

  it('checks a file replaced after the build, and refuses it when corrupt', () => {
    const dir = built('replaced');
    const path = join(dir, 'a.bin');
    const b = readFileSync(path);
    b[b.length >> 1] ^= 0xff;
    writeFileSync(`${path}.tmp`, b);
    renameSync(`${path}.tmp`, path); // as a build would put it in place
    expect(() => loadDataset(dir, null, 'once')).toThrow(/a\.bin.*checksum/);
  });

  it('checks a copied folder once, then records it', () => {
    const dir = join(root, 'copied');
    cpSync(built('original'), dir, { recursive: true });
    const path = join(dir, 'a.bin');
    expect(readVerified(dir)['a.bin']).not.toBe(fileIdentity(path)); // the copy is another inode
    expect(loadDataset(dir, null, 'once')).not.toBeNull();
    expect(readVerified(dir)['a.bin']).toBe(fileIdentity(path));
  });

  it('loads without a record and without a writable record', () => {
    const dir = built('unrecorded');
    rmSync(join(dir, VERIFIED_FILE));
    writeFileSync(join(dir, VERIFIED_FILE), 'not json');
    expect(readVerified(dir)).toEqual({});
    expect(loadDataset(dir, null, 'once')).not.toBeNull();
    expect(existsSync(join(dir, VERIFIED_FILE))).toBe(true);
    expect(readVerified(dir)['a.bin']).toBe(fileIdentity(join(dir, 'a.bin')));
  });

  it('reads BUILT_VERIFY', () => {
    expect(loadConfig({}).builtVerify).toBe('once');
    expect(loadConfig({ BUILT_VERIFY: 'always' }).builtVerify).toBe('always');
    expect(() => loadConfig({ BUILT_VERIFY: 'sometimes' })).toThrow(/BUILT_VERIFY/);
  });
});
