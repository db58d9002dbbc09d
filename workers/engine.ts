// Piscina entry point: the compute engine. Each worker opens every dataset once
// (typed-array views over SharedArrayBuffers from workerData) and answers tasks
// from the task table that the modules below contribute.
import { workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { Unpackr } from 'msgpackr';
import { withAttribution } from '../src/attribution.ts';
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

/** What a batch comes back as: every body in one buffer, so one transfer serves them all. */
export interface BatchReply {
  statuses: number[];
  /** End offset of each body in `bytes`; body i spans ends[i-1] (or 0) to ends[i]. */
  ends: number[];
  bytes: Uint8Array;
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

/** An unpooled buffer: pooled Buffers share an ArrayBuffer and cannot be transferred. */
function encode(answers: Answer[]): { bytes: Uint8Array; ends: number[] } {
  const ends: number[] = [];
  let total = 0;
  for (const a of answers) ends.push((total += Buffer.byteLength(a.json)));
  const buf = Buffer.allocUnsafeSlow(total);
  let off = 0;
  for (const a of answers) off += buf.write(a.json, off);
  return { bytes: new Uint8Array(buf.buffer, buf.byteOffset, total), ends };
}

/**
 * One message may carry a batch of requests: the pool round trip (~50 µs) is paid once per
 * batch instead of once per request, which is what lets cheap tasks run at HTTP speed.
 */
export default function entry(msg: TaskRequest | { packed: Uint8Array }) {
  // Piscina transfers only objects marked by move(); anything else would be copied.
  if ('packed' in msg) {
    const batch = unpackr.unpack(msg.packed) as TaskRequest[];
    const answers = batch.map(runOne);
    const { bytes, ends } = encode(answers);
    const value: BatchReply = { statuses: answers.map((a) => a.status), ends, bytes };
    return Piscina.move(new Moved(value, bytes.buffer as ArrayBuffer) as unknown as ArrayBuffer);
  }
  const a = runOne(msg);
  const { bytes } = encode([a]);
  const value: TaskReply = { status: a.status, body: bytes };
  return Piscina.move(new Moved(value, bytes.buffer as ArrayBuffer) as unknown as ArrayBuffer);
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
