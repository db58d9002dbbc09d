// Short version of `npm run bench -- webhooks-crash`: kill -9 the server while trip outcomes
// are being recorded; after a restart every outcome answered 200 reaches the receiver.
import { describe, it, expect } from 'vitest';
import { HAS_PG } from '../helpers/db.ts';
import { runWebhookCrash } from '../../bench/webhooks-crash.ts';

describe('no acknowledged event is lost across kill -9', () => {
  it.skipIf(!HAS_PG)('postgres: 2 kills mid-stream, every acked trip outcome is delivered', async () => {
    const r = await runWebhookCrash({ kills: 2, clients: 4, pglite: false, minLoadMs: 500, maxLoadMs: 1200 });
    expect(r.acked).toBeGreaterThan(20);
    expect(r.bad_signatures).toBe(0);
    expect(r.lost_examples).toEqual([]);
    expect(r.lost).toBe(0);
  }, 180_000);

  it('embedded PGlite: 1 kill mid-stream, every acked trip outcome is delivered', async () => {
    const r = await runWebhookCrash({ kills: 1, clients: 3, pglite: true, minLoadMs: 600, maxLoadMs: 900 });
    expect(r.acked).toBeGreaterThan(0);
    expect(r.bad_signatures).toBe(0);
    expect(r.lost).toBe(0);
  }, 180_000);
});
