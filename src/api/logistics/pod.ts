// Proof of delivery: metadata only. The caller hosts the photo and sends its https
// address; we record who, when and where, and how far the delivery was from the stop's
// pin (flagged beyond 100 m). Test keys are validated in full but never stored (SPEC §5.3).
import { HttpError, type RouteDef, route } from '../../http/types.ts';
import type { Db } from '../../store/db.ts';
import { insertPod, podById } from '../../store/pods.ts';
import { owner, notFound, type Owner } from './owner.ts';
import { F, time, invalid, measured } from './validate.ts';
import { B, type Schema } from '../../http/declaration.ts';
import { checkPhotoUrl } from './photo-url.ts';
import { loadStop, codeParam, currentPin, round1 } from './stops.ts';
import { stopByCode } from '../../store/stops.ts';
import { haversine } from '../../core/geometry.ts';
import { newId, isId } from './ids.ts';
import { emitEvent } from '../../webhooks/events.ts';
import { endTripLinks } from '../ride/trip-links.ts';

/** Beyond this distance from the pin a delivery is flagged for review. */
export const FAR_FROM_PIN_M = 100;

export function podJson(r: any, stored: boolean, deliveryCode?: string) {
  return {
    id: r.id,
    object: 'pod',
    stored,
    stop_id: r.stop_id,
    ...(deliveryCode ? { delivery_code: deliveryCode } : {}),
    photo_url: r.photo_url,
    recipient_name: r.recipient_name,
    delivered_at: r.delivered_at instanceof Date ? r.delivered_at.toISOString() : r.delivered_at,
    lat: r.lat,
    lng: r.lng,
    accuracy_m: r.accuracy_m,
    device: r.device,
    partner: r.partner,
    notes: r.notes,
    pin: { lat: r.pin_lat, lng: r.pin_lng, confirmed: r.pin_confirmed },
    distance_from_pin_m: r.distance_from_pin_m,
    far_from_pin: r.flags.includes('far_from_pin'),
    flags: r.flags,
    created_at: r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at,
  };
}

const nstr = { type: ['string', 'null'] };
export const POD: Schema = {
  type: 'object', required: ['id', 'object', 'stored', 'stop_id', 'photo_url', 'delivered_at', 'lat', 'lng', 'pin', 'distance_from_pin_m', 'far_from_pin', 'flags'],
  properties: {
    id: nstr, object: { const: 'pod' }, stored: { type: 'boolean' }, stop_id: { type: 'string' }, delivery_code: { type: 'string' },
    photo_url: { type: 'string' }, recipient_name: nstr, delivered_at: { type: 'string' }, lat: { type: 'number' }, lng: { type: 'number' },
    accuracy_m: { type: ['number', 'null'] }, device: nstr, partner: nstr, notes: nstr,
    pin: { type: 'object', required: ['lat', 'lng', 'confirmed'], properties: { lat: { type: 'number' }, lng: { type: 'number' }, confirmed: { type: 'boolean' } } },
    distance_from_pin_m: { type: 'number' }, far_from_pin: { type: 'boolean' }, flags: { type: 'array', items: { type: 'string' } }, created_at: nstr,
  },
};
const podReply = (description: string) => ({ description, schema: { type: 'object', required: ['pod'], properties: { pod: POD } } });

/** A POD by id (null for an id that is not a POD id). */
export async function loadPod(q: Db, o: Owner, id: string): Promise<any | null> {
  if (!isId('pod', id)) return null;
  return podById(q, o, id);
}

export const routes: RouteDef[] = [
  route({
    method: 'POST', path: '/pod', scope: 'logistics', capabilities: ['pod'],
    note: 'POST /api/v1/pod stores delivery metadata and the caller-hosted https photo address, with the distance from the stop pin (flagged over 100 m); test keys are validated but never stored.',
    decl: {
      summary: 'Record proof of delivery (metadata and your https photo address)', tag: 'logistics',
      description: "Identify the stop by 'stop_id' or 'delivery_code'. Deliveries more than 100 m from the pin are flagged. Test keys are validated in full but never stored (200, stored=false).",
      body: B.obj({
        stop_id: F.id, delivery_code: F.code, photo_url: B.text(2048, { description: 'https address of the photo, hosted by you' }),
        recipient_name: B.text(200), delivered_at: F.time, lat: F.lat, lng: F.lng, accuracy_m: F.accuracy,
        device: F.device, partner: F.slug, notes: B.text(2000),
      }, ['photo_url', 'delivered_at', 'lat', 'lng']),
      responses: { 201: podReply('Stored'), 200: podReply('Validated, not stored (test key)'), 404: { description: 'Unknown stop or code' } },
      examples: [{ after: 'POST /stops', body: { stop_id: '{{stop.id}}', photo_url: 'https://example.com/pod/1.jpg', delivered_at: '2026-01-01T00:00:00Z', lat: 6.4281, lng: 3.4219, recipient_name: 'Ada' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const b = req.body;
      const stopId: string | undefined = b.stop_id;
      const rawCode: string | undefined = b.delivery_code;
      if (!stopId && !rawCode) throw new HttpError(400, 'missing_parameter', "Field 'stop_id' (or 'delivery_code') is required.");
      const code = rawCode ? codeParam(rawCode, 'delivery_code') : undefined;
      const photoUrl = checkPhotoUrl(b.photo_url);
      const recipient: string | undefined = b.recipient_name;
      const deliveredAt = time(b.delivered_at, 'delivered_at')!;
      const la: number = b.lat, ln: number = b.lng;
      const acc = measured(b.accuracy_m) ?? undefined;
      const device: string | undefined = b.device;
      const partner: string | undefined = b.partner;
      const notes: string | undefined = b.notes;

      const stop = stopId ? await loadStop(ctx.store, o, stopId) : await stopByCode(ctx.store, o, code!);
      if (!stop) throw notFound(stopId ? 'stop' : 'stop with delivery code', stopId ?? code!);
      if (stopId && code && stop.delivery_code !== code) throw invalid('delivery_code', `does not belong to stop ${stop.id}`);
      const pin = currentPin(stop);
      const distance = round1(haversine(pin.lat, pin.lng, la, ln));
      const flags: string[] = [];
      if (distance > FAR_FROM_PIN_M) flags.push('far_from_pin');
      if (!pin.confirmed) flags.push('pin_unconfirmed');
      const row = {
        id: null as string | null, stop_id: stop.id, photo_url: photoUrl, recipient_name: recipient ?? null,
        delivered_at: new Date(deliveredAt).toISOString(), lat: la, lng: ln, accuracy_m: acc ?? null, device: device ?? null,
        partner: partner ?? null, notes: notes ?? null, pin_lat: pin.lat, pin_lng: pin.lng, pin_confirmed: pin.confirmed,
        distance_from_pin_m: distance, flags, created_at: null as string | null,
      };
      // The delivery ends the trip: its tracking links stop showing the device.
      if (o.sandbox) {
        await endTripLinks(ctx.store, o, stop.id, 'delivered');
        return { status: 200, json: { pod: podJson(row, false, stop.delivery_code) } };
      }
      // The POD and its pod.created webhook event commit together (test keys store neither).
      const r = await ctx.store.tx(async (c) => {
        const ins = await insertPod(c, o, {
          id: newId('pod'), stopId: stop.id, photoUrl, recipientName: row.recipient_name, deliveredAt: row.delivered_at, lat: la, lng: ln,
          accuracy: row.accuracy_m, device: row.device, partner: row.partner, notes: row.notes,
          pinLat: pin.lat, pinLng: pin.lng, pinConfirmed: pin.confirmed, distanceFromPin: distance, flags,
        });
        await emitEvent(c, o, 'pod.created', { pod: podJson(ins, true, stop.delivery_code) });
        await endTripLinks(c, o, stop.id, 'delivered');
        return ins;
      });
      ctx.webhooks?.wake();
      return { status: 201, json: { pod: podJson(r, true, stop.delivery_code) } };
    },
  }),
  route({
    method: 'GET', path: '/pod/:id', scope: 'logistics', capabilities: ['pod'],
    note: 'GET /api/v1/pod/{id} answers stored POD metadata.',
    decl: {
      summary: 'Stored proof-of-delivery metadata', tag: 'logistics',
      params: { id: { schema: { type: 'string', maxLength: 64 }, required: true, description: 'pod_…' } },
      responses: { 200: podReply('The POD'), 404: { description: 'Unknown POD' } },
      examples: [{ after: 'POST /pod', params: { id: '{{pod.id}}' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const r = await loadPod(ctx.store, o, req.params.id);
      if (!r) throw notFound('proof of delivery', req.params.id);
      return { json: { pod: podJson(r, true) } };
    },
  }),
];
