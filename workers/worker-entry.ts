// The worker thread's entry point (Piscina's `filename`, bundled by src/pool/worker-bundle.ts).
// Each worker opens every dataset once (typed-array views over its own mapping of each built
// file, or over the SharedArrayBuffers the main thread read without the mmap addon) and answers tasks from the task table that the modules below contribute, each
// module's table checked against the task map (src/core/tasks/) where it is declared.
import { workerData, threadId, type MessagePort } from 'node:worker_threads';
import { Unpackr } from 'msgpackr';
import { partsWithAttribution } from '../src/core/attribution.ts';
import { encodeBatchReply, readBatchReply, type BatchReply, type PieceMessage } from '../src/core/batch.ts';
import { TaskError, BinaryBody, JsonText, fromWire, type WireDataset, type Dataset, type WorkerModule, type TaskFn, type TaskContext, type TaskReply, type TaskRequest, type AttachRequest } from '../src/core/task.ts';
import { routing } from './routing/index.ts';
import { geo } from './geo/index.ts';
import { address } from './geo/address/tasks.ts';
import { pois } from './pois/index.ts';
import { traffic } from './traffic/index.ts';
import { system, setOpsProvider } from './system.ts';
import { render } from './render/index.ts';
import { collectWhenIdle } from './collect.ts';
import type { TaskOp } from '../src/core/tasks/index.ts';

/**
 * Every op of the task map is served by a module (render's only once the tile set loads): an op
 * added to the map and to no module fails to compile here, naming the op.
 */
type Served = keyof (typeof system.tasks & typeof routing.tasks & typeof geo.tasks & typeof address.tasks & typeof render.tasks & typeof pois.tasks & typeof traffic.tasks);
const everyOpServed: [Exclude<TaskOp, Served>] extends [never] ? true : { unserved: Exclude<TaskOp, Served> } = true;
void everyOpServed;

const modules: WorkerModule[] = [system, routing, geo, address, render, pois, traffic];
const datasets: Dataset[] = ((workerData && workerData.datasets) || []).map((d: WireDataset) => fromWire(d));
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

/** A finished answer before encoding: status and the body's pieces (JSON text with the attribution, or a BinaryBody's bytes). */
interface Answer {
  status: number;
  parts: (string | Uint8Array)[];
  /** Its byte pieces are the task's reused buffers, overwritten by the thread's next task. */
  scratch?: boolean;
}

function answer(status: number, body: unknown): Answer {
  return { status, parts: partsWithAttribution(body) };
}

/** The control task that hands this thread its private channel to the main thread (see src/pool/worker-pool.ts). */

/**
 * Reply buffers the main thread has written out and handed back (src/pool/worker-pool.ts): a batch's answers
 * are encoded into one that is large enough instead of a new buffer.
 */
const free: ArrayBuffer[] = [];
const FREE_MAX = 4;

function replyBuffer(bytes: number): Buffer | undefined {
  for (let i = 0; i < free.length; i++) {
    if (free[i].byteLength >= bytes) return Buffer.from(free.splice(i, 1)[0]);
  }
  return undefined;
}

// The lane and task a piece belongs to: a batch runs start to end before the next message is read.
let pieceLane: MessagePort | null = null, pieceTask = 0;
function piece(stream: number, bytes: Uint8Array) {
  const msg: PieceMessage = { piece: bytes, task: pieceTask, stream };
  pieceLane!.postMessage(msg, [bytes.buffer as ArrayBuffer]);
}

/** A batch as the main thread sends it (src/pool/worker-pool.ts): msgpack'd requests, and each one's attached bytes. */
interface BatchMessage { packed: Uint8Array; give?: ArrayBuffer[]; attached?: (Uint8Array[] | null)[] }

function runBatch({ packed, attached }: BatchMessage, lane?: MessagePort): BatchReply {
  const t0 = performance.now();
  const reqs = unpackr.unpack(packed) as TaskRequest[];
  pieceLane = lane ?? null;
  const answers = reqs.map((req, i) => {
    pieceTask = i;
    const a = runOne(req, lane ? piece : undefined, attached?.[i] ?? undefined);
    // The next task of the batch may overwrite a scratch answer before the batch is encoded.
    // (a copy even of a Buffer, whose own slice() is a view)
    if (a.scratch && i < reqs.length - 1) a.parts = a.parts.map((p) => (typeof p === 'string' ? p : Uint8Array.prototype.slice.call(p)));
    return a;
  });
  const reply = encodeBatchReply(answers, (performance.now() - t0) * 1000, replyBuffer);
  collectWhenIdle();
  return reply;
}

function attach(msg: AttachRequest): number {
  const port = msg.attach;
  port.on('message', (m: Uint8Array | BatchMessage) => {
    const batch = m instanceof Uint8Array ? { packed: m } : m;
    if (batch.give) { free.push(...batch.give); if (free.length > FREE_MAX) free.splice(0, free.length - FREE_MAX); }
    const r = runBatch(batch, port);
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

/** Piscina's task entry: the lane handshake, control tasks, and batches when a thread has no lane. */
export default function entry(msg: TaskRequest | BatchMessage | AttachRequest) {
  if ('attach' in msg) return attach(msg);
  // Replies on this path are copied, not transferred: it carries the control tasks and, only
  // while a thread has no lane, batches; the worker need not load Piscina's main module.
  if ('packed' in msg) return runBatch(msg);
  const [one] = readBatchReply(encodeBatchReply([runOne(msg)], 0));
  return one;
}

function runOne(req: TaskRequest, piece?: TaskContext['piece'], attached?: Uint8Array[]): Answer {
  const fn = table[req.op];
  if (!fn) return answer(500, { error: { code: 'internal', message: `unknown task ${req.op}` } });
  try {
    const out = fn(req.args, { sandbox: !!req.sandbox, piece, attached });
    if (out instanceof BinaryBody) return { status: 200, parts: [out.bytes], scratch: out.scratch };
    if (out instanceof JsonText) return { status: 200, parts: partsWithAttribution(out), scratch: out.scratch };
    return answer(200, out);
  } catch (e) {
    if (e instanceof TaskError) return answer(e.status, { error: { code: e.code, message: e.message } });
    // Details go to the log (stderr of the worker), never to the caller.
    console.error(JSON.stringify({ level: 'error', where: 'worker', op: req.op, error: String((e as Error)?.stack || e) }));
    return answer(500, { error: { code: 'internal', message: 'Internal error. Retry with exponential back-off.' } });
  }
}
