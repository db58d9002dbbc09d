// What can be ordered from /verify/addresses, and the limits each order may set. The catalogue
// is data (GET /verify/products serves it as is), so the docs, the validation and the answer
// cannot disagree about a default.
import { NIGHT_START_H, NIGHT_END_H, MIN_DWELL_MIN, MAX_ACCURACY_M, MAX_SPEED_MPS, MAX_GAP_MIN } from '../../verify/dwell.ts';

export const PRODUCTS = ['digital', 'field'] as const;
export type Product = (typeof PRODUCTS)[number];
export const STATES = ['pending', 'verified', 'failed', 'expired', 'cancelled'] as const;
export type State = (typeof STATES)[number];

/** Bounds of what an order may ask for, and the default when it does not. */
export const LIMITS = {
  digital: { window_days: { min: 3, max: 30, default: 14 }, min_nights: { min: 1, max: 30, default: 3 }, radius_m: { min: 25, max: 1000, default: 100 } },
  field: { window_days: { min: 1, max: 30, default: 7 }, radius_m: { min: 10, max: 500, default: 50 } },
};
/** A field visit whose fix is less precise than this is no evidence of being at the door. */
export const FIELD_MAX_ACCURACY_M = 100;

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;

export const CATALOGUE = [
  {
    id: 'digital',
    name: 'Digital address verification (device presence at night)',
    checks: `The subject's phone (a device sending pings to POST /api/v1/track/ping) spends its nights at the pin: `
      + `on at least min_nights distinct nights (local ${hh(NIGHT_START_H)}-${hh(NIGHT_END_H)} in the pin's time zone) it dwells `
      + `${MIN_DWELL_MIN} minutes or more within radius_m of the pin. Fixes less accurate than ${MAX_ACCURACY_M} m and jumps faster than `
      + `${MAX_SPEED_MPS} m/s are dropped; two fixes more than ${MAX_GAP_MIN} minutes apart add no dwell.`,
    duration: `Up to window_days (default ${LIMITS.digital.window_days.default}); verified as soon as the nights are reached.`,
    requires: ['subject_id', 'pin', 'consent', 'device pings (device, or subject_id as the device name)'],
    parameters: LIMITS.digital,
    model: {
      night_local: `${hh(NIGHT_START_H)}-${hh(NIGHT_END_H)}`, min_dwell_minutes: MIN_DWELL_MIN, max_accuracy_m: MAX_ACCURACY_M,
      max_speed_mps: MAX_SPEED_MPS, max_gap_minutes: MAX_GAP_MIN,
    },
    states: {
      pending: 'Watching the window; evidence so far is shown.',
      verified: 'Enough nights at the pin.',
      failed: 'The window ended with pings seen but not enough nights at the pin.',
      expired: 'The window ended without a single ping from the device: nothing is concluded.',
      cancelled: 'Cancelled by the caller before completion.',
    },
  },
  {
    id: 'field',
    name: 'Field address verification (agent visit with photo)',
    checks: `An agent visits the address and submits a photo (your public https address), the agent's position and the time: `
      + `verified when the position is within radius_m of the pin with a fix of ${FIELD_MAX_ACCURACY_M} m or better; failed (rejected) otherwise.`,
    duration: `Until the visit is submitted, at most window_days (default ${LIMITS.field.window_days.default}).`,
    requires: ['subject_id', 'pin', 'consent', 'a visit: POST /api/v1/verify/addresses/{id}/visits'],
    parameters: LIMITS.field,
    states: {
      pending: 'Waiting for the agent visit.',
      verified: 'The agent was at the pin.',
      failed: 'The visit was too far from the pin, or its fix too imprecise.',
      expired: 'No visit was submitted within the window.',
      cancelled: 'Cancelled by the caller before completion.',
    },
  },
];
