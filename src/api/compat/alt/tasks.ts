// Worker tasks as the compat layer uses them: the compute stays in the pool (geocode, route,
// matrix, render); this layer only reshapes the answers into the platform's envelope.
import type { AppContext, Req } from '../../../http/types.ts';
import { HttpError } from '../../../http/types.ts';
import type { TaskArgs, TaskOp } from '../../../core/tasks/index.ts';

export interface TaskResult {
  status: number;
  body: any;
}

const decoder = new TextDecoder();

/** Runs one task and parses its JSON answer (errors included: the caller decides what they mean here). */
export async function task<K extends TaskOp>(ctx: AppContext, req: Req, op: K, args: TaskArgs<K>): Promise<TaskResult> {
  if (!ctx.pool.has(op)) throw new HttpError(503, 'not_loaded', `This endpoint needs the '${op}' task, which this build does not run.`);
  const r = await ctx.pool.run(op, args, !!req.key?.test);
  let body: any;
  try {
    body = JSON.parse(decoder.decode(r.body));
  } catch {
    throw new HttpError(500, 'internal', `The ${op} task answered something that is not JSON.`);
  }
  return { status: r.status, body };
}

/** Runs a task that must succeed: its errors pass through with their status (INVALID_REQUEST, NOT_FOUND, UNKNOWN_ERROR…). */
export async function mustTask<K extends TaskOp>(ctx: AppContext, req: Req, op: K, args: TaskArgs<K>): Promise<any> {
  return ok(await task(ctx, req, op, args), op);
}

/** The body of a successful task answer, or its error thrown as an HttpError. */
export function ok(r: TaskResult, op: string): any {
  if (r.status >= 200 && r.status < 300) return r.body;
  const e = r.body?.error ?? {};
  throw new HttpError(r.status, String(e.code ?? 'internal'), String(e.message ?? `The ${op} task failed.`));
}
