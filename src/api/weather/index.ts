// GET /weather: current conditions and a daily forecast at a pin, from the configured
// Open-Meteo-compatible upstream (src/weather/upstream.ts). Nothing is invented: no upstream, no weather.
import type { RouteDef } from '../../http/types.ts';
import { route } from '../../http/types.ts';
import { Q } from '../../http/declaration.ts';
import { summarise } from '../../weather/forecast.ts';
import { FETCH_DAYS, CELL_DEG } from '../../weather/upstream.ts';
import { weatherUpstream } from '../../weather/service.ts';

export const WEATHER_DAYS = { min: 1, max: FETCH_DAYS, default: 3 };

const num = { type: ['number', 'null'] };
const dayItem = {
  type: 'object',
  required: ['date', 'temperature_max_c', 'temperature_min_c', 'precipitation_mm', 'precipitation_probability_max_pct', 'weather_code', 'condition'],
  properties: {
    date: { type: 'string' }, temperature_max_c: num, temperature_min_c: num, precipitation_mm: num,
    precipitation_probability_max_pct: num, wind_speed_max_kph: num, weather_code: { type: ['integer', 'null'] }, condition: { type: ['string', 'null'] },
  },
};

export const routes: RouteDef[] = [
  route({
    method: 'GET', path: '/weather', scope: 'weather',
    capabilities: ['weather'],
    ready: (ctx) => weatherUpstream(ctx).configured && weatherUpstream(ctx).answered,
    note: `Current conditions and a daily forecast (1-${FETCH_DAYS} days) at a pin from the configured Open-Meteo-compatible upstream, cached per ${CELL_DEG}° cell for an hour, stale-while-revalidate for a day.`,
    decl: {
      summary: 'Current conditions and a daily forecast at a pin',
      tag: 'weather',
      pairAliases: { location: ['lat', 'lng'], latlng: ['lat', 'lng'] },
      query: {
        lat: { schema: Q.num({ min: -90, max: 90 }), required: true, description: 'Latitude (or location=LAT,LNG)' },
        lng: { schema: Q.num({ min: -180, max: 180 }), required: true, aliases: ['lon'], description: 'Longitude' },
        days: { schema: Q.int({ min: WEATHER_DAYS.min, max: WEATHER_DAYS.max, default: WEATHER_DAYS.default }), description: 'Forecast days, today first' },
      },
      responses: {
        200: {
          description: 'Weather at the pin',
          schema: {
            type: 'object', required: ['weather'],
            properties: {
              weather: {
                type: 'object', required: ['location', 'current', 'daily', 'source'],
                properties: {
                  location: { type: 'object' }, grid: { type: 'object' }, timezone: { type: 'string' },
                  current: { type: ['object', 'null'] }, daily: { type: 'array', items: dayItem }, source: { type: 'object' },
                },
              },
            },
          },
        },
        503: { description: 'weather_unavailable: no upstream configured, or it is failing with nothing cached (Retry-After)' },
      },
      examples: [{ query: 'lat=-1.2921&lng=36.8219&days=3', summary: 'Nairobi' }],
    },
    async handler(req, ctx) {
      const { lat, lng, days } = req.q as { lat: number; lng: number; days: number };
      const up = weatherUpstream(ctx);
      const a = await up.get(lat, lng);
      const w = summarise(a.data, up.now(), days);
      return {
        json: {
          weather: {
            location: { lat, lng },
            ...w,
            source: {
              provider: 'Open-Meteo-compatible upstream', licence: 'Open-Meteo data: CC BY 4.0 (open-meteo.com)',
              fetched_at: new Date(a.fetchedAt).toISOString(), stale: a.stale, cell_deg: CELL_DEG,
            },
          },
        },
        headers: { 'Cache-Control': a.stale ? 'no-cache' : 'public, max-age=600' },
      };
    },
  }),
];
