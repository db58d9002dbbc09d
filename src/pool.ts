// The worker pool that answers compute tasks. Holds the loaded datasets and swaps
// to a fresh pool on reload: requests already queued finish on the old pool (and
// the old buffers) while new ones go to the new pool.
import { Piscina } from 'piscina';
import { Packr } from 'msgpackr';
import { loadCatalog, type LoadReport } from './data/catalog.ts';
import type { Dataset, TaskReply, TaskRequest } from '../workers/task.ts';
import type { BatchReply } from '../workers/engine.ts';
import { log } from './log.ts';
import { engineEntry } from './engine-bundle.ts';


const MIN_BATCH = 8;
const packr = new Packr({ useRecords: false });

interface Pending {
  req: TaskRequest;
  resolve: (r: TaskReply) => void;
  reject: (e: unknown) => void;
}

export interface EngineOptions {
  builtDir: string;
  workers: number;
}

export class Engine {
  private pool!: Piscina;
  private opsSet = new Set<string>();
  datasets: Dataset[] = [];
  lastLoad: LoadReport | null = null;

  constructor(private opts: EngineOptions) {}

  async start(): Promise<void> {
    const report = loadCatalog(this.opts.builtDir);
    for (const e of report.errors) log.error('dataset_refused', e);
    const { pool, ops } = await this.spawn(report.datasets);
    this.install(pool, ops, report);
  }

  /**
   * Reload built files without downtime. A dataset whose files fail verification is refused
   * (logged) and the one already serving stays; returns what changed.
   */
  async reload(): Promise<{ ok: boolean; loaded: string[]; refused: { dir: string; error: string }[] }> {
    const report = loadCatalog(this.opts.builtDir);
    const fresh = new Map(report.datasets.map((d) => [d.dir, d]));
    // Keep the old copy of any dataset whose new files were refused.
    for (const e of report.errors) {
      log.error('dataset_refused', e);
      const old = this.datasets.find((d) => d.dir === e.dir);
      if (old) fresh.set(old.dir, old);
    }
    const merged = [...fresh.values()].sort((a, b) => a.name.localeCompare(b.name));
    const { pool, ops } = await this.spawn(merged);
    const old = this.pool;
    this.install(pool, ops, { ...report, datasets: merged });
    // close() lets queued and running tasks finish before the threads exit.
    void old.close().catch((e) => log.error('pool_close', { error: String(e) }));
    return { ok: report.errors.length === 0, loaded: merged.map((d) => d.name), refused: report.errors };
  }

  private async spawn(datasets: Dataset[]): Promise<{ pool: Piscina; ops: string[] }> {
    const n = this.opts.workers;
    const entry = await engineEntry();
    const pool = new Piscina({
      filename: entry.filename,
      minThreads: n,
      maxThreads: n,
      idleTimeout: Infinity,
      // A few tasks per thread in flight hides the message latency without starving fairness.
      concurrentTasksPerWorker: 1,
      workerData: { datasets },
      execArgv: entry.execArgv,
      // Per-task timing histograms cost the main thread on every message; /metrics keeps its own.
      recordTiming: false,
    });
    const r = await pool.run({ op: 'describe', args: null } satisfies TaskRequest);
    const body = JSON.parse(new TextDecoder().decode(r.body));
    return { pool, ops: body.ops as string[] };
  }

  private install(pool: Piscina, ops: string[], report: LoadReport) {
    this.pool = pool;
    this.opsSet = new Set(ops);
    this.datasets = report.datasets;
    this.lastLoad = report;
    log.info('engine_ready', {
      workers: this.opts.workers,
      datasets: report.datasets.map((d) => d.name),
      mb: Math.round(report.bytes / 1e5) / 10,
      load_s: Math.round(report.seconds * 1000) / 1000,
    });
  }

  /**
   * Queue a task. Requests are sent to the workers in batches, at most one message in flight
   * per worker thread: while every thread is busy, new tasks wait here and leave together when
   * one comes back. Under load the ~50 µs message round trip is thus paid per batch rather than
   * per request; when idle a task leaves at the end of the current event-loop turn.
   */
  run(op: string, args: unknown, sandbox = false): Promise<TaskReply> {
    return new Promise((resolve, reject) => {
      this.pending.push({ req: { op, args, sandbox }, resolve, reject });
      this.schedule();
    });
  }

  private pending: Pending[] = [];
  private scheduled = false;
  private inFlight = 0;

  private schedule() {
    if (this.scheduled || !this.pending.length || this.inFlight >= this.opts.workers) return;
    this.scheduled = true;
    setImmediate(this.dispatch);
  }

  private dispatch = () => {
    this.scheduled = false;
    const pool = this.pool;
    const free = Math.max(1, this.opts.workers - this.inFlight);
    const items = this.pending;
    this.pending = [];
    // Small batches go to one worker (each message costs the main thread more than the tasks);
    // larger ones are spread over the free threads.
    const chunks = Math.min(Math.ceil(items.length / MIN_BATCH), free);
    const per = Math.ceil(items.length / chunks);
    for (let i = 0; i < items.length; i += per) {
      const part = items.slice(i, i + per);
      this.inFlight++;
      // One msgpack buffer per batch: copying bytes is far cheaper than structured-cloning objects.
      pool.run({ packed: packr.pack(part.map((p) => p.req)) }).then(
        (r: BatchReply) => {
          for (let j = 0; j < part.length; j++) {
            part[j].resolve({ status: r.statuses[j], body: r.bytes.subarray(j ? r.ends[j - 1] : 0, r.ends[j]) });
          }
        },
        (e: unknown) => { for (const p of part) p.reject(e); },
      ).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  };

  has(op: string): boolean {
    return this.opsSet.has(op);
  }

  hasDataset(kind: Dataset['dataset'], pred?: (d: Dataset) => boolean): boolean {
    return this.datasets.some((d) => d.dataset === kind && (!pred || pred(d)));
  }

  get threads(): number {
    return this.pool ? this.pool.threads.length : 0;
  }

  get queued(): number {
    return this.pool ? this.pool.queueSize : 0;
  }

  async close(): Promise<void> {
    if (this.pool) await this.pool.close();
  }
}
