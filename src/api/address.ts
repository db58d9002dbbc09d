// Addresses the way Africans write them: parse, verify, autocomplete, and whether a
// driver can be sent to a pin. Declared operations; the work runs in the worker tasks
// address_parse / address_verify / address_autocomplete (workers/geo/address/tasks.ts) and
// road_access (workers/routing/locate/access.ts).
import type { TaskArgs, TaskOp } from '../core/tasks/index.ts';
import { HttpError, type AppContext, type RouteDef, route } from '../http/types.ts';
import { Q, type Schema } from '../http/declaration.ts';
import { LAT, LNG } from '../core/points.ts';

/** Longest address text accepted (characters). */
export const MAX_ADDRESS_CHARS = 300;
/** Suggestions per autocomplete request. */
export const AUTOCOMPLETE_LIMIT = { default: 5, max: 10 };
/** A drivable road must lie this close to the pin for `dispatchable` (metres). */
export const DISPATCH_ROAD_M = 200;

const sandbox = (req: { key: { test: boolean } | null }) => !!req.key?.test;
export const geoReady = (op: TaskOp) => (ctx: AppContext) => ctx.pool.has(op) && ctx.pool.hasDataset('gazetteer');

/** Runs a task and returns its body as an object (attribution dropped: the reply adds it once). */
export async function runJson<K extends TaskOp>(ctx: AppContext, op: K, args: TaskArgs<K>, sb: boolean): Promise<Record<string, any>> {
  const r = await ctx.pool.run(op, args, sb);
  const body = JSON.parse(new TextDecoder().decode(r.body));
  if (r.status !== 200) throw new HttpError(r.status, body?.error?.code ?? 'internal', body?.error?.message ?? 'Internal error.');
  delete body.attribution;
  return body;
}

export const componentsSchema: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(['unit', 'plot', 'house_number', 'street', 'cross_street', 'landmark', 'relation', 'estate', 'sublocality', 'locality', 'admin1', 'country', 'postcode', 'po_box']
    .map((k) => [k, { type: 'string', maxLength: 200 }])),
};
const componentsOut: Schema = { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } };

/**
 * Can a driver be sent to (lat, lng)? A drivable road within DISPATCH_ROAD_M, that road on the main
 * road network (the extract's largest connected component, so reachable from the rest), inside a road
 * extract's coverage, and — for stops — a confirmed pin. `pinConfirmed` null: not applicable (a caller's pin).
 */
export async function dispatchableAt(ctx: AppContext, lat: number, lng: number, pinConfirmed: boolean | null, sb: boolean) {
  const reasons: { code: string; message: string }[] = [];
  if (!ctx.pool.has('road_access') || !ctx.pool.hasDataset('road')) throw new HttpError(503, 'not_loaded', 'No road graphs are loaded on this server.');
  const a = await runJson(ctx, 'road_access', { lat, lng, search_m: 1000 }, sb);
  if (pinConfirmed === false) reasons.push({ code: 'pin_not_confirmed', message: 'The pin has not been confirmed (POST /api/v1/stops/confirm).' });
  if (!a.covered) reasons.push({ code: 'outside_coverage', message: 'No road extract of this build covers the pin.' });
  const road = a.nearest_road as { distance_m: number; on_main_network: boolean } | null;
  const main = a.main_network as { distance_m: number } | null;
  const roadOk = !!road && road.distance_m <= DISPATCH_ROAD_M;
  if (a.covered && !roadOk) reasons.push({ code: 'no_road_nearby', message: road ? `The nearest drivable road is ${road.distance_m} m away (more than ${DISPATCH_ROAD_M} m).` : `No drivable road within ${a.search_m} m.` });
  const mainOk = !!main && main.distance_m <= DISPATCH_ROAD_M;
  if (a.covered && roadOk && !mainOk) reasons.push({ code: 'not_on_main_network', message: main ? `The roads near the pin are cut off from the main road network, which is ${main.distance_m} m away.` : 'The roads near the pin are cut off from the main road network.' });
  return {
    dispatchable: reasons.length === 0,
    reasons,
    checks: {
      pin_confirmed: pinConfirmed,
      road_within_m: DISPATCH_ROAD_M,
      nearest_road: road,
      main_network: main,
      reachable: mainOk,
      inside_coverage: !!a.covered,
      extract: a.extract,
    },
    ...(pinConfirmed === null ? { note: 'Pin confirmation applies to stops (GET /api/v1/stops/{id}/dispatchable); a pin given here is judged on roads and coverage only.' } : {}),
  };
}

const dispatchSchema: Schema = {
  type: 'object', required: ['dispatchable', 'reasons', 'checks'],
  properties: { dispatchable: { type: 'boolean' }, reasons: { type: 'array', items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } } }, checks: { type: 'object' } },
};
export { dispatchSchema };

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/address/parse', scope: 'geo',
    capabilities: ['parse_freeform'],
    ready: geoReady('address_parse'),
    note: 'GET /api/v1/address/parse: free-form African addresses → unit/plot/house_number, street (and Dakar cross streets), landmark + relation (near, opposite, behind, off, along, after, before, next to; French, Portuguese, Arabic), estate, sublocality, locality, admin-1, country, postcode (country formats), PO box (P.O. Box 123-00100, BP, Caixa Postal, ص.ب). Geocode falls back to the most precise part that matches (match_level, partial_match).',
    decl: {
      summary: 'Parse a free-form address into components',
      tag: 'geo',
      query: {
        q: { schema: Q.str({ minLength: 1, maxLength: MAX_ADDRESS_CHARS }), required: true, aliases: ['address', 'text'], description: 'The address as written' },
        country: { schema: Q.country(), description: 'ISO 3166-1 alpha-2 hint (postcode formats, place lookups)' },
      },
      responses: {
        200: {
          description: 'Components, the normalised text and a confidence',
          schema: {
            type: 'object', required: ['query', 'components', 'normalized', 'confidence'],
            properties: { query: { type: 'string' }, components: componentsOut, normalized: { type: 'string' }, confidence: { type: 'number' }, country_source: { type: ['string', 'null'] }, resolved: { type: 'object' } },
          },
        },
        400: { description: 'Missing or invalid parameter' },
      },
      examples: [{ query: 'q=Plot%2012%2C%20off%20Ngong%20Road%2C%20Nairobi', summary: 'A Nairobi description address' },
        { query: 'q=BP%201234%20Dakar' }, { query: 'q=Rue%2010%20x%2011%2C%20M%C3%A9dina%2C%20Dakar' }],
    },
    async handler(req, ctx) {
      return { task: await ctx.pool.run('address_parse', { q: req.q.q, country: req.q.country }, sandbox(req)) };
    },
  }),
  route({
    method: 'POST', path: '/address/verify', scope: 'geo',
    capabilities: ['address_verify'],
    ready: geoReady('address_verify'),
    note: 'POST /api/v1/address/verify {address | components, country?, lat?, lng?}: per-component status (confirmed / unconfirmed / inferred / unknown), granularity reached (street, landmark, locality, admin1, country; premise is never confirmed: no house-number register), normalised address, geocode, issues (unknown_street, missing_locality, pin_far_from_address with the distance, outside_coverage), and a dispatchable block when a pin is given and road graphs are loaded.',
    decl: {
      summary: 'Verify an address (and a pin): what is confirmed, what is inferred, what is wrong',
      tag: 'geo',
      body: {
        type: 'object', additionalProperties: false,
        properties: {
          address: { type: 'string', minLength: 1, maxLength: MAX_ADDRESS_CHARS },
          components: componentsSchema,
          country: { type: 'string', pattern: '^[A-Za-z]{2}$' },
          lat: LAT,
          lng: LNG,
        },
        anyOf: [{ required: ['address'] }, { required: ['components'] }],
        dependentRequired: { lat: ['lng'], lng: ['lat'] },
      },
      responses: {
        200: {
          description: 'The verdict',
          schema: {
            type: 'object', required: ['verdict', 'components', 'normalized', 'geocode', 'issues'],
            properties: {
              verdict: { type: 'object', required: ['granularity'], properties: { granularity: { enum: ['premise', 'street', 'landmark', 'locality', 'admin1', 'country', 'none'] } } },
              components: { type: 'object' }, normalized: { type: 'string' }, geocode: { type: ['object', 'null'] },
              issues: { type: 'array', items: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } } },
              pin: { type: 'object' }, dispatchable: dispatchSchema,
            },
          },
        },
        400: { description: 'Invalid body' },
      },
      examples: [
        { body: { address: 'Shop 4, Ring Road Central, Accra', lat: 5.5735, lng: -0.1925 }, summary: 'Accra, with a pin' },
        { body: { components: { street: 'Ngong Road', locality: 'Nairobi' }, country: 'KE' } },
      ],
    },
    async handler(req, ctx) {
      const b = req.body as { address?: string; components?: Record<string, string>; country?: string; lat?: number; lng?: number };
      const sb = sandbox(req);
      const v = await runJson(ctx, 'address_verify', { address: b.address, components: b.components, country: b.country, lat: b.lat, lng: b.lng }, sb);
      if (b.lat !== undefined && b.lng !== undefined && ctx.pool.has('road_access') && ctx.pool.hasDataset('road')) {
        v.dispatchable = await dispatchableAt(ctx, b.lat, b.lng, null, sb);
      }
      return { json: v };
    },
  }),
  route({
    method: 'GET', path: '/address/autocomplete', scope: 'geo',
    capabilities: ['address_autocomplete'],
    ready: geoReady('address_autocomplete'),
    note: 'GET /api/v1/address/autocomplete?q&focus&country&sessiontoken: address-level suggestions for an address form (street + locality, landmark + relation, locality), keeping what was typed before the last comma and a leading premise or relation ("Plot 12, off Ring Ro…").',
    decl: {
      summary: 'Address suggestions while a user types',
      tag: 'geo',
      query: {
        q: { schema: Q.str({ minLength: 1, maxLength: MAX_ADDRESS_CHARS }), required: true, aliases: ['input'], description: 'What the user has typed so far' },
        focus: { schema: Q.latlng(), aliases: ['location', 'near'], description: 'Bias towards LAT,LNG' },
        country: { schema: Q.country(), description: 'Restrict to one country' },
        sessiontoken: { schema: Q.str({ maxLength: 128 }), description: 'Echoed back; groups the keystrokes of one address entry' },
        limit: { schema: Q.int({ min: 1, max: AUTOCOMPLETE_LIMIT.max, default: AUTOCOMPLETE_LIMIT.default }) },
      },
      responses: {
        200: {
          description: 'Suggestions, best first',
          schema: {
            type: 'object', required: ['suggestions'],
            properties: {
              suggestions: {
                type: 'array',
                items: { type: 'object', required: ['description', 'kind', 'place_id', 'components'], properties: { description: { type: 'string' }, kind: { enum: ['street', 'landmark', 'locality'] }, place_id: { type: 'string' }, components: { type: 'object' } } },
              },
              sessiontoken: { type: 'string' },
            },
          },
        },
        400: { description: 'Missing or invalid parameter' },
      },
      examples: [{ query: 'q=Plot%2012%2C%20off%20Ring%20Ro&focus=5.56,-0.2', summary: 'Accra' }, { query: 'q=near%20Korle&country=GH' }],
    },
    async handler(req, ctx) {
      const country = req.q.country as string | undefined;
      const args = { q: req.q.q, focus: req.q.focus, country: country?.toUpperCase(), sessiontoken: req.q.sessiontoken, limit: req.q.limit };
      return { task: await ctx.pool.run('address_autocomplete', args, sandbox(req)) };
    },
  }),
];
