// The message interface between the front end and the worker pool; which tasks exist, with
// which arguments and answers, is the task map (src/core/tasks/index.ts).
//
// The main thread sends { op, args, sandbox }. A module's task function returns a
// plain response-body object (without `attribution`), or a JsonText, or throws TaskError; the
// engine serialises it to finished JSON bytes inside the worker, so the main
// thread only writes bytes (no second serialisation on the hot path).
import type { MessagePort } from 'node:worker_threads';
import { toRef, fromRef, type FileRef } from './format/mapped.ts';
import type { FileBytes } from './format/container.ts';

/**
 * One built dataset: its manifest and each file's bytes, memory-mapped (an ArrayBuffer over the
 * mapping, or pieces of a file over 4 GiB) or read into a SharedArrayBuffer
 * (src/core/format/mapped.ts). A worker thread receives a WireDataset and maps the files itself.
 */
export interface Dataset {
  dataset: 'road' | 'gazetteer' | 'tiles' | 'pois';
  name: string;
  dir: string;
  manifest: any;
  /** file name (as in the manifest) → the file's bytes, shared, verified on the main thread */
  files: Record<string, FileBytes>;
  /** Road datasets: profile → live traffic state of that graph (src/core/traffic-state.ts), written by the main thread. */
  traffic?: Record<string, SharedArrayBuffer>;
}

/** A Dataset as it crosses to a worker thread (workerData): a mapped file travels as where to map it. */
export type WireDataset = Omit<Dataset, 'files'> & { files: Record<string, FileRef> };

export function toWire(ds: Dataset): WireDataset {
  return { ...ds, files: Object.fromEntries(Object.entries(ds.files).map(([k, b]) => [k, toRef(b)])) };
}

/** In the worker thread: map (or take) each file's bytes. */
export function fromWire(ds: WireDataset): Dataset {
  return { ...ds, files: Object.fromEntries(Object.entries(ds.files).map(([k, r]) => [k, fromRef(r)])) };
}

export interface TaskContext {
  /** true for svc_test_ keys: answer from the Lagos sandbox subset. */
  sandbox: boolean;
  /**
   * Sends bytes of the answer ahead of it, so the thread need not hold a large answer whole (a
   * 1,000 × 1,000 matrix's 15 MB): the caller gets them in order in TaskReply.pieces[stream].
   * The bytes' whole buffer is moved to the main thread. Only batches on a lane (src/pool/worker-pool.ts)
   * have it; elsewhere a task keeps its answer whole.
   */
  piece?: (stream: number, bytes: Uint8Array) => void;
  /** Bytes the caller gave beside the arguments (TaskRequest.attached): shared, not copied, when over a SharedArrayBuffer. */
  attached?: Uint8Array[];
}

export type TaskFn = (args: any, ctx: TaskContext) => unknown;

/**
 * A response body a task has already written as the text of one JSON object, for bodies that
 * can be written faster than JSON.stringify would (route geometry); the engine only adds the
 * attribution. The text may come in pieces, strings and ASCII bytes: a route's coordinates stay
 * the bytes they were written as and are copied once into the reply, never decoded to a string
 * and encoded back.
 */
export class JsonText<Shape = unknown> {
  /** Type only: the JSON value the text is (never set; lets the task map check a task's answer). */
  declare readonly shape?: Shape;
  readonly parts: (string | Uint8Array)[];
  /** `scratch`: the byte pieces are the thread's reused buffers, valid only until its next task. */
  constructor(text: string | (string | Uint8Array)[], readonly scratch = false) { this.parts = typeof text === 'string' ? [text] : text; }
  /** The whole text as one string (tests and benches; answers are written from the parts). */
  get text(): string {
    return this.parts.map((p) => (typeof p === 'string' ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength).toString('utf8'))).join('');
  }
}

/**
 * A binary response body (a rendered image): travels back as raw bytes instead of JSON. The
 * route that calls such a task knows its content type; error answers are still JSON.
 * `scratch` as for JsonText.
 */
export class BinaryBody {
  constructor(readonly bytes: Uint8Array, readonly scratch = false) {}
}

/** A worker module: its task functions, each checked against the task map where it is declared (TaskTable). */
export interface WorkerModule {
  /** Called once per worker at start with every loaded dataset; keep only views, never copies. */
  init(datasets: Dataset[]): void;
  tasks: Record<string, TaskFn>;
}

/** An expected failure with an HTTP status and a stable machine code (e.g. 400 "no_route"). */
export class TaskError extends Error {
  constructor(public status: number, public code: string, message: string) {
    super(message);
    this.name = 'TaskError';
  }
}

export interface TaskRequest {
  op: string;
  args: unknown;
  sandbox?: boolean;
  /**
   * Bytes for the task beside its msgpack'd arguments, posted as they are: views over
   * SharedArrayBuffers reach the thread without a copy (where a matrix's threads meet, src/core/meet.ts).
   * Never packed; the task reads them as TaskContext.attached.
   */
  attached?: Uint8Array[];
}

/**
 * What a task answers: an HTTP status and the complete JSON body, attribution included.
 * `Shape` is the answer's JSON on status 200 (the task map's reply), for replyJson().
 */
export interface TaskReply<Shape = unknown> {
  /** Type only: never set. */
  readonly shape?: Shape;
  status: number;
  body: Uint8Array;
  /**
   * Says the body has been written and will not be read again, so its buffer may go back to the
   * worker that wrote it (src/pool/worker-pool.ts). Only the HTTP writer calls it; a reply nobody releases is
   * collected as usual.
   */
  release?: () => void;
  /** What the task sent ahead of its answer (TaskContext.piece), by stream, in order. */
  pieces?: Uint8Array[][];
}

/** Sent once to each worker thread at start: its private lane for batches (see src/pool/worker-pool.ts). */
export interface AttachRequest {
  attach: MessagePort;
  /** Shared counter: every attach task of a round waits here until `count` have arrived. */
  barrier: Int32Array;
  count: number;
  timeoutMs: number;
}
