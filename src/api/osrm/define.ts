// What every /osrm/ route shares: the key also as `?key=`, the `routing` scope, readiness of its
// task and the road graphs, and OSRM's error answers. A request that does not match the declared
// options gets the 400 osrm-routed gives (its request grammar refuses a malformed value with
// InvalidQuery, its parameter check a value out of range with InvalidOptions, a service limit with
// TooBig); the handlers' own refusals (OsrmError) answer the same way. Auth and quota errors keep
// svc's envelope: osrm-routed has none of its own.
import type { TaskOp } from '../../core/tasks/index.ts';
import type { TaskReply } from '../../core/task.ts';
import type { Declaration } from '../../http/declaration.ts';
import type { AppContext, InvalidRequest, Reply, RouteDef } from '../../http/types.ts';
import { OsrmError } from './coordinates.ts';
import { OSRM_SCHEMAS } from './responses.ts';

const ERRORS = { 400: { description: 'OSRM error: {"code":"InvalidUrl|InvalidQuery|InvalidValue|InvalidOptions|NoSegment|NoRoute|NoTrips|NoMatch|TooBig|NotImplemented|NotSupported","message"}', schema: OSRM_SCHEMAS.error } };

/** OSRM's code for a value the declaration refused, by the schema keyword that refused it. */
export function osrmCodeOf(e: InvalidRequest): string {
  if (e.part === 'path') return 'InvalidUrl';
  switch (e.keyword) {
    case 'minimum': case 'exclusiveMinimum': case 'minItems': return 'InvalidOptions';
    case 'maximum': case 'exclusiveMaximum': case 'maxItems': return 'TooBig';
    default: return 'InvalidQuery';
  }
}

/** The body of a refused request, in OSRM's words ("option", not "parameter"). */
export function osrmInvalidBody(e: InvalidRequest): Record<string, unknown> {
  const code = osrmCodeOf(e);
  const message = e.message.replace(/^Parameter '/, code === 'InvalidQuery' ? "Query string malformed: option '" : "Option '");
  return { code, message };
}

/** The worker answered: an OSRM error body becomes a 400; our own errors (never expected here) pass through. */
function reply(t: TaskReply): Reply {
  if (t.status === 200 && !startsWithOk(t.body)) return { task: { status: 400, body: t.body } };
  return { task: t };
}
const OK = Buffer.from('{"code":"Ok"');
const startsWithOk = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, Math.min(b.length, OK.length)).equals(OK);

export interface OsrmRoute<D extends Declaration> {
  service: 'route' | 'table' | 'trip' | 'match' | 'nearest';
  op: TaskOp;
  note: string;
  decl: D;
  /** Runs the service's task; throws OsrmError for what OSRM refuses. */
  handler: (req: Parameters<RouteDef<D>['handler']>[0], ctx: AppContext) => Promise<TaskReply>;
}

export function osrmRoute<const D extends Declaration>(r: OsrmRoute<D>): RouteDef {
  const def: RouteDef<D> = {
    method: 'GET',
    path: `//osrm/${r.service}/v1/:profile/:coordinates`,
    scope: 'routing',
    keyInQuery: true,
    ready: (ctx) => ctx.pool.has(r.op) && ctx.pool.hasDataset('road'),
    note: r.note,
    invalidBody: osrmInvalidBody,
    decl: { ...r.decl, tag: 'compat', responses: { ...r.decl.responses, ...ERRORS } },
    handler: async (req, ctx) => {
      try { return reply(await r.handler(req, ctx)); } catch (e) {
        if (e instanceof OsrmError) return { status: 400, json: { code: e.code, message: e.message } };
        throw e;
      }
    },
  };
  return def as unknown as RouteDef;
}
