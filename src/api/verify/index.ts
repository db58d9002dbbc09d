// Address verification products (KYC): order a check of a subject's address and pin, watch it
// move from pending to verified / failed / expired / cancelled, and receive
// address_verification.completed. `digital` reads the subject's device pings at night against
// the pin (dwell.ts); `field` takes one agent visit with a photo. Test keys run on their
// project's sandbox clock (clock.ts) and only ever see sandbox rows (owner.ts).
import { HttpError, type AppContext, type RouteDef, route } from '../../http/types.ts';
import { B, Q, type Schema } from '../../http/declaration.ts';
import { owner, notFound, type Owner } from '../logistics/owner.ts';
import { F, time, invalid, measured, DEVICE_RE } from '../logistics/validate.ts';
import { checkPhotoUrl } from '../logistics/photo-url.ts';
import { newId, isId } from '../logistics/ids.ts';
import { encodeCursor, decodeCursor } from '../logistics/page-cursor.ts';
import { haversine } from '../../core/geometry.ts';
import { MAX_ADDRESS_CHARS, componentsSchema, runJson } from '../address.ts';
import { PRODUCTS, STATES, LIMITS, CATALOGUE, FIELD_MAX_ACCURACY_M, type Product } from './products.ts';
import { isZone, zoneFor } from '../../verify/timezone.ts';
import { nowFor } from '../../verify/clock.ts';
import { verificationJson } from '../../verify/json.ts';
import { evaluate, recordOutcome } from '../../verify/evaluation.ts';
import { insertVerification, verificationById, visitsOf, insertVisit, duePage, verificationsPage, deleteVerification } from '../../store/verifications.ts';
import { deleteDevicePings } from '../../store/pings.ts';
import type { Store } from '../../store/index.ts';

/** A verification of this project by id; a malformed id is answered 404 without a query. */
const loadVerification = (store: Store, o: Owner, id: string) => (isId('avr', id) ? verificationById(store, o, id) : Promise.resolve(null));
import { routes as sandboxClock } from './sandbox-clock.ts';

const DAY = 86_400_000;
export const PAGE_DEFAULT = 20;
export const PAGE_MAX = 100;

const nstr = { type: ['string', 'null'] };
const AVR: Schema = {
  type: 'object',
  required: ['id', 'object', 'livemode', 'product', 'status', 'reason', 'subject_id', 'address', 'pin', 'parameters', 'window', 'consent', 'evidence', 'confidence', 'completed_at', 'created_at'],
  properties: {
    id: { type: 'string' }, object: { const: 'address_verification' }, livemode: { type: 'boolean' },
    product: { enum: [...PRODUCTS] }, status: { enum: [...STATES] }, reason: nstr, reason_message: nstr,
    subject_id: { type: 'string' }, device: nstr, external_ref: nstr,
    address: { type: 'object', required: ['text', 'components', 'country', 'resolution'], properties: { text: nstr, components: { type: ['object', 'null'] }, country: nstr, resolution: { type: ['object', 'null'] } } },
    pin: { type: 'object', required: ['lat', 'lng'], properties: { lat: { type: 'number' }, lng: { type: 'number' } } },
    parameters: { type: 'object', required: ['window_days', 'radius_m', 'timezone'], properties: { window_days: { type: 'integer' }, radius_m: { type: 'number' }, timezone: { type: 'string' }, min_nights: { type: 'integer' } } },
    window: { type: 'object', required: ['start', 'end'], properties: { start: { type: 'string' }, end: { type: 'string' } } },
    consent: { type: 'object', required: ['given', 'at'], properties: { given: { const: true }, at: { type: 'string' } } },
    evidence: { type: 'object' }, confidence: { type: ['number', 'null'] }, completed_at: nstr, created_at: { type: 'string' }, updated_at: { type: 'string' },
    visits: { type: 'array', items: { type: 'object', required: ['seq', 'photo_url', 'lat', 'lng', 'visited_at', 'distance_m', 'accepted'] } },
    trail_url: { type: 'string' },
  },
};
const avrReply = (description: string) => ({ description, schema: { type: 'object', required: ['address_verification'], properties: { address_verification: AVR } } });
const AVR_ID = { schema: { type: 'string', maxLength: 64 }, required: true, description: 'avr_…' };

const SUBJECT = B.text(128, { description: "Your id for the person whose address is checked (e.g. a customer id)" });
const ORDER_BODY = B.obj({
  product: B.enum(PRODUCTS),
  subject_id: SUBJECT,
  device: { ...F.device, description: 'digital: the device name the subject\'s phone sends pings under (POST /track/ping); default: subject_id' },
  address: B.text(MAX_ADDRESS_CHARS, { description: 'The address as written' }),
  components: componentsSchema,
  country: B.text(2, { pattern: '^[A-Za-z]{2}$', hint: 'must be an ISO 3166-1 alpha-2 country code such as NG' }),
  lat: F.lat, lng: F.lng,
  consent: { type: 'boolean', description: "Must be true: the subject consented to this check (and, for digital, to location collection at night)" },
  window_days: B.int({ min: 1, max: 30, description: 'How long the check may take (digital 3-30, default 14; field 1-30, default 7)' }),
  min_nights: B.int({ min: 1, max: 30, description: 'digital: distinct nights needed at the pin (default 3)' }),
  radius_m: B.num({ min: 10, max: 1000, description: 'How close counts as at the pin (digital 25-1000, default 100; field 10-500, default 50)' }),
  timezone: B.text(64, { description: "IANA zone the nights are read in (default: the pin's country)" }),
  external_ref: B.text(128),
}, ['product', 'subject_id', 'lat', 'lng']);

const trailScope = (req: { key: { scopes: string[] } | null }) => !!req.key?.scopes.includes('tracking');

function bounded(v: number | undefined, field: string, l: { min: number; max: number; default: number }, product: string): number {
  if (v === undefined) return l.default;
  if (v < l.min || v > l.max) throw invalid(field, `must be between ${l.min} and ${l.max} for ${product}, got ${v}`);
  return v;
}

/** What address verification makes of the address and the pin, kept with the order; null when its data is not loaded. */
async function resolveAddress(ctx: AppContext, b: any, sb: boolean): Promise<Record<string, unknown> | null> {
  if (!ctx.pool.has('address_verify') || !ctx.pool.hasDataset('gazetteer')) return null;
  const v = await runJson(ctx, 'address_verify', { address: b.address, components: b.components, country: b.country, lat: b.lat, lng: b.lng }, sb);
  return {
    granularity: v.verdict?.granularity ?? 'none',
    normalized: v.normalized ?? null,
    country_code: v.pin?.country_code ?? v.components?.country?.value ?? null,
    pin_consistent: v.pin?.consistent ?? null,
    pin_distance_m: v.pin?.distance_m ?? null,
    geocode: v.geocode ? { lat: v.geocode.lat ?? v.geocode.location?.lat ?? null, lng: v.geocode.lng ?? v.geocode.location?.lng ?? null } : null,
    issues: (v.issues ?? []).map((i: any) => ({ code: i.code, message: i.message })),
  };
}

async function reply(ctx: AppContext, req: { key: any }, o: Owner, row: any) {
  const visits = row.product === 'field' ? await visitsOf(ctx.store, o, row.id) : undefined;
  return verificationJson(row, { trail: trailScope(req), visits });
}

const CAP = ['verify_products'];
const NOTE = 'Address verification products: GET /api/v1/verify/products; POST /api/v1/verify/addresses orders digital (the subject\'s device dwelling at the pin on enough distinct nights, from real pings only) or field (an agent visit with photo, position and time); states pending → verified / failed / expired / cancelled with an evidence summary, a confidence and the address_verification.completed webhook; consent required; test keys run on the sandbox clock (POST /api/v1/sandbox/clock).';

const verifications: RouteDef[] = [
  route({
    method: 'GET', path: '/verify/products', scope: 'logistics', capabilities: CAP, note: NOTE,
    decl: {
      summary: 'Address verification products: what each checks, how long it takes, its states', tag: 'verify',
      responses: { 200: { description: 'The catalogue', schema: { type: 'object', required: ['products'], properties: { products: { type: 'array', items: { type: 'object', required: ['id', 'checks', 'duration', 'states', 'parameters'] } } } } } },
      examples: [{}],
    },
    handler: () => ({ json: { products: CATALOGUE } }),
  }),
  route({
    method: 'POST', path: '/verify/addresses', scope: 'logistics', capabilities: CAP, note: NOTE,
    decl: {
      summary: "Order an address verification for a subject's address and pin", tag: 'verify',
      description: "'consent' must be true. Give 'address' (text) or 'components'. digital watches the pings of 'device' (default: subject_id) from now on; field waits for POST /verify/addresses/{id}/visits.",
      body: ORDER_BODY,
      responses: { 201: avrReply('Ordered (pending)'), 400: { description: 'Invalid body, or consent not given' } },
      examples: [
        { body: { product: 'field', subject_id: 'customer-42', address: '12 Allen Avenue, Ikeja, Lagos', lat: 6.6018, lng: 3.3515, consent: true }, summary: 'Field: an agent visit' },
        { body: { product: 'digital', subject_id: 'customer-43', components: { street: 'Ngong Road', locality: 'Nairobi' }, country: 'KE', lat: -1.3, lng: 36.78, consent: true }, summary: 'Digital: nights at the pin (pings of device customer-43)' },
      ],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const b = req.body;
      if (b.consent === undefined) throw new HttpError(400, 'missing_parameter', "Field 'consent' is required: confirm with true that the subject consented to this verification.");
      if (b.consent !== true) throw invalid('consent', 'must be true: a verification is only run with the subject\'s consent');
      if (b.address === undefined && b.components === undefined) throw new HttpError(400, 'missing_parameter', "Field 'address' (or 'components') is required.");
      const product = b.product as Product;
      const subject: string = b.subject_id;
      let device: string | null = null;
      if (product === 'digital') {
        device = b.device ?? subject;
        if (!DEVICE_RE.test(device!)) throw new HttpError(400, 'missing_parameter', "Field 'device' is required when 'subject_id' is not a valid device name (1-64 letters, digits and . _ : @ -).");
        if (device === 'ping') throw invalid('device', "must not be 'ping' (reserved)");
      } else if (b.device !== undefined || b.min_nights !== undefined) {
        throw invalid(b.device !== undefined ? 'device' : 'min_nights', 'applies to the digital product only');
      }
      const l = LIMITS[product];
      const windowDays = bounded(b.window_days, 'window_days', l.window_days, product);
      const radius = bounded(b.radius_m, 'radius_m', l.radius_m, product);
      const minNights = product === 'digital' ? bounded(b.min_nights, 'min_nights', LIMITS.digital.min_nights, product) : 0;
      if (minNights > windowDays) throw invalid('min_nights', `must not exceed window_days (${windowDays})`);
      if (b.timezone !== undefined && !isZone(b.timezone)) throw invalid('timezone', "must be an IANA time zone such as 'Africa/Lagos'");
      const resolution = await resolveAddress(ctx, b, o.sandbox);
      const country = (b.country as string | undefined)?.toUpperCase() ?? (resolution?.country_code as string | null) ?? null;
      const zone: string = b.timezone ?? zoneFor(country, b.lat, b.lng);
      const now = await nowFor(ctx.store, o);
      const start = new Date(now);
      const row = await insertVerification(ctx.store, o, {
        id: newId('avr'), product, subject, device, externalRef: b.external_ref ?? null, address: b.address ?? null,
        components: b.components, country, lat: b.lat, lng: b.lng, resolution, timezone: zone, radius, minNights,
        start, end: new Date(now + windowDays * DAY),
      });
      return { status: 201, json: { address_verification: await reply(ctx, req, o, row) } };
    },
  }),
  route({
    method: 'GET', path: '/verify/addresses', scope: 'logistics', capabilities: CAP,
    decl: {
      summary: "The project's address verifications, a page at a time (oldest first)", tag: 'verify',
      query: {
        limit: { schema: Q.int({ min: 1, max: PAGE_MAX, default: PAGE_DEFAULT }), description: 'Verifications per page' },
        cursor: { schema: Q.str({ maxLength: 400 }), description: "The previous page's next_cursor" },
        status: { schema: Q.enum(STATES), description: 'Only verifications in this state' },
        subject_id: { schema: { ...Q.str({ minLength: 1, maxLength: 128 }), format: 'text' }, description: 'Only this subject' },
      },
      responses: { 200: { description: 'Verifications oldest first; next_cursor is null on the last page', schema: { type: 'object', required: ['address_verifications', 'next_cursor'], properties: { address_verifications: { type: 'array', items: AVR }, next_cursor: nstr } } } },
      examples: [{}, { query: 'status=pending&limit=5' }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const limit: number = req.q.limit;
      const after = req.q.cursor ? decodeCursor(req.q.cursor, 'avr') : null;
      // The page's due rows are evaluated first, so the states listed are current.
      const due = await duePage(ctx.store, o, after, limit + 1, req.q.subject_id ?? null);
      for (const row of due) await evaluate(ctx.store, o, row);
      if (due.length) ctx.webhooks?.wake();
      const rows = await verificationsPage(ctx.store, o, after, limit + 1, req.q.status ?? null, req.q.subject_id ?? null);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const next = rows.length > limit ? encodeCursor(last.at, last.id) : null;
      const items = [];
      for (const row of page) items.push(await reply(ctx, req, o, row));
      return { json: { address_verifications: items, next_cursor: next } };
    },
  }),
  route({
    method: 'GET', path: '/verify/addresses/:id', scope: 'logistics', capabilities: CAP,
    decl: {
      summary: 'One address verification: its state, evidence summary and confidence', tag: 'verify',
      description: 'Evaluated on read: a pending verification shows the evidence so far, or its outcome once reached. The raw trail is never included; keys with the tracking scope get trail_url.',
      params: { id: AVR_ID },
      responses: { 200: avrReply('The verification'), 404: { description: 'Unknown verification' } },
      examples: [{ after: 'POST /verify/addresses', params: { id: '{{address_verification.id}}' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const row = await loadVerification(ctx.store, o, req.params.id);
      if (!row) throw notFound('address verification', req.params.id);
      const now = await evaluate(ctx.store, o, row);
      if (now.status !== row.status) ctx.webhooks?.wake();
      return { json: { address_verification: await reply(ctx, req, o, now) } };
    },
  }),
  route({
    method: 'POST', path: '/verify/addresses/:id/visits', scope: 'logistics', capabilities: CAP,
    decl: {
      summary: 'Submit the agent visit of a field verification (photo, position, time)', tag: 'verify',
      description: `Verified when the agent's position is within the order's radius_m of the pin with a fix of ${FIELD_MAX_ACCURACY_M} m or better; failed otherwise. One visit decides; a completed verification answers 409.`,
      params: { id: AVR_ID },
      body: B.obj({
        photo_url: B.text(2048, { description: 'Public https address of the photo, hosted by you' }),
        lat: F.lat, lng: F.lng, accuracy_m: F.accuracy, visited_at: F.time,
        agent: B.text(128, { description: 'Your id of the agent' }), notes: B.text(2000),
      }, ['photo_url', 'lat', 'lng', 'visited_at']),
      responses: { 201: avrReply('The visit, and the verification it completed'), 404: { description: 'Unknown verification' }, 409: { description: 'Not a field verification, or no longer pending' } },
      examples: [{ after: 'POST /verify/addresses', params: { id: '{{address_verification.id}}' }, body: { photo_url: 'https://example.com/visits/1.jpg', lat: 6.6018, lng: 3.3515, accuracy_m: 8, visited_at: '{{address_verification.window.start}}' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const b = req.body;
      const photo = checkPhotoUrl(b.photo_url);
      const acc = measured(b.accuracy_m);
      let row = await loadVerification(ctx.store, o, req.params.id);
      if (!row) throw notFound('address verification', req.params.id);
      if (row.product !== 'field') throw new HttpError(409, 'conflict', `Verification ${row.id} is ${row.product}: only field verifications take agent visits.`);
      row = await evaluate(ctx.store, o, row); // a window already over expires first
      if (row.status !== 'pending') throw new HttpError(409, 'conflict', `Verification ${row.id} is already ${row.status}.`);
      const now = await nowFor(ctx.store, o);
      const at = time(b.visited_at, 'visited_at', now)!;
      if (at < new Date(row.window_start).getTime()) throw invalid('visited_at', `is before the verification was ordered (${new Date(row.window_start).toISOString()})`);
      if (at > new Date(row.window_end).getTime()) throw invalid('visited_at', `is after the verification window ended (${new Date(row.window_end).toISOString()})`);
      const distance = Math.round(haversine(row.pin_lat, row.pin_lng, b.lat, b.lng) * 10) / 10;
      const precise = acc === null || acc <= FIELD_MAX_ACCURACY_M;
      const near = distance <= row.radius_m;
      const accepted = precise && near;
      const reason = accepted ? 'agent_at_pin' : near ? 'visit_fix_imprecise' : 'visit_far_from_pin';
      const evidence = { visits: 1, distance_m: distance, accuracy_m: acc, radius_m: row.radius_m, max_accuracy_m: FIELD_MAX_ACCURACY_M, visited_at: new Date(at).toISOString(), photo_url: photo };
      // Closer visits earn more: 1 at the pin, 0.5 at the edge of the radius; a rejected visit, 0.
      const confidence = accepted ? Math.round((1 - 0.5 * distance / row.radius_m) * 100) / 100 : 0;
      const out = await recordOutcome(ctx.store, o, row.id, { status: accepted ? 'verified' : 'failed', reason, evidence, confidence, completed_at: new Date(at) }, new Date(), async (c) => {
        await insertVisit(c, o, row.id, { photoUrl: photo, lat: b.lat, lng: b.lng, accuracy: acc, visitedAt: new Date(at), agent: b.agent ?? null, notes: b.notes ?? null, distance, accepted });
      });
      ctx.webhooks?.wake();
      return { status: 201, json: { address_verification: await reply(ctx, req, o, out) } };
    },
  }),
  route({
    method: 'POST', path: '/verify/addresses/:id/cancel', scope: 'logistics', capabilities: CAP,
    decl: {
      summary: 'Cancel a pending address verification', tag: 'verify',
      params: { id: AVR_ID },
      responses: { 200: avrReply('Cancelled'), 404: { description: 'Unknown verification' }, 409: { description: 'No longer pending' } },
      examples: [{ after: 'POST /verify/addresses', params: { id: '{{address_verification.id}}' } }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      let row = await loadVerification(ctx.store, o, req.params.id);
      if (!row) throw notFound('address verification', req.params.id);
      row = await evaluate(ctx.store, o, row); // an outcome already reached stands
      if (row.status !== 'pending') throw new HttpError(409, 'conflict', `Verification ${row.id} is already ${row.status}.`);
      const now = await nowFor(ctx.store, o);
      const out = await recordOutcome(ctx.store, o, row.id, { status: 'cancelled', reason: 'cancelled_by_caller', evidence: row.evidence, confidence: row.confidence, completed_at: new Date(now) }, new Date());
      if (!out || out.status !== 'cancelled') throw new HttpError(409, 'conflict', `Verification ${row.id} is already ${out?.status ?? 'gone'}.`);
      ctx.webhooks?.wake();
      return { json: { address_verification: await reply(ctx, req, o, out) } };
    },
  }),
  route({
    method: 'DELETE', path: '/verify/addresses/:id', scope: 'logistics', capabilities: CAP,
    decl: {
      summary: 'Delete an address verification (and, on request, the subject\'s device pings)', tag: 'verify',
      description: 'delete_pings=true also deletes every stored ping and the last position of the verification\'s device in this project and mode.',
      params: { id: AVR_ID },
      query: { delete_pings: { schema: Q.bool(false), description: "Also delete the subject's device pings" } },
      responses: { 200: { description: 'Deleted', schema: { type: 'object', required: ['deleted', 'id', 'pings_deleted'], properties: { deleted: { const: true }, id: { type: 'string' }, pings_deleted: { type: 'integer' } } } }, 404: { description: 'Unknown verification' } },
      examples: [{ after: 'POST /verify/addresses', params: { id: '{{address_verification.id}}' }, query: 'delete_pings=true' }],
    },
    handler: async (req, ctx) => {
      const o = owner(req);
      const id = req.params.id;
      if (!isId('avr', id)) throw notFound('address verification', id);
      const out = await ctx.store.tx(async (c) => {
        const d = await deleteVerification(c, o, id);
        if (!d) return null;
        const pings = req.q.delete_pings && d.device ? await deleteDevicePings(c, o, d.device) : 0;
        return { pings };
      });
      if (!out) throw notFound('address verification', id);
      return { json: { deleted: true, id, pings_deleted: out.pings } };
    },
  }),
];

export const routes: RouteDef[] = [...verifications, ...sandboxClock];
