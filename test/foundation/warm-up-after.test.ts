// A node's own background work (webhook retries, pending verifications) waits the delay it is
// started with, so a restart's first requests are not queued behind it on the database.
import { describe, it, expect } from 'vitest';
import { Dispatcher } from '../../src/webhooks/dispatcher.ts';
import { Verifier } from '../../src/verify/sweeper.ts';

/** A store whose every statement finds nothing, recording when it was asked. */
function fakeStore() {
  const asked: number[] = [];
  const t0 = Date.now();
  const q = async () => { asked.push(Date.now() - t0); return { rows: [], rowCount: 0 }; };
  return { asked, store: { query: q, tx: async (fn: (c: unknown) => unknown) => fn({ query: q }) } as any };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('background work after a start', () => {
  for (const [name, make] of [
    ['webhook dispatcher', (store: any) => new Dispatcher(store, { allowPrivate: true, backoffScale: 1, timeoutMs: 1000, pollMs: 60_000 })],
    ['verification sweeper', (store: any) => new Verifier(store, undefined, 60_000)],
  ] as const) {
    it(`${name}: nothing before the delay, its first pass after it`, async () => {
      const { asked, store } = fakeStore();
      const w = make(store);
      w.start(300);
      await sleep(200);
      expect(asked).toEqual([]);
      await sleep(250);
      expect(asked.length).toBeGreaterThan(0);
      expect(asked[0]).toBeGreaterThanOrEqual(295);
      await w.stop();
    });

    it(`${name}: without a delay, its first pass at once`, async () => {
      const { asked, store } = fakeStore();
      const w = make(store);
      w.start();
      await sleep(50);
      expect(asked.length).toBeGreaterThan(0);
      await w.stop();
    });
  }
});
