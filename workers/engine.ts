// Piscina entry point: the compute engine. Each worker opens every dataset once
// (typed-array views over SharedArrayBuffers from workerData) and answers tasks
// from the task table that the modules below contribute.
import { workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { ATTRIBUTION } from '../src/attribution.ts';
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

const enc = new TextEncoder();
const attr = JSON.stringify(ATTRIBUTION);

/** Serialise {...body, attribution} without building a second object. */
function bytes(body: unknown): Uint8Array {
  let s: string;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const inner = JSON.stringify(body);
    s = inner === '{}' ? `{"attribution":${attr}}` : `${inner.slice(0, -1)},"attribution":${attr}}`;
  } else {
    s = JSON.stringify({ result: body, attribution: ATTRIBUTION });
  }
  return enc.encode(s);
}

/** Hands the bodies' buffers over to the main thread instead of copying them (large route geometries). */
class Moved<T extends TaskReply | TaskReply[]> {
  constructor(private value: T) {}
  get [Piscina.transferableSymbol]() {
    return Array.isArray(this.value) ? this.value.map((r) => r.body.buffer) : [this.value.body.buffer];
  }
  get [Piscina.valueSymbol](): T {
    return this.value;
  }
}

function reply(status: number, body: unknown): TaskReply {
  return { status, body: bytes(body) };
}

/**
 * One message may carry a batch of requests: the pool round trip (~50 µs) is paid once per
 * batch instead of once per request, which is what lets cheap tasks run at HTTP speed.
 */
export default function entry(msg: TaskRequest | { batch: TaskRequest[] }) {
  const out = 'batch' in msg ? msg.batch.map(runOne) : runOne(msg);
  // Piscina transfers only objects marked by move(); anything else would be copied.
  return Piscina.move(new Moved(out) as unknown as ArrayBuffer);
}

function runOne(req: TaskRequest): TaskReply {
  const fn = table[req.op];
  if (!fn) return reply(500, { error: { code: 'internal', message: `unknown task ${req.op}` } });
  try {
    return reply(200, fn(req.args, { sandbox: !!req.sandbox }));
  } catch (e) {
    if (e instanceof TaskError) return reply(e.status, { error: { code: e.code, message: e.message } });
    // Details go to the log (stderr of the worker), never to the caller.
    console.error(JSON.stringify({ level: 'error', where: 'worker', op: req.op, error: String((e as Error)?.stack || e) }));
    return reply(500, { error: { code: 'internal', message: 'Internal error. Retry with exponential back-off.' } });
  }
}
