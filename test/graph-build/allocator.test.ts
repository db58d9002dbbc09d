// graph-build fixes malloc's mmap threshold so that arrays of a few MiB a phase frees leave the
// process. glibc otherwise raises the threshold to the size of the first mapped block freed, and
// later arrays up to that size stay resident once freed. A child process shows both: the same
// allocations and frees, with and without the setting.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../routing/helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');

const CHILD = `
import { readFileSync } from 'node:fs';
import { largeBlocksFromTheSystem } from ${JSON.stringify(join(ROOT, 'graph-build/allocator.ts'))};
const fixed = process.argv[2] === 'fix' ? largeBlocksFromTheSystem() : false;
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const settle = () => new Promise((r) => setTimeout(r, 50));
// a 16 MiB block, mapped on its own, then freed: glibc's threshold rises to its size
let first = new Float64Array(2 << 20).fill(1); first = null; gc(); await settle(); gc();
const arrays = [];
for (let i = 0; i < 40; i++) arrays.push(new Float64Array(5 << 17).fill(1)); // 5 MiB each
const held = rss();
arrays.splice(0, 39); gc(); await settle(); gc(); await settle();
console.log(JSON.stringify({ fixed, held, after: rss() }));
`;

function run(mode: 'fix' | 'leave'): { fixed: boolean; held: number; after: number } {
  const tmp = tempDir();
  try {
    const file = join(tmp.dir, 'child.mts');
    writeFileSync(file, CHILD);
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', file, mode], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout.trim().split('\n').pop()!);
  } finally { tmp.remove(); }
}

describe.runIf(process.platform === 'linux')('the build\'s allocator setting', () => {
  it('gives freed arrays of a few MiB back to the system', () => {
    const fixed = run('fix');
    expect(fixed.fixed).toBe(true);
    // 39 of 40 arrays of 5 MiB freed: ~195 MiB leave
    expect(fixed.held - fixed.after).toBeGreaterThan(150);
  }, 60_000);

  it('is what makes the difference: without it the same frees stay resident', () => {
    const left = run('leave');
    expect(left.held - left.after).toBeLessThan(50);
  }, 60_000);
});
