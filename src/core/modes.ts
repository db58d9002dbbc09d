// Travel modes: the three the routing graphs serve, every spelling a client may use for them
// (our API, OSRM's profiles, the alt platform's modes), and the modes refused with a 501 because
// this build has no graph for them. One table, read by every endpoint and the routing workers.
import { NotImplemented } from './errors.ts';

/** The modes a routing graph is built for. */
export const MODES = ['driving', 'walk', 'cycle'] as const;
export type Mode = (typeof MODES)[number];

/** Accepted spellings of each mode in our API. */
export const MODE_ALIASES: Record<string, Mode> = {
  driving: 'driving', drive: 'driving', car: 'driving',
  walk: 'walk', walking: 'walk', foot: 'walk',
  cycle: 'cycle', cycling: 'cycle', bicycle: 'cycle', bike: 'cycle',
};
/** Modes clients ask for that this build cannot route: answered 501. */
export const NOT_IMPLEMENTED = ['truck', 'hgv', 'transit'];
/** Every value a `mode` parameter accepts (the 501 ones included, so they reach the 501). */
export const MODE_VALUES = [...Object.keys(MODE_ALIASES), ...NOT_IMPLEMENTED];

/** A validated `mode` value → the graph's mode; truck, hgv and transit throw NotImplemented (501). */
export function travelMode(raw: unknown): Mode {
  const m = String(raw ?? 'driving').toLowerCase();
  if (NOT_IMPLEMENTED.includes(m)) throw new NotImplemented(`mode=${m} is not available in this build; use driving, walk or cycle.`);
  return MODE_ALIASES[m];
}

/** OSRM profile names (and the car/foot/bike names of OSRM's own profiles) → our modes. */
export const OSRM_PROFILES: Record<string, Mode> = {
  driving: 'driving', car: 'driving', walking: 'walk', foot: 'walk', cycling: 'cycle', bike: 'cycle', bicycle: 'cycle',
};

/** The alt platform's modes → ours (its `transit` is answered ZERO_RESULTS by each endpoint). */
export const ALT_MODES = { driving: 'driving', walking: 'walk', bicycling: 'cycle' } as const;
export type AltMode = keyof typeof ALT_MODES;
/** The alt platform's `mode` values. */
export const ALT_MODE_VALUES = [...Object.keys(ALT_MODES), 'transit'];
/** A step's `travel_mode` on the alt platform. */
export const ALT_TRAVEL_MODE: Record<AltMode, string> = { driving: 'DRIVING', walking: 'WALKING', bicycling: 'BICYCLING' };
