// Live traffic: GET /traffic (GeoJSON segments, live or the weekly profile) and POST
// /traffic/contribute (partner probes). The service behind them (src/traffic/: processor +
// publisher timers) starts with the server; see docs/traffic.md for the whole flow.
import type { RouteDef } from '../../http/types.ts';
import { route } from '../../http/types.ts';
import { HttpError } from '../../http/types.ts';
import { Q } from '../../http/declaration.ts';
import { MIN_DEVICES } from '../../traffic/speeds.ts';
import { canMatchProbes } from '../../traffic/processor.ts';
import { contributeBody, probeTraces, MAX_PROBE_POINTS } from './ingest.ts';
import { insertProbeTraces } from '../../store/traffic-probes.ts';

/** Largest bbox one /traffic call may ask for, in square degrees (~110 × 110 km at the equator). */
export const MAX_BBOX_DEG2 = 1;
export const MAX_SEGMENTS = 5000;

const bboxSchema = { ...Q.list({ type: 'number' }, { max: 4 }), minItems: 4, description: 'minLng,minLat,maxLng,maxLat' };

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/traffic', scope: 'traffic',
    capabilities: ['traffic'],
    ready: (ctx) => ctx.pool.has('traffic_segments') && canMatchProbes(ctx.pool),
    note: `Speeds per directed road segment from map-matched probes (live tracking pings of live keys and POST /traffic/contribute): live from the last 15 minutes, or the weekly profile (mode=forecast). A segment is published only with samples from at least ${MIN_DEVICES} distinct devices or traces; where there are none the answer is empty and says why.`,
    decl: {
      summary: 'Traffic speeds on road segments in a bbox (live, or the weekly profile)',
      tag: 'traffic',
      query: {
        bbox: { schema: bboxSchema, required: true, description: `minLng,minLat,maxLng,maxLat; at most ${MAX_BBOX_DEG2} square degree` },
        mode: { schema: Q.enum(['live', 'forecast'], 'live') },
        dow: { schema: Q.int({ min: 0, max: 6 }), description: 'forecast: day of week, 0 = Sunday (UTC)' },
        hour: { schema: Q.int({ min: 0, max: 23 }), description: 'forecast: hour of day (UTC)' },
        limit: { schema: Q.int({ min: 1, max: MAX_SEGMENTS, default: 1000 }) },
      },
      responses: {
        200: {
          description: 'A GeoJSON FeatureCollection of directed segments (empty, with empty_reason, where there are no probes)',
          schema: {
            type: 'object', required: ['type', 'features'],
            properties: {
              type: { const: 'FeatureCollection' }, empty_reason: { type: 'string' }, truncated: { type: 'boolean' },
              features: {
                type: 'array',
                items: {
                  type: 'object', required: ['type', 'geometry', 'properties'],
                  properties: {
                    properties: {
                      type: 'object', required: ['speed_kph', 'free_flow_kph', 'congestion'],
                      properties: { speed_kph: { type: 'number' }, free_flow_kph: { type: 'number' }, congestion: { enum: ['free', 'moderate', 'heavy', 'standstill'] }, samples: { type: 'integer' }, updated_at: { type: 'string' } },
                    },
                  },
                },
              },
            },
          },
        },
      },
      examples: [{ query: 'bbox=3.15,36.69,3.23,36.75', summary: 'Eastern Algiers' }],
    },
    async handler(req, ctx) {
      const { bbox, mode, dow, hour, limit } = req.q as { bbox: number[]; mode: 'live' | 'forecast'; dow?: number; hour?: number; limit: number };
      const [w, s, e, n] = bbox;
      if (!(w < e && s < n && w >= -180 && e <= 180 && s >= -90 && n <= 90)) {
        throw new HttpError(400, 'invalid_parameter', "Parameter 'bbox' must be minLng,minLat,maxLng,maxLat with min < max, inside -180..180 and -90..90.");
      }
      if ((e - w) * (n - s) > MAX_BBOX_DEG2) throw new HttpError(400, 'invalid_parameter', `Parameter 'bbox' covers ${Math.round((e - w) * (n - s) * 100) / 100} square degrees; at most ${MAX_BBOX_DEG2} is allowed.`);
      if (mode === 'forecast' && (dow === undefined || hour === undefined)) throw new HttpError(400, 'missing_parameter', "Parameters 'dow' and 'hour' are required with mode=forecast.");
      return { task: await ctx.pool.run('traffic_segments', { bbox: [w, s, e, n], mode, dow, hour, limit }) };
    },
  }),
  route({
    method: 'POST', path: '/traffic/contribute', scope: 'traffic',
    capabilities: ['traffic_contribute'],
    ready: (ctx) => canMatchProbes(ctx.pool),
    note: `Anonymous probe traces (up to ${MAX_PROBE_POINTS} points a request) stored before the 202, then map-matched to roads; trace ids never leave the database.`,
    decl: {
      summary: 'Contribute anonymous GPS probe traces to live traffic',
      tag: 'traffic',
      body: contributeBody,
      responses: {
        202: {
          description: 'Stored; matched and published within seconds',
          schema: { type: 'object', required: ['accepted_points', 'traces', 'stored'], properties: { accepted_points: { type: 'integer' }, traces: { type: 'integer' }, stored: { type: 'boolean' } } },
        },
      },
      examples: [{
        // A past time: a point more than 5 minutes ahead of the server's clock is refused.
        body: { probes: [{ trace_id: 'veh-17-2026-01-15', points: [{ lat: 36.7215, lng: 3.1812, ts: '2026-01-15T08:00:00Z' }, { lat: 36.7220, lng: 3.1830, ts: '2026-01-15T08:00:10Z' }] }] },
        summary: 'One trace of two points',
      }],
    },
    async handler(req, ctx) {
      const traces = probeTraces(req.body, Date.now());
      const points = traces.reduce((a, t) => a + t.points.length, 0);
      // Test keys run in the sandbox: validated like live probes, never stored into real traffic.
      if (!req.key!.test) await insertProbeTraces(ctx.store, req.key!.project, traces);
      return { status: 202, json: { accepted_points: points, traces: traces.length, stored: !req.key!.test } };
    },
  }),
];
