// /api/v1/webhooks: a project's outgoing webhook endpoints, their delivery log and replay.
// The key's mode picks the endpoints: a test key manages (and its events reach) test
// endpoints only, a live key live ones. Sending is src/webhooks/dispatcher.ts.
import { HttpError, type Req, type RouteDef, route } from '../http/types.ts';
import { Q } from '../http/declaration.ts';
import { EVENT_TYPES } from '../webhooks/events.ts';
import { createEndpoint, listEndpoints, getEndpoint, updateEndpoint, deleteEndpoint, deliveries, replay, endpointJson, MAX_ENDPOINTS } from '../webhooks/endpoints.ts';

const mode = (req: Req) => ({ project: req.key!.project, sandbox: req.key!.test });
const actor = (req: Req) => `key:${req.key!.id}`;
const notFound = (id: string) => new HttpError(404, 'not_found', `No webhook endpoint '${id.slice(0, 80)}' in this project (for this key's mode).`);

const endpointSchema = {
  type: 'object', required: ['id', 'url', 'events', 'mode', 'enabled'],
  properties: {
    id: { type: 'string' }, object: { const: 'webhook_endpoint' }, mode: { enum: ['live', 'test'] }, url: { type: 'string' },
    events: { type: 'array', items: { enum: [...EVENT_TYPES] } }, description: { type: ['string', 'null'] }, enabled: { type: 'boolean' },
    created_at: { type: 'string' }, updated_at: { type: 'string' }, secret: { type: 'string', description: 'Only in the answer to POST: store it to verify signatures.' },
  },
};
const events = { type: 'array', items: { enum: [...EVENT_TYPES] }, minItems: 1, uniqueItems: true };
const idParam = { id: { schema: Q.str({ maxLength: 64 }), required: true, description: 'Endpoint id (whe_…)' } };
/** Filled from the answer of POST /webhooks's example (see Example.after in operation.ts). */
const EXAMPLE_ID = { id: '{{webhook.id}}' };
const AFTER = 'POST /webhooks';

export const routes: RouteDef[] = [
  route({
    method: 'POST', path: '/webhooks', scope: 'logistics', capabilities: ['trip_outcome_webhook'],
    ready: (ctx) => !!ctx.webhooks,
    note: `Outgoing webhooks (${EVENT_TYPES.join(', ')}): signed (Svc-Signature t=…,v1=HMAC-SHA256), queued in PostgreSQL with the write, retried for about 24 h, with a delivery log and replay — see docs/webhooks.md.`,
    decl: {
      summary: 'Create a webhook endpoint (the signing secret is shown only in this answer)',
      tag: 'webhooks',
      body: {
        type: 'object', required: ['url', 'events'], additionalProperties: false,
        properties: { url: { type: 'string', format: 'text', maxLength: 2048, description: 'Public https address' }, events, description: { type: 'string', format: 'text', maxLength: 200 } },
      },
      responses: { 201: { description: 'The endpoint, with its secret', schema: { type: 'object', required: ['webhook'], properties: { webhook: endpointSchema } } }, 409: { description: `More than ${MAX_ENDPOINTS} endpoints` } },
      examples: [{ body: { url: 'https://hooks.example.com/svc', events: ['trip_outcome.recorded'] } }],
    },
    handler: async (req, ctx) => ({
      status: 201,
      json: { webhook: await createEndpoint(ctx.store, mode(req), req.body, actor(req), ctx.config.webhookAllowPrivate) },
    }),
  }),
  route({
    method: 'GET', path: '/webhooks', scope: 'logistics',
    decl: {
      summary: "The project's webhook endpoints for this key's mode", tag: 'webhooks',
      responses: { 200: { description: 'Endpoints', schema: { type: 'object', required: ['webhooks'], properties: { webhooks: { type: 'array', items: endpointSchema } } } } },
      examples: [{}],
    },
    handler: async (req, ctx) => ({ json: { webhooks: await listEndpoints(ctx.store, req.key!.project, req.key!.test) } }),
  }),
  route({
    method: 'GET', path: '/webhooks/:id', scope: 'logistics',
    decl: {
      summary: 'One webhook endpoint', tag: 'webhooks', params: idParam,
      responses: { 200: { description: 'The endpoint', schema: { type: 'object', required: ['webhook'], properties: { webhook: endpointSchema } } }, 404: { description: 'Unknown id' } },
      examples: [{ after: AFTER, params: EXAMPLE_ID, summary: 'an id returned by POST /webhooks' }],
    },
    handler: async (req, ctx) => {
      const r = await getEndpoint(ctx.store, req.key!.project, req.key!.test, req.params.id);
      if (!r) throw notFound(req.params.id);
      return { json: { webhook: endpointJson(r) } };
    },
  }),
  route({
    method: 'PATCH', path: '/webhooks/:id', scope: 'logistics',
    decl: {
      summary: 'Change a webhook endpoint (url, events, description, enabled)', tag: 'webhooks', params: idParam,
      body: {
        type: 'object', additionalProperties: false, minProperties: 1,
        properties: { url: { type: 'string', format: 'text', maxLength: 2048 }, events, description: { type: ['string', 'null'], format: 'text', maxLength: 200 }, enabled: { type: 'boolean' } },
      },
      responses: { 200: { description: 'The endpoint', schema: { type: 'object', required: ['webhook'], properties: { webhook: endpointSchema } } }, 404: { description: 'Unknown id' } },
      examples: [{ after: AFTER, params: EXAMPLE_ID, body: { enabled: false } }],
    },
    handler: async (req, ctx) => {
      const r = await updateEndpoint(ctx.store, mode(req), req.params.id, req.body, actor(req), ctx.config.webhookAllowPrivate);
      if (!r) throw notFound(req.params.id);
      return { json: { webhook: r } };
    },
  }),
  route({
    method: 'DELETE', path: '/webhooks/:id', scope: 'logistics',
    decl: {
      summary: 'Delete a webhook endpoint (pending deliveries to it stop)', tag: 'webhooks', params: idParam,
      responses: { 200: { description: 'Deleted', schema: { type: 'object', required: ['deleted'], properties: { deleted: { const: true }, id: { type: 'string' } } } }, 404: { description: 'Unknown id' } },
      examples: [{ after: AFTER, params: EXAMPLE_ID }],
    },
    handler: async (req, ctx) => {
      if (!(await deleteEndpoint(ctx.store, mode(req), req.params.id, actor(req)))) throw notFound(req.params.id);
      return { json: { deleted: true, id: req.params.id } };
    },
  }),
  route({
    method: 'GET', path: '/webhooks/:id/deliveries', scope: 'logistics',
    decl: {
      summary: 'The event log of an endpoint: deliveries, newest first, with every attempt', tag: 'webhooks', params: idParam,
      query: { limit: { schema: Q.int({ min: 1, max: 200, default: 50 }) } },
      responses: {
        200: {
          description: 'Deliveries',
          schema: {
            type: 'object', required: ['deliveries'],
            properties: {
              deliveries: {
                type: 'array',
                items: {
                  type: 'object', required: ['id', 'event_id', 'type', 'status', 'attempts', 'attempt_log'],
                  properties: {
                    id: { type: 'string' }, event_id: { type: 'string' }, type: { type: 'string' }, status: { enum: ['pending', 'delivered', 'failed'] },
                    attempts: { type: 'integer' }, replay: { type: 'boolean' }, next_attempt_at: { type: ['string', 'null'] }, last_status: { type: ['integer', 'null'] },
                    last_error: { type: ['string', 'null'] }, created_at: { type: 'string' }, delivered_at: { type: ['string', 'null'] }, attempt_log: { type: 'array' },
                  },
                },
              },
            },
          },
        },
        404: { description: 'Unknown id' },
      },
      examples: [{ after: AFTER, params: EXAMPLE_ID }],
    },
    handler: async (req, ctx) => {
      const e = await getEndpoint(ctx.store, req.key!.project, req.key!.test, req.params.id);
      if (!e) throw notFound(req.params.id);
      return { json: { webhook_id: e.id, deliveries: await deliveries(ctx.store, e.id, req.q.limit) } };
    },
  }),
  route({
    method: 'POST', path: '/webhooks/:id/replay', scope: 'logistics',
    decl: {
      summary: 'Send events again to an endpoint: one event by id, or every subscribed event since a time', tag: 'webhooks', params: idParam,
      body: {
        type: 'object', additionalProperties: false, minProperties: 1,
        properties: { event_id: { type: 'string', maxLength: 64 }, since: { type: 'string', format: 'date-time' } },
      },
      responses: { 202: { description: 'Queued', schema: { type: 'object', required: ['queued'], properties: { queued: { type: 'integer' } } } }, 404: { description: 'Unknown endpoint or event' } },
      examples: [{ after: AFTER, params: EXAMPLE_ID, body: { since: '2026-01-01T00:00:00Z' } }],
    },
    handler: async (req, ctx) => {
      const e = await getEndpoint(ctx.store, req.key!.project, req.key!.test, req.params.id);
      if (!e) throw notFound(req.params.id);
      const n = await replay(ctx.store, e, { event_id: req.body.event_id, since: req.body.since ? new Date(req.body.since) : undefined }, actor(req));
      if (req.body.event_id && n === 0) throw new HttpError(404, 'not_found', `No event '${String(req.body.event_id).slice(0, 80)}' in this project (for this key's mode).`);
      ctx.webhooks?.wake();
      return { status: 202, json: { queued: n } };
    },
  }),
];
