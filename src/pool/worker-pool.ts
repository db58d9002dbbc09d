// The worker pool that answers compute tasks. Holds the loaded datasets and swaps
// to a fresh pool on reload: requests already queued finish on the old pool (and
// the old buffers) while new ones go to the new pool.
//
// Piscina owns the threads (start, workerData, replacement, shutdown) and carries the
// control tasks. The hot path does not go through its task queue: at start every thread
// is handed one end of a MessageChannel (a "lane"), and batches of requests travel over
// those ports. A Piscina task costs the main thread about 17 µs per round trip (task
// object, async resource, queue, Atomics wake-up); a bare port about 10 µs. Should lanes
// be missing (a thread died and its replacement has none yet), batches go through
// Piscina's queue as before.
import { Piscina } from 'piscina';
import { mallocThreshold } from '../core/malloc.ts';
import { YOUNG_MB } from '../core/config.ts';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Packr } from 'msgpackr';
import { loadCatalog, type LoadReport } from '../data/catalog.ts';
import type { VerifyMode } from '../core/format/verified.ts';
import { toWire, type AttachRequest, type Dataset, type TaskReply, type TaskRequest } from '../core/task.ts';
import type { TaskArgs, TaskCall, TaskOp, TaskResult } from '../core/tasks/index.ts';
import { readBatchReply, batchMicros, type BatchReply, type PieceMessage } from '../core/batch.ts';
import { log } from '../core/log.ts';
import { workerEntry } from './worker-bundle.ts';

const MIN_BATCH = 8;
/**
 * Work (µs of worker time) below which a batch is not split over threads and goes to a thread
 * that is already busy (so awake) rather than waking an idle one: a message costs the main
 * thread a few µs, and with as many threads as cores every wake-up is a context switch that
 * the HTTP thread pays for.
 */
const SPLIT_US = 50;
/** Queued work (µs) behind which a cheap batch still joins a busy thread rather than waking an idle one. */
const QUEUE_BEHIND_US = 4 * SPLIT_US;
/**
 * Batches out on one lane at a time. More than one keeps the thread fed while the HTTP thread
 * answers the previous batch and reads the next requests: with a single batch out, the HTTP
 * thread, the client and the worker took turns and half the CPU sat idle (measured: 106% of 200%).
 */
const MAX_INFLIGHT = 4;
/** How long the attach handshake waits for every thread to take its lane. */
const ATTACH_TIMEOUT_MS = 10_000;
const packr = new Packr({ useRecords: false });

interface Pending {
  req: TaskRequest;
  resolve: (r: TaskReply) => void;
  reject: (e: unknown) => void;
}

/** One worker thread's private channel; replies come back in the order batches were sent. */
interface Lane {
  port: MessagePort;
  thread: number;
  /** Batches out on this lane, oldest first, with their estimated worker µs. */
  out: { part: Pending[]; us: number; spread?: boolean; pieces?: Uint8Array[][][] }[];
  /** Estimated worker µs of everything out on this lane. */
  us: number;
  /** Reply buffers written out and released, handed back to the thread with its next batch. */
  give: ArrayBuffer[];
}

/**
 * Most reply buffers handed back to a thread at once. Each answer arrives on this thread as the
 * worker's buffer, moved, and counted as external memory here; left to the collector, tens of
 * MB of them piled up between young-generation collections and set off full ones, and the
 * route throughput fell by a third after the first rounds of a run (docs/guidance.md, *Measured*).
 */
const GIVE_MAX = 4;
/** Larger reply buffers (big matrices, isochrones) are left to the collector rather than held by a thread. */
const GIVE_MAX_BYTES = 1 << 20;

/** One generation of threads: replaced as a whole on reload. */
interface Generation {
  pool: Piscina;
  lanes: Lane[];
  /** Batches in flight through Piscina's own queue (the fallback path). */
  queued: number;
  closing: boolean;
  idle: (() => void)[];
}

export interface WorkerPoolOptions {
  builtDir: string;
  workers: number;
  /** Tasks accepted but not yet answered (queued here or on the threads) beyond which new ones are shed. 0 = no bound. */
  maxQueue?: number;
  /** Estimated queue wait (ms) beyond which new tasks are shed. 0 = no bound. */
  maxWaitMs?: number;
  /** When built files' checksums are checked (src/data/catalog.ts; `once` when absent). */
  verify?: VerifyMode;
  /** Each worker thread's young generation, MB (YOUNG_MB when absent). */
  youngMb?: number;
  /** How long a new thread waits before its JIT warm-up, ms (0 when absent): a start is not slowed by it. */
  warmUpAfterMs?: number;
  /** The mmap addon to map built files with; null = read them into memory; absent = the one npm install builds. */
  mmapAddon?: string | null;
}

/**
 * The pool cannot take a task and answer it in time: the caller answers 503 with Retry-After.
 * Shedding at the door keeps the wait of admitted work bounded instead of letting every
 * request's latency grow with the queue (and memory with it) until clients time out.
 */
export class Overloaded extends Error {
  constructor(readonly retryAfter: number, readonly reason: 'queue' | 'wait') {
    super(reason === 'queue' ? 'compute queue full' : 'compute queue wait too long');
    this.name = 'Overloaded';
  }
}

export class WorkerPool {
  private gen!: Generation;
  private opsSet = new Set<string>();
  datasets: Dataset[] = [];
  lastLoad: LoadReport | null = null;

  /** Each worker thread's young generation, MB. */
  private readonly youngMb: number;
  constructor(private opts: WorkerPoolOptions) { this.youngMb = opts.youngMb ?? YOUNG_MB; }

  async start(): Promise<void> {
    const report = loadCatalog(this.opts.builtDir, this.opts.mmapAddon, this.opts.verify);
    for (const e of report.errors) log.error('dataset_refused', e);
    const { gen, ops } = await this.spawn(report.datasets);
    this.install(gen, ops, report);
  }

  /**
   * Reload built files without downtime. A dataset whose files fail verification is refused
   * (logged) and the one already serving stays; returns what changed.
   */
  async reload(): Promise<{ ok: boolean; loaded: string[]; refused: { dir: string; error: string }[] }> {
    const report = loadCatalog(this.opts.builtDir, this.opts.mmapAddon, this.opts.verify);
    const fresh = new Map(report.datasets.map((d) => [d.dir, d]));
    // Keep the old copy of any dataset whose new files were refused.
    for (const e of report.errors) {
      log.error('dataset_refused', e);
      const old = this.datasets.find((d) => d.dir === e.dir);
      if (old) fresh.set(old.dir, old);
    }
    const merged = [...fresh.values()].sort((a, b) => a.name.localeCompare(b.name));
    const { gen, ops } = await this.spawn(merged);
    const old = this.gen;
    this.install(gen, ops, { ...report, datasets: merged });
    // Batches already on the old threads finish there (with the old buffers) before they exit.
    void this.retire(old).catch((e) => log.error('pool_close', { error: String(e) }));
    return { ok: report.errors.length === 0, loaded: merged.map((d) => d.name), refused: report.errors };
  }

  private async spawn(datasets: Dataset[]): Promise<{ gen: Generation; ops: string[] }> {
    const n = this.opts.workers;
    const entry = await workerEntry();
    const pool = new Piscina({
      filename: entry.filename,
      minThreads: n,
      maxThreads: n,
      idleTimeout: Infinity,
      concurrentTasksPerWorker: 1,
      workerData: { datasets: datasets.map(toWire), warmUpAfterMs: this.opts.warmUpAfterMs ?? 0 },
      execArgv: entry.execArgv,
      // Per-task timing histograms cost the main thread on every message; /metrics keeps its own.
      recordTiming: false,
      // Idle threads must run their event loop (not block in Atomics.wait) to hear their lane.
      atomics: 'disabled',
      resourceLimits: { maxYoungGenerationSizeMb: this.youngMb },
    });
    const r = await pool.run({ op: 'describe', args: null } satisfies TaskRequest);
    const body = JSON.parse(new TextDecoder().decode(r.body));
    const gen: Generation = { pool, lanes: [], queued: 0, closing: false, idle: [] };
    await this.attach(gen, n);
    return { gen, ops: body.ops as string[] };
  }

  /**
   * Give `count` threads a lane each. The attach tasks meet at a barrier before returning, so
   * while one is held no thread can take a second one; a thread that still ends up with two
   * (a timeout) simply serves both.
   */
  private async attach(gen: Generation, count: number): Promise<void> {
    const barrier = new Int32Array(new SharedArrayBuffer(4));
    const made = Array.from({ length: count }, () => new MessageChannel());
    const threads = await Promise.all(made.map(({ port2 }) => {
      const msg: AttachRequest = { attach: port2, barrier, count, timeoutMs: ATTACH_TIMEOUT_MS };
      return gen.pool.run(msg, { transferList: [port2] }) as Promise<number>;
    }));
    made.forEach(({ port1 }, i) => this.openLane(gen, port1, threads[i]));
  }

  private openLane(gen: Generation, port: MessagePort, thread: number) {
    const lane: Lane = { port, thread, out: [], us: 0, give: [] };
    port.on('message', (r: BatchReply | PieceMessage) => {
      if (!(r instanceof Uint8Array)) {
        // pieces of an answer arrive before the reply of the batch they belong to, the oldest out
        const ps = (lane.out[0].pieces ??= []);
        ((ps[r.task] ??= [])[r.stream] ??= []).push(r.piece);
        return;
      }
      const { part, us, spread, pieces } = lane.out.shift()!;
      lane.us = lane.out.length ? lane.us - us : 0;
      if (!lane.out.length) port.unref();
      // A large job split by its caller (runSpread) says nothing about the usual task's cost.
      if (!spread) this.observeCost(batchMicros(r), part.length);
      const answers = readBatchReply(r);
      // the buffer goes back once every answer in it has been written
      let unreleased = answers.length;
      for (const a of answers) {
        let done = false;
        a.release = () => {
          if (done) return;
          done = true;
          if (--unreleased === 0 && lane.give.length < GIVE_MAX && r.buffer.byteLength <= GIVE_MAX_BYTES && gen.lanes.includes(lane)) lane.give.push(r.buffer as ArrayBuffer);
        };
      }
      if (pieces) pieces.forEach((p, j) => { answers[j].pieces = Array.from(p, (s) => s ?? []); });
      for (let j = 0; j < part.length; j++) part[j].resolve(answers[j]);
      this.settled(gen);
    });
    // The thread died (Piscina starts a replacement): fail its batch and give the new one a lane.
    port.on('close', () => {
      const i = gen.lanes.indexOf(lane);
      if (i < 0) return;
      gen.lanes.splice(i, 1);
      const err = new Error('worker thread exited');
      for (const b of lane.out.splice(0)) for (const p of b.part) p.reject(err);
      lane.us = 0;
      log.error('worker_lane_closed', { thread: thread });
      if (!gen.closing) setTimeout(() => {
        if (!gen.closing) this.attach(gen, 1).catch((e) => log.error('worker_lane_attach', { error: String(e) }));
      }, 100).unref();
      this.settled(gen);
    });
    // A lane keeps the process alive only while a batch is out on it: an idle one must not.
    port.unref();
    gen.lanes.push(lane);
  }

  private install(gen: Generation, ops: string[], report: LoadReport) {
    this.gen = gen;
    this.opsSet = new Set(ops);
    this.datasets = report.datasets;
    this.lastLoad = report;
    log.info('engine_ready', {
      workers: this.opts.workers,
      lanes: gen.lanes.length,
      datasets: report.datasets.map((d) => d.name),
      mb: Math.round(report.bytes / 1e5) / 10,
      mapped_mb: Math.round(report.mappedBytes / 1e5) / 10,
      load_s: Math.round(report.seconds * 1000) / 1000,
      malloc_mmap_threshold: mallocThreshold(),
      worker_young_mb: this.youngMb,
    });
  }

  /**
   * Queue a task. It leaves at the end of the current event-loop turn together with every other
   * task queued in that turn (see dispatch), so under load the message round trip is paid per
   * batch rather than per request, and an idle server adds no waiting.
   */
  run<K extends TaskOp>(op: K, args: TaskArgs<K>, sandbox = false): Promise<TaskReply<TaskResult<K>>> {
    const shed = this.shouldShed();
    if (shed) {
      this.shed[shed.reason]++;
      return Promise.reject(shed);
    }
    this.outstanding++;
    return new Promise((resolve, reject) => {
      this.pending.push({
        req: { op, args, sandbox },
        // the bytes are what the task map says `op` answers: the worker's table is checked against it
        resolve: (r) => { this.outstanding--; resolve(r as TaskReply<TaskResult<K>>); },
        reject: (e) => { this.outstanding--; reject(e); },
      });
      this.schedule();
    });
  }

  /** Tasks accepted and not yet answered. */
  outstanding = 0;
  /** Tasks refused since start, by reason (exported as a metric). */
  shed = { queue: 0, wait: 0 };

  /**
   * Whether a new task would wait too long. The estimate is the worker time of everything
   * accepted and unanswered spread over the threads; a task is a moving average, so a
   * burst of long routes raises it within a few batches.
   */
  private shouldShed(): Overloaded | null {
    const { maxQueue = 0, maxWaitMs = 0 } = this.opts;
    const threads = Math.max(1, this.gen?.lanes.length || this.opts.workers);
    if (maxQueue > 0 && this.outstanding >= maxQueue) return new Overloaded(this.retryAfter(threads), 'queue');
    if (maxWaitMs > 0 && this.estimatedWaitUs(threads) > maxWaitMs * 1000) return new Overloaded(this.retryAfter(threads), 'wait');
    return null;
  }

  private estimatedWaitUs(threads: number): number {
    return (this.outstanding * this.costUs) / threads;
  }

  /** Seconds after which the queue as it stands now will have drained (at least 1). */
  private retryAfter(threads: number): number {
    return Math.max(1, Math.ceil(this.estimatedWaitUs(threads) / 1e6));
  }

  /**
   * Tasks meant to run at the same time on different threads: the parts of one large job the caller
   * split (a 1,000 × 1,000 matrix). Each leaves at once in a batch of its own, to the least-loaded
   * open lane in turn, counted as `estimateUs` of work there so the next part goes elsewhere.
   * Without lanes (or with every lane full) they queue like any task.
   */
  runSpread<K extends TaskOp>(reqs: TaskCall<K>[], sandbox = false, estimateUs = 100_000): Promise<TaskReply<TaskResult<K>>[]> {
    return Promise.all(reqs.map((r) => new Promise<TaskReply<TaskResult<K>>>((resolve, reject) => {
      const p: Pending = { req: { op: r.op, args: r.args, sandbox, attached: r.attached }, resolve: resolve as Pending['resolve'], reject };
      const open = this.gen.lanes.filter((l) => l.out.length < MAX_INFLIGHT).sort((a, b) => a.us - b.us);
      if (!open.length || this.gen.closing) { this.pending.push(p); this.schedule(); return; }
      this.send(open[0], [p], estimateUs, true);
    })));
  }

  /**
   * Tasks that must run at the same time, each on a thread of its own, because they wait for one
   * another (the sides of a matrix meeting in shared memory, src/core/meet.ts): one to each idle
   * lane, sent at once. Null, and nothing sent, when fewer lanes than tasks are idle.
   */
  runTogether<K extends TaskOp>(reqs: TaskCall<K>[], sandbox = false, estimateUs = 100_000): Promise<TaskReply<TaskResult<K>>[]> | null {
    const gen = this.gen;
    if (!gen || gen.closing || this.pending.length) return null;
    const idle = gen.lanes.filter((l) => l.out.length === 0);
    if (idle.length < reqs.length) return null;
    return Promise.all(reqs.map((r, i) => new Promise<TaskReply<TaskResult<K>>>((resolve, reject) => {
      this.send(idle[i], [{ req: { op: r.op, args: r.args, sandbox, attached: r.attached }, resolve: resolve as Pending['resolve'], reject }], estimateUs, true);
    })));
  }

  private pending: Pending[] = [];
  private scheduled = false;
  /** Worker time per task (µs, moving average); starts high so both threads serve until measured. */
  private costUs = SPLIT_US;

  private observeCost(micros: number, tasks: number) {
    this.costUs += 0.1 * (micros / tasks - this.costUs);
  }

  /** Batches out in a generation (lanes and Piscina's queue). */
  private busy(gen: Generation): number {
    let n = gen.queued;
    for (const l of gen.lanes) n += l.out.length;
    return n;
  }

  private schedule() {
    if (this.scheduled || !this.pending.length) return;
    this.scheduled = true;
    setImmediate(this.dispatch);
  }

  private settled(gen: Generation) {
    if (gen === this.gen) this.schedule();
    else if (this.busy(gen) === 0) gen.idle.splice(0).forEach((f) => f());
  }

  /**
   * Send what is pending. Runs once per event-loop turn, so every request read in that turn
   * leaves in the same message(s). Cheap work goes whole to a busy thread with little queued
   * (else to the least-loaded one); larger work is split over threads, least loaded first.
   * When every lane has MAX_INFLIGHT batches out, tasks wait here for the next reply.
   */
  private dispatch = () => {
    this.scheduled = false;
    const gen = this.gen;
    if (!this.pending.length) return;
    if (!gen.lanes.length) return this.viaQueue(gen);
    const open = gen.lanes.filter((l) => l.out.length < MAX_INFLIGHT).sort((a, b) => a.us - b.us);
    if (!open.length) return; // a reply will call again
    const items = this.pending;
    this.pending = [];
    const work = items.length * this.costUs;
    const chunks = Math.max(1, Math.min(Math.ceil(items.length / MIN_BATCH), Math.ceil(work / SPLIT_US), open.length));
    if (chunks === 1) {
      // An awake thread whose queue drains soon beats waking one; a long queue (routes, say) does not.
      const lane = open.find((l) => l.out.length > 0 && l.us <= QUEUE_BEHIND_US) ?? open[0];
      return this.send(lane, items, work);
    }
    const per = Math.ceil(items.length / chunks);
    for (let i = 0, c = 0; i < items.length; i += per, c++) {
      const part = items.slice(i, i + per);
      this.send(open[c], part, part.length * this.costUs);
    }
  };

  /**
   * One msgpack buffer per batch: copying bytes is far cheaper than structured-cloning objects.
   * Each request's `attached` bytes go beside it, posted as they are (shared memory is not copied).
   */
  private pack(part: Pending[]): { packed: Uint8Array<ArrayBuffer>; attached?: (Uint8Array[] | null)[] } {
    // msgpackr hands back a view of its 8 KB scratch buffer, which a message would copy whole:
    // move the bytes to an exact-size buffer and transfer that instead.
    const view = packr.pack(part.map(({ req: { attached, ...req } }) => req));
    const packed = new Uint8Array(view.length);
    packed.set(view);
    return part.some((p) => p.req.attached) ? { packed, attached: part.map((p) => p.req.attached ?? null) } : { packed };
  }

  private send(lane: Lane, part: Pending[], us: number, spread = false) {
    const { packed, attached } = this.pack(part);
    if (!lane.out.length) lane.port.ref();
    lane.out.push({ part, us, spread });
    lane.us += us;
    const give = lane.give;
    if (give.length) lane.give = [];
    if (give.length || attached) lane.port.postMessage({ packed, give, attached }, [packed.buffer, ...give]);
    else lane.port.postMessage(packed, [packed.buffer]);
  }

  /** No lanes (a thread died and its replacement has none yet): through Piscina's queue, one batch per thread. */
  private viaQueue(gen: Generation) {
    if (gen.queued >= this.opts.workers) return;
    const part = this.pending;
    this.pending = [];
    const batch = this.pack(part);
    gen.queued++;
    gen.pool.run(batch, { transferList: [batch.packed.buffer] }).then(
      (r: BatchReply) => {
        this.observeCost(batchMicros(r), part.length);
        const answers = readBatchReply(r);
        for (let j = 0; j < part.length; j++) part[j].resolve(answers[j]);
      },
      (e: unknown) => { for (const p of part) p.reject(e); },
    ).finally(() => {
      gen.queued--;
      this.settled(gen);
    });
  }

  /** Wait for a generation's batches to come back, then close its lanes and threads. */
  private async retire(gen: Generation): Promise<void> {
    gen.closing = true;
    if (this.busy(gen) > 0) await new Promise<void>((r) => gen.idle.push(r));
    for (const l of gen.lanes.splice(0)) l.port.close();
    await gen.pool.close();
  }

  /** Whether the threads serve `op` (a module may register a task only when its data loads: staticmap). */
  has(op: TaskOp): boolean {
    return this.opsSet.has(op);
  }

  hasDataset(kind: Dataset['dataset'], pred?: (d: Dataset) => boolean): boolean {
    return this.datasets.some((d) => d.dataset === kind && (!pred || pred(d)));
  }

  get threads(): number {
    return this.gen ? this.gen.pool.threads.length : 0;
  }

  /** Threads reachable over a private lane (the rest of the traffic goes through Piscina's queue). */
  get lanes(): number {
    return this.gen ? this.gen.lanes.length : 0;
  }

  /** Lanes with nothing out and nothing waiting to leave: threads a split job would have to itself. */
  get idleLanes(): number {
    if (!this.gen || this.pending.length || this.gen.closing) return 0;
    return this.gen.lanes.filter((l) => l.out.length === 0).length;
  }

  /** Tasks waiting for a free thread. */
  get queued(): number {
    return this.pending.length + (this.gen ? this.gen.pool.queueSize : 0);
  }

  async close(): Promise<void> {
    if (this.gen) await this.retire(this.gen);
  }
}
