// Whether a middling matrix meets on every idle thread or runs whole on one: the meeting lost to one
// thread on a 2-core machine with 2 worker threads, so by default it runs only where a core is left
// beside the worker threads (MATRIX_MEET=auto), and an operator can turn it on or off.
import { describe, it, expect } from 'vitest';
import { availableParallelism } from 'node:os';
import { runMatrix } from '../../src/pool/matrix-dispatch.ts';
import { loadConfig } from '../../src/core/config.ts';
import type { WorkerPool } from '../../src/pool/worker-pool.ts';

/** A pool of two idle threads that records how it was asked (and answers nothing useful). */
function idlePool() {
  const calls: string[] = [];
  const reply = { status: 500, body: new Uint8Array(0) };
  const pool = {
    threads: 2, idleLanes: 2,
    run: async () => { calls.push('whole'); return reply; },
    runTogether: (reqs: unknown[]) => { calls.push(`together ${reqs.length}`); return Promise.resolve(reqs.map(() => reply)); },
  } as unknown as WorkerPool;
  return { pool, calls };
}

const pts = (n: number) => Array.from({ length: n }, (_, i) => [-5.7 + i * 1e-3, 32.8] as [number, number]);

describe('matrix dispatch: meeting or whole', () => {
  it('a 60 × 60 on idle threads meets only when meetings are on', async () => {
    const args = { sources: pts(60), destinations: pts(60) };
    const on = idlePool();
    await runMatrix(on.pool, args, false, true);
    expect(on.calls).toEqual(['together 2']);
    const off = idlePool();
    await runMatrix(off.pool, args, false, false);
    expect(off.calls).toEqual(['whole']);
  });

  it('MATRIX_MEET: auto is on only with more cores than worker threads; on, off; anything else refused', () => {
    const cores = availableParallelism();
    expect(loadConfig({ WORKERS: String(cores) }).matrixMeet).toBe(false);
    expect(loadConfig({ WORKERS: String(cores), MATRIX_MEET: 'auto' }).matrixMeet).toBe(false);
    expect(loadConfig({ WORKERS: String(Math.max(1, cores - 1)) }).matrixMeet).toBe(cores > 1);
    expect(loadConfig({ WORKERS: String(cores), MATRIX_MEET: 'on' }).matrixMeet).toBe(true);
    expect(loadConfig({ WORKERS: '1', MATRIX_MEET: 'off' }).matrixMeet).toBe(false);
    expect(() => loadConfig({ MATRIX_MEET: 'sometimes' })).toThrow(/MATRIX_MEET/);
  });
});
