// OSRM's car profile (../shared/tools/osrm/profiles/car.lua, OSRM v26.4.1) in TypeScript: the same
// setup() tables, the same way handlers in the same order, the same node and turn functions.
// `profile=driving` and the /osrm/ layer use it. A difference from the Lua is a bug.
import type { Obstacle, Profile, ProfileProperties, Tags, TurnRestriction, Turn, WayResult } from './types.ts';
import * as H from './lib/way-handlers.ts';
import { findAccessTag } from './lib/tags.ts';
import { maxHeight } from './lib/measure.ts';
import { highwayObstacles } from './lib/obstacles.ts';
import { newWayResult, forwardOpen, backwardOpen } from './lib/result.ts';
import type { WayData } from './lib/tags.ts';
import { parseRestriction } from './lib/restrictions.ts';

const set = (...v: string[]): ReadonlySet<string> => new Set(v);

/** car.lua's setup(), field by field. */
export const CAR: H.WayProfileConfig & {
  barrierWhitelist: ReadonlySet<string>;
  barrierPenalties: Record<string, number>;
  turnPenalty: number;
  turnBias: number;
  properties: ProfileProperties;
} = {
  properties: {
    weightName: 'routability', weightPrecision: 1, maxSpeedForMapMatching: 180 / 3.6, uTurnPenalty: 20,
    // process_node's Obstacles: car.lua sets no traffic_signal_penalty, so 2 s per signal
    trafficLightPenalty: 2, continueStraightAtWaypoint: true, useTurnRestrictions: true, leftHandDriving: false,
    // constants.max_turn_weight as the Lua sees it (std::numeric_limits<TurnPenalty>::max())
    maxTurnWeight: 32767,
  },
  weightName: 'routability',
  defaultMode: 'driving',
  defaultSpeed: 10,
  onewayHandling: true,
  sideRoadMultiplier: 0.8,
  turnPenalty: 7.5,
  speedReduction: 0.8,
  turnBias: 1.075,
  laneMarkingsPenalty: 0.75,
  vehicleHeight: 2.0,
  vehicleWidth: 1.9,
  vehicleLength: 4.8,
  vehicleWeight: 2000,
  vehicleMaxSpeed: undefined,
  leftHandDriving: false,
  barrierWhitelist: set('cattle_grid', 'border_control', 'toll_booth', 'sally_port', 'no', 'entrance', 'height_restrictor', 'arch'),
  accessTagWhitelist: set('yes', 'motorcar', 'motor_vehicle', 'vehicle', 'permissive', 'designated', 'hov'),
  accessTagBlacklist: set('no', 'agricultural', 'forestry', 'emergency', 'psv', 'taxi', 'share_taxi', 'minibus', 'bus', 'customers', 'private', 'delivery', 'destination'),
  serviceAccessTagBlacklist: set('private'),
  restrictedAccessTagList: set('private', 'delivery', 'destination', 'customers'),
  accessTagsHierarchy: ['motorcar', 'motor_vehicle', 'vehicle', 'access'],
  serviceTagForbidden: set('emergency_access'),
  restrictions: ['motorcar', 'motor_vehicle', 'vehicle'],
  classes: ['toll', 'motorway', 'ferry', 'restricted', 'tunnel'],
  avoid: set('area', 'reversible', 'impassable', 'hov_lanes', 'steps', 'construction', 'proposed'),
  speeds: {
    highway: {
      motorway: 90, motorway_link: 45, trunk: 85, trunk_link: 40, primary: 65, primary_link: 30, secondary: 55,
      secondary_link: 25, tertiary: 40, tertiary_link: 20, unclassified: 25, residential: 25, living_street: 10,
      service: 15, winter_road: 20, ice_road: 15,
    },
  },
  servicePenalties: { alley: 0.5, parking: 0.5, parking_aisle: 0.5, driveway: 0.5, 'drive-through': 0.5, 'drive-thru': 0.5 },
  barrierPenalties: { gate: 60, lift_gate: 60 },
  restrictedHighwayWhitelist: set('motorway', 'motorway_link', 'trunk', 'trunk_link', 'primary', 'primary_link', 'secondary', 'secondary_link',
    'tertiary', 'tertiary_link', 'residential', 'living_street', 'unclassified', 'service'),
  constructionWhitelist: set('no', 'widening', 'minor'),
  routeSpeeds: { ferry: 5, shuttle_train: 10 },
  bridgeSpeeds: { movable: 5 },
  surfaceSpeeds: {
    cement: 80, compacted: 80, fine_gravel: 80, paving_stones: 60, metal: 60, bricks: 60, grass: 40, wood: 40, sett: 40,
    grass_paver: 40, gravel: 40, unpaved: 40, ground: 40, dirt: 40, pebblestone: 40, tartan: 40, cobblestone: 30, clay: 30,
    earth: 20, stone: 20, rocky: 20, sand: 20, mud: 10, ice: 20, snow: 30,
  },
  tracktypeSpeeds: { grade1: 60, grade2: 40, grade3: 30, grade4: 25, grade5: 20 },
  smoothnessSpeeds: { intermediate: 80, bad: 40, very_bad: 20, horrible: 10, very_horrible: 5, impassable: 0 },
  maxspeedTableDefault: { urban: 50, rural: 90, trunk: 110, motorway: 130 },
  maxspeedTable: {
    'at:rural': 100, 'at:trunk': 100, 'ar:urban': 40, 'ar:rural': 110, 'be:motorway': 120, 'be-bru:rural': 70, 'be-bru:urban': 30,
    'be-vlg:rural': 70, 'bg:motorway': 140, 'by:urban': 60, 'by:motorway': 110, 'ca-on:rural': 80, 'ch:rural': 80, 'ch:trunk': 100,
    'ch:motorway': 120, 'de:living_street': 7, 'de:rural': 100, 'de:motorway': 0, 'dk:rural': 80, 'es:trunk': 90, 'fr:rural': 80,
    'gb:nsl_single': (60 * 1609) / 1000, 'gb:nsl_dual': (70 * 1609) / 1000, 'gb:motorway': (70 * 1609) / 1000, 'lv:living_street': 20,
    'nl:rural': 80, 'nl:trunk': 100, 'no:rural': 80, 'no:motorway': 110, 'ph:urban': 40, 'ph:rural': 80, 'ph:motorway': 100,
    'pl:rural': 100, 'pl:expressway': 120, 'pl:motorway': 140, 'ro:trunk': 100, 'ru:living_street': 20, 'ru:urban': 60,
    'ru:motorway': 110, 'uk:nsl_single': (60 * 1609) / 1000, 'uk:nsl_dual': (70 * 1609) / 1000, 'uk:motorway': (70 * 1609) / 1000,
    'za:urban': 60, 'za:rural': 100, none: 140,
  },
  highwayTurnClassification: {},
  accessTurnClassification: {},
};

/** car.lua's handler chain, in its order. */
const HANDLERS: readonly H.WayHandler[] = [
  H.defaultMode, H.blockedWays, H.avoidWays, H.handleHeight, H.handleWidth, H.handleLength, H.handleWeight,
  H.access, H.oneway, H.destinations, H.ferries, H.movables, H.service, H.hov,
  H.speed, H.maxspeed, H.surface, H.vehicleSpeedCap, H.penalties,
  H.classes, H.classification, H.roundabouts, H.startpoint, H.drivingSide, H.names, H.weights, H.wayClassificationForTurn,
];

/**
 * process_way with a handler chain (car.lua's, or an operator's variant of it), then OSRM's
 * extractor test: null when neither direction can be travelled; a closed direction reads
 * 'inaccessible' with speed -1.
 */
export function runWay(cfg: H.WayProfileConfig, handlers: readonly H.WayHandler[], t: Tags, prefetch?: readonly string[]): WayResult | null {
  const data: WayData = { highway: t.highway, bridge: t.bridge, route: t.route };
  // car.lua: a highway or route value; foot.lua and bicycle.lua: any of their prefetched keys
  if (prefetch ? !prefetch.some((k) => t[k] !== undefined)
    : (data.highway === undefined || data.highway === '') && (data.route === undefined || data.route === '')) return null;
  const r = newWayResult();
  r.highway = data.route === 'ferry' ? 'ferry' : data.highway ?? data.route ?? '';
  H.run(cfg, t, r, data, handlers);
  const f = forwardOpen(r), b = backwardOpen(r);
  if (!f && !b) return null;
  if (!f) { r.forwardMode = 'inaccessible'; r.forwardSpeed = -1; r.forwardRate = -1; }
  if (!b) { r.backwardMode = 'inaccessible'; r.backwardSpeed = -1; r.backwardRate = -1; }
  return r;
}

/** car.lua process_node: barriers (blocking), gates (60 s), node access, then signals and signs. */
export function carNode(cfg: typeof CAR, t: Tags): Obstacle[] {
  const out: Obstacle[] = [];
  const access = findAccessTag(t, cfg.accessTagsHierarchy);
  if (access !== undefined) {
    if (cfg.accessTagBlacklist.has(access) && !cfg.restrictedAccessTagList.has(access)) out.push({ type: 'barrier', direction: 'none', duration: 0, weight: 0 });
  } else {
    const barrier = t.barrier;
    if (barrier !== undefined) {
      let byHeight = false;
      if (barrier === 'height_restrictor') { const h = maxHeight(t.maxheight); byHeight = h !== undefined && h < cfg.vehicleHeight; }
      const rising = t.bollard === 'rising';
      const flatKerb = t.kerb === 'lowered' || t.kerb === 'flush';
      const crossingKerb = barrier === 'kerb' && t.highway === 'crossing';
      const audibleFence = barrier === 'fence' && (t.sensory === 'audible' || t.sensory === 'audio');
      const penalty = H.own(cfg.barrierPenalties, barrier);
      if ((!cfg.barrierWhitelist.has(barrier) && !rising && !flatKerb && !crossingKerb && !audibleFence && penalty === undefined) || byHeight) {
        out.push({ type: 'barrier', direction: 'none', duration: 0, weight: 0 });
      }
      if (penalty !== undefined) out.push({ type: 'gate', direction: 'both', duration: penalty, weight: 0 });
    }
  }
  out.push(...highwayObstacles(t, cfg.properties.trafficLightPenalty));
  return out;
}

/** car.lua process_turn. `minorEntry` says whether the source is a minor road (Obstacles.entering_by_minor_road). */
export function carTurn(cfg: typeof CAR, turn: Turn): void {
  const bias = turn.isLeftHandDriving ? 1 / cfg.turnBias : cfg.turnBias;
  for (const obs of turn.obstacles) {
    if (obs.type === 'stop_minor' && !enteringByMinorRoad(turn)) continue;
    // a stop sign without a direction, 20 m or more before a plain bend, belongs to the other end
    if (turn.numberOfRoads === 2 && obs.type === 'stop' && obs.direction === 'none' && turn.sourceRoad.distance < 20 && turn.targetRoad.distance > 20) continue;
    turn.duration += obs.duration;
  }
  if (turn.numberOfRoads > 2 || turn.sourceMode !== turn.targetMode || turn.isUTurn) {
    if (turn.angle >= 0) turn.duration += cfg.turnPenalty / (1 + Math.exp(-(((13 / bias) * turn.angle) / 180 - 6.5 * bias)));
    else turn.duration += cfg.turnPenalty / (1 + Math.exp(-(((13 * bias) * -turn.angle) / 180 - 6.5 / bias)));
    if (turn.isUTurn) turn.duration += cfg.properties.uTurnPenalty;
  }
  turn.weight = cfg.properties.weightName === 'distance' ? 0 : turn.duration;
  if (cfg.properties.weightName === 'routability' && !turn.sourceRestricted && turn.targetRestricted) turn.weight = cfg.properties.maxTurnWeight;
}

function enteringByMinorRoad(turn: Turn): boolean {
  let max = turn.targetSpeed;
  for (const l of turn.roadsOnTheRight) max = Math.max(max, l.speed);
  for (const l of turn.roadsOnTheLeft) max = Math.max(max, l.speed);
  return max > turn.sourceSpeed;
}

/** Way tag keys car.lua reads (the OSM reader keeps only these and the guidance ones). */
export const CAR_WAY_TAGS = [
  'highway', 'bridge', 'route', 'area', 'toll', 'railway', 'motorroad', 'construction', 'proposed', 'oneway', 'impassable', 'status',
  'maxheight:physical', 'maxheight', 'maxwidth:physical', 'maxwidth', 'width', 'est_width', 'narrow', 'maxlength', 'maxweightrating', 'maxweight',
  'motorcar', 'motor_vehicle', 'vehicle', 'access', 'oneway:motorcar', 'oneway:motor_vehicle', 'oneway:vehicle', 'junction',
  'destination', 'destination:ref', 'destination:street', 'duration', 'capacity:car', 'service', 'hov', 'hov:lanes',
  'maxspeed:advisory', 'maxspeed', 'source:maxspeed', 'maxspeed:type', 'surface', 'tracktype', 'smoothness', 'lanes', 'lanes:forward', 'lanes:backward',
  'lane_markings', 'side_road', 'tunnel', 'driving_side', 'name', 'name:pronunciation', 'ref', 'junction:ref',
] as const;
/** `key:forward` / `key:backward` forms of the keys read per direction. */
const DIRECTIONAL = ['motorcar', 'motor_vehicle', 'vehicle', 'access', 'maxheight:physical', 'maxheight', 'maxwidth:physical', 'maxwidth', 'width', 'est_width',
  'maxlength', 'maxweightrating', 'maxweight', 'maxspeed:advisory', 'maxspeed', 'source:maxspeed', 'maxspeed:type', 'hov:lanes', 'toll', 'route',
  'destination', 'destination:ref', 'destination:street'];

export const CAR_NODE_TAGS = ['barrier', 'highway', 'motorcar', 'motor_vehicle', 'vehicle', 'access', 'maxheight', 'bollard', 'kerb', 'sensory',
  'direction', 'traffic_signals:direction', 'stop'] as const;

export function makeCarProfile(name: string, cfg: typeof CAR, handlers: readonly H.WayHandler[] = HANDLERS): Profile {
  return {
    name,
    properties: cfg.properties,
    nameSuffixes: ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW', 'North', 'South', 'West', 'East', 'Nor', 'Sou', 'We', 'Ea'],
    wayTags: [...CAR_WAY_TAGS, ...DIRECTIONAL.flatMap((k) => [k + ':forward', k + ':backward'])],
    nodeTags: CAR_NODE_TAGS,
    processNode: (t) => carNode(cfg, t),
    processWay: (t) => runWay(cfg, handlers, t),
    processTurn: (turn) => carTurn(cfg, turn),
    parseRestriction: (tags, members): TurnRestriction[] => parseRestriction(tags, members, cfg.restrictions),
  };
}

export const car: Profile = makeCarProfile('driving', CAR);
export { HANDLERS as CAR_HANDLERS };
