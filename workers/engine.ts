// Piscina entry point: the compute engine. Each worker opens every dataset once
// (typed-array views over SharedArrayBuffers from workerData) and answers tasks
// from the task table that the modules below contribute.
import { workerData, threadId, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { Unpackr } from 'msgpackr';
import { withAttribution } from '../src/attribution.ts';
import { encodeBatchReply, readBatchReply, type BatchReply } from './batch.ts';
import { TaskError, type Dataset, type EngineModule, type TaskFn, type TaskReply, type TaskRequest } from './task.ts';
import { routing } from './routing/index.ts';
import { geo } from './geo/index.ts';
import { system, setOpsProvider } from './system.ts';

const modules: EngineModule[] = [system, routing, geo];
const datasets: Dataset[] = (workerData && workerData.datasets) || [];
const table: Record<string, TaskFn> = {};
for (const m of modules) {
  m.init(datasets);
  for (const [op, fn] of Object.entries(m.tasks)) {
    if (table[op]) throw new Error(`task "${op}" registered twice`);
    table[op] = fn;
  }
}

setOpsProvider(() => Object.keys(table));

const unpackr = new Unpackr({ useRecords: false });

/** A finished answer before encoding: status and the JSON text, attribution included. */
interface Answer {
  status: number;
  json: string;
}

function answer(status: number, body: unknown): Answer {
  return { status, json: withAttribution(body) };
}

/** Marks a value whose buffer is transferred to the main thread rather than copied. */
class Moved<T> {
  constructor(private value: T, private buffer: ArrayBuffer) {}
  get [Piscina.transferableSymbol]() {
    return [this.buffer];
  }
  get [Piscina.valueSymbol](): T {
    return this.value;
  }
}

/** The control task that hands this thread its private channel to the main thread (see src/pool.ts). */
export interface AttachRequest {
  attach: MessagePort;
  /** Shared counter: every attach task of a round waits here until `count` have arrived. */
  barrier: Int32Array;
  count: number;
  timeoutMs: number;
}

function runBatch(packed: Uint8Array): BatchReply {
  const t0 = performance.now();
  const answers = (unpackr.unpack(packed) as TaskRequest[]).map(runOne);
  return encodeBatchReply(answers, (performance.now() - t0) * 1000);
}

function attach(msg: AttachRequest): number {
  const port = msg.attach;
  port.on('message', (packed: Uint8Array) => {
    const r = runBatch(packed);
    port.postMessage(r, [r.buffer as ArrayBuffer]);
  });
  // Hold this thread until every thread of the round has its lane, so none takes two.
  Atomics.add(msg.barrier, 0, 1);
  Atomics.notify(msg.barrier, 0);
  const until = Date.now() + msg.timeoutMs;
  for (let seen = Atomics.load(msg.barrier, 0); seen < msg.count; seen = Atomics.load(msg.barrier, 0)) {
    const left = until - Date.now();
    if (left <= 0) break;
    Atomics.wait(msg.barrier, 0, seen, left);
  }
  return threadId;
}

/**
 * One message may carry a batch of requests: the pool round trip (~50 µs) is paid once per
 * batch instead of once per request, which is what lets cheap tasks run at HTTP speed.
 */
export default function entry(msg: TaskRequest | { packed: Uint8Array } | AttachRequest) {
  if ('attach' in msg) return attach(msg);
  // Piscina transfers only objects marked by move(); anything else would be copied.
  if ('packed' in msg) {
    const value = runBatch(msg.packed);
    return Piscina.move(new Moved(value, value.buffer as ArrayBuffer) as unknown as ArrayBuffer);
  }
  const a = runOne(msg);
  const [one] = readBatchReply(encodeBatchReply([a], 0));
  return Piscina.move(new Moved(one, one.body.buffer as ArrayBuffer) as unknown as ArrayBuffer);
}

function runOne(req: TaskRequest): Answer {
  const fn = table[req.op];
  if (!fn) return answer(500, { error: { code: 'internal', message: `unknown task ${req.op}` } });
  try {
    return answer(200, fn(req.args, { sandbox: !!req.sandbox }));
  } catch (e) {
    if (e instanceof TaskError) return answer(e.status, { error: { code: e.code, message: e.message } });
    // Details go to the log (stderr of the worker), never to the caller.
    console.error(JSON.stringify({ level: 'error', where: 'worker', op: req.op, error: String((e as Error)?.stack || e) }));
    return answer(500, { error: { code: 'internal', message: 'Internal error. Retry with exponential back-off.' } });
  }
}
