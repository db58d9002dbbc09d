// POST /traffic/contribute: anonymous probe traces from partners, stored as received (one row
// per trace) before the 202; map matching and speeds follow asynchronously (src/traffic/processor.ts).
import { HttpError } from '../../http/types.ts';
import { LAT, LNG } from '../../core/points.ts';

/** Points per request, all traces together. */
export const MAX_PROBE_POINTS = 10_000;
export const MAX_TRACES = 1_000;
const MIN_TIME = Date.UTC(2000, 0, 1);
const MAX_FUTURE_MS = 5 * 60_000;

export interface ProbeTrace { trace_id: string; points: [number, number, number][] }

const time = { oneOf: [{ type: 'string', format: 'date-time' }, { type: 'integer', minimum: MIN_TIME }] } as const;
export const contributeBody = {
  type: 'object', required: ['probes'], additionalProperties: false,
  properties: {
    probes: {
      type: 'array', minItems: 1, maxItems: MAX_TRACES,
      items: {
        type: 'object', required: ['trace_id', 'points'], additionalProperties: false,
        properties: {
          trace_id: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001f]+$' },
          points: {
            type: 'array', minItems: 2, maxItems: MAX_PROBE_POINTS,
            items: {
              type: 'object', required: ['lat', 'lng', 'ts'], additionalProperties: false,
              properties: { lat: LAT, lng: LNG, ts: time },
            },
          },
        },
      },
    },
  },
} as const;

/** Checks what a schema cannot (the total, the clock) and returns each trace sorted by time. */
export function probeTraces(body: { probes: { trace_id: string; points: { lat: number; lng: number; ts: string | number }[] }[] }, now: number): ProbeTrace[] {
  let total = 0;
  return body.probes.map((p, i) => {
    total += p.points.length;
    if (total > MAX_PROBE_POINTS) throw new HttpError(400, 'invalid_parameter', `Field 'probes' holds more than ${MAX_PROBE_POINTS} points in all.`);
    const pts = p.points.map((q, j): [number, number, number] => {
      const ms = typeof q.ts === 'number' ? q.ts : Date.parse(q.ts);
      const field = `probes[${i}].points[${j}].ts`;
      if (!Number.isFinite(ms) || ms < MIN_TIME) throw new HttpError(400, 'invalid_parameter', `Field '${field}' is before 2000-01-01 or not a valid time.`);
      if (ms > now + MAX_FUTURE_MS) throw new HttpError(400, 'invalid_parameter', `Field '${field}' is more than 5 minutes in the future.`);
      return [q.lat, q.lng, ms];
    });
    pts.sort((a, b) => a[2] - b[2]);
    return { trace_id: p.trace_id, points: pts };
  });
}

/** One statement: every trace of the request is stored, or none. */