// /compat/alt/distancematrix: origins × destinations in the platform's Distance Matrix shape, on
// our many-to-many matrix task.
import type { AppContext, Req } from '../../../http/types.ts';
import { Q } from '../../../http/declaration.ts';
import { ALT_MODES, ALT_MODE_VALUES, type AltMode } from '../../../core/modes.ts';
import { altRoute } from './define.ts';
import { answer, invalid } from './envelope.ts';
import { resolvePlace, type Resolved } from './places.ts';
import { distance, duration } from './shapes.ts';
import { matrix, type Cell } from './matrix.ts';
import { envelope, matrixElement } from './schemas.ts';

/** The platform's limits: 25 origins, 25 destinations, 100 elements a request. */
export const MATRIX_MAX_SIDE = 25;
export const MATRIX_MAX_ELEMENTS = 100;


function places(raw: string, param: string): string[] {
  const ps = raw.split('|').map((p) => p.trim()).filter(Boolean);
  if (!ps.length) throw invalid(param, 'needs at least one place');
  if (ps.length > MATRIX_MAX_SIDE) throw invalid(param, `has ${ps.length} places; at most ${MATRIX_MAX_SIDE} are allowed`);
  return ps;
}

async function resolveAll(ctx: AppContext, req: Req, param: string, raws: string[]) {
  return Promise.all(raws.map((r) => resolvePlace(ctx, req, param, r)));
}

function element(c: Cell | null, units: 'metric' | 'imperial'): Record<string, unknown> {
  if (!c) return { status: 'NOT_FOUND' };
  if (c.distance_m === null || c.duration_s === null) return { status: 'ZERO_RESULTS' };
  return { status: 'OK', distance: distance(c.distance_m, units), duration: duration(c.duration_s) };
}

export const distancematrix = altRoute({
  name: 'distancematrix',
  scope: 'routing',
  ops: ['route_matrix', 'reverse', 'geocode', 'place_by_id'],
  datasets: ['road', 'gazetteer'],
  empty: { origin_addresses: [], destination_addresses: [], rows: [] },
  decl: {
    summary: 'Distance Matrix in the alt platform shape',
    description: `Up to ${MATRIX_MAX_SIDE} origins and ${MATRIX_MAX_SIDE} destinations (${MATRIX_MAX_ELEMENTS} elements), each LAT,LNG, an address or place_id:svc:…, pipe-separated. Element status NOT_FOUND when a place cannot be geocoded, ZERO_RESULTS when no road connects the pair (or it is outside our extracts). mode=transit gives ZERO_RESULTS elements. \`avoid\`, \`departure_time\`, \`language\` are accepted and not applied.`,
    query: {
      origins: { schema: Q.str({ maxLength: 6000 }), required: true, description: 'Places separated by |' },
      destinations: { schema: Q.str({ maxLength: 6000 }), required: true, description: 'Places separated by |' },
      mode: { schema: Q.enum(ALT_MODE_VALUES, 'driving'), description: 'transit: ZERO_RESULTS elements' },
      units: { schema: Q.enum(['metric', 'imperial'], 'metric'), description: 'Units of the distance texts' },
      avoid: { schema: Q.str({ maxLength: 100 }), description: 'Accepted, not applied' },
      departure_time: { schema: Q.str({ maxLength: 20 }), description: 'Accepted, not applied' },
      language: { schema: Q.str({ maxLength: 20 }), description: 'Accepted' },
    },
    responses: {
      200: {
        description: 'OK',
        schema: envelope(['origin_addresses', 'destination_addresses', 'rows'], {
          origin_addresses: { type: 'array', items: { type: 'string' } },
          destination_addresses: { type: 'array', items: { type: 'string' } },
          rows: { type: 'array', items: { type: 'object', required: ['elements'], properties: { elements: { type: 'array', items: matrixElement } } } },
        }),
      },
      400: { description: 'INVALID_REQUEST (also over 25 a side or 100 elements)' },
    },
    examples: [{ query: 'origins=5.5560,-0.1969&destinations=5.6037,-0.1870|5.5800,-0.2200', summary: 'Accra' }],
  },
  async handler(req, ctx) {
    const q = req.q;
    const units = q.units as 'metric' | 'imperial';
    const os = places(String(q.origins), 'origins'), ds = places(String(q.destinations), 'destinations');
    if (os.length * ds.length > MATRIX_MAX_ELEMENTS) throw invalid('origins', `× destinations gives ${os.length * ds.length} elements; at most ${MATRIX_MAX_ELEMENTS} are allowed`);
    const [o, d] = await Promise.all([resolveAll(ctx, req, 'origins', os), resolveAll(ctx, req, 'destinations', ds)]);
    const addr = (p: Resolved | null) => p?.address ?? '';
    if (q.mode === 'transit') {
      return answer('OK', {
        origin_addresses: o.map(addr), destination_addresses: d.map(addr),
        rows: o.map(() => ({ elements: d.map(() => ({ status: 'ZERO_RESULTS' })) })),
      }, { mode: 'transit' }, 'Transit is not offered by this service: no timetable routing.');
    }
    const cells = await matrix(ctx, req, o, d, ALT_MODES[q.mode as AltMode]);
    return answer('OK', {
      origin_addresses: o.map(addr),
      destination_addresses: d.map(addr),
      rows: cells.map((row) => ({ elements: row.map((c) => element(c, units)) })),
    });
  },
});
