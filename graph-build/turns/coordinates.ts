// The coordinate a road's bearing at an intersection is taken from, ported line for line from
// OSRM's extractor/intersection/coordinate_extractor.cpp (v26.4.1): not the next shape point,
// which may be a metre away and askew, but one that represents where the road goes (past lane
// offsets, along curves, on a regression line through a wobbly road). Its quirks are kept — a
// length cache of segment lengths read as if cumulative, truncating integer casts — because the
// turn angles, and so the penalties, must come out as OSRM's do.
import { distance, interpolate, same, bearing, angularDeviation, type Fixed } from './geometry.ts';

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
const FAR_LOOKAHEAD_DISTANCE = 40.0;
const ASSUMED_LANE_COUNT = 2;
const SKIPPING_INACCURACIES_DISTANCE = 2;
const NARROW_TURN_ANGLE = 40, FUZZY_ANGLE_DIFFERENCE = 25, STRAIGHT_ANGLE = 180;
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

/** std::round, then the int32 of util::toFixed */
const roundAway = (x: number) => (x < 0 ? -Math.round(-x) : Math.round(x));
const fromFloat = (lat: number, lon: number): Fixed => ({ lat: roundAway(lat * 1e6), lon: roundAway(lon * 1e6) });

/** projectPointOnSegment on coordinates as degrees; the point converted back to fixed point, as the C++ does on use. */
export function project(source: Fixed, target: Fixed, c: Fixed): Fixed {
  const sLon = source.lon / 1e6, sLat = source.lat / 1e6;
  const vLon = target.lon / 1e6 - sLon, vLat = target.lat / 1e6 - sLat;
  const rLon = c.lon / 1e6 - sLon, rLat = c.lat / 1e6 - sLat;
  const unnormed = vLon * rLon + vLat * rLat;
  const sq = vLon * vLon + vLat * vLat;
  if (sq < Number.EPSILON) return source;
  const r = Math.max(0, Math.min(1, unnormed / sq));
  return fromFloat((1 - r) * sLat + (target.lat / 1e6) * r, (1 - r) * sLon + (target.lon / 1e6) * r);
}

/** GetMaxDeviation over cs[begin, end) from the line a–b. */
function maxDeviation(cs: readonly Fixed[], begin: number, end: number, a: Fixed, b: Fixed): number {
  let m = 0;
  for (let i = begin; i < end; i++) m = Math.max(m, distance(project(a, b, cs[i]), cs[i]));
  return m;
}

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

/** ExtractCoordinateAtLength with a cache of segment lengths (cache[i]: cs[i-1]→cs[i]). */
function coordinateAtLengthCached(d: number, cs: readonly Fixed[], cache: readonly number[]): Fixed {
  let acc = 0, it = 1;
  for (let i = 1; i < cs.length; i++) {
    if (acc + cache[it] >= d) return interpolate(factor(d - acc, 0, cache[it]), cs[i - 1], cs[i]);
    acc += cache[it]; it++;
  }
  return cs[cs.length - 1];
}

/** GetCoordinateCloseToTurn: the first shape point more than a metre from the intersection, else the far end. */
export function coordinateCloseToTurn(cs: readonly Fixed[]): Fixed {
  for (let i = 1; i < cs.length; i++) if (distance(cs[i], cs[0]) > 1) return cs[i];
  return cs[cs.length - 1];
}

/** PrepareLengthCache: segment lengths until their sum reaches `limit` (index 0 holds 0). */
function lengthCache(cs: readonly Fixed[], limit: number): number[] {
  const out = [0];
  let acc = 0;
  for (let i = 1; i < cs.length; i++) {
    const d = distance(cs[i - 1], cs[i]);
    acc += d; out.push(d);
    if (acc >= limit) break;
  }
  return out;
}

/** TrimCoordinatesToLength (the cache, when given, read as OSRM reads it). */
export function trimToLength(input: readonly Fixed[], desired: number, cache: readonly number[] = []): Fixed[] {
  let cs = input.slice();
  const useCache = cache.length > 0;
  if (useCache && cache[cache.length - 1] < desired && cs.length >= 2) {
    if (cs.length > cache.length) cs = cs.slice(0, cache.length);
    const last = distance(cs[cs.length - 2], cs[cs.length - 1]);
    if (last > 0) cs[cs.length - 1] = interpolate(factor(cache[cache.length - 1], 0, last), cs[cs.length - 2], cs[cs.length - 1]);
    return cs;
  }
  let toCurrent = 0;
  for (let i = 1; i < cs.length; i++) {
    const toNext = useCache ? cache[i] : toCurrent + distance(cs[i - 1], cs[i]);
    if (toNext >= desired) {
      const out = cs.slice(0, i + 1);
      out[i] = interpolate(factor(desired, toCurrent, toNext), cs[i - 1], cs[i]);
      return out;
    }
    toCurrent = toNext;
  }
  return cs;
}

/** TrimCoordinatesByLengthFront: drop the first `desired` metres (interpolating the new first point); [] if shorter. */
function trimFront(input: readonly Fixed[], desired: number): Fixed[] {
  let toIndex = 0, index = 0;
  for (let next = 1; next < input.length; next++) {
    const nextD = toIndex + distance(input[index], input[next]);
    if (nextD >= desired) {
      const p = interpolate(factor(desired, toIndex, nextD), input[index], input[next]);
      const out = input.slice(index);
      out[0] = p;
      return out;
    }
    toIndex = nextD; index = next;
  }
  return [];
}

/** GetCorrectedCoordinate: the head moved back by 90% of the base's offset from the fix point. */
export function corrected(fix: Fixed, base: Fixed, head: Fixed): Fixed {
  if (distance(base, head) < 2.0) return head;
  return { lat: head.lat - Math.trunc((90 * (base.lat - fix.lat)) / 100), lon: head.lon - Math.trunc((90 * (base.lon - fix.lon)) / 100) };
}

/** SampleCoordinates: a point every `rate` metres for the first `maxLength`. */
export function sample(cs: readonly Fixed[], maxLength: number, rate: number): Fixed[] {
  const out = [cs[0]];
  let carry = 0, total = 0;
  for (let i = 1; i < cs.length; i++) {
    if (total > maxLength) break;
    const prev = cs[i - 1], cur = cs[i];
    const between = distance(prev, cur);
    if (carry + between >= rate) {
      const base = rate - carry;
      const n = Math.floor((Math.min(maxLength - total, between) + carry) / rate);
      for (let k = 0; k < n; k++) out.push(interpolate(factor(base + k * rate, 0, between), prev, cur));
      carry = between + carry - n * rate;
    } else carry += between;
    total += between;
  }
  return out;
}

export function rotate(c: Fixed, rad: number): Fixed {
  const cos = Math.cos(rad), sin = Math.sin(rad);
  const lon = c.lon / 1e6, lat = c.lat / 1e6;
  return fromFloat(sin * lon + cos * lat, cos * lon - sin * lat);
}

/** leastSquareRegression: two fixed points on the regression line of the samples. */
export function leastSquares(cs: readonly Fixed[]): [Fixed, Fixed] {
  const n = cs.length;
  let minLon = cs[0].lon / 1e6, maxLon = minLon, minLat = cs[0].lat / 1e6, maxLat = minLat;
  for (const c of cs) {
    minLon = Math.min(minLon, c.lon / 1e6); maxLon = Math.max(maxLon, c.lon / 1e6);
    minLat = Math.min(minLat, c.lat / 1e6); maxLat = Math.max(maxLat, c.lat / 1e6);
  }
  if (maxLat - minLat > 2 * (maxLon - minLon)) {
    const r = leastSquares(cs.map((c) => rotate(c, (-90 * Math.PI) / 180)));
    return [rotate(r[0], (90 * Math.PI) / 180), rotate(r[1], (90 * Math.PI) / 180)];
  }
  let sLon = 0, sLat = 0;
  for (const c of cs) sLon += c.lon / 1e6;
  for (const c of cs) sLat += c.lat / 1e6;
  const mLon = sLon / n, mLat = sLat / n;
  let vLon = 0;
  for (const c of cs) { const d = c.lon / 1e6 - mLon; vLon += d * d; }
  const sdLon = Math.sqrt(vLon / (n - 1));
  if (Math.abs(sdLon) < Number.EPSILON) return [cs[0], cs[n - 1]];
  let vLat = 0;
  for (const c of cs) { const d = c.lat / 1e6 - mLat; vLat += d * d; }
  const sdLat = Math.sqrt(vLat / (n - 1));
  if (Math.abs(sdLat) < Number.EPSILON) return [cs[0], cs[n - 1]];
  let corr = 0;
  for (const c of cs) corr += ((c.lon / 1e6 - mLon) * (c.lat / 1e6 - mLat)) / (sdLon * sdLat);
  corr /= n - 1;
  const slope = (corr * sdLat) / sdLon, intercept = mLat - slope * mLon;
  const off = 0.00001;
  return [fromFloat(intercept + slope * (minLon - off), minLon - off), fromFloat(intercept + slope * (maxLon + off), maxLon + off)];
}

/** RegressionLine: the regression of 1 m samples over the first 40 m, projected onto the ends. */
function regressionLine(cs: readonly Fixed[]): [Fixed, Fixed] {
  const s = sample(cs, FAR_LOOKAHEAD_DISTANCE, 1);
  if (s.length < 2) return [cs[0], cs[cs.length - 1]];
  const [a, b] = leastSquares(s);
  return [project(a, b, cs[0]), project(a, b, cs[cs.length - 1])];
}

// util::atan2_lookup: OSRM's table of 4096 arctangents, floor(atan(i/4095)·4/π·0xFFFF)
const SCALING = (4 / Math.PI) * 0xffff;
const ATAN = new Float64Array(4096).map((_, i) => Math.floor(Math.atan(i / 4095) * SCALING));
function atan2Lookup(y: number, x: number): number {
  const half = Math.PI / 2;
  if (Math.abs(x) < Number.EPSILON) return y >= 0 ? half : -half;
  let oct = 0;
  if (x < 0) { oct = 1; x = -x; }
  if (y < 0) { oct |= 2; y = -y; }
  let t = y / x;
  if (t > 1) { oct |= 4; t = 1 / t; }
  let a = ATAN[Math.trunc(t * 4095)] / SCALING;
  switch (oct) {
    case 1: a = Math.PI - a; break;
    case 2: a = -a; break;
    case 3: a = -Math.PI + a; break;
    case 4: a = half - a; break;
    case 5: a = half + a; break;
    case 6: a = -half + a; break;
    case 7: a = -half - a; break;
  }
  return a;
}

const MAX_LAT = 85.051128779806592377796715521925;
const latToY = (lat: number) => {
  const f = Math.sin((Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180);
  return (180 / Math.PI) * 0.5 * Math.log((1 + f) / (1 - f));
};

/** coordinate_calculation::computeAngle: the angle at `b` from a to c (180 straight). */
function computeAngle(a: Fixed, b: Fixed, c: Fixed): number {
  if (same(a, b) || same(b, c)) return 180;
  const v1x = (a.lon - b.lon) / 1e6, v1y = latToY(a.lat / 1e6) - latToY(b.lat / 1e6);
  const v2x = (c.lon - b.lon) / 1e6, v2y = latToY(c.lat / 1e6) - latToY(b.lat / 1e6);
  let angle = ((atan2Lookup(v2y, v2x) - atan2Lookup(v1y, v1x)) * 180) / Math.PI;
  while (angle < 0) angle += 360;
  return angle;
}

/** signedArea > 0 */
function isCCW(a: Fixed, b: Fixed, c: Fixed): boolean {
  const [la1, lo1, la2, lo2, la3, lo3] = [a.lat / 1e6, a.lon / 1e6, b.lat / 1e6, b.lon / 1e6, c.lat / 1e6, c.lon / 1e6];
  return 0.5 * (-lo2 * la1 + lo3 * la1 + lo1 * la2 - lo3 * la2 - lo1 * la3 + lo2 * la3) > 0;
}

/** IsCurve */
function isCurve(cs: readonly Fixed[], dists: readonly number[], segLength: number, laneWidth: number, road: RoadClass): boolean {
  if (road.roundabout) return true;
  const begin = bearing(cs[0], cs[1]), end = bearing(cs[cs.length - 2], cs[cs.length - 1]);
  if (!(angularDeviation(begin, end) > 0.5 * NARROW_TURN_ANGLE)) return false;
  const dev = (c: Fixed) => distance(project(cs[0], cs[cs.length - 1], c), c);
  if (cs.length > 3) {
    const ccw = isCCW(cs[0], cs[cs.length - 1], cs[1]);
    for (let i = 2; i < cs.length - 1; i++) if (isCCW(cs[0], cs[cs.length - 1], cs[i]) !== ccw) return false;
  }
  // deviation rising to one maximum, then falling
  let upDown = false, maxIndex = 0, maxDev = 0;
  if (cs.length < 3) { upDown = true; }
  else if (cs.length === 3) { upDown = true; maxIndex = 1; maxDev = dev(cs[1]); }
  else {
    // std::is_sorted_until(begin+1, end, increasing)
    let k = 2;
    while (k < cs.length && !(dev(cs[k]) < dev(cs[k - 1]))) k++;
    if (k === cs.length) { upDown = true; maxIndex = cs.length - 1; maxDev = 0; }
    else {
      let sorted = true;
      for (let i = k + 1; i < cs.length; i++) if (dev(cs[i]) > dev(cs[i - 1])) { sorted = false; break; }
      if (sorted) { upDown = true; maxIndex = k - 1; maxDev = dev(cs[k - 1]); }
    }
  }
  if (!upDown) return false;
  let toMax = 0;
  for (let i = 0; i <= maxIndex && i < dists.length; i++) toMax += dists[i];
  if ((toMax <= 0.35 * segLength || maxDev < Math.max(0.3 * laneWidth, 0.5 * ASSUMED_LANE_WIDTH)) && segLength > LOOKAHEAD_DISTANCE_WITHOUT_LANES) return false;
  const angles: number[] = [];
  for (let i = 0; i + 2 < cs.length; i++) angles.push(computeAngle(cs[i], cs[i + 1], cs[i + 2]));
  // std::adjacent_find with the stateful predicate
  let lastStraight = false;
  let straight = Math.max(0, dists[1] - laneWidth);
  let di = 1;
  let valid = true;
  for (let i = 0; i + 1 < angles.length; i++) {
    const prev = angles[i], cur = angles[i + 1];
    const bothTurn = angularDeviation(prev, STRAIGHT_ANGLE) > FUZZY_ANGLE_DIFFERENCE && angularDeviation(cur, STRAIGHT_ANGLE) > FUZZY_ANGLE_DIFFERENCE;
    const switches = (prev > STRAIGHT_ANGLE) === (cur < STRAIGHT_ANGLE);
    if (bothTurn && switches) { valid = false; break; }
    const isStraight = angularDeviation(cur, STRAIGHT_ANGLE) < 5;
    di++;
    if (isStraight) {
      straight += dists[di] ?? 0;
      if (lastStraight && straight > 0.3 * segLength) { valid = false; break; }
    } else if (straight > 0.3 * segLength) { valid = false; break; }
    else straight = dists[di] ?? 0;
    lastStraight = isStraight;
  }
  return segLength > 2 * laneWidth && valid;
}

/** IsDirectOffset */
function isDirectOffset(cs: readonly Fixed[], straightIndex: number, straightDistance: number, segLength: number, dists: readonly number[], lanes: number): boolean {
  const closeToLane = (w: number) => w - 0.5 * lanes * ASSUMED_LANE_WIDTH < ASSUMED_LANE_WIDTH;
  const offset = Math.max(1, straightIndex);
  if (offset + 1 >= cs.length) return false;
  let acc = 0;
  for (let i = 0; i <= offset; i++) acc += dists[i];
  if (!closeToLane(acc)) return false;
  if (segLength < 0.4 * FAR_LOOKAHEAD_DISTANCE) return false;
  if (segLength - Math.max(straightDistance, dists[1]) < 0.1 * segLength) return false;
  let past = offset;
  while (past < dists.length && !(dists[past] >= 30)) past++;
  const end = Math.min(cs.length, past + 1);
  return 0.5 * ASSUMED_LANE_WIDTH > maxDeviation(cs, offset, end, cs[offset], cs[end - 1]);
}

/**
 * ExtractRepresentativeCoordinate. `input` runs from the intersection outward, duplicates removed;
 * `lanes` is the most lanes of any road at the intersection (an unsigned 8-bit count in OSRM).
 */
export function representativeCoordinate(input: readonly Fixed[], road: RoadClass, lanes: number, selfLoop: boolean): Fixed {
  if (selfLoop) return input[1];
  if (input.length <= 2) return input[input.length - 1];
  if (road.roundabout || road.circular) return coordinateAtLength(SKIPPING_INACCURACIES_DISTANCE, input);
  const turn = input[0];
  if (road.lowPriority) {
    const t = trimToLength(input, LOOKAHEAD_DISTANCE_WITHOUT_LANES);
    if (t.length > 2 && distance(turn, t[1]) < ASSUMED_LANE_WIDTH) {
      const initial = distance(turn, t[1]), total = distance(turn, t[t.length - 1]);
      if (initial > ASSUMED_LANE_WIDTH && total > initial) return corrected(turn, t[1], t[t.length - 1]);
    }
    return t[t.length - 1];
  }
  const first = distance(input[0], input[1]);
  const considered = offsetCorrectionFactor(road) * (lanes === 0 ? ASSUMED_LANE_COUNT : lanes);
  if (first > considered * ASSUMED_LANE_WIDTH + LOOKAHEAD_DISTANCE_WITHOUT_LANES) return input[1];
  const lookahead = FAR_LOOKAHEAD_DISTANCE + considered * ASSUMED_LANE_WIDTH;
  const dists = lengthCache(input, lookahead);
  let cs = trimToLength(input, lookahead, dists);
  dists[dists.length - 1] = Math.min(dists[dists.length - 1], lookahead);
  const total = dists.reduce((a, b) => a + b, 0);
  if (cs.length === 2 || total <= SKIPPING_INACCURACIES_DISTANCE) return cs[cs.length - 1];
  if (maxDeviation(cs, 0, cs.length, cs[0], cs[cs.length - 1]) < 0.5 * ASSUMED_LANE_WIDTH) {
    return same(cs[0], cs[cs.length - 1]) ? coordinateAtLength(SKIPPING_INACCURACIES_DISTANCE, cs) : cs[cs.length - 1];
  }
  let straightDistance = dists[1], index = 2;
  for (; index < cs.length; index++) {
    if (maxDeviation(cs, 0, index, cs[0], cs[index]) < 0.25 * ASSUMED_LANE_WIDTH) straightDistance += dists[index] ?? NaN;
    else break;
  }
  const straightIndex = index - 1;
  if (straightDistance >= considered * ASSUMED_LANE_WIDTH + LOOKAHEAD_DISTANCE_WITHOUT_LANES) return coordinateAtLengthCached(5, cs, dists);
  const reg = regressionLine(cs);
  if (maxDeviation(cs, 0, cs.length, reg[0], reg[1]) < 0.35 * ASSUMED_LANE_WIDTH) {
    return corrected(turn, project(reg[0], reg[1], cs[0]), project(reg[0], reg[1], cs[cs.length - 1]));
  }
  if (isDirectOffset(cs, straightIndex, straightDistance, total, dists, Math.min(255, Math.trunc(considered)))) {
    const o = Math.max(1, straightIndex);
    return corrected(turn, cs[o], cs[o + 1]);
  }
  if (isCurve(cs, dists, total, considered * ASSUMED_LANE_WIDTH, road)) {
    if (total <= SKIPPING_INACCURACIES_DISTANCE) return cs[cs.length - 1];
    cs = trimToLength(cs, 3 * SKIPPING_INACCURACIES_DISTANCE, dists);
    const d2 = dists.slice(0, cs.length);
    while (d2.length < cs.length) d2.push(0);
    d2[d2.length - 1] = distance(cs[cs.length - 2], cs[cs.length - 1]);
    const head = cs[cs.length - 1];
    cs = trimToLength(cs, 2 * SKIPPING_INACCURACIES_DISTANCE, d2);
    return corrected(turn, cs[cs.length - 1], head);
  }
  const trimming = 0.8 * (considered * ASSUMED_LANE_WIDTH);
  const trimmed = trimFront(cs, 0.8 * trimming);
  if (trimmed.length >= 2 && total >= trimming + 2) {
    const r = regressionLine(trimmed);
    if (maxDeviation(trimmed, 0, trimmed.length, r[0], r[1]) < 0.5 * ASSUMED_LANE_WIDTH) return corrected(turn, r[0], r[1]);
  }
  const result = coordinateAtLengthCached(LOOKAHEAD_DISTANCE_WITHOUT_LANES, cs, dists);
  if (!same(result, turn)) return result;
  const other = cs.find((c) => !same(c, turn));
  return other ?? result;
}
