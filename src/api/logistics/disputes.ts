// Disputes: opened on a POD or a stop with a reason; answered with an evidence pack
// assembled from what the service holds — the stop and its pin history, the POD
// metadata and the delivering device's trail around the delivery time. The pack is
// stored with the dispute, so it shows what was known when the dispute was opened.
import { HttpError, type RouteDef, route } from '../../http/types.ts';
import { owner, notFound } from './owner.ts';
import { F, invalid } from './validate.ts';
import { B, type Schema } from '../../http/declaration.ts';
import { loadStop, loadHistory, stopJson } from './stops.ts';
import { loadPod, podJson } from './pod.ts';
import { trailWindow } from '../../store/pings.ts';
import { newId, isId } from './ids.ts';
import { emitEvent } from '../../webhooks/events.ts';
import { latestPodIdOfStop } from '../../store/pods.ts';
import { disputeById, insertDispute } from '../../store/disputes.ts';

/** Trail taken into the pack: this long either side of the delivery time. */
const WINDOW_MS = 30 * 60_000;
const MAX_TRAIL_POINTS = 5000;
export const CATEGORIES = ['not_delivered', 'wrong_location', 'wrong_recipient', 'damaged', 'late', 'other'] as const;

function disputeJson(r: any) {
  return {
    id: r.id, object: 'dispute', status: r.status, stop_id: r.stop_id, pod_id: r.pod_id, reason: r.reason,
    category: r.category, partner: r.partner, evidence: r.evidence,
    created_at: r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at,
  };
}

const nstr = { type: ['string', 'null'] };
const DISPUTE: Schema = {
  type: 'object', required: ['id', 'object', 'status', 'stop_id', 'reason', 'evidence', 'created_at'],
  properties: {
    id: { type: 'string' }, object: { const: 'dispute' }, status: { type: 'string' }, stop_id: { type: 'string' }, pod_id: nstr,
    reason: { type: 'string' }, category: nstr, partner: nstr, created_at: { type: 'string' },
    evidence: { type: 'object', required: ['stop', 'pins', 'pod', 'trail', 'trail_window', 'assembled_at'], properties: { pins: { type: 'array' }, trail: { type: 'array' }, assembled_at: { type: 'string' } } },
  },
};
const disputeReply = (description: string) => ({ description, schema: { type: 'object', required: ['dispute'], properties: { dispute: DISPUTE } } });

export const routes: RouteDef[] = [
  route({
    method: 'POST', path: '/disputes', scope: 'logistics', capabilities: ['disputes'],
    note: 'POST /api/v1/disputes opens a dispute on a POD or stop and answers an evidence pack: stop, pin history, POD metadata and the device trail ±30 min around delivery.',
    decl: {
      summary: 'Open a dispute on a POD or stop; answers the evidence pack', tag: 'logistics',
      description: "Identify the delivery by 'pod_id' or 'stop_id' (then its latest POD).",
      body: B.obj({ pod_id: F.id, stop_id: F.id, reason: B.text(2000), category: B.enum(CATEGORIES), partner: F.slug, device: F.device }, ['reason']),
      responses: { 201: disputeReply('The dispute with its evidence pack'), 404: { description: 'Unknown POD or stop' } },
      examples: [{ after: 'POST /pod', body: { pod_id: '{{pod.id}}', reason: 'Recipient says the parcel never arrived', category: 'not_delivered' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const b = req.body;
      const podId: string | undefined = b.pod_id;
      const stopId: string | undefined = b.stop_id;
      if (!podId && !stopId) throw new HttpError(400, 'missing_parameter', "Field 'pod_id' (or 'stop_id') is required.");
      const reason: string = b.reason;
      const category: string | undefined = b.category;
      const partner: string | undefined = b.partner;
      let device: string | undefined = b.device;

      const pod = podId ? await loadPod(ctx.store, o, podId) : null;
      if (podId && !pod) throw notFound('proof of delivery', podId);
      if (pod && stopId && pod.stop_id !== stopId) throw invalid('stop_id', `does not match the stop of ${podId}`);
      const stop = await loadStop(ctx.store, o, pod ? pod.stop_id : stopId!);
      if (!stop) throw notFound('stop', stopId!);
      let thePod = pod;
      if (!thePod) {
        // Disputed on a stop: the latest POD of that stop, if any, is the delivery in question.
        const latest = await latestPodIdOfStop(ctx.store, o, stop.id);
        if (latest) thePod = await loadPod(ctx.store, o, latest);
      }
      device ??= thePod?.device ?? undefined;
      const history = await loadHistory(ctx.store, o, stop.id);
      let trail: any[] = [];
      let window = null;
      if (device && thePod) {
        const at = new Date(thePod.delivered_at).getTime();
        const from = new Date(at - WINDOW_MS), to = new Date(at + WINDOW_MS);
        trail = await trailWindow(ctx.store, o, device, from, to, MAX_TRAIL_POINTS);
        window = { device, from: from.toISOString(), to: to.toISOString(), points: trail.length };
      }
      const evidence = {
        stop: stopJson(stop),
        pins: history.map((h) => ({ seq: h.seq, lat: h.lat, lng: h.lng, accuracy_m: h.accuracy_m, confirmed_by: h.confirmed_by, confirmed_at: h.confirmed_at.toISOString() })),
        pod: thePod ? podJson(thePod, true) : null,
        trail,
        trail_window: window,
        assembled_at: new Date().toISOString(),
      };
      // The dispute and its dispute.opened webhook event commit together.
      const r = await ctx.store.tx(async (c) => {
        const ins = await insertDispute(c, o, { id: newId('dsp'), stopId: stop.id, podId: thePod?.id ?? null, reason, category: category ?? null, partner: partner ?? null, evidence });
        // The event carries the dispute without the trail (it can hold thousands of points): GET /disputes/{id} has it.
        const d = disputeJson(ins);
        await emitEvent(c, o, 'dispute.opened', { dispute: { ...d, evidence: { ...evidence, trail: undefined, trail_points: trail.length } } });
        return ins;
      });
      ctx.webhooks?.wake();
      return { status: 201, json: { dispute: disputeJson(r) } };
    },
  }),
  route({
    method: 'GET', path: '/disputes/:id', scope: 'logistics', capabilities: ['disputes'],
    note: 'GET /api/v1/disputes/{id} answers the dispute with the evidence pack as assembled when it was opened.',
    decl: {
      summary: 'A dispute with its evidence pack as assembled when opened', tag: 'logistics',
      params: { id: { schema: { type: 'string', maxLength: 64 }, required: true, description: 'dsp_…' } },
      responses: { 200: disputeReply('The dispute'), 404: { description: 'Unknown dispute' } },
      examples: [{ after: 'POST /disputes', params: { id: '{{dispute.id}}' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const id = req.params.id;
      if (!isId('dsp', id)) throw notFound('dispute', id);
      const d = await disputeById(ctx.store, o, id);
      if (!d) throw notFound('dispute', id);
      return { json: { dispute: disputeJson(d) } };
    },
  }),
];
