// OSRM's foot profile (../shared/tools/osrm/profiles/foot.lua) in TypeScript: `profile=walk`.
// The same setup() tables and handler chain; its node function (API version 2) marks barriers
// and traffic signals, which the build treats as car.ts's obstacles are treated.
import type { Obstacle, Profile, Tags, Turn } from './types.ts';
import * as H from './lib/way-handlers.ts';
import { findAccessTag } from './lib/tags.ts';
import { runWay } from './car.ts';
import { parseRestriction } from './lib/restrictions.ts';

const set = (...v: string[]): ReadonlySet<string> => new Set(v);
const W = 5; // walking_speed

export const FOOT: H.WayProfileConfig & { barrierBlacklist: ReadonlySet<string>; trafficSignalPenalty: number; uTurnPenalty: number } = {
  weightName: 'duration', defaultMode: 'walking', defaultSpeed: W, onewayHandling: 'specific',
  sideRoadMultiplier: 1, speedReduction: 1, laneMarkingsPenalty: 1,
  vehicleHeight: 0, vehicleWidth: 0, vehicleLength: 0, vehicleWeight: 0, leftHandDriving: false,
  barrierBlacklist: set('yes', 'wall', 'fence'),
  accessTagWhitelist: set('yes', 'foot', 'permissive', 'designated'),
  accessTagBlacklist: set('no', 'agricultural', 'forestry', 'private', 'delivery', 'use_sidepath'),
  restrictedAccessTagList: set(), restrictedHighwayWhitelist: set(), constructionWhitelist: set(),
  accessTagsHierarchy: ['foot', 'access'], serviceAccessTagBlacklist: set(), serviceTagForbidden: set(),
  restrictions: ['foot'], classes: [],
  avoid: set('impassable', 'proposed', 'motorroad'),
  speeds: {
    highway: {
      primary: W, primary_link: W, secondary: W, secondary_link: W, tertiary: W, tertiary_link: W, unclassified: W,
      residential: W, living_street: W, service: W, track: W, path: W, steps: W, pedestrian: W, platform: W, footway: W, pier: W,
    },
    railway: { platform: W },
    amenity: { parking: W, parking_entrance: W },
    man_made: { pier: W },
    leisure: { track: W },
  },
  servicePenalties: {}, routeSpeeds: { ferry: 5 }, bridgeSpeeds: {},
  surfaceSpeeds: { fine_gravel: W * 0.75, gravel: W * 0.75, pebblestone: W * 0.75, mud: W * 0.5, sand: W * 0.5 },
  tracktypeSpeeds: {}, smoothnessSpeeds: {}, maxspeedTableDefault: {}, maxspeedTable: {},
  highwayTurnClassification: {}, accessTurnClassification: {},
  trafficSignalPenalty: 2, uTurnPenalty: 2,
};

/** Ways with a separately mapped sidewalk are walked on the sidewalk, unless explicitly open to walkers. */
const sidewalkSeparate: H.WayHandler = (p, t, r, d) => {
  if (t.sidewalk !== 'separate' && t['sidewalk:both'] !== 'separate' && t['sidewalk:left'] !== 'separate' && t['sidewalk:right'] !== 'separate') return;
  if (!(d.forwardAccess !== undefined && !p.accessTagBlacklist.has(d.forwardAccess))) r.forwardMode = 'inaccessible';
  if (!(d.backwardAccess !== undefined && !p.accessTagBlacklist.has(d.backwardAccess))) r.backwardMode = 'inaccessible';
  if (r.forwardMode === 'inaccessible' && r.backwardMode === 'inaccessible') return false;
};

const HANDLERS: readonly H.WayHandler[] = [
  H.defaultMode, H.blockedWays, H.access, sidewalkSeparate, H.oneway, H.destinations, H.ferries, H.movables,
  H.speed, H.surface, H.conveying, H.classification, H.roundabouts, H.startpoint, H.names, H.weights,
];

/** foot.lua's prefetch: a way with none of these tags is not looked at. */
const PREFETCH = ['highway', 'bridge', 'route', 'leisure', 'man_made', 'railway', 'platform', 'amenity', 'public_transport'];

export function footNode(t: Tags): Obstacle[] {
  const out: Obstacle[] = [];
  const access = findAccessTag(t, FOOT.accessTagsHierarchy);
  if (access !== undefined) {
    if (FOOT.accessTagBlacklist.has(access)) out.push({ type: 'barrier', direction: 'none', duration: 0, weight: 0 });
  } else if (t.barrier !== undefined) {
    const rising = t.bollard === 'rising';
    const audibleFence = t.barrier === 'fence' && (t.sensory === 'audible' || t.sensory === 'audio');
    if (FOOT.barrierBlacklist.has(t.barrier) && !rising && !audibleFence) out.push({ type: 'barrier', direction: 'none', duration: 0, weight: 0 });
  }
  if (t.highway === 'traffic_signals') out.push({ type: 'traffic_signals', direction: 'none', duration: FOOT.trafficSignalPenalty, weight: 0 });
  return out;
}

export const foot: Profile = {
  name: 'walk',
  properties: { weightName: 'duration', weightPrecision: 1, maxSpeedForMapMatching: 40 / 3.6, uTurnPenalty: 2, trafficLightPenalty: 2,
    continueStraightAtWaypoint: false, useTurnRestrictions: false, leftHandDriving: false, maxTurnWeight: 0 },
  nameSuffixes: ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW', 'North', 'South', 'West', 'East'],
  wayTags: [...PREFETCH, 'area', 'toll', 'motorroad', 'construction', 'proposed', 'oneway', 'oneway:foot', 'impassable', 'status', 'junction',
    'foot', 'access', 'foot:forward', 'foot:backward', 'access:forward', 'access:backward', 'sidewalk', 'sidewalk:both', 'sidewalk:left', 'sidewalk:right',
    'duration', 'capacity:car', 'surface', 'tracktype', 'smoothness', 'conveying', 'lanes', 'lanes:forward', 'lanes:backward', 'service',
    'name', 'name:pronunciation', 'ref', 'junction:ref', 'is_sidepath:of:name', 'street:name', 'footway', 'cycleway', 'is_sidepath',
    'destination', 'destination:ref', 'destination:street', 'destination:forward', 'destination:backward'],
  nodeTags: ['foot', 'access', 'barrier', 'bollard', 'sensory', 'highway'],
  processNode: footNode,
  processWay: (t) => runWay(FOOT, HANDLERS, t, PREFETCH),
  processTurn(turn: Turn) {
    turn.duration = 0;
    if (turn.isUTurn) turn.duration += FOOT.uTurnPenalty;
    if (turn.hasTrafficLight) turn.duration = FOOT.trafficSignalPenalty;
    turn.weight = turn.duration;
  },
  parseRestriction: (tags, members) => parseRestriction(tags, members, FOOT.restrictions),
};
