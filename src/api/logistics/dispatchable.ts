// GET /stops/{id}/dispatchable: can a driver be sent to this stop? Its pin confirmed, a drivable
// road within DISPATCH_ROAD_M, that road on the main road network, inside a road extract — with
// the reasons when not (judged in src/api/address.ts, the roads read by the road_access task).
import type { RouteDef } from '../../http/types.ts';
import { route } from '../../http/types.ts';
import { owner, notFound } from './owner.ts';
import { loadStop, currentPin } from './stops.ts';
import { dispatchableAt, dispatchSchema, DISPATCH_ROAD_M } from '../address.ts';

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/stops/:id/dispatchable', scope: 'logistics',
    capabilities: ['dispatchable'],
    ready: (ctx) => ctx.pool.has('road_access') && ctx.pool.hasDataset('road'),
    note: `GET /api/v1/stops/{id}/dispatchable (and the dispatchable block of POST /api/v1/address/verify with a pin): pin confirmed, a drivable road within ${DISPATCH_ROAD_M} m, on the main road network (the extract's largest connected component), inside a loaded road extract; reasons when not. Only where the road extracts of this build reach.`,
    decl: {
      summary: 'Whether a driver can be sent to a stop, with the reasons when not',
      tag: 'logistics',
      params: { id: { schema: { type: 'string', maxLength: 64 }, required: true, description: 'Stop id' } },
      responses: {
        200: { description: 'The verdict', schema: { type: 'object', required: ['stop_id', 'dispatchable'], properties: { stop_id: { type: 'string' }, dispatchable: dispatchSchema } } },
        404: { description: 'Unknown stop' },
      },
      examples: [{ after: 'POST /stops', params: { id: '{{stop.id}}' }, summary: 'a stop just created' }],
    },
    async handler(req, ctx) {
      const o = owner(req);
      const stop = await loadStop(ctx.store, o, req.params.id);
      if (!stop) throw notFound('stop', req.params.id);
      const pin = currentPin(stop);
      return { json: { stop_id: stop.id, pin: { lat: pin.lat, lng: pin.lng, confirmed: pin.confirmed }, dispatchable: await dispatchableAt(ctx, pin.lat, pin.lng, pin.confirmed, o.sandbox) } };
    },
  }),
];
