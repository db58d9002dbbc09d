// The worker pool's hot path: batches over each thread's private lane, answers matched to
// their requests, and recovery when a thread dies (its batch fails, traffic keeps flowing,
// and the replacement thread gets a lane of its own).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerPool, Overloaded } from '../../src/pool/worker-pool.ts';
import { loadConfig, YOUNG_MB } from '../../src/core/config.ts';
import type { TaskOp } from '../../src/core/tasks/index.ts';

/** An op no worker serves (the type system refuses one; the pool must answer it all the same). */
const NO_SUCH_OP = 'no_such_op' as TaskOp;

const decode = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b));

describe('worker pool', () => {
  let dir: string;
  let engine: WorkerPool;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-pool-'));
    engine = new WorkerPool({ builtDir: dir, workers: 2 });
    await engine.start();
  });
  afterAll(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives every thread a lane and answers each request with its own reply', async () => {
    expect(engine.lanes).toBe(2);
    const ops = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? 'describe' : i % 3 === 1 ? 'ping' : NO_SUCH_OP));
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
        const op = (turn + j) % 4 === 0 ? 'describe' : (turn + j) % 4 === 3 ? NO_SUCH_OP : 'ping';
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

  it('hands a written reply\'s buffer back to its thread, which answers into it; an unreleased one stays', async () => {
    // one request at a time, so each batch holds one answer and both lanes see traffic
    const kept = await engine.run('describe', null);
    const keptText = new TextDecoder().decode(kept.body);
    const released: Uint8Array[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await engine.run('describe', null);
      expect(decode(r.body).ops).toContain('ping');
      r.release!();
      released.push(r.body);
    }
    // later batches on each lane carried the released buffers back: their views here are detached
    for (let i = 0; i < 8; i++) await engine.run('ping', null);
    expect(released.filter((b) => b.byteLength === 0).length).toBeGreaterThanOrEqual(6);
    // a reply nobody released is untouched, and answers written into reused buffers are whole
    expect(new TextDecoder().decode(kept.body)).toBe(keptText);
    const again = await Promise.all(Array.from({ length: 50 }, () => engine.run('describe', null)));
    for (const r of again) { expect(decode(r.body).ops).toContain('ping'); r.release!(); }
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

describe('worker pool heap limits', () => {
  it('runs each thread with the young generation it is given (WORKER_YOUNG_MB), YOUNG_MB by default', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-pool-young-'));
    const engines = [new WorkerPool({ builtDir: dir, workers: 1 }), new WorkerPool({ builtDir: dir, workers: 1, youngMb: 9 })];
    try {
      const seen = [];
      for (const e of engines) { await e.start(); seen.push(decode((await e.run('describe', null)).body).young_mb); }
      expect(seen).toEqual([YOUNG_MB, 9]);
      expect(loadConfig({ WORKER_YOUNG_MB: '9' }).workerYoungMb).toBe(9);
      expect(loadConfig({}).workerYoungMb).toBe(YOUNG_MB);
      expect(() => loadConfig({ WORKER_YOUNG_MB: 'lots' })).toThrow(/WORKER_YOUNG_MB/);
    } finally {
      for (const e of engines) await e.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('worker pool under overload', () => {
  let dir: string;
  let engine: WorkerPool;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-pool-'));
    engine = new WorkerPool({ builtDir: dir, workers: 1, maxQueue: 8, maxWaitMs: 0 });
    await engine.start();
  });
  afterAll(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sheds tasks beyond the queue bound with a retry hint, answers the admitted ones, and admits again once drained', async () => {
    const settled = await Promise.allSettled(Array.from({ length: 30 }, () => engine.run('ping', null)));
    const ok = settled.filter((s) => s.status === 'fulfilled');
    const shed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(ok).toHaveLength(8);
    expect(shed).toHaveLength(22);
    for (const s of shed) {
      expect(s.reason).toBeInstanceOf(Overloaded);
      expect(s.reason.retryAfter).toBeGreaterThanOrEqual(1);
    }
    expect(engine.outstanding).toBe(0);
    expect(engine.shed.queue).toBe(22);
    const again = await Promise.all(Array.from({ length: 8 }, () => engine.run('ping', null)));
    expect(again.every((r) => r.status === 200)).toBe(true);
  });

  it('sheds on estimated wait: a queue of slow tasks refuses newcomers', async () => {
    const e = new WorkerPool({ builtDir: dir, workers: 1, maxWaitMs: 1 });
    await e.start();
    try {
      // Teach the pool that tasks are slow (1 ms each), as measured replies would.
      (e as unknown as { costUs: number }).costUs = 1000;
      const settled = await Promise.allSettled(Array.from({ length: 5 }, () => e.run('ping', null)));
      // 0 and 1 outstanding estimate ≤ 1 ms of wait; the third would wait 2 ms.
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected']);
      expect(((settled[2] as PromiseRejectedResult).reason as Overloaded).reason).toBe('wait');
    } finally {
      await e.close();
    }
  });
});
