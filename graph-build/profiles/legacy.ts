// svc's own simple cycling rules (class speed tables, one speed per way), kept for `cycle` until
// bicycle.lua is ported as car.lua (car.ts) and foot.lua (foot.ts) are. The driving and walking
// tables below are only what those ports replaced.
import type { Profile, Tags as T, WayResult } from './types.ts';
import { newWayResult } from './lib/result.ts';
type ProfileName = 'driving' | 'walk' | 'cycle';

/** How one way is travelled by one mode; null when the mode may not use it. */
export interface WayRule {
  forward: boolean;
  backward: boolean;
  /** km/h, used for every segment of the way. */
  speed: number;
}

type Tags = Record<string, string>;

/** Typical free-flow speeds (km/h) by highway class. Documented in docs/routing.md. */
export const SPEEDS: Record<ProfileName, Record<string, number>> = {
  driving: {
    motorway: 100, motorway_link: 50, trunk: 85, trunk_link: 45, primary: 65, primary_link: 40,
    secondary: 55, secondary_link: 35, tertiary: 45, tertiary_link: 30, unclassified: 35, road: 30,
    residential: 25, living_street: 10, service: 15, track: 15,
  },
  walk: {
    // 5 km/h everywhere a walker may go; steps slower. Motorways are excluded below.
    trunk: 5, trunk_link: 5, primary: 5, primary_link: 5, secondary: 5, secondary_link: 5, tertiary: 5,
    tertiary_link: 5, unclassified: 5, road: 5, residential: 5, living_street: 5, service: 5, track: 5,
    pedestrian: 5, footway: 5, path: 5, bridleway: 4, steps: 2, cycleway: 5, corridor: 5,
  },
  cycle: {
    trunk: 18, trunk_link: 18, primary: 18, primary_link: 18, secondary: 18, secondary_link: 18, tertiary: 16,
    tertiary_link: 16, unclassified: 15, road: 15, residential: 15, living_street: 10, service: 12, track: 10,
    cycleway: 18, path: 10, bridleway: 8,
    // pushing the bicycle
    pedestrian: 5, footway: 5, steps: 2,
  },
};

/** Ferry speed (km/h) when no usable `duration` tag is present. */
export const FERRY_SPEED = 10;
/** Cap for unpaved surfaces when driving: rural tracks and gravel roads are much slower than their class. */
export const UNPAVED_DRIVING_CAP = 35;
/** Posted limits are a ceiling, not a travel speed: drive at this fraction of `maxspeed`. */
export const MAXSPEED_FACTOR = 0.8;

const NO = new Set(['no', 'private', 'agricultural', 'forestry', 'delivery', 'military']);
const YES = new Set(['yes', 'designated', 'permissive', 'destination', 'customers', 'public']);
const UNPAVED = new Set(['unpaved', 'dirt', 'earth', 'ground', 'gravel', 'fine_gravel', 'grass', 'mud', 'sand', 'compacted', 'pebblestone', 'rock', 'soil']);

/** Most specific access tag wins: e.g. for driving motorcar > motor_vehicle > vehicle > access. */
const ACCESS_KEYS: Record<ProfileName, string[]> = {
  driving: ['motorcar', 'motor_vehicle', 'vehicle', 'access'],
  walk: ['foot', 'access'],
  cycle: ['bicycle', 'vehicle', 'access'],
};

function accessAllowed(p: ProfileName, t: Tags): boolean | null {
  for (const k of ACCESS_KEYS[p]) {
    const v = t[k];
    if (v === undefined) continue;
    const first = v.split(';')[0].trim();
    if (NO.has(first)) return false;
    if (YES.has(first)) return true;
  }
  return null;
}

/** "50", "50 km/h", "30 mph", "50;60" (first), "RU:urban" (ignored) → km/h or null. */
export function parseMaxspeed(v: string | undefined): number | null {
  if (!v) return null;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(mph|km\/h|kmh|kph)?/i.exec(v.split(';')[0]);
  if (!m) return null;
  const n = Number(m[1]);
  if (!(n > 0)) return null;
  return m[2] && m[2].toLowerCase() === 'mph' ? n * 1.609344 : n;
}

/** OSM duration "HH:MM", "HH:MM:SS" or minutes → seconds. */
function parseDuration(v: string | undefined): number | null {
  if (!v) return null;
  const p = v.trim().split(':').map(Number);
  if (p.some((x) => !Number.isFinite(x))) return null;
  if (p.length === 1) return p[0] * 60;
  if (p.length === 2) return p[0] * 3600 + p[1] * 60;
  if (p.length === 3) return p[0] * 3600 + p[1] * 60 + p[2];
  return null;
}

/** Direction from `oneway` (and the mode-specific overrides); implied for roundabouts and motorways. */
function direction(p: ProfileName, t: Tags): { forward: boolean; backward: boolean } {
  if (p === 'walk') {
    // Pedestrians ignore vehicle oneways; only oneway:foot would bind them (rare, ignored).
    return { forward: true, backward: true };
  }
  let ow = t.oneway;
  if (p === 'cycle') {
    const ob = t['oneway:bicycle'];
    if (ob === 'no' || (t.cycleway && t.cycleway.startsWith('opposite'))) return { forward: true, backward: true };
    if (ob) ow = ob;
  }
  if (ow === 'yes' || ow === '1' || ow === 'true') return { forward: true, backward: false };
  if (ow === '-1' || ow === 'reverse') return { forward: false, backward: true };
  if (ow === 'no' || ow === 'false' || ow === '0') return { forward: true, backward: true };
  const hw = t.highway;
  if (t.junction === 'roundabout' || t.junction === 'circular') return { forward: true, backward: false };
  if (hw === 'motorway' || (p === 'driving' && hw === 'motorway_link')) return { forward: true, backward: false };
  return { forward: true, backward: true };
}

/** The rule for one way under one profile, or null when the mode may not use it. */
export function wayRule(p: ProfileName, t: Tags, lengthM: number): WayRule | null {
  const access = accessAllowed(p, t);
  if (t.route === 'ferry') {
    if (access === false) return null;
    const d = parseDuration(t.duration);
    const speed = d && d > 0 && lengthM > 0 ? Math.max(1, Math.min(60, (lengthM / d) * 3.6)) : FERRY_SPEED;
    return { forward: true, backward: true, speed };
  }
  const hw = t.highway;
  if (!hw) return null;
  if (t.area === 'yes' && p === 'driving') return null;
  let speed = SPEEDS[p][hw];
  if (speed === undefined) {
    // An unlisted class (construction, proposed, platform, …) is usable only when explicitly allowed.
    if (access !== true || hw === 'construction' || hw === 'proposed' || hw === 'abandoned' || hw === 'razed') return null;
    speed = p === 'driving' ? 20 : p === 'walk' ? 5 : 10;
  }
  if (access === false) return null;
  if (p === 'walk' && (hw === 'motorway' || hw === 'motorway_link' || t.motorroad === 'yes') && access !== true) return null;
  if (p === 'cycle' && (hw === 'motorway' || hw === 'motorway_link' || t.motorroad === 'yes') && access !== true) return null;
  if (p === 'driving') {
    const ms = parseMaxspeed(t.maxspeed);
    if (ms) speed = Math.max(5, Math.min(130, ms * MAXSPEED_FACTOR));
    const s = t.surface;
    if (s && UNPAVED.has(s)) speed = Math.min(speed, UNPAVED_DRIVING_CAP);
  }
  const dir = direction(p, t);
  if (!dir.forward && !dir.backward) return null;
  return { ...dir, speed };
}

/** One of these rules as a Profile: one speed both ways, no node obstacles, no turn costs. */
export function legacyProfile(name: 'walk' | 'cycle'): Profile {
  return {
    name,
    properties: { weightName: 'duration', weightPrecision: 1, maxSpeedForMapMatching: 180 / 3.6, uTurnPenalty: 0, trafficLightPenalty: 0,
      continueStraightAtWaypoint: false, useTurnRestrictions: false, leftHandDriving: false, maxTurnWeight: 0 },
    wayTags: ['highway', 'route', 'oneway', 'junction', 'access', 'foot', 'bicycle', 'vehicle', 'oneway:bicycle', 'cycleway', 'area', 'duration', 'motorroad'],
    nodeTags: [],
    processNode: () => [],
    processWay(t: T): WayResult | null {
      const rule = wayRule(name, t, 0);
      if (!rule) return null;
      const r = newWayResult();
      const mode = t.route === 'ferry' ? 'ferry' : name === 'walk' ? 'walking' : 'cycling';
      if (rule.forward) { r.forwardMode = mode; r.forwardSpeed = rule.speed; }
      if (rule.backward) { r.backwardMode = mode; r.backwardSpeed = rule.speed; }
      if (t.route === 'ferry') {
        const d = parseDuration(t.duration);
        if (d && d > 0) r.duration = d;
      }
      r.highway = t.route === 'ferry' ? 'ferry' : t.highway ?? '';
      return r;
    },
    processTurn(turn) { turn.weight = turn.duration; },
    parseRestriction: () => null,
  };
}
