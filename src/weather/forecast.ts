// Turns an Open-Meteo /v1/forecast answer (hourly series, local times) into our weather body:
// the hour that contains "now" as current conditions, and one aggregate per local day.
// One upstream call with hourly series serves both, so current and daily always agree.
import { conditionText, dominantCode } from './codes.ts';

/** The hourly variables we ask the upstream for (Open-Meteo names). */
export const HOURLY = [
  'temperature_2m', 'apparent_temperature', 'relative_humidity_2m', 'precipitation',
  'precipitation_probability', 'weather_code', 'wind_speed_10m', 'wind_direction_10m', 'wind_gusts_10m',
] as const;

export interface Upstream {
  latitude: number;
  longitude: number;
  utc_offset_seconds: number;
  timezone: string;
  elevation?: number;
  hourly: Record<string, (number | null)[]> & { time: string[] };
}

export class UpstreamFormatError extends Error {}

/** Checks the fields we read; anything else in the answer is ignored. */
export function parseUpstream(body: unknown): Upstream {
  const b = body as Partial<Upstream> | null;
  if (!b || typeof b !== 'object') throw new UpstreamFormatError('not a JSON object');
  if (typeof b.latitude !== 'number' || typeof b.longitude !== 'number') throw new UpstreamFormatError('no latitude/longitude');
  if (typeof b.utc_offset_seconds !== 'number') throw new UpstreamFormatError('no utc_offset_seconds');
  const h = b.hourly as Upstream['hourly'] | undefined;
  if (!h || !Array.isArray(h.time) || h.time.length === 0) throw new UpstreamFormatError('no hourly.time series');
  for (const v of ['temperature_2m', 'weather_code'] as const) {
    if (!Array.isArray(h[v]) || h[v].length !== h.time.length) throw new UpstreamFormatError(`hourly.${v} missing or of the wrong length`);
  }
  return b as Upstream;
}

const at = (h: Upstream['hourly'], name: string, i: number): number | null => {
  const s = h[name];
  const v = Array.isArray(s) ? s[i] : null;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

/** "2026-03-02T10:00" in the upstream's local time → epoch ms. */
const localMs = (t: string, offsetS: number) => Date.parse(`${t}:00Z`) - offsetS * 1000;

const max = (xs: (number | null)[]) => xs.reduce<number | null>((m, x) => (x === null ? m : m === null || x > m ? x : m), null);
const min = (xs: (number | null)[]) => xs.reduce<number | null>((m, x) => (x === null ? m : m === null || x < m ? x : m), null);
const sum = (xs: (number | null)[]) => (xs.every((x) => x === null) ? null : Math.round(xs.reduce<number>((s, x) => s + (x ?? 0), 0) * 10) / 10);

export interface Weather {
  timezone: string;
  utc_offset_seconds: number;
  grid: { lat: number; lng: number; elevation_m: number | null };
  current: null | {
    time: string; temperature_c: number | null; apparent_temperature_c: number | null; relative_humidity_pct: number | null;
    precipitation_mm: number | null; precipitation_probability_pct: number | null; wind_speed_kph: number | null;
    wind_direction_deg: number | null; wind_gusts_kph: number | null; weather_code: number | null; condition: string | null;
  };
  daily: {
    date: string; temperature_max_c: number | null; temperature_min_c: number | null; precipitation_mm: number | null;
    precipitation_probability_max_pct: number | null; wind_speed_max_kph: number | null; weather_code: number | null; condition: string | null;
  }[];
}

/** Current conditions at `nowMs` and up to `days` local days starting with today. */
export function summarise(u: Upstream, nowMs: number, days: number): Weather {
  const h = u.hourly;
  const off = u.utc_offset_seconds;
  let cur = -1;
  for (let i = 0; i < h.time.length; i++) {
    const t = localMs(h.time[i], off);
    if (t <= nowMs && nowMs < t + 3600_000) { cur = i; break; }
  }
  const today = new Date(nowMs + off * 1000).toISOString().slice(0, 10);
  const byDay = new Map<string, number[]>();
  for (let i = 0; i < h.time.length; i++) {
    const d = h.time[i].slice(0, 10);
    if (d < today) continue;
    if (!byDay.has(d)) byDay.set(d, []);
    byDay.get(d)!.push(i);
  }
  const daily = [...byDay.entries()].slice(0, days).map(([date, idx]) => {
    const col = (n: string) => idx.map((i) => at(h, n, i));
    const code = dominantCode(col('weather_code'));
    return {
      date,
      temperature_max_c: max(col('temperature_2m')),
      temperature_min_c: min(col('temperature_2m')),
      precipitation_mm: sum(col('precipitation')),
      precipitation_probability_max_pct: max(col('precipitation_probability')),
      wind_speed_max_kph: max(col('wind_speed_10m')),
      weather_code: code,
      condition: conditionText(code),
    };
  });
  const current = cur < 0 ? null : {
    time: h.time[cur],
    temperature_c: at(h, 'temperature_2m', cur),
    apparent_temperature_c: at(h, 'apparent_temperature', cur),
    relative_humidity_pct: at(h, 'relative_humidity_2m', cur),
    precipitation_mm: at(h, 'precipitation', cur),
    precipitation_probability_pct: at(h, 'precipitation_probability', cur),
    wind_speed_kph: at(h, 'wind_speed_10m', cur),
    wind_direction_deg: at(h, 'wind_direction_10m', cur),
    wind_gusts_kph: at(h, 'wind_gusts_10m', cur),
    weather_code: at(h, 'weather_code', cur),
    condition: conditionText(at(h, 'weather_code', cur)),
  };
  return {
    timezone: u.timezone ?? 'GMT',
    utc_offset_seconds: off,
    grid: { lat: u.latitude, lng: u.longitude, elevation_m: typeof u.elevation === 'number' ? u.elevation : null },
    current,
    daily,
  };
}
