// The digital product's dwell model: does a device spend its nights at a pin? Pure functions
// over a window of pings, so the rule is tested on its own and the same evidence comes out of
// every evaluation (the sweep, a read, a clock move) for the same pings.
//
// 1. Accuracy: a fix whose accuracy radius is above MAX_ACCURACY_M says nothing about a doorstep
//    and is dropped (a fix without accuracy is kept: many phones leave it out).
// 2. Outliers: a fix that needs more than MAX_SPEED_MPS both to get there from the previous fix
//    and to get back to the next one is a GPS jump, and is dropped.
// 3. Nights: local time (the pin's zone) from NIGHT_START_H to NIGHT_END_H; a fix after midnight
//    belongs to the night that began the evening before.
// 4. Dwell: two consecutive kept night fixes, both within the radius of the pin and at most
//    MAX_GAP_MIN apart, add the time between them to that night's dwell at the pin. One lone fix
//    adds nothing: presence is shown over time, never assumed between sparse points.
// 5. A night counts when its dwell reaches MIN_DWELL_MIN; the address is verified when
//    `min_nights` distinct nights count within the window.
import { haversine } from '../core/geometry.ts';
import { offsetAt } from './timezone.ts';

export const NIGHT_START_H = 20;
export const NIGHT_END_H = 6;
export const MIN_DWELL_MIN = 120;
export const MAX_ACCURACY_M = 100;
export const MAX_SPEED_MPS = 55;
export const MAX_GAP_MIN = 60;

export interface Fix { ts: number; lat: number; lng: number; accuracy_m: number | null }

export interface DwellParams { lat: number; lng: number; radius_m: number; min_nights: number; timezone: string }

export interface NightSummary {
  night: string;
  pings: number;
  pings_at_pin: number;
  dwell_hours: number;
  median_distance_m: number;
  counted: boolean;
}

export interface DwellEvidence {
  pings_in_window: number;
  pings_used: number;
  rejected: { inaccurate: number; outliers: number };
  night_pings: number;
  nights_observed: number;
  nights_at_pin: number;
  dwell_hours_at_pin: number;
  distance_m: { min: number; median: number; p90: number; max: number } | null;
  nights: NightSummary[];
  first_ping_at: string | null;
  last_ping_at: string | null;
}

export interface DwellResult {
  evidence: DwellEvidence;
  /** When the min_nights-th counted night reached its minimum dwell (epoch ms), or null. */
  verified_at: number | null;
  confidence: number | null;
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

/** The evening date (YYYY-MM-DD, local) of the night an instant belongs to, or null in the daytime. */
export function nightOf(ms: number, zone: string): string | null {
  // Local wall-clock time, read with UTC getters.
  const local = new Date(ms + offsetAt(ms, zone));
  const hour = local.getUTCHours();
  if (hour >= NIGHT_START_H) return local.toISOString().slice(0, 10);
  if (hour < NIGHT_END_H) return new Date(local.getTime() - 86_400_000).toISOString().slice(0, 10);
  return null;
}

/** Accuracy filter, then jump-and-return outliers. Fixes must be in time order. */
export function cleanFixes(fixes: Fix[]): { kept: Fix[]; inaccurate: number; outliers: number } {
  const accurate = fixes.filter((f) => f.accuracy_m === null || f.accuracy_m <= MAX_ACCURACY_M);
  const speed = (a: Fix, b: Fix) => haversine(a.lat, a.lng, b.lat, b.lng) / Math.max(1, (b.ts - a.ts) / 1000);
  const kept: Fix[] = [];
  for (let i = 0; i < accurate.length; i++) {
    const f = accurate[i];
    const prev = kept.length ? kept[kept.length - 1] : null;
    const next = i + 1 < accurate.length ? accurate[i + 1] : null;
    if (prev && next && speed(prev, f) > MAX_SPEED_MPS && speed(f, next) > MAX_SPEED_MPS) continue;
    kept.push(f);
  }
  return { kept, inaccurate: fixes.length - accurate.length, outliers: accurate.length - kept.length };
}

/** The model over the fixes of the window (time order). */
export function evaluateDwell(fixes: Fix[], p: DwellParams): DwellResult {
  const { kept, inaccurate, outliers } = cleanFixes(fixes);
  const byNight = new Map<string, { fixes: Fix[]; dist: number[] }>();
  const allDist: number[] = [];
  for (const f of kept) {
    const n = nightOf(f.ts, p.timezone);
    if (n === null) continue;
    const d = haversine(p.lat, p.lng, f.lat, f.lng);
    allDist.push(d);
    let e = byNight.get(n);
    if (!e) byNight.set(n, (e = { fixes: [], dist: [] }));
    e.fixes.push(f);
    e.dist.push(d);
  }
  const nights: NightSummary[] = [];
  const qualified: number[] = [];
  let dwellTotalMs = 0;
  for (const [night, e] of [...byNight].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    let dwellMs = 0;
    let qualifiedAt: number | null = null;
    for (let i = 1; i < e.fixes.length; i++) {
      const gap = e.fixes[i].ts - e.fixes[i - 1].ts;
      if (e.dist[i] <= p.radius_m && e.dist[i - 1] <= p.radius_m && gap <= MAX_GAP_MIN * 60_000) {
        dwellMs += gap;
        if (qualifiedAt === null && dwellMs >= MIN_DWELL_MIN * 60_000) qualifiedAt = e.fixes[i].ts;
      }
    }
    dwellTotalMs += dwellMs;
    if (qualifiedAt !== null) qualified.push(qualifiedAt);
    const sorted = [...e.dist].sort((a, b) => a - b);
    nights.push({
      night, pings: e.fixes.length, pings_at_pin: e.dist.filter((d) => d <= p.radius_m).length,
      dwell_hours: r2(dwellMs / 3_600_000), median_distance_m: r1(quantile(sorted, 0.5)), counted: qualifiedAt !== null,
    });
  }
  qualified.sort((a, b) => a - b);
  const sortedAll = allDist.sort((a, b) => a - b);
  const nightsAtPin = qualified.length;
  const nightsObserved = nights.length;
  const evidence: DwellEvidence = {
    pings_in_window: fixes.length,
    pings_used: kept.length,
    rejected: { inaccurate, outliers },
    night_pings: sortedAll.length,
    nights_observed: nightsObserved,
    nights_at_pin: nightsAtPin,
    dwell_hours_at_pin: r2(dwellTotalMs / 3_600_000),
    distance_m: sortedAll.length ? { min: r1(sortedAll[0]), median: r1(quantile(sortedAll, 0.5)), p90: r1(quantile(sortedAll, 0.9)), max: r1(sortedAll[sortedAll.length - 1]) } : null,
    nights,
    first_ping_at: fixes.length ? new Date(fixes[0].ts).toISOString() : null,
    last_ping_at: fixes.length ? new Date(fixes[fixes.length - 1].ts).toISOString() : null,
  };
  return {
    evidence,
    verified_at: nightsAtPin >= p.min_nights ? qualified[p.min_nights - 1] : null,
    // How far the nights seen support the pin: the share of the required nights reached, times
    // the share of observed nights spent at the pin. Nothing observed: no confidence at all.
    confidence: nightsObserved === 0 ? null : r2(Math.min(1, nightsAtPin / p.min_nights) * (nightsAtPin / nightsObserved)),
  };
}
