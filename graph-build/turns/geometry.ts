// Coordinates and angles as OSRM's extractor computes them (util/coordinate.hpp,
// util/coordinate_calculation.cpp, util/bearing.hpp): fixed-point micro-degrees, the cheap ruler's
// distance and bearing, integer interpolation. Turn angles decide penalties to a tenth of a second,
// so the arithmetic follows OSRM's step for step, truncations included.
import { osrmBearing, osrmDistance } from '../contract/distance.ts';

/** A coordinate in OSRM's fixed point: integer micro-degrees. */
export interface Fixed { lat: number; lon: number }

/** std::round: halves away from zero. */
const roundAway = (x: number) => (x < 0 ? -Math.round(-x) : Math.round(x));

/** util::toFixed of a coordinate in degrees. */
export const toFixed = (lat: number, lon: number): Fixed => ({ lat: roundAway(lat * 1e6), lon: roundAway(lon * 1e6) });

export const same = (a: Fixed, b: Fixed) => a.lat === b.lat && a.lon === b.lon;

/** greatCircleDistance: metres (the cheap ruler of the pair's mean latitude). */
export const distance = (a: Fixed, b: Fixed) => osrmDistance(a.lat / 1e6, a.lon / 1e6, b.lat / 1e6, b.lon / 1e6);

/** coordinate_calculation::bearing: degrees clockwise from north, [0, 360]. */
export const bearing = (a: Fixed, b: Fixed) => osrmBearing(a.lat / 1e6, a.lon / 1e6, b.lat / 1e6, b.lon / 1e6);

/** Length of a polyline. */
export function length(cs: readonly Fixed[]): number {
  let d = 0;
  for (let i = 1; i < cs.length; i++) d += distance(cs[i - 1], cs[i]);
  return d;
}

/** interpolateLinear: integer coordinates, truncated toward zero as the C++ casts do. */
export function interpolate(f: number, a: Fixed, b: Fixed): Fixed {
  return { lat: Math.trunc(a.lat + f * (b.lat - a.lat)), lon: Math.trunc(a.lon + f * (b.lon - a.lon)) };
}

/** bearing::reverse */
export const reverse = (b: number) => (b >= 180 ? b - 180 : b + 180);

/** bearing::angleBetween: the turn angle from arriving on `entry` to leaving on `exit` (180 straight on). */
export const angleBetween = (entry: number, exit: number) => fmod(entry - exit + 540, 360);

export const angularDeviation = (a: number, b: number) => { const d = Math.abs(a - b); return Math.min(360 - d, d); };

export function restrictAngle(a: number): number {
  while (a < 0) a += 360;
  while (a > 360) a -= 360;
  return a;
}

/** std::fmod (the sign of the dividend). */
export const fmod = (a: number, b: number) => a % b;
