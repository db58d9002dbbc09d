// POST /integrations/:slug/trip-outcome: an integration (built-in 'logistics-partner',
// or a shop's own slug) posts a finished trip's pin survey; we keep it and answer hints
// that improve the next delivery's experience — confirm a pin, add directions, retry
// GPS. Hints never carry prices, fees, surge or anything else money-related (SPEC §1).
// The record and its trip_outcome.recorded webhook event commit in one transaction.
import type { RouteDef } from '../../http/types.ts';
import { route } from '../../http/types.ts';
import { B, Q } from '../../http/declaration.ts';
import { owner, notFound } from './owner.ts';
import { F, time, measured, SLUG_PATTERN, SLUG_HINT } from './validate.ts';
import { loadStop, codeParam, currentPin, round1 } from './stops.ts';
import { stopByCode } from '../../store/stops.ts';
import { haversine } from '../../core/geometry.ts';
import { emitEvent } from '../../webhooks/events.ts';
import { upsertTripOutcome } from '../../store/trip-outcomes.ts';

export const BUILTIN_SLUG = 'logistics-partner';
export const OUTCOMES = ['delivered', 'failed', 'cancelled', 'returned', 'partial'] as const;
const ROLES = ['pickup', 'dropoff', 'waypoint'] as const;
const DRIFT_M = 100;
const POOR_ACCURACY_M = 50;
const MAX_PINS = 200;

interface Hint { code: string; message: string; stop_id?: string; pin_index?: number; distance_m?: number }

export const routes: RouteDef[] = [
  route({
    method: 'POST', path: '/integrations/:slug/trip-outcome', scope: 'logistics', capabilities: ['hints'],
    note: 'POST /api/v1/integrations/{slug}/trip-outcome records a trip pin survey and answers hints for user experience only (never prices or surge).',
    decl: {
      summary: "Record a finished trip's pin survey; answers hints for the next delivery (never prices)", tag: 'logistics',
      params: { slug: { schema: Q.str({ pattern: SLUG_PATTERN, hint: SLUG_HINT }), required: true, description: `'${BUILTIN_SLUG}' or your own integration slug` } },
      body: B.obj({
        trip_id: B.text(128), outcome: B.enum(OUTCOMES), device: F.device, completed_at: F.time,
        pins: B.arr(B.obj({
          stop_id: F.id, delivery_code: F.code, role: B.enum(ROLES), lat: F.lat, lng: F.lng, accuracy_m: F.accuracy,
          found: B.bool(), rating: B.int({ min: 1, max: 5 }), note: B.text(500),
        }, ['lat', 'lng']), { max: MAX_PINS }),
      }, ['trip_id', 'outcome', 'pins']),
      responses: {
        200: {
          description: 'Recorded, with hints',
          schema: {
            type: 'object', required: ['trip_outcome', 'hints', 'hints_use'],
            properties: {
              trip_outcome: { type: 'object', required: ['slug', 'trip_id', 'outcome', 'pins', 'recorded'] },
              hints: { type: 'array', items: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } } },
              hints_use: { const: 'user_experience_only' },
            },
          },
        },
        404: { description: 'A pin names an unknown stop or code' },
      },
      examples: [{ params: { slug: BUILTIN_SLUG }, body: { trip_id: 'example-trip-1', outcome: 'delivered', pins: [{ lat: 6.4281, lng: 3.4219, found: true }] } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const slug = req.params.slug;
      const b = req.body;
      const tripId: string = b.trip_id;
      const outcome: string = b.outcome;
      const device: string | undefined = b.device;
      const completedAt = time(b.completed_at, 'completed_at');
      const pins = (b.pins as any[]).map((p, i) => ({
        stop_id: (p.stop_id as string | undefined) ?? null,
        delivery_code: p.delivery_code ? codeParam(p.delivery_code, `pins[${i}].delivery_code`) : null,
        role: (p.role as string | undefined) ?? null,
        lat: p.lat as number, lng: p.lng as number,
        accuracy_m: measured(p.accuracy_m),
        found: (p.found as boolean | undefined) ?? null,
        rating: (p.rating as number | undefined) ?? null,
        note: (p.note as string | undefined) ?? null,
      }));

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
        await upsertTripOutcome(c, o, { slug, tripId, outcome, pins: { device: device ?? null, completed_at: completed, pins }, hints });
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
  }),
];

