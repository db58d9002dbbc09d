// The sandbox clock over HTTP: a key reads its clock, and a test key moves its project's clock
// forward, after which the project's due sandbox verifications are evaluated (so a test sees the
// outcome of a window it just played through). Live keys run on real time and cannot move it.
import { HttpError, type RouteDef, route } from '../../http/types.ts';
import { B, type Schema } from '../../http/declaration.ts';
import { owner } from '../logistics/owner.ts';
import { sandboxOffset, advanceSandbox } from '../../store/sandbox-clocks.ts';
import { sweep } from '../../verify/evaluation.ts';

/** Most a sandbox clock moves in one call: a year. */
const MAX_ADVANCE_S = 366 * 86_400;

const CLOCK: Schema = {
  type: 'object', required: ['now', 'offset_s', 'simulated'],
  properties: { now: { type: 'string' }, offset_s: { type: 'number' }, simulated: { type: 'boolean' }, completed: { type: 'integer' } },
};
function clockJson(offsetMs: number, simulated: boolean) {
  return { now: new Date(Date.now() + offsetMs).toISOString(), offset_s: offsetMs / 1000, simulated };
}

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/sandbox/clock', scope: 'any',
    decl: {
      summary: "The key's clock: the real time for live keys, the project's sandbox clock for test keys", tag: 'verify',
      responses: { 200: { description: 'The clock', schema: CLOCK } },
      examples: [{}],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const offset = o.sandbox ? await sandboxOffset(ctx.store, o.project) : 0;
      return { json: clockJson(offset, o.sandbox) };
    },
  }),
  route({
    method: 'POST', path: '/sandbox/clock', scope: 'any',
    decl: {
      summary: "Move the project's sandbox clock forward (test keys only)", tag: 'verify',
      description: 'The sandbox clock only moves forward. Due sandbox verifications of the project are evaluated before the answer. Live keys are refused (403 test_key_required): live time is real time.',
      body: B.obj({ advance_s: B.int({ min: 1, max: MAX_ADVANCE_S, description: 'Seconds to move forward (at most a year)' }) }, ['advance_s']),
      responses: { 200: { description: 'The clock after the move', schema: CLOCK }, 403: { description: 'A live key' } },
      examples: [{ body: { advance_s: 86400 }, summary: 'One day', testKey: true }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      if (!o.sandbox) throw new HttpError(403, 'test_key_required', 'Only test keys (svc_test_) run on a movable clock; live keys run on real time.');
      const offset = await advanceSandbox(ctx.store, o.project, req.body.advance_s * 1000);
      const completed = await sweep(ctx.store, o);
      if (completed) ctx.webhooks?.wake();
      return { json: { ...clockJson(offset, true), completed } };
    },
  }),
];
