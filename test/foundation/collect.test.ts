// workers/collect.ts: a collection after large tasks, once per event-loop turn, after the turn's work.
import { describe, it, expect, afterAll } from 'vitest';
import { collectSoon } from '../../workers/collect.ts';

describe('collectSoon', () => {
  const g = globalThis as { gc?: () => void };
  const had = g.gc;
  afterAll(() => { g.gc = had; });

  it('collects once per turn, after the calling code has finished', async () => {
    let calls = 0;
    g.gc = () => { calls++; };
    collectSoon(); collectSoon(); collectSoon();
    expect(calls).toBe(0); // never while the task's answer is still being written
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(1);
    collectSoon();
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(2);
  });
});
