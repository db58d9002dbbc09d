// Stops and pin confirmation (SPEC §3): POST /stops creates a stop with pinConfirmed
// false; POST /stops/confirm is the only operation that sets it true, and every
// confirmation is kept in stop_confirmations. GET /stops/:id and GET /delivery/:code read.
import { HttpError, type AppContext, type RouteDef, route } from '../../http/types.ts';
import { owner, notFound, type Owner } from './owner.ts';
import { F, time, invalid, measured } from './validate.ts';
import { B, type Schema } from '../../http/declaration.ts';
import { newCode, parseCode, AFRICAN_COUNTRIES } from './delivery-code.ts';
import { newId, isId } from './ids.ts';
import { haversine } from '../../core/geometry.ts';
import { emitEvent } from '../../webhooks/events.ts';
import type { Db } from '../../store/db.ts';
import { confirmPin, insertStop, pinHistory, stopByCode, stopById, stopByRefForUpdate, stopIdByRef } from '../../store/stops.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The pin callers should use: the latest confirmed one, else the one given at creation. */
export function currentPin(row: any): { lat: number; lng: number; confirmed: boolean } {
  return row.pin_confirmed
    ? { lat: row.pin_lat, lng: row.pin_lng, confirmed: true }
    : { lat: row.created_lat, lng: row.created_lng, confirmed: false };
}

export function stopJson(row: any, history?: any[]) {
  const pin = currentPin(row);
  return {
    id: row.id,
    object: 'stop',
    external_ref: row.external_ref,
    address: row.address,
    country_code: row.country_code,
    delivery_code: row.delivery_code,
    pinConfirmed: row.pin_confirmed,
    pin: {
      lat: pin.lat,
      lng: pin.lng,
      accuracy_m: row.pin_confirmed ? row.pin_accuracy_m : null,
      confirmed_at: iso(row.pin_confirmed_at),
      confirmed_by: row.pin_confirmed ? row.pin_confirmed_by : null,
    },
    requested_pin: { lat: row.created_lat, lng: row.created_lng },
    ...(history ? { pin_history: history.map(historyJson) } : {}),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

const historyJson = (h: any) => ({
  seq: h.seq, lat: h.lat, lng: h.lng, accuracy_m: h.accuracy_m, confirmed_by: h.confirmed_by,
  confirmed_at: iso(h.confirmed_at), recorded_at: iso(h.recorded_at),
});

/** A stop by id (null for an id that is not a stop id); `forUpdate` locks the row. */
export async function loadStop(q: Db, o: Owner, id: string, forUpdate = false): Promise<any | null> {
  if (!isId('stp', id)) return null;
  return stopById(q, o, id, forUpdate);
}

export const loadHistory = pinHistory;

/** A delivery code as typed by a person: 400 when malformed or its check fails. */
export function codeParam(raw: string, field: string): string {
  const p = parseCode(raw);
  if (!p.ok) throw invalid(field, p.why);
  return p.code;
}

const EXTERNAL_REF = B.text(128, { description: 'Your own reference for the stop (unique in the project)' });
const pinJson: Schema = { type: 'object', required: ['lat', 'lng'], properties: { lat: { type: 'number' }, lng: { type: 'number' }, accuracy_m: { type: ['number', 'null'] }, confirmed_at: { type: ['string', 'null'] }, confirmed_by: { type: ['string', 'null'] } } };
const STOP: Schema = {
  type: 'object', required: ['id', 'object', 'delivery_code', 'pinConfirmed', 'pin', 'requested_pin', 'created_at'],
  properties: {
    id: { type: 'string' }, object: { const: 'stop' }, external_ref: { type: ['string', 'null'] }, address: { type: ['string', 'null'] },
    country_code: { type: ['string', 'null'] }, delivery_code: { type: 'string' }, pinConfirmed: { type: 'boolean' }, pin: pinJson,
    requested_pin: pinJson, pin_history: { type: 'array', items: { type: 'object' } }, created_at: { type: 'string' }, updated_at: { type: 'string' },
    moved_from_requested_m: { type: 'number' },
  },
};
const stopReply = (description: string) => ({ description, schema: { type: 'object', required: ['stop'], properties: { stop: STOP } } });

/**
 * The country whose Natural Earth polygon holds the pin (or lies within 10 km of it, for points on a
 * generalised coastline), asked of the geo workers; undefined when no gazetteer is loaded or the pin is
 * in no African country — then the code takes the neutral prefix rather than a guess.
 */
async function countryOfPin(ctx: AppContext, la: number, ln: number): Promise<string | undefined> {
  if (!ctx.pool.has('boundaries_at') || !ctx.pool.hasDataset('gazetteer')) return undefined;
  const r = await ctx.pool.run('boundaries_at', { lat: la, lng: ln }, false);
  if (r.status !== 200) return undefined;
  const cc = JSON.parse(new TextDecoder().decode(r.body))?.country?.country_code;
  return typeof cc === 'string' && AFRICAN_COUNTRIES.has(cc) ? cc : undefined;
}

export const routes: RouteDef[] = [
  route({
    method: 'POST', path: '/stops', scope: 'logistics', capabilities: ['delivery_code'],
    note: 'POST /api/v1/stops creates a stop (pinConfirmed false) with a delivery code.',
    decl: {
      summary: 'Create a stop (pin unconfirmed) with a delivery code', tag: 'logistics',
      body: B.obj({
        lat: F.lat, lng: F.lng, address: B.text(500), external_ref: EXTERNAL_REF,
        country: B.text(2, { description: 'ISO 3166-1 alpha-2 code of an African country; without it, the country under the pin' }),
      }, ['lat', 'lng']),
      responses: { 201: stopReply('The stop'), 409: { description: 'external_ref already used' } },
      examples: [{ body: { lat: 6.4281, lng: 3.4219, address: '1 Example Close, Ikoyi, Lagos' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const b = req.body;
      const la: number = b.lat, ln: number = b.lng;
      const address: string | undefined = b.address;
      const externalRef: string | undefined = b.external_ref;
      let country: string | undefined = b.country;
      if (country !== undefined) {
        country = country.toUpperCase();
        if (!AFRICAN_COUNTRIES.has(country)) throw invalid('country', 'must be the ISO 3166-1 alpha-2 code of one of the 54 African countries, such as NG');
      } else {
        country = await countryOfPin(ctx, la, ln);
      }
      // A random code can collide with an existing one in the project; retry a few times.
      for (let attempt = 0; attempt < 5; attempt++) {
        try {
          const row = await insertStop(ctx.store, o, {
            id: newId('stp'), externalRef: externalRef ?? null, address: address ?? null, country: country ?? null, code: newCode(country ?? null), lat: la, lng: ln,
          });
          return { status: 201, json: { stop: stopJson(row, []) } };
        } catch (e: any) {
          if (e?.code !== '23505') throw e;
          if (String(e.constraint ?? e.message).includes('external_ref')) {
            const holder = await stopIdByRef(ctx.store, o, externalRef);
            throw new HttpError(409, 'conflict', `Field 'external_ref' '${externalRef}' is already used by stop ${holder ?? ''} in this project.`);
          }
        }
      }
      throw new HttpError(503, 'unavailable', 'Could not allocate a unique delivery code; retry.');
    },
  }),
  route({
    method: 'POST', path: '/stops/confirm', scope: 'logistics', capabilities: ['pin_confirm'],
    note: 'POST /api/v1/stops/confirm is the only operation that sets pinConfirmed to true; every confirmation is kept in the stop\'s pin_history.',
    decl: {
      summary: 'Confirm the pin of a stop (the only way pinConfirmed becomes true)', tag: 'logistics',
      description: "Identify the stop by 'stop_id' or 'external_ref'. Every confirmation is kept in the stop's pin_history.",
      body: B.obj({
        stop_id: F.id, external_ref: EXTERNAL_REF, lat: F.lat, lng: F.lng, accuracy_m: F.accuracy,
        confirmed_by: B.text(128), confirmed_at: F.time,
      }, ['lat', 'lng']),
      responses: { 200: stopReply('The stop with its confirmed pin and history'), 404: { description: 'Unknown stop' } },
      examples: [{ after: 'POST /stops', body: { stop_id: '{{stop.id}}', lat: 6.4282, lng: 3.4220, accuracy_m: 8, confirmed_by: 'recipient' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const b = req.body;
      const stopId: string | undefined = b.stop_id;
      const externalRef: string | undefined = b.external_ref;
      if (!stopId && !externalRef) throw new HttpError(400, 'missing_parameter', "Field 'stop_id' (or 'external_ref') is required.");
      const la: number = b.lat, ln: number = b.lng;
      const acc = measured(b.accuracy_m) ?? undefined;
      const by: string | undefined = b.confirmed_by;
      const at = time(b.confirmed_at, 'confirmed_at');
      const out = await ctx.store.tx(async (c) => {
        // The row lock orders concurrent confirmations of one stop, so seq never collides.
        let stop: any;
        if (stopId) stop = await loadStop(c, o, stopId, true);
        else stop = await stopByRefForUpdate(c, o, externalRef!);
        if (!stop) return null;
        if (stopId && externalRef && stop.external_ref !== externalRef) {
          throw invalid('external_ref', `does not match stop ${stop.id}`);
        }
        const updated = await confirmPin(c, o, stop.id, { lat: la, lng: ln, accuracy: acc ?? null, by: by ?? null, at: at === undefined ? null : new Date(at) });
        const history = await loadHistory(c, o, stop.id);
        const moved = haversine(stop.created_lat, stop.created_lng, la, ln);
        // Same transaction: a confirmed pin always has its stop.pin_confirmed event queued.
        await emitEvent(c, o, 'stop.pin_confirmed', { stop: { ...stopJson(updated, history), moved_from_requested_m: round1(moved) } });
        return { row: updated, history, moved };
      });
      if (!out) throw notFound('stop', stopId ?? externalRef!);
      ctx.webhooks?.wake();
      return { json: { stop: { ...stopJson(out.row, out.history), moved_from_requested_m: round1(out.moved) } } };
    },
  }),
  route({
    method: 'GET', path: '/stops/:id', scope: 'logistics', capabilities: ['pin_confirm'],
    note: 'GET /api/v1/stops/{id} shows the stop, its pin and its confirmation history.',
    decl: {
      summary: 'A stop with its pin and confirmation history', tag: 'logistics',
      params: { id: { schema: { type: 'string', maxLength: 64 }, required: true, description: 'stp_…' } },
      responses: { 200: stopReply('The stop'), 404: { description: 'Unknown stop' } },
      examples: [{ after: 'POST /stops', params: { id: '{{stop.id}}' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const stop = await loadStop(ctx.store, o, req.params.id);
      if (!stop) throw notFound('stop', req.params.id);
      return { json: { stop: stopJson(stop, await loadHistory(ctx.store, o, stop.id)) } };
    },
  }),
  route({
    method: 'GET', path: '/delivery/:code', scope: 'logistics', capabilities: ['delivery_code'],
    note: 'GET /api/v1/delivery/{code} resolves a code (CC-XXXX-XXXX, no 0/1/I/L/O, check character: typo 400, unknown 404).',
    decl: {
      summary: 'Resolve a delivery code to its stop and pin', tag: 'logistics',
      params: { code: { schema: { type: 'string', maxLength: 32 }, required: true, description: "e.g. 'NG-K7M4-Q9PC' (any case, hyphens optional)" } },
      responses: {
        200: {
          description: 'The delivery point',
          schema: {
            type: 'object', required: ['delivery'],
            properties: { delivery: { type: 'object', required: ['code', 'stop_id', 'lat', 'lng', 'pinConfirmed'], properties: { code: { type: 'string' }, stop_id: { type: 'string' }, lat: { type: 'number' }, lng: { type: 'number' }, pinConfirmed: { type: 'boolean' } } } },
          },
        },
        400: { description: 'Malformed code or failed check character (a typo)' },
        404: { description: 'No stop with this code' },
      },
      examples: [{ after: 'POST /stops', params: { code: '{{stop.delivery_code}}' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const code = codeParam(req.params.code, 'code');
      const stop = await stopByCode(ctx.store, o, code);
      if (!stop) throw new HttpError(404, 'not_found', `No stop with delivery code '${code}' in this project.`);
      const pin = currentPin(stop);
      return {
        json: {
          delivery: {
            code, stop_id: stop.id, lat: pin.lat, lng: pin.lng, address: stop.address,
            country_code: stop.country_code, pinConfirmed: stop.pin_confirmed,
            confirmed_at: iso(stop.pin_confirmed_at), external_ref: stop.external_ref,
          },
        },
      };
    },
  }),
];

export const round1 = (x: number) => Math.round(x * 10) / 10;

