// POST /integrations/:slug/trip-outcome: an integration (built-in 'logistics-partner',
// or a shop's own slug) posts a finished trip's pin survey; we keep it and answer hints
// that improve the next delivery's experience — confirm a pin, add directions, retry
// GPS. Hints never carry prices, fees, surge or anything else money-related (SPEC §1).
// The record and its trip_outcome.recorded webhook event commit in one transaction.
import { type RouteDef } from '../../http/types.ts';
import { owner, notFound } from './owner.ts';
import { bodyObject, object, array, string, number, boolean, oneOf, lat, lng, accuracy, time, invalid, SLUG_RE, SLUG_HINT, DEVICE_RE, DEVICE_HINT } from './validate.ts';
import { loadStop, stopByCode, codeParam, currentPin, round1 } from './stops.ts';
import { haversine } from '../../core/geometry.ts';
import { emitEvent } from '../../webhooks/events.ts';

export const BUILTIN_SLUG = 'logistics-partner';
export const OUTCOMES = ['delivered', 'failed', 'cancelled', 'returned', 'partial'] as const;
const ROLES = ['pickup', 'dropoff', 'waypoint'] as const;
const DRIFT_M = 100;
const POOR_ACCURACY_M = 50;

interface Hint { code: string; message: string; stop_id?: string; pin_index?: number; distance_m?: number }

export const routes: RouteDef[] = [
  {
    method: 'POST', path: '/integrations/:slug/trip-outcome', scope: 'logistics', capabilities: ['hints'],
    note: 'POST /api/v1/integrations/{slug}/trip-outcome records a trip pin survey and answers hints for user experience only (never prices or surge).',
    example: { params: { slug: BUILTIN_SLUG }, body: { trip_id: 'example-trip-1', outcome: 'delivered', pins: [{ lat: 6.4281, lng: 3.4219, found: true }] } },
    handler: async (req, ctx) => {
      const o = owner(req);
      const slug = req.params.slug;
      if (!SLUG_RE.test(slug)) throw invalid('slug', SLUG_HINT);
      const b = bodyObject(req.body);
      const tripId = string(b, 'trip_id', 'trip_id', { required: true, max: 128 });
      const outcome = oneOf(b, 'outcome', 'outcome', OUTCOMES, { required: true })!;
      const device = string(b, 'device', 'device', { max: 64 });
      if (device !== undefined && !DEVICE_RE.test(device)) throw invalid('device', DEVICE_HINT);
      const completedAt = time(b, 'completed_at', 'completed_at');
      const list = array(b, 'pins', 'pins', { required: true, max: 200 })!;
      const pins = list.map((raw, i) => {
        const p = object(raw, `pins[${i}]`);
        const f = `pins[${i}].`;
        const stopId = string(p, 'stop_id', `${f}stop_id`, { max: 64 });
        const code = string(p, 'delivery_code', `${f}delivery_code`, { max: 32 });
        return {
          stop_id: stopId ?? null,
          delivery_code: code ? codeParam(code, `${f}delivery_code`) : null,
          role: oneOf(p, 'role', `${f}role`, ROLES) ?? null,
          lat: lat(p, `${f}lat`), lng: lng(p, `${f}lng`),
          accuracy_m: accuracy(p, `${f}accuracy_m`) ?? null,
          found: boolean(p, 'found', `${f}found`) ?? null,
          rating: number(p, 'rating', `${f}rating`, { integer: true, min: 1, max: 5 }) ?? null,
          note: string(p, 'note', `${f}note`, { max: 500 }) ?? null,
        };
      });

      const hints: Hint[] = [];
      for (const [i, p] of pins.entries()) {
        let stop = null;
        if (p.stop_id || p.delivery_code) {
          stop = p.stop_id ? await loadStop(ctx.store, o, p.stop_id) : await stopByCode(ctx.store, o, p.delivery_code!);
          if (!stop) throw notFound(p.stop_id ? 'stop' : 'stop with delivery code', (p.stop_id ?? p.delivery_code)!);
          p.stop_id = stop.id;
          const pin = currentPin(stop);
          const d = round1(haversine(pin.lat, pin.lng, p.lat, p.lng));
          if (!pin.confirmed) hints.push({ code: 'confirm_pin', stop_id: stop.id, pin_index: i, message: 'The stop pin is not confirmed: ask the recipient to confirm it (POST /stops/confirm) before the next delivery.' });
          if (d > DRIFT_M) hints.push({ code: 'pin_drift', stop_id: stop.id, pin_index: i, distance_m: d, message: `The trip ended ${Math.round(d)} m from the saved pin: offer the recipient to move the pin to where deliveries actually happen.` });
        }
        if (p.found === false) hints.push({ code: 'add_directions', pin_index: i, ...(stop ? { stop_id: stop.id } : {}), message: 'The driver could not find the place at the pin: ask the recipient for landmark directions or a gate photo.' });
        if (p.accuracy_m !== null && p.accuracy_m > POOR_ACCURACY_M) hints.push({ code: 'poor_gps_fix', pin_index: i, message: `The pin was recorded with ${Math.round(p.accuracy_m)} m accuracy: ask the app to wait for a better fix before saving pins.` });
      }
      if (outcome === 'failed' || outcome === 'returned') hints.push({ code: 'offer_reschedule', message: 'Offer the recipient a new delivery slot and a chance to share a live location.' });

      const completed = completedAt ? new Date(completedAt).toISOString() : null;
      await ctx.store.tx(async (c) => {
        await c.query(
        `INSERT INTO trip_outcomes (project_id, sandbox, slug, trip_id, outcome, pins, hints)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (project_id, sandbox, slug, trip_id) DO UPDATE
           SET outcome = EXCLUDED.outcome, pins = EXCLUDED.pins, hints = EXCLUDED.hints, received_at = now()`,
        [o.project, o.sandbox, slug, tripId, outcome,
          JSON.stringify({ device: device ?? null, completed_at: completed, pins }), JSON.stringify(hints)],
        );
        await emitEvent(c, o, 'trip_outcome.recorded', {
          trip_outcome: { slug, trip_id: tripId, outcome, device: device ?? null, completed_at: completed, pins, hints },
        });
      });
      ctx.webhooks?.wake();
      return {
        json: {
          trip_outcome: { slug, trip_id: tripId, outcome, pins: pins.length, recorded: true },
          hints,
          hints_use: 'user_experience_only',
        },
      };
    },
  },
];

