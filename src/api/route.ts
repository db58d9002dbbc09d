// GET /route: validates on the main thread (cheap), then one `route` task in the worker pool.
import type { RouteDef } from '../http/types.ts';
import { HttpError } from '../http/types.ts';
import { point, parseLatLng, int, str, bad } from '../http/params.ts';

/** Accepted spellings of each mode. */
const MODE_ALIASES: Record<string, 'driving' | 'walk' | 'cycle'> = {
  driving: 'driving', drive: 'driving', car: 'driving',
  walk: 'walk', walking: 'walk', foot: 'walk',
  cycle: 'cycle', cycling: 'cycle', bicycle: 'cycle', bike: 'cycle',
};
const NOT_IMPLEMENTED = new Set(['truck', 'hgv', 'transit']);
export const MAX_VIA = 25;

export const routes: RouteDef[] = [
  {
    method: 'GET',
    path: '/route',
    scope: 'routing',
    capabilities: ['route_driving'],
    ready: (ctx) => ctx.engine.has('route') && ctx.engine.hasDataset('road'),
    note: 'Contraction-hierarchy routes (driving, walk, cycle) over the built OpenStreetMap extracts.',
    async handler(req, ctx) {
      const q = req.query;
      const from = point(q, ['from', 'origin'], { required: true, separate: false })!;
      const to = point(q, ['to', 'destination'], { required: true, separate: false })!;
      const modeRaw = (str(q, 'mode', { max: 20 }) ?? 'driving').toLowerCase();
      if (NOT_IMPLEMENTED.has(modeRaw)) {
        throw new HttpError(501, 'not_implemented', `mode=${modeRaw} is not available in this build; use driving, walk or cycle.`);
      }
      const mode = MODE_ALIASES[modeRaw];
      if (!mode) throw bad('mode', `must be one of driving, walk, cycle (aliases car, walking, cycling, bicycle), got '${modeRaw}'`);
      const radius = int(q, 'radius', { min: 1, max: 10000, def: 1000 })!;
      const viaRaw = str(q, ['via', 'waypoints']);
      const via = viaRaw ? viaRaw.split(/[;|]/).filter((s) => s.trim() !== '').map((s, i) => parseLatLng(`via[${i}]`, s)) : [];
      if (via.length > MAX_VIA) throw bad('via', `has ${via.length} points; at most ${MAX_VIA} are allowed`);
      return { task: await ctx.engine.run('route', { from, to, via, mode, radius }, !!req.key?.test) };
    },
  },
];
