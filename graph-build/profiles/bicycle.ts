// OSRM's bicycle profile (../shared/tools/osrm/profiles/bicycle.lua) in TypeScript: `profile=cycle`.
// The same setup() tables and handlers: class speeds, pushing the bike where riding is not allowed
// (footways, steps, against a oneway), cycleways and opposite lanes, surfaces, ferries, platforms and
// trains; its node function (API version 2) marks barriers and signals.
import type { Obstacle, Profile, Tags, TravelMode, Turn, WayResult } from './types.ts';
import * as H from './lib/way-handlers.ts';
import { findAccessTag, type WayData } from './lib/tags.ts';
import { parseValueSpeed, parseValueMeters } from './lib/measure.ts';
import { parseDuration } from './lib/duration.ts';
import { newWayResult, forwardOpen, backwardOpen } from './lib/result.ts';
import { parseRestriction } from './lib/restrictions.ts';

const set = (...v: string[]): ReadonlySet<string> => new Set(v);
const D = 15, WALK = 4;

export const BICYCLE = {
  weightName: 'duration' as const, defaultMode: 'cycling' as TravelMode, defaultSpeed: D, walkingSpeed: WALK, onewayHandling: true,
  sideRoadMultiplier: 1, speedReduction: 1, laneMarkingsPenalty: 1, vehicleHeight: 0, vehicleWidth: 0, vehicleLength: 0, vehicleWeight: 0,
  leftHandDriving: false, turnPenalty: 6, turnBias: 1.4, usePublicTransport: true, width: undefined as number | undefined, excludeCargoBike: false,
  vehicleMaxSpeed: 21, allowedStartModes: new Set<TravelMode>(['cycling', 'pushing bike']),
  uTurnPenalty: 20, trafficSignalPenalty: 2, modeChangePenalty: 30,
  barrierBlacklist: set('yes', 'wall', 'fence'),
  accessTagWhitelist: set('yes', 'permissive', 'designated'),
  accessTagBlacklist: set('no', 'private', 'agricultural', 'forestry', 'delivery', 'use_sidepath'),
  restrictedAccessTagList: set(), restrictedHighwayWhitelist: set(), serviceAccessTagBlacklist: set(), serviceTagForbidden: set(),
  constructionWhitelist: set('no', 'widening', 'minor'),
  accessTagsHierarchy: ['bicycle', 'vehicle', 'access'], restrictions: ['bicycle'],
  cyclewayTags: set('track', 'lane', 'share_busway', 'sharrow', 'shared', 'shared_lane'),
  oppositeCyclewayTags: set('opposite', 'opposite_lane', 'opposite_track'),
  unsafeHighwayList: { primary: 0.5, secondary: 0.65, tertiary: 0.8, primary_link: 0.5, secondary_link: 0.65, tertiary_link: 0.8 } as Record<string, number>,
  servicePenalties: { alley: 0.5 } as Record<string, number>,
  bicycleSpeeds: { cycleway: D, primary: D, primary_link: D, secondary: D, secondary_link: D, tertiary: D, tertiary_link: D, residential: D,
    unclassified: D, living_street: D, service: D, track: 12, path: 13 } as Record<string, number>,
  pedestrianSpeeds: { footway: WALK, pedestrian: WALK, steps: 2 } as Record<string, number>,
  railwaySpeeds: { train: 10, railway: 10, subway: 10, light_rail: 10, monorail: 10, tram: 10 } as Record<string, number>,
  platformSpeeds: { platform: WALK } as Record<string, number>,
  amenitySpeeds: { parking: 10, parking_entrance: 10 } as Record<string, number>,
  manMadeSpeeds: { pier: WALK } as Record<string, number>,
  routeSpeeds: { ferry: 5 } as Record<string, number>,
  bridgeSpeeds: { movable: 5 } as Record<string, number>,
  surfaceSpeeds: { asphalt: D, chipseal: D, concrete: D, concrete_lanes: D, wood: 10, metal: 10, 'cobblestone:flattened': 10, paving_stones: 10,
    compacted: 10, cobblestone: 7, unpaved: 6, fine_gravel: 10, gravel: 6, pebblestone: 6, grass_paver: 6, ground: 10, dirt: 8, earth: 6, grass: 6,
    mud: 3, sand: 3, woodchips: 3, sett: 9 } as Record<string, number>,
  tracktypeSpeeds: {} as Record<string, number>, smoothnessSpeeds: {} as Record<string, number>,
  classes: ['ferry', 'tunnel'],
  avoid: set('impassable', 'construction', 'proposed', 'motorroad'),
  speeds: {}, maxspeedTableDefault: {}, maxspeedTable: {}, highwayTurnClassification: {}, accessTurnClassification: {},
};
type Cfg = typeof BICYCLE;
const own = H.own;

/** bicycle.lua's per-way state beside the shared handlers' (`data`). */
interface BikeData extends WayData {
  manMade?: string; railway?: string; amenity?: string; publicTransport?: string; access?: string; junction?: string;
  maxspeed: number; maxspeedForward: number; maxspeedBackward: number; onewayBicycle?: string; cycleway?: string;
  cyclewayLeft?: string; cyclewayRight?: string; duration?: string; service?: string; foot?: string; footForward?: string;
  footBackward?: string; bicycle?: string; wayTypeAllowsPushing: boolean; hasCyclewayForward: boolean; hasCyclewayBackward: boolean;
  isTwoway: boolean; reverse: boolean; impliedOneway: boolean;
}

const dur = (s: string | undefined) => (s === undefined ? undefined : parseDuration(s));

function speedHandler(p: Cfg, r: WayResult, d: BikeData) {
  d.wayTypeAllowsPushing = false;
  const bridgeSpeed = own(p.bridgeSpeeds, d.bridge);
  let v: number | undefined;
  if (bridgeSpeed !== undefined && bridgeSpeed > 0) {
    d.highway = d.bridge;
    const x = dur(d.duration);
    if (x !== undefined) r.duration = Math.max(x, 1);
    r.forwardSpeed = r.backwardSpeed = bridgeSpeed;
    d.wayTypeAllowsPushing = true;
  } else if (own(p.routeSpeeds, d.route) !== undefined) {
    r.forwardMode = r.backwardMode = 'ferry';
    const x = dur(d.duration);
    if (x !== undefined) r.duration = Math.max(1, x);
    else r.forwardSpeed = r.backwardSpeed = p.routeSpeeds[d.route!];
  } else if (d.railway !== undefined && (v = own(p.platformSpeeds, d.railway)) !== undefined) {
    r.forwardSpeed = r.backwardSpeed = v; d.wayTypeAllowsPushing = true;
  } else if (d.publicTransport !== undefined && (v = own(p.platformSpeeds, d.publicTransport)) !== undefined) {
    r.forwardSpeed = r.backwardSpeed = v; d.wayTypeAllowsPushing = true;
  } else if (p.usePublicTransport && d.railway !== undefined && own(p.railwaySpeeds, d.railway) !== undefined && d.access !== undefined && p.accessTagWhitelist.has(d.access)) {
    r.forwardMode = r.backwardMode = 'train';
    r.forwardSpeed = r.backwardSpeed = p.railwaySpeeds[d.railway];
  } else if (d.amenity !== undefined && (v = own(p.amenitySpeeds, d.amenity)) !== undefined) {
    r.forwardSpeed = r.backwardSpeed = v; d.wayTypeAllowsPushing = true;
  } else if ((v = own(p.bicycleSpeeds, d.highway)) !== undefined) {
    r.forwardSpeed = r.backwardSpeed = v; d.wayTypeAllowsPushing = true;
  } else if (d.access !== undefined && p.accessTagWhitelist.has(d.access)) {
    r.forwardSpeed = r.backwardSpeed = p.defaultSpeed; d.wayTypeAllowsPushing = true;
  }
}

const YES = (x?: string) => x === 'yes' || x === '1' || x === 'true';
const NO = (x?: string) => x === 'no' || x === '0' || x === 'false';

function onewayHandler(r: WayResult, d: BikeData) {
  d.impliedOneway = d.junction === 'roundabout' || d.junction === 'circular' || d.highway === 'motorway';
  d.reverse = false;
  if (YES(d.onewayBicycle)) r.backwardMode = 'inaccessible';
  else if (NO(d.onewayBicycle)) { /* two-way for bicycles */ }
  else if (d.onewayBicycle === '-1') { r.forwardMode = 'inaccessible'; d.reverse = true; }
  else if (YES(d.oneway)) r.backwardMode = 'inaccessible';
  else if (NO(d.oneway)) { /* two-way */ }
  else if (d.oneway === '-1') { r.forwardMode = 'inaccessible'; d.reverse = true; }
  else if (d.impliedOneway) r.backwardMode = 'inaccessible';
}

function cyclewayHandler(p: Cfg, r: WayResult, d: BikeData) {
  d.hasCyclewayForward = false; d.hasCyclewayBackward = false;
  d.isTwoway = r.forwardMode !== 'inaccessible' && r.backwardMode !== 'inaccessible' && !d.impliedOneway;
  const tag = (x: string | undefined) => x !== undefined && p.cyclewayTags.has(x);
  const opp = (x: string | undefined) => x !== undefined && p.oppositeCyclewayTags.has(x);
  if (d.isTwoway) {
    if (tag(d.cycleway)) { d.hasCyclewayBackward = true; d.hasCyclewayForward = true; }
    if (tag(d.cyclewayRight) || opp(d.cyclewayLeft)) d.hasCyclewayForward = true;
    if (tag(d.cyclewayLeft) || opp(d.cyclewayRight)) d.hasCyclewayBackward = true;
  } else {
    const twoway = opp(d.cycleway) || opp(d.cyclewayRight) || opp(d.cyclewayLeft);
    const opposite = opp(d.cyclewayLeft) || opp(d.cyclewayRight);
    const oneway = tag(d.cycleway) || tag(d.cyclewayRight) || tag(d.cyclewayLeft);
    if (twoway) { d.hasCyclewayBackward = true; d.hasCyclewayForward = true; }
    else if (opposite) { if (!d.reverse) d.hasCyclewayBackward = true; else d.hasCyclewayForward = true; }
    else if (oneway) { if (!d.reverse) d.hasCyclewayForward = true; else d.hasCyclewayBackward = true; }
  }
  if (d.hasCyclewayBackward) { r.backwardMode = 'cycling'; r.backwardSpeed = p.bicycleSpeeds.cycleway; }
  if (d.hasCyclewayForward) { r.forwardMode = 'cycling'; r.forwardSpeed = p.bicycleSpeeds.cycleway; }
}

function widthHandler(p: Cfg, t: Tags, r: WayResult) {
  if (p.excludeCargoBike && t.cargo_bike === 'no') { r.forwardMode = r.backwardMode = 'inaccessible'; }
  if (p.width !== undefined && t.width !== undefined) {
    const w = parseValueMeters(t.width);
    if (w !== undefined && w < p.width) { r.forwardMode = r.backwardMode = 'inaccessible'; }
  }
}

function bikePushHandler(p: Cfg, r: WayResult, d: BikeData) {
  if (r.forwardMode === 'inaccessible' || r.backwardMode === 'inaccessible' || r.forwardSpeed === -1 || r.backwardSpeed === -1) {
    if (d.foot !== 'no') {
      let pf: number | undefined, pb: number | undefined, v: number | undefined;
      if ((v = own(p.pedestrianSpeeds, d.highway)) !== undefined) { pf = pb = v; }
      else if (d.manMade !== undefined && (v = own(p.manMadeSpeeds, d.manMade)) !== undefined) { pf = pb = v; }
      else if (d.foot === 'yes') { pf = p.walkingSpeed; if (!d.impliedOneway) pb = p.walkingSpeed; }
      else if (d.footForward === 'yes') pf = p.walkingSpeed;
      else if (d.footBackward === 'yes') pb = p.walkingSpeed;
      else if (d.wayTypeAllowsPushing) { pf = p.walkingSpeed; if (!d.impliedOneway) pb = p.walkingSpeed; }
      if (pf !== undefined && (r.forwardMode === 'inaccessible' || r.forwardSpeed === -1)) { r.forwardMode = 'pushing bike'; r.forwardSpeed = pf; }
      if (pb !== undefined && (r.backwardMode === 'inaccessible' || r.backwardSpeed === -1)) { r.backwardMode = 'pushing bike'; r.backwardSpeed = pb; }
    }
  }
  if (d.bicycle === 'dismount') {
    r.forwardMode = r.backwardMode = 'pushing bike';
    r.forwardSpeed = r.backwardSpeed = p.walkingSpeed;
  }
}

/** MaxSpeed.limit (lib/maxspeed.lua): a direction's maxspeed, else the way's, caps its speed. */
function limit(r: WayResult, max: number, maxf: number, maxb: number) {
  if (maxf > 0) r.forwardSpeed = Math.min(r.forwardSpeed, maxf); else if (max > 0) r.forwardSpeed = Math.min(r.forwardSpeed, max);
  if (maxb > 0) r.backwardSpeed = Math.min(r.backwardSpeed, maxb); else if (max > 0) r.backwardSpeed = Math.min(r.backwardSpeed, max);
}

const maxspeedOf = (s: string | undefined) => (s === undefined ? 0 : parseValueSpeed(s) ?? 0);

const handleBicycleTags: H.WayHandler = (p0, t, r, d0) => {
  const p = p0 as unknown as Cfg, d = d0 as BikeData;
  d.route = t.route; d.manMade = t.man_made; d.railway = t.railway; d.amenity = t.amenity; d.publicTransport = t.public_transport; d.bridge = t.bridge;
  const empty = (x: string | undefined) => x === undefined || x === '';
  if (empty(d.highway) && empty(d.route) && (!p.usePublicTransport || empty(d.railway)) && empty(d.amenity) && empty(d.manMade)
    && empty(d.publicTransport) && empty(d.bridge)) return false;
  d.access = findAccessTag(t, p.accessTagsHierarchy);
  if (d.access !== undefined && p.accessTagBlacklist.has(d.access)) return false;
  d.junction = t.junction;
  d.maxspeed = maxspeedOf(t.maxspeed); d.maxspeedForward = maxspeedOf(t['maxspeed:forward']); d.maxspeedBackward = maxspeedOf(t['maxspeed:backward']);
  d.oneway = t.oneway; d.onewayBicycle = t['oneway:bicycle'];
  d.cycleway = t.cycleway ?? t['cycleway:both']; d.cyclewayLeft = t['cycleway:left']; d.cyclewayRight = t['cycleway:right'];
  d.duration = t.duration; d.service = t.service; d.foot = t.foot; d.footForward = t['foot:forward']; d.footBackward = t['foot:backward'];
  d.bicycle = t.bicycle;
  speedHandler(p, r, d);
  onewayHandler(r, d);
  cyclewayHandler(p, r, d);
  bikePushHandler(p, r, d);
  widthHandler(p, t, r);
  limit(r, d.maxspeed, d.maxspeedForward, d.maxspeedBackward);
  if (r.forwardSpeed <= 0 && r.duration <= 0) r.forwardMode = 'inaccessible';
  if (r.backwardSpeed <= 0 && r.duration <= 0) r.backwardMode = 'inaccessible';
  // safety_handler: only for weight_name 'cyclability'; this profile weighs by duration
};

const handleCyclewaySeparate: H.WayHandler = (_p, t, r, d0) => {
  const d = d0 as BikeData;
  const cw = d.cycleway ?? t.cycleway, both = t['cycleway:both'], left = d.cyclewayLeft ?? t['cycleway:left'], right = d.cyclewayRight ?? t['cycleway:right'];
  if (cw !== 'separate' && both !== 'separate' && left !== 'separate' && right !== 'separate') return;
  if (t.bicycle !== undefined && ['yes', 'permissive', 'designated', 'destination'].includes(t.bicycle)) return;
  r.forwardMode = r.backwardMode = 'inaccessible';
  return false;
};

const HANDLERS: readonly H.WayHandler[] = [
  H.defaultMode, H.blockedWays, handleBicycleTags, handleCyclewaySeparate, H.surface, H.vehicleSpeedCap,
  H.classification, H.startpoint, H.roundabouts, H.names, H.classes, H.weights,
];

export function bicycleWay(t: Tags): WayResult | null {
  const data = { highway: t.highway, maxspeed: 0, maxspeedForward: 0, maxspeedBackward: 0, wayTypeAllowsPushing: false,
    hasCyclewayForward: false, hasCyclewayBackward: false, isTwoway: true, reverse: false, impliedOneway: false } as BikeData;
  const r = newWayResult();
  r.highway = t.route === 'ferry' ? 'ferry' : t.highway ?? t.route ?? '';
  H.run(BICYCLE as unknown as H.WayProfileConfig, t, r, data, HANDLERS);
  const f = forwardOpen(r), b = backwardOpen(r);
  if (!f && !b) return null;
  if (!f) { r.forwardMode = 'inaccessible'; r.forwardSpeed = -1; r.forwardRate = -1; }
  if (!b) { r.backwardMode = 'inaccessible'; r.backwardSpeed = -1; r.backwardRate = -1; }
  return r;
}

export function bicycleNode(t: Tags): Obstacle[] {
  const out: Obstacle[] = [];
  const crossing = t.highway === 'crossing';
  const access = findAccessTag(t, BICYCLE.accessTagsHierarchy);
  if (access !== undefined && access !== '') {
    if (BICYCLE.accessTagBlacklist.has(access) && !crossing) out.push({ type: 'barrier', direction: 'none', duration: 0, weight: 0 });
  } else if (t.barrier !== undefined && t.barrier !== '') {
    const audibleFence = t.barrier === 'fence' && (t.sensory === 'audible' || t.sensory === 'audio');
    if (BICYCLE.barrierBlacklist.has(t.barrier) && !audibleFence) out.push({ type: 'barrier', direction: 'none', duration: 0, weight: 0 });
  }
  if (BICYCLE.excludeCargoBike && t.cargo_bike === 'no') out.push({ type: 'barrier', direction: 'none', duration: 0, weight: 0 });
  if (BICYCLE.width !== undefined) {
    const w = Math.min(t['maxwidth:physical'] !== undefined ? parseValueMeters(t['maxwidth:physical']) ?? 99 : 99, t.opening !== undefined ? parseValueMeters(t.opening) ?? 99 : 99);
    if (w < BICYCLE.width) out.push({ type: 'barrier', direction: 'none', duration: 0, weight: 0 });
  }
  // lib/traffic_signal.lua: traffic_signals:direction forward / backward, else both ways
  if (t.highway === 'traffic_signals') {
    const dir = t['traffic_signals:direction'];
    out.push({ type: 'traffic_signals', direction: dir === 'forward' ? 'forward' : dir === 'backward' ? 'backward' : 'none', duration: BICYCLE.trafficSignalPenalty, weight: 0 });
  }
  return out;
}

export const bicycle: Profile = {
  name: 'cycle',
  properties: { weightName: 'duration', weightPrecision: 1, maxSpeedForMapMatching: 40 / 3.6, uTurnPenalty: 20, trafficLightPenalty: 2,
    continueStraightAtWaypoint: false, useTurnRestrictions: false, leftHandDriving: false, maxTurnWeight: 0 },
  wayTags: ['highway', 'route', 'man_made', 'railway', 'amenity', 'public_transport', 'bridge', 'bicycle', 'vehicle', 'access', 'junction', 'maxspeed',
    'maxspeed:forward', 'maxspeed:backward', 'oneway', 'oneway:bicycle', 'cycleway', 'cycleway:both', 'cycleway:left', 'cycleway:right', 'duration',
    'service', 'foot', 'foot:forward', 'foot:backward', 'cargo_bike', 'width', 'surface', 'tracktype', 'smoothness', 'area', 'toll', 'construction',
    'proposed', 'impassable', 'status', 'motorroad', 'tunnel', 'lanes', 'lanes:forward', 'lanes:backward', 'name', 'name:pronunciation', 'ref',
    'junction:ref', 'is_sidepath:of:name', 'street:name', 'footway', 'is_sidepath'],
  nodeTags: ['highway', 'bicycle', 'vehicle', 'access', 'barrier', 'sensory', 'cargo_bike', 'maxwidth:physical', 'opening', 'traffic_signals:direction'],
  processNode: bicycleNode,
  processWay: bicycleWay,
  processTurn(turn: Turn) {
    const a = turn.angle / 90;
    turn.duration = a >= 0 ? (a * a * BICYCLE.turnPenalty) / BICYCLE.turnBias : a * a * BICYCLE.turnPenalty * BICYCLE.turnBias;
    if (turn.isUTurn) turn.duration += BICYCLE.uTurnPenalty;
    if (turn.hasTrafficLight) turn.duration += BICYCLE.trafficSignalPenalty;
    if (turn.sourceMode === 'cycling' && turn.targetMode !== 'cycling') turn.weight += BICYCLE.modeChangePenalty;
  },
  parseRestriction: (tags, members) => parseRestriction(tags, members, BICYCLE.restrictions),
};
