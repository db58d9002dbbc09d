// The coordinate a road's bearing at an intersection is taken from (OSRM's
// extractor/intersection/coordinate_extractor.cpp): not the next shape point, which may be a
// metre away and askew, but one that represents where the road goes.
import { distance, interpolate, same, type Fixed } from './geometry.ts';

/** What the extractor reads of the road besides its coordinates. */
export interface RoadClass {
  roundabout: boolean;
  circular: boolean;
  lowPriority: boolean;
  motorway: boolean;
  ramp: boolean;
  /** RoadPriorityClass */
  priority: number;
}

const ASSUMED_LANE_WIDTH = 3.25;
const LOOKAHEAD_DISTANCE_WITHOUT_LANES = 10.0;
const ASSUMED_LANE_COUNT = 2;
const SKIPPING_INACCURACIES_DISTANCE = 2;
const PRIORITY_TRUNK = 2, PRIORITY_PRIMARY = 4;

function offsetCorrectionFactor(c: RoadClass): number {
  if (c.motorway || c.ramp) return 2.5;
  if (c.priority === PRIORITY_TRUNK) return 2.0;
  if (c.priority === PRIORITY_PRIMARY) return 1.5;
  return 1.0;
}

/** ComputeInterpolationFactor */
const factor = (desired: number, toFirst: number, toSecond: number) =>
  Math.max(0, Math.min((desired - toFirst) / (toSecond - toFirst), 1));

/** ExtractCoordinateAtLength (without a length cache). */
export function coordinateAtLength(d: number, cs: readonly Fixed[]): Fixed {
  let acc = 0, last = cs[0];
  for (let i = 1; i < cs.length; i++) {
    const seg = distance(last, cs[i]);
    if (acc + seg >= d) return interpolate(factor(d - acc, 0, distance(cs[i - 1], cs[i])), cs[i - 1], cs[i]);
    acc += seg; last = cs[i];
  }
  return cs[cs.length - 1];
}

/** GetCoordinateCloseToTurn: the first shape point more than a metre from the intersection, else the far end. */
export function coordinateCloseToTurn(cs: readonly Fixed[]): Fixed {
  for (let i = 1; i < cs.length; i++) if (distance(cs[i], cs[0]) > 1) return cs[i];
  return cs[cs.length - 1];
}

/** TrimCoordinatesToLength without a cache. */
function trimToLength(cs: Fixed[], desired: number): Fixed[] {
  let toCurrent = 0;
  for (let i = 1; i < cs.length; i++) {
    const toNext = toCurrent + distance(cs[i - 1], cs[i]);
    if (toNext >= desired) {
      const out = cs.slice(0, i + 1);
      out[i] = interpolate(factor(desired, toCurrent, toNext), cs[i - 1], cs[i]);
      return out;
    }
    toCurrent = toNext;
  }
  return cs;
}

/**
 * ExtractRepresentativeCoordinate. `cs` runs from the intersection outward, duplicates removed;
 * `lanes` is the most lanes of any road at the intersection.
 */
export function representativeCoordinate(cs: Fixed[], road: RoadClass, lanes: number, selfLoop: boolean): Fixed {
  if (selfLoop) return cs[1];
  if (cs.length <= 2) return cs[cs.length - 1];
  if (road.roundabout || road.circular) return coordinateAtLength(SKIPPING_INACCURACIES_DISTANCE, cs);
  const turn = cs[0];
  if (road.lowPriority) {
    const t = trimToLength(cs, LOOKAHEAD_DISTANCE_WITHOUT_LANES);
    if (t.length > 2 && distance(turn, t[1]) < ASSUMED_LANE_WIDTH) {
      const initial = distance(turn, t[1]), total = distance(turn, t[t.length - 1]);
      // as OSRM has it: the first test makes this branch unreachable
      if (initial > ASSUMED_LANE_WIDTH && total > initial) return corrected(turn, t[1], t[t.length - 1]);
    }
    return t[t.length - 1];
  }
  const considered = offsetCorrectionFactor(road) * (lanes === 0 ? ASSUMED_LANE_COUNT : lanes);
  if (distance(cs[0], cs[1]) > considered * ASSUMED_LANE_WIDTH + LOOKAHEAD_DISTANCE_WITHOUT_LANES) return cs[1];
  return coordinateAtLength(LOOKAHEAD_DISTANCE_WITHOUT_LANES, cs);
}

/** GetCorrectedCoordinate */
export function corrected(fix: Fixed, base: Fixed, head: Fixed): Fixed {
  if (distance(base, head) < 2.0) return head;
  return { lat: head.lat - Math.trunc((90 * (base.lat - fix.lat)) / 100), lon: head.lon - Math.trunc((90 * (base.lon - fix.lon)) / 100) };
}

export { same };
