// The worker pool's hot path: batches over each thread's private lane, answers matched to
// their requests, and recovery when a thread dies (its batch fails, traffic keeps flowing,
// and the replacement thread gets a lane of its own).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/pool.ts';

const decode = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b));

describe('worker pool', () => {
  let dir: string;
  let engine: Engine;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-pool-'));
    engine = new Engine({ builtDir: dir, workers: 2 });
    await engine.start();
  });
  afterAll(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives every thread a lane and answers each request with its own reply', async () => {
    expect(engine.lanes).toBe(2);
    const ops = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? 'describe' : i % 3 === 1 ? 'ping' : 'no_such_op'));
    const replies = await Promise.all(ops.map((op) => engine.run(op, null)));
    replies.forEach((r, i) => {
      const body = decode(r.body);
      expect(body.attribution).toBeTypeOf('string');
      if (ops[i] === 'ping') expect([r.status, body.ok]).toEqual([200, true]);
      else if (ops[i] === 'describe') expect(body.ops).toContain('ping');
      else expect(r.status).toBe(500);
    });
  });

  it('matches replies when several batches are out on a lane at once', async () => {
    // Requests issued over successive event-loop turns leave as separate batches, and cheap
    // batches are queued on a thread that is already busy: replies must still meet their requests.
    const ops: string[] = [];
    const waiting: Promise<{ status: number; body: Uint8Array }>[] = [];
    for (let turn = 0; turn < 40; turn++) {
      for (let j = 0; j < 1 + (turn % 5); j++) {
        const op = (turn + j) % 4 === 0 ? 'describe' : (turn + j) % 4 === 3 ? 'no_such_op' : 'ping';
        ops.push(op);
        waiting.push(engine.run(op, null));
      }
      await new Promise((r) => setImmediate(r));
    }
    const replies = await Promise.all(waiting);
    replies.forEach((r, i) => {
      const body = decode(r.body);
      if (ops[i] === 'ping') expect([r.status, body.ok]).toEqual([200, true]);
      else if (ops[i] === 'describe') expect(body.ops).toContain('ping');
      else expect(r.status).toBe(500);
    });
  });

  it('keeps answering when a thread dies, and the replacement gets a lane', async () => {
    const pool = (engine as unknown as { gen: { pool: { threads: { terminate(): Promise<number> }[] } } }).gen.pool;
    await pool.threads[0].terminate();
    // Some requests may land on the dying lane and fail; none may hang, and traffic resumes.
    const settled = await Promise.allSettled(Array.from({ length: 100 }, () => engine.run('ping', null)));
    expect(settled.filter((s) => s.status === 'fulfilled').length).toBeGreaterThan(0);
    for (let i = 0; i < 100 && engine.lanes < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(engine.lanes).toBe(2);
    const after = await Promise.all(Array.from({ length: 100 }, () => engine.run('ping', null)));
    expect(after.every((r) => r.status === 200)).toBe(true);
  });
});
