// The way handlers of OSRM's profiles/lib/way_handlers.lua, one function each, in the same order
// and with the same early exits: a handler returning false stops the chain (the way is then not
// routable, or routable only as far as the handlers before it decided).
import type { Tags, TravelMode, WayResult } from '../types.ts';
import { canonicalizeStringList, forwardBackwardByKey, forwardBackwardBySet, valueByPrefixedSequence, type WayData } from './tags.ts';
import { leadingNumber, maxHeight, maxLength, maxWeight, maxWidth, parseValueSpeed } from './measure.ts';
import { parseDuration } from './duration.ts';
import { setClassification } from './guidance.ts';

/** The parts of a profile's setup() the handlers read. */
export interface WayProfileConfig {
  weightName: 'routability' | 'duration' | 'distance';
  defaultMode: TravelMode;
  defaultSpeed: number;
  onewayHandling: boolean | 'specific' | 'conditional';
  sideRoadMultiplier: number;
  speedReduction: number;
  laneMarkingsPenalty: number;
  vehicleHeight: number;
  vehicleWidth: number;
  vehicleLength: number;
  vehicleWeight: number;
  vehicleMaxSpeed?: number;
  /** modes a waypoint may start in (bicycle.lua: cycling and pushing); default: the default mode only */
  allowedStartModes?: ReadonlySet<TravelMode>;
  leftHandDriving: boolean;
  accessTagWhitelist: ReadonlySet<string>;
  accessTagBlacklist: ReadonlySet<string>;
  serviceAccessTagBlacklist: ReadonlySet<string>;
  restrictedAccessTagList: ReadonlySet<string>;
  accessTagsHierarchy: readonly string[];
  serviceTagForbidden: ReadonlySet<string>;
  restrictions: readonly string[];
  classes: readonly string[];
  avoid: ReadonlySet<string>;
  speeds: Record<string, Record<string, number>>;
  servicePenalties: Record<string, number>;
  restrictedHighwayWhitelist: ReadonlySet<string>;
  constructionWhitelist: ReadonlySet<string>;
  routeSpeeds: Record<string, number>;
  bridgeSpeeds: Record<string, number>;
  surfaceSpeeds: Record<string, number>;
  tracktypeSpeeds: Record<string, number>;
  smoothnessSpeeds: Record<string, number>;
  maxspeedTableDefault: Record<string, number>;
  maxspeedTable: Record<string, number>;
  highwayTurnClassification: Record<string, number>;
  accessTurnClassification: Record<string, number>;
}

/** table[key] when the table has that key itself (never an Object.prototype member such as "constructor"). */
export const own = <T>(table: Record<string, T>, key: string | undefined): T | undefined =>
  key !== undefined && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;

export type WayHandler = (p: WayProfileConfig, t: Tags, r: WayResult, d: WayData) => boolean | void;

export function run(p: WayProfileConfig, t: Tags, r: WayResult, d: WayData, handlers: readonly WayHandler[]): boolean {
  for (const h of handlers) if (h(p, t, r, d) === false) return false;
  return true;
}

export const defaultMode: WayHandler = (p, _t, r) => { r.forwardMode = p.defaultMode; r.backwardMode = p.defaultMode; };

export const names: WayHandler = (_p, t, r) => {
  const name = t.name;
  if (name !== undefined) r.name = name;
  else {
    const side = t['is_sidepath:of:name'] ?? t['street:name'];
    if (side !== undefined && (t.highway === 'footway' || t.highway === 'cycleway' || t.highway === 'path')
      && (t.footway === 'sidewalk' || t.cycleway === 'sidepath' || t.is_sidepath === 'yes')) r.name = side;
  }
  if (t.ref !== undefined) { r.forwardRef = canonicalizeStringList(t.ref, ';'); r.backwardRef = r.forwardRef; }
  if (t['name:pronunciation'] !== undefined) r.pronunciation = t['name:pronunciation'];
  if (t['junction:ref'] !== undefined) r.exits = canonicalizeStringList(t['junction:ref'], ';');
};

export const roundabouts: WayHandler = (_p, t, r) => {
  if (t.junction === 'roundabout') r.roundabout = true;
  if (t.junction === 'circular') r.circular = true;
};

export const startpoint: WayHandler = (p, _t, r, d) => {
  r.isStartpoint = p.allowedStartModes ? p.allowedStartModes.has(r.forwardMode) || p.allowedStartModes.has(r.backwardMode)
    : r.forwardMode === p.defaultMode || r.backwardMode === p.defaultMode;
  if (d.highway === 'service' && d.forwardAccess !== undefined && p.serviceAccessTagBlacklist.has(d.forwardAccess)) r.isStartpoint = false;
};

export const classification: WayHandler = (_p, t, r, d) => { setClassification(d.highway, r.roadClassification, t); };

function directional(t: Tags, forward: boolean, tag: string): string | undefined {
  const v = t[tag + (forward ? ':forward' : ':backward')] ?? t[tag];
  return v === undefined ? undefined : v.replace(/;/g, ', ');
}
/** "A59: Düsseldorf, Köln" from destination:ref and destination (lib/destination.lua). */
export function getDestination(t: Tags, forward: boolean): string {
  const ref = directional(t, forward, 'destination:ref'), dest = directional(t, forward, 'destination');
  const street = directional(t, forward, 'destination:street');
  if (ref !== undefined && dest !== undefined) return ref + ': ' + dest;
  return ref ?? dest ?? street ?? '';
}

export const destinations: WayHandler = (_p, t, r, d) => {
  if (d.isForwardOneway || d.isReverseOneway) r.destinations = canonicalizeStringList(getDestination(t, !!d.isForwardOneway), ',');
};

export const ferries: WayHandler = (p, t, r, d) => {
  const route = d.route;
  if (route === undefined) return;
  const speed = own(p.routeSpeeds, route);
  if (speed !== undefined && speed > 0) {
    const dur = t.duration !== undefined ? parseDuration(t.duration) : undefined;
    if (dur !== undefined) r.duration = Math.max(dur, 1);
    r.forwardMode = 'ferry'; r.backwardMode = 'ferry';
    r.forwardSpeed = speed; r.backwardSpeed = speed;
  }
};

export const movables: WayHandler = (p, t, r, d) => {
  const bridge = d.bridge;
  if (bridge === undefined) return;
  const speed = own(p.bridgeSpeeds, bridge);
  // capacity:car is a string in Lua, so `~= 0` always holds
  if (speed !== undefined && speed > 0) {
    r.forwardMode = p.defaultMode; r.backwardMode = p.defaultMode;
    const dur = t.duration !== undefined ? parseDuration(t.duration) : undefined;
    if (dur !== undefined) r.duration = Math.max(dur, 1);
    else { r.forwardSpeed = speed; r.backwardSpeed = speed; }
  }
};

export const service: WayHandler = (p, t, r) => {
  const s = t.service;
  if (s !== undefined && p.serviceTagForbidden.has(s)) { r.forwardMode = 'inaccessible'; r.backwardMode = 'inaccessible'; return false; }
};

const allDesignated = (lanes: string | undefined) => lanes !== undefined && (lanes + '|').split('|').slice(0, -1).every((l) => l === 'designated');

export const hov: WayHandler = (p, t, r, d) => {
  if (!p.avoid.has('hov_lanes')) return;
  if (t.hov === 'designated') { r.forwardRestricted = true; r.backwardRestricted = true; }
  const [f, b] = forwardBackwardByKey(t, d, 'hov:lanes');
  const af = allDesignated(f), ab = allDesignated(b);
  if (p.weightName === 'routability') {
    if (af) r.forwardRestricted = true;
    if (ab) r.backwardRestricted = true;
    return;
  }
  if (af) r.forwardMode = 'inaccessible';
  if (ab) r.backwardMode = 'inaccessible';
};

export const wayClassificationForTurn: WayHandler = (p, t, r) => {
  r.highwayTurnClassification = own(p.highwayTurnClassification, t.highway) ?? r.highwayTurnClassification;
  r.accessTurnClassification = own(p.accessTurnClassification, t.access) ?? r.accessTurnClassification;
};

export const access: WayHandler = (p, t, r, d) => {
  [d.forwardAccess, d.backwardAccess] = forwardBackwardBySet(t, p.accessTagsHierarchy);
  if (d.highway !== undefined && p.restrictedHighwayWhitelist.has(d.highway)) {
    if (d.forwardAccess !== undefined && p.restrictedAccessTagList.has(d.forwardAccess)) r.forwardRestricted = true;
    if (d.backwardAccess !== undefined && p.restrictedAccessTagList.has(d.backwardAccess)) r.backwardRestricted = true;
  }
  if (d.forwardAccess !== undefined && p.accessTagBlacklist.has(d.forwardAccess) && !r.forwardRestricted) r.forwardMode = 'inaccessible';
  if (d.backwardAccess !== undefined && p.accessTagBlacklist.has(d.backwardAccess) && !r.backwardRestricted) r.backwardMode = 'inaccessible';
  if (r.forwardMode === 'inaccessible' && r.backwardMode === 'inaccessible') return false;
};

/** Tags.get_constant_by_key_value: the first key of `lookup` whose value on the way has a constant. */
function constantByKeyValue(t: Tags, lookup: Record<string, Record<string, number>>): number | undefined {
  for (const key of Object.keys(lookup)) {
    const v = t[key];
    if (v !== undefined && Object.prototype.hasOwnProperty.call(lookup[key], v)) return lookup[key][v];
  }
  return undefined;
}

export const speed: WayHandler = (p, t, r, d) => {
  if (r.forwardSpeed !== -1) return; // already set, e.g. by a route
  const s = constantByKeyValue(t, p.speeds);
  if (s !== undefined) { r.forwardSpeed = s; r.backwardSpeed = s; }
  else {
    const fa = d.forwardAccess, ba = d.backwardAccess;
    if (fa !== undefined && p.accessTagWhitelist.has(fa)) r.forwardSpeed = p.defaultSpeed;
    else if (fa !== undefined && !p.accessTagBlacklist.has(fa)) r.forwardSpeed = p.defaultSpeed;
    else if (fa === undefined && ba !== undefined) r.forwardMode = 'inaccessible';
    if (ba !== undefined && p.accessTagWhitelist.has(ba)) r.backwardSpeed = p.defaultSpeed;
    else if (ba !== undefined && !p.accessTagBlacklist.has(ba)) r.backwardSpeed = p.defaultSpeed;
    else if (ba === undefined && fa !== undefined) r.backwardMode = 'inaccessible';
  }
  if (r.forwardSpeed === -1 && r.backwardSpeed === -1 && r.duration <= 0) return false;
};

export const classes: WayHandler = (p, t, r, d) => {
  if (!p.classes.length) return;
  const allowed = new Set(p.classes);
  const [ft, bt] = forwardBackwardByKey(t, d, 'toll');
  const [fr, br] = forwardBackwardByKey(t, d, 'route');
  const add = (list: string[], c: string) => { if (!list.includes(c)) list.push(c); };
  if (allowed.has('tunnel') && t.tunnel !== undefined && t.tunnel !== 'no') { add(r.forwardClasses, 'tunnel'); add(r.backwardClasses, 'tunnel'); }
  if (allowed.has('toll') && ft === 'yes') add(r.forwardClasses, 'toll');
  if (allowed.has('toll') && bt === 'yes') add(r.backwardClasses, 'toll');
  if (allowed.has('ferry') && fr === 'ferry') add(r.forwardClasses, 'ferry');
  if (allowed.has('ferry') && br === 'ferry') add(r.backwardClasses, 'ferry');
  if (allowed.has('restricted') && r.forwardRestricted) add(r.forwardClasses, 'restricted');
  if (allowed.has('restricted') && r.backwardRestricted) add(r.backwardClasses, 'restricted');
  if (allowed.has('motorway') && (d.highway === 'motorway' || d.highway === 'motorway_link')) { add(r.forwardClasses, 'motorway'); add(r.backwardClasses, 'motorway'); }
};

export const surface: WayHandler = (p, t, r) => {
  for (const [v, table] of [[t.surface, p.surfaceSpeeds], [t.tracktype, p.tracktypeSpeeds], [t.smoothness, p.smoothnessSpeeds]] as const) {
    const cap = own(table, v);
    if (cap !== undefined) {
      r.forwardSpeed = Math.min(cap, r.forwardSpeed);
      r.backwardSpeed = Math.min(cap, r.backwardSpeed);
    }
  }
};

/** Routability: rates (and a ferry's weight) scaled down for service roads, narrow or unmarked roads, alternating oneways and side roads. */
export const penalties: WayHandler = (p, t, r, d) => {
  let servicePenalty = 1.0;
  servicePenalty = own(p.servicePenalties, t.service) ?? 1.0;
  let widthPenalty = 1.0;
  const width = leadingNumber(t.width) ?? Infinity;
  const lanes = leadingNumber(t.lanes) ?? Infinity;
  const bidirectional = r.forwardMode !== 'inaccessible' && r.backwardMode !== 'inaccessible';
  if (t.lane_markings === 'no' && bidirectional) widthPenalty = p.laneMarkingsPenalty;
  if (width <= 3 || (lanes <= 1 && bidirectional)) widthPenalty = 0.5;
  const alternatingPenalty = d.oneway === 'alternating' ? 0.4 : 1.0;
  d.sideroad = t.side_road;
  const sideroadPenalty = d.sideroad === 'yes' || d.sideroad === 'rotary' ? p.sideRoadMultiplier : 1.0;
  const penalty = Math.min(servicePenalty, widthPenalty, alternatingPenalty, sideroadPenalty);
  if (p.weightName === 'routability') {
    if (r.forwardSpeed > 0) r.forwardRate = (r.forwardSpeed * penalty) / 3.6;
    if (r.backwardSpeed > 0) r.backwardRate = (r.backwardSpeed * penalty) / 3.6;
    if (r.duration > 0) r.weight = r.duration / penalty;
  }
};

/** km/h of a maxspeed value: a number (mph too), a symbolic "FR:urban" / "none", else 0. */
export function parseMaxspeed(source: string | undefined, p: Pick<WayProfileConfig, 'maxspeedTable' | 'maxspeedTableDefault'>): number {
  if (source === undefined) return 0;
  const n = parseValueSpeed(source);
  if (n !== undefined) return n;
  const s = source.toLowerCase();
  const exact = own(p.maxspeedTable, s);
  if (exact !== undefined) return exact;
  const m = /[A-Za-z]{2}:([A-Za-z]+)/.exec(s);
  return (m && own(p.maxspeedTableDefault, m[1])) || 0;
}

const MAXSPEED_KEYS = ['maxspeed:advisory', 'maxspeed', 'source:maxspeed', 'maxspeed:type'];
export const maxspeed: WayHandler = (p, t, r) => {
  const [f, b] = forwardBackwardBySet(t, MAXSPEED_KEYS);
  const fw = parseMaxspeed(f, p), bw = parseMaxspeed(b, p);
  if (fw > 0) r.forwardSpeed = fw * p.speedReduction;
  if (bw > 0) r.backwardSpeed = bw * p.speedReduction;
};

const HEIGHT_KEYS = ['maxheight:physical', 'maxheight'];
export const handleHeight: WayHandler = (p, t, r) => {
  const [f, b] = forwardBackwardBySet(t, HEIGHT_KEYS);
  const fh = maxHeight(f), bh = maxHeight(b);
  if (fh !== undefined && fh < p.vehicleHeight) r.forwardMode = 'inaccessible';
  if (bh !== undefined && bh < p.vehicleHeight) r.backwardMode = 'inaccessible';
};

const WIDTH_KEYS = ['maxwidth:physical', 'maxwidth', 'width', 'est_width'];
export const handleWidth: WayHandler = (p, t, r) => {
  const [f, b] = forwardBackwardBySet(t, WIDTH_KEYS);
  const narrow = t.narrow;
  for (const [v, fwd] of [[f, true], [b, false]] as const) {
    let closed = false;
    if ((v === 'narrow' || narrow === 'yes') && p.vehicleWidth > 2.2) closed = true;
    else if (v !== undefined) { const w = maxWidth(v); if (w !== undefined && w <= p.vehicleWidth) closed = true; }
    if (closed) { if (fwd) r.forwardMode = 'inaccessible'; else r.backwardMode = 'inaccessible'; }
  }
};

export const handleWeight: WayHandler = (p, t, r) => {
  const [f, b] = forwardBackwardBySet(t, ['maxweightrating', 'maxweight']);
  const fw = maxWeight(f), bw = maxWeight(b);
  if (fw !== undefined && fw < p.vehicleWeight) r.forwardMode = 'inaccessible';
  if (bw !== undefined && bw < p.vehicleWeight) r.backwardMode = 'inaccessible';
};

export const handleLength: WayHandler = (p, t, r) => {
  const [f, b] = forwardBackwardBySet(t, ['maxlength']);
  const fl = maxLength(f), bl = maxLength(b);
  if (fl !== undefined && fl < p.vehicleLength) r.forwardMode = 'inaccessible';
  if (bl !== undefined && bl < p.vehicleLength) r.backwardMode = 'inaccessible';
};

export const oneway: WayHandler = (p, t, r, d) => {
  if (!p.onewayHandling) return;
  let ow: string | undefined;
  if (p.onewayHandling === true) ow = valueByPrefixedSequence(t, p.restrictions, 'oneway') ?? t.oneway;
  else if (p.onewayHandling === 'specific') ow = valueByPrefixedSequence(t, p.restrictions, 'oneway');
  else ow = t['oneway:conditional'] !== undefined ? 'no' : valueByPrefixedSequence(t, p.restrictions, 'oneway') ?? t.oneway;
  d.oneway = ow;
  if (ow === '-1') { d.isReverseOneway = true; r.forwardMode = 'inaccessible'; }
  else if (ow === 'yes' || ow === '1' || ow === 'true') { d.isForwardOneway = true; r.backwardMode = 'inaccessible'; }
  else if (p.onewayHandling === true) {
    const j = t.junction;
    if ((d.highway === 'motorway' || j === 'roundabout' || j === 'circular') && ow !== 'no') { d.isForwardOneway = true; r.backwardMode = 'inaccessible'; }
  }
};

export const weights: WayHandler = (p, _t, r) => {
  if (p.weightName !== 'distance') return;
  r.weight = -1;
  if (r.forwardMode !== 'inaccessible' && r.forwardSpeed > 0) r.forwardRate = 1;
  if (r.backwardMode !== 'inaccessible' && r.backwardSpeed > 0) r.backwardRate = 1;
};

export const avoidWays: WayHandler = (p, _t, _r, d) => { if (d.highway !== undefined && p.avoid.has(d.highway)) return false; };

export const blockedWays: WayHandler = (p, t, _r, d) => {
  const a = p.avoid;
  if (a.has('area') && t.area === 'yes') return false;
  if (a.has('toll') && t.toll === 'yes') return false;
  if (a.has('steps') && d.highway === 'steps') return false;
  if (a.has('construction') && (d.highway === 'construction' || t.railway === 'construction')) return false;
  if (a.has('motorroad') && t.motorroad === 'yes') return false;
  if (a.has('construction') && t.construction !== undefined && !p.constructionWhitelist.has(t.construction)) return false;
  // a real road with a proposed upgrade stays routable; only a road not yet built is blocked
  if (a.has('proposed') && t.proposed !== undefined && (d.highway === undefined || d.highway === 'proposed')) return false;
  if (a.has('reversible') && t.oneway === 'reversible') return false;
  if (a.has('impassable') && (t.impassable === 'yes' || t.status === 'impassable')) return false;
};

export const vehicleSpeedCap: WayHandler = (p, _t, r) => {
  if (p.vehicleMaxSpeed === undefined) return;
  if (r.forwardSpeed > 0) r.forwardSpeed = Math.min(r.forwardSpeed, p.vehicleMaxSpeed);
  if (r.backwardSpeed > 0) r.backwardSpeed = Math.min(r.backwardSpeed, p.vehicleMaxSpeed);
};

export const drivingSide: WayHandler = (p, t, r) => {
  const ds = t.driving_side;
  r.isLeftHandDriving = ds === 'left' ? true : ds === 'right' ? false : p.leftHandDriving;
};

/** Escalators and moving walkways (conveying=forward|backward on steps and footways) run one way unless oneway=no. */
export const conveying: WayHandler = (_p, t, r, d) => {
  const c = t.conveying;
  if (c === undefined || c === 'yes' || c === 'reversible') return;
  if (d.highway !== 'steps' && d.highway !== 'footway') return;
  const allowReverse = (d.oneway ?? t.oneway) === 'no';
  if (c === 'forward' && !allowReverse) r.backwardMode = 'inaccessible';
  else if (c === 'backward' && !allowReverse) r.forwardMode = 'inaccessible';
};
