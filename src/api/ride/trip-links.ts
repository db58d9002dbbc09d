// Shareable trip-tracking links: POST /trip-links makes a signed, expiring URL that shows one
// device's live position on our map page to whoever holds it, with no API key in the page; GET and
// DELETE /trip-links/{id} read and revoke it. The link itself (GET /trip/{token}) serves the page
// and /trip/{token}/position its JSON position feed, with the link's token only; the page's tiles
// and style take the same token in place of a key, read-only (the maps scope) and only while the
// link lives. Expired or revoked → 410. A link made for a stop ends with that stop's proof of
// delivery (endTripLinks, called by POST /pod).
import { HttpError, type AppContext, type RouteDef, route } from '../../http/types.ts';
import type { KeyInfo } from '../../http/types.ts';
import { B, Q, type Schema } from '../../http/declaration.ts';
import type { Store } from '../../store/index.ts';
import type { Db } from '../../store/db.ts';
import { insertTripLink, tripLinkById, ownTripLink, revokeTripLink, endTripLinksOfStop, type TripLinkRow } from '../../store/trip-links.ts';
import { devicePosition } from '../../store/fleet.ts';
import type { Lookup } from '../../auth/authenticator.ts';
import { owner, notFound, type Owner } from '../logistics/owner.ts';
import { F } from '../logistics/validate.ts';
import { loadStop } from '../logistics/stops.ts';
import { tileSet } from '../maps/tileset.ts';
import { checkTripToken, newTripId, tripToken, TRIP_TOKEN_PATTERN } from './trip-token.ts';
import { tripPage } from './trip-page.ts';

/** Lifetime of a link, seconds: default 4 hours, at most 2 days. */
export const TRIP_TTL = { min: 60, default: 4 * 3600, max: 2 * 86400 };
/** How long a link's row is trusted from memory by the public routes and the tiles (a revocation shows within it). */
const ROW_CACHE_MS = 2000;

/** A link's row; its plan is the one of the key that made it. */
type Row = Omit<TripLinkRow, 'plan'> & { plan: KeyInfo['plan'] };

const mapsReady = (ctx: AppContext) => tileSet(ctx) !== null;
const statusOf = (r: Row, now = Date.now()) => (r.revoked_at ? 'revoked' : r.expires_at.getTime() <= now ? 'expired' : 'active');

function linkJson(ctx: AppContext, r: Row) {
  const token = tripToken(ctx.config, r.id, r.expires_at);
  const url = `${ctx.config.baseUrl}/trip/${token}`;
  return {
    id: r.id, object: 'trip_link', device: r.device, stop_id: r.stop_id, label: r.label, status: statusOf(r),
    url, position_url: `${url}/position`, token,
    created_at: r.created_at.toISOString(), expires_at: r.expires_at.toISOString(),
    revoked_at: r.revoked_at?.toISOString() ?? null, revoked_reason: r.revoked_reason,
  };
}

// ---- the link's row, cached briefly for the page, its feed and its tiles

const caches = new WeakMap<Store, Map<string, { row: Row | null; at: number }>>();
function cacheOf(store: Store) {
  let c = caches.get(store);
  if (!c) caches.set(store, (c = new Map()));
  return c;
}

async function rowById(store: Store, id: string): Promise<Row | null> {
  const c = cacheOf(store), hit = c.get(id), now = Date.now();
  if (hit && now - hit.at < ROW_CACHE_MS) return hit.row;
  const row = ((await tripLinkById(store, id)) as Row | undefined) ?? null;
  if (c.size > 10_000) c.clear();
  c.set(id, { row, at: now });
  return row;
}

/** The live link a token names; 404 when the token is not one of ours, 410 once it expired or was revoked. */
async function openLink(ctx: AppContext, token: string): Promise<Row> {
  const t = checkTripToken(ctx.config, token);
  if (!t.ok && t.reason !== 'expired') throw new HttpError(404, 'not_found', 'No such trip link.');
  if (!t.ok) throw new HttpError(410, 'link_expired', 'This trip link has expired.');
  const row = await rowById(ctx.store, t.id);
  if (!row) throw new HttpError(404, 'not_found', 'No such trip link.');
  if (row.revoked_at) throw new HttpError(410, 'link_revoked', `This trip link has ended (${row.revoked_reason ?? 'revoked'}).`);
  return row;
}

/**
 * A trip token given where a key is expected (the map page's style, tiles, glyphs and sprites):
 * a read-only maps key of the link's project, counted against the key that made the link, while
 * the link lives.
 */
export async function tripKey(ctx: AppContext, token: string): Promise<Lookup> {
  const t = checkTripToken(ctx.config, token);
  if (!t.ok) return { ok: false, reason: t.reason === 'expired' ? 'revoked' : 'unknown' };
  const row = await rowById(ctx.store, t.id);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revoked_at) return { ok: false, reason: 'revoked' };
  return { ok: true, key: { id: row.key_id, project: row.project_id, plan: row.plan, scopes: ['maps'], test: row.sandbox, origins: null, burstRps: null } };
}

/** Ends the live links made for a stop (its proof of delivery is the end of the trip). */
export const endTripLinks = (q: Db, o: Owner, stopId: string, reason: string): Promise<number> => endTripLinksOfStop(q, o, stopId, reason);

const nstr = { type: ['string', 'null'] };
const link: Schema = {
  type: 'object', required: ['id', 'object', 'device', 'status', 'url', 'position_url', 'token', 'created_at', 'expires_at'],
  properties: {
    id: { type: 'string' }, object: { const: 'trip_link' }, device: { type: 'string' }, stop_id: nstr, label: nstr,
    status: { enum: ['active', 'expired', 'revoked'] }, url: { type: 'string' }, position_url: { type: 'string' }, token: { type: 'string' },
    created_at: { type: 'string' }, expires_at: { type: 'string' }, revoked_at: nstr, revoked_reason: nstr,
  },
};
const linkOut = { type: 'object', required: ['link'], properties: { link } };
const idParam = { id: { schema: Q.str({ pattern: '^[0-9a-f]{24}$', hint: 'must be a trip link id (24 hex digits)' }), required: true } };
const tokenParam = { token: { schema: Q.str({ pattern: TRIP_TOKEN_PATTERN, hint: 'must be the token of a trip link' }), required: true, description: 'The token from the link' } };
const gone = { 404: { description: 'Not a trip link' }, 410: { description: 'The link expired or was revoked (link_expired, link_revoked)' } };

async function ownRow(ctx: AppContext, o: Owner, id: string): Promise<Row> {
  const row = await ownTripLink(ctx.store, o, id);
  if (!row) throw notFound('trip link', id);
  return row as Row;
}

export const routes: RouteDef[] = [
  route({
    method: 'POST', path: '/trip-links', scope: 'tracking', capabilities: ['trip_share'], ready: mapsReady,
    note: 'POST /api/v1/trip-links makes a signed, expiring link (no key in it) that shows one device\'s live position on our map page; GET/DELETE /trip-links/{id} read and revoke it; a link made for a stop ends with its proof of delivery; expired or revoked → 410.',
    offNote: () => 'The tile set is not built, so the trip page would have no map (npm run graph-build -- tiles).',
    decl: {
      summary: "A shareable link to one device's live position on a map (signed, expiring)", tag: 'tracking',
      description: `Anyone with \`url\` sees the device's last real position on our map page (it polls \`position_url\`); the page holds the link's token, never an API key. The link lives expires_in_s seconds (${TRIP_TTL.min}-${TRIP_TTL.max}, default ${TRIP_TTL.default}), until DELETE /trip-links/{id}, or, made with stop_id, until that stop's proof of delivery (POST /pod). Then the page and the feed answer 410.`,
      body: B.obj({
        device: F.device,
        expires_in_s: B.int({ min: TRIP_TTL.min, max: TRIP_TTL.max, description: `Seconds the link lives (default ${TRIP_TTL.default})` }),
        stop_id: { ...F.id, description: 'A stop of yours: its proof of delivery ends the link' },
        label: B.text(120, { description: 'Shown on the page, e.g. "Your driver Ama, Toyota Vitz GR-1234-21"' }),
      }, ['device']),
      responses: { 201: { description: 'The link', schema: linkOut }, 404: { description: 'Unknown stop_id' } },
      examples: [{ body: { device: 'example-van-1', expires_in_s: 3600, label: 'Your driver' } }],
    },
    async handler(req, ctx) {
      const o = owner(req);
      const b = req.body;
      if (b.stop_id && !(await loadStop(ctx.store, o, b.stop_id))) throw notFound('stop', b.stop_id);
      const ttl: number = b.expires_in_s ?? TRIP_TTL.default;
      // whole seconds: the token carries the expiry in seconds
      const expires = new Date(Math.floor(Date.now() / 1000 + ttl) * 1000);
      const row = await insertTripLink(ctx.store, o, { id: newTripId(), keyId: req.key!.id, plan: req.key!.plan, device: b.device, stopId: b.stop_id ?? null, label: b.label ?? null, expiresAt: expires });
      return { status: 201, json: { link: linkJson(ctx, row as Row) } };
    },
  }),
  route({
    method: 'GET', path: '/trip-links/:id', scope: 'tracking',
    decl: {
      summary: 'A trip link with its status (active, expired, revoked)', tag: 'tracking', params: idParam,
      responses: { 200: { description: 'The link', schema: linkOut }, 404: { description: 'Unknown link' } },
      examples: [{ after: 'POST /trip-links', params: { id: '{{link.id}}' } }],
    },
    async handler(req, ctx) {
      return { json: { link: linkJson(ctx, await ownRow(ctx, owner(req), req.params.id)) } };
    },
  }),
  route({
    method: 'DELETE', path: '/trip-links/:id', scope: 'tracking',
    decl: {
      summary: 'Revoke a trip link: its page and feed answer 410 from now on', tag: 'tracking', params: idParam,
      responses: { 200: { description: 'The revoked link (revoking twice changes nothing)', schema: linkOut }, 404: { description: 'Unknown link' } },
      examples: [{ after: 'POST /trip-links', params: { id: '{{link.id}}' } }],
    },
    async handler(req, ctx) {
      const o = owner(req);
      const row = await revokeTripLink(ctx.store, o, req.params.id);
      if (!row) throw notFound('trip link', req.params.id);
      cacheOf(ctx.store).delete(req.params.id);
      return { json: { link: linkJson(ctx, row as Row) } };
    },
  }),
  route({
    method: 'GET', path: '//trip/:token', scope: null,
    decl: {
      summary: "The trip link's page: the device's live position on our map (no key; the link's token only)", tag: 'tracking',
      params: tokenParam,
      responses: { 200: { description: 'HTML page', contentType: 'text/html; charset=utf-8', schema: { type: 'string' } }, ...gone },
      examples: [{ after: 'POST /trip-links', params: { token: '{{link.token}}' } }],
    },
    async handler(req, ctx) {
      const row = await openLink(ctx, req.params.token);
      const html = tripPage(ctx, { token: req.params.token, label: row.label, expiresAt: row.expires_at.toISOString() });
      // The page holds the token: never cached by a shared cache, never sent on as a referrer.
      return { bytes: new TextEncoder().encode(html), contentType: 'text/html; charset=utf-8', headers: { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' } };
    },
  }),
  route({
    method: 'GET', path: '//trip/:token/position', scope: null,
    decl: {
      summary: "The trip link's position feed: the device's last real position (null until a ping arrives)", tag: 'tracking',
      params: tokenParam,
      responses: {
        200: {
          description: 'Last position',
          schema: {
            type: 'object', required: ['link', 'position', 'age_s'],
            properties: {
              link: { type: 'object', required: ['id', 'device', 'expires_at', 'status'] },
              position: { anyOf: [{ type: 'null' }, { type: 'object', required: ['lat', 'lng', 'ts'] }] }, age_s: { type: ['integer', 'null'] },
            },
          },
        },
        ...gone,
      },
      examples: [{ after: 'POST /trip-links', params: { token: '{{link.token}}' } }],
    },
    async handler(req, ctx) {
      const row = await openLink(ctx, req.params.token);
      const d = await devicePosition(ctx.store, { project: row.project_id, sandbox: row.sandbox }, row.device);
      const position = d ? { lat: d.lat, lng: d.lng, ts: d.last_ts.toISOString(), speed_mps: d.speed_mps, heading_deg: d.heading_deg, accuracy_m: d.accuracy_m } : null;
      return {
        json: {
          link: { id: row.id, device: row.device, label: row.label, expires_at: row.expires_at.toISOString(), status: 'active' },
          position, age_s: d ? Math.max(0, Math.round((Date.now() - d.last_ts.getTime()) / 1000)) : null,
        },
        headers: { 'Cache-Control': 'no-store' },
      };
    },
  }),
];
