// workers/collect.ts: a collection after large tasks, once per event-loop turn, after the turn's work;
// and one once a thread is idle, when it holds more than it did after its last collection.
import { describe, it, expect, afterAll } from 'vitest';
import { collectSoon, collectWhenIdle, IDLE_MS, IDLE_SLACK_BYTES } from '../../workers/collect.ts';

describe('collections of a worker thread', () => {
  const g = globalThis as { gc?: () => void };
  const had = g.gc;
  afterAll(() => { g.gc = had; });
  // the module keeps the first gc() it finds: every test counts through this one
  let calls = 0;
  g.gc = () => { calls++; };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('collects once per turn, after the calling code has finished', async () => {
    calls = 0;
    collectSoon(); collectSoon(); collectSoon();
    expect(calls).toBe(0); // never while the task's answer is still being written
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(1);
    collectSoon();
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(2);
  });

  it(`collects once a thread has been idle ${IDLE_MS} ms, only when it holds more than ${IDLE_SLACK_BYTES >> 20} MB beyond the last collection`, async () => {
    await sleep(IDLE_MS + 100);
    calls = 0;
    // what a task leaves: held (here, still referenced) buffers well past the slack
    const left = [new Uint8Array(8 * IDLE_SLACK_BYTES).fill(1)];
    // batch after batch: never while they keep coming
    for (let i = 0; i < 5; i++) { collectWhenIdle(); await sleep(IDLE_MS / 2); }
    expect(calls).toBe(0);
    await sleep(IDLE_MS);
    expect(calls).toBe(1);
    // idle again with nothing new held: no collection
    collectWhenIdle();
    await sleep(IDLE_MS + 100);
    expect(calls).toBe(1);
    // more left behind: collected again
    left.push(new Uint8Array(8 * IDLE_SLACK_BYTES).fill(2));
    collectWhenIdle();
    await sleep(IDLE_MS + 100);
    expect(calls).toBe(2);
    expect(left.length).toBe(2);
  });
});
