// Short version of `npm run bench -- crash`: the real server as a child process,
// kill -9 under ping load, restart, and every 202-acknowledged ping is in the trail.
import { describe, it, expect } from 'vitest';
import { HAS_PG } from '../helpers/db.ts';
import { runCrash } from '../../bench/crash.ts';

describe('nothing acknowledged is lost across kill -9', () => {
  it.skipIf(!HAS_PG)('postgres: 2 kills mid-stream, every acked ping is in the trail', async () => {
    const r = await runCrash({ kills: 2, clients: 6, pglite: false, minLoadMs: 400, maxLoadMs: 1200, measureUnacked: false });
    expect(r.acked).toBeGreaterThan(100);
    expect(r.lost_examples).toEqual([]);
    expect(r.lost).toBe(0);
  }, 120_000);

  it('embedded PGlite: 1 kill mid-stream, every acked ping is in the trail', async () => {
    const r = await runCrash({ kills: 1, clients: 3, pglite: true, minLoadMs: 600, maxLoadMs: 900, measureUnacked: false });
    expect(r.acked).toBeGreaterThan(0);
    expect(r.lost).toBe(0);
  }, 120_000);
});
