// What a routing profile decides, as OSRM's Lua profiles decide it (../shared/tools/osrm/profiles):
// per way (process_way → ExtractionWay), per tagged node (process_node → obstacles) and per turn
// (process_turn → ExtractionTurn). The profiles are pure functions of OSM tags and turn geometry;
// graph-build/contract turns their answers into weighted segments, an edge-based graph and turns.
// Field names follow OSRM's C++ structs (camelCased) so the Lua and the C++ read across directly.

export type Tags = Record<string, string>;

/** OSRM's travel modes (include/extractor/travel_mode.hpp), by the names its API prints. */
export type TravelMode =
  | 'inaccessible' | 'driving' | 'cycling' | 'walking' | 'ferry' | 'train' | 'pushing bike'
  | 'steps up' | 'steps down' | 'river upstream' | 'river downstream' | 'route';

/** OSRM's RoadPriorityClass (include/extractor/road_classification.hpp). */
export const PRIORITY = {
  MOTORWAY: 0, MOTORWAY_LINK: 1, TRUNK: 2, TRUNK_LINK: 3, PRIMARY: 4, PRIMARY_LINK: 5, SECONDARY: 6,
  SECONDARY_LINK: 7, TERTIARY: 8, TERTIARY_LINK: 9, MAIN_RESIDENTIAL: 10, SIDE_RESIDENTIAL: 11, ALLEY: 12,
  PARKING: 13, LINK_ROAD: 14, UNCLASSIFIED: 15, BIKE_PATH: 16, FOOT_PATH: 18, CONNECTIVITY: 31,
} as const;

export interface RoadClassification {
  motorwayClass: boolean;
  linkClass: boolean;
  /** may_be_ignored: a low-priority road guidance may leave out of an intersection */
  mayBeIgnored: boolean;
  /** a PRIORITY value */
  priority: number;
  numLanes: number;
}

/** ExtractionWay: how one way is travelled; a direction whose mode is 'inaccessible' is closed. */
export interface WayResult {
  forwardMode: TravelMode;
  backwardMode: TravelMode;
  /** km/h; -1 when unset */
  forwardSpeed: number;
  backwardSpeed: number;
  /** weight per metre's worth of travel as OSRM's `rate` (weight = distance / rate); -1 when unset */
  forwardRate: number;
  backwardRate: number;
  /** seconds / weight of the whole way in either direction (ferries with `duration=`); -1 when unset */
  duration: number;
  weight: number;
  name: string;
  forwardRef: string;
  backwardRef: string;
  pronunciation: string;
  destinations: string;
  exits: string;
  turnLanesForward: string;
  turnLanesBackward: string;
  roadClassification: RoadClassification;
  roundabout: boolean;
  circular: boolean;
  /** a waypoint may snap to this way (false on ferries, …) */
  isStartpoint: boolean;
  /** destination-only and similar: entering it from an unrestricted road costs max_turn_weight */
  forwardRestricted: boolean;
  backwardRestricted: boolean;
  isLeftHandDriving: boolean;
  /** the profile's `classes` this way belongs to in each direction (e.g. 'toll', 'motorway', 'ferry') */
  forwardClasses: string[];
  backwardClasses: string[];
  highwayTurnClassification: number;
  accessTurnClassification: number;
  /** the way's highway value (or 'ferry' / route value), kept for guidance and answers */
  highway: string;
}

export type ObstacleType =
  | 'barrier' | 'traffic_signals' | 'stop' | 'give_way' | 'crossing' | 'traffic_calming'
  | 'mini_roundabout' | 'turning_loop' | 'turning_circle' | 'stop_minor' | 'gate';

/** Relative to the way the node lies on: 'forward' binds only traffic moving along the way's node order. */
export type ObstacleDirection = 'none' | 'forward' | 'backward' | 'both';

/** One obstacle at a node (include/extractor/obstacles.hpp): duration in seconds, weight in weight units. */
export interface Obstacle {
  type: ObstacleType;
  direction: ObstacleDirection;
  duration: number;
  weight: number;
}

/** ExtractionTurnLeg: one road at the turn's intersection. */
export interface TurnLeg {
  isRestricted: boolean;
  isMotorway: boolean;
  isLink: boolean;
  numberOfLanes: number;
  highwayTurnClassification: number;
  accessTurnClassification: number;
  /** km/h, as OSRM computes it from the edge's distance and duration (an integer) */
  speed: number;
  /** metres */
  distance: number;
  priorityClass: number;
  isIncoming: boolean;
  isOutgoing: boolean;
}

/**
 * ExtractionTurn: the turn from the source road into the target road at node `via`. `angle` is
 * OSRM's: 0 straight on, positive to the right… exactly as `turn.angle` reads in car.lua (180 − the
 * intersection's angle). The profile sets `duration` (seconds) and `weight`.
 */
export interface Turn {
  angle: number;
  numberOfRoads: number;
  isUTurn: boolean;
  hasTrafficLight: boolean;
  isLeftHandDriving: boolean;
  sourceRestricted: boolean;
  sourceMode: TravelMode;
  sourceIsMotorway: boolean;
  sourceIsLink: boolean;
  sourceNumberOfLanes: number;
  sourceHighwayTurnClassification: number;
  sourceAccessTurnClassification: number;
  sourceSpeed: number;
  sourcePriorityClass: number;
  targetRestricted: boolean;
  targetMode: TravelMode;
  targetIsMotorway: boolean;
  targetIsLink: boolean;
  targetNumberOfLanes: number;
  targetHighwayTurnClassification: number;
  targetAccessTurnClassification: number;
  targetSpeed: number;
  targetPriorityClass: number;
  sourceRoad: TurnLeg;
  targetRoad: TurnLeg;
  roadsOnTheRight: TurnLeg[];
  roadsOnTheLeft: TurnLeg[];
  /** obstacles at `via` that bind traffic arriving from the source road (obstacle_map:get(from, via)) */
  obstacles: Obstacle[];
  duration: number;
  weight: number;
}

export interface ProfileProperties {
  weightName: 'routability' | 'duration' | 'distance';
  /** decimal places weights are stored with (OSRM: weight_precision, 1 by default) */
  weightPrecision: number;
  maxSpeedForMapMatching: number;
  uTurnPenalty: number;
  trafficLightPenalty: number;
  continueStraightAtWaypoint: boolean;
  useTurnRestrictions: boolean;
  leftHandDriving: boolean;
  /** OSRM's constants.max_turn_weight, in weight units */
  maxTurnWeight: number;
}

/** One OSM turn restriction, as OSRM's restriction parser keeps it for a profile. */
export interface TurnRestriction {
  /** OSM way ids */
  from: number;
  to: number;
  /** via a node (OSM node id) … */
  viaNode?: number;
  /** … or via one or more ways (OSM way ids, in order from `from` to `to`) */
  viaWays?: number[];
  /** only_*: the only way out of `from` through the via; no_*: this way out is forbidden */
  only: boolean;
}

export interface Profile {
  /** svc's name for it: 'driving' (car.lua), 'walk' (foot.lua), 'cycle' (bicycle.lua) */
  name: string;
  properties: ProfileProperties;
  /** The profile's suffix_list: name parts ("N", "West"…) whose change alone is no new name (guidance, merging dual carriageways). */
  nameSuffixes?: readonly string[];
  /** Way tag keys the profile reads (the OSM reader may drop every other). */
  wayTags: readonly string[];
  /** Node tag keys the profile reads; a node with none of them never reaches processNode. */
  nodeTags: readonly string[];
  /** The obstacles at a tagged node (barriers, signals, gates, stops…); [] when none. */
  processNode(tags: Tags): Obstacle[];
  /** The way's result, or null when no mode may use it in either direction. */
  processWay(tags: Tags): WayResult | null;
  /** Sets turn.duration and turn.weight. */
  processTurn(turn: Turn): void;
  /**
   * The restrictions a relation means for this profile: none when it is not one, another vehicle's,
   * excepted by `except=`, no_*_on_red, conditional or malformed; one per from/to pair of a no_entry
   * / no_exit. `members` in relation order.
   */
  parseRestriction(tags: Tags, members: { type: 'node' | 'way' | 'relation'; ref: number; role: string }[]): TurnRestriction[];
}
