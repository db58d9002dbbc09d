// Road classification for guidance (profiles/lib/guidance.lua set_classification).
import { PRIORITY, type RoadClassification, type Tags } from '../types.ts';

const HIGHWAY_CLASSES: Record<string, number> = {
  motorway: PRIORITY.MOTORWAY, motorway_link: PRIORITY.MOTORWAY_LINK, trunk: PRIORITY.TRUNK, trunk_link: PRIORITY.TRUNK_LINK,
  primary: PRIORITY.PRIMARY, primary_link: PRIORITY.PRIMARY_LINK, secondary: PRIORITY.SECONDARY, secondary_link: PRIORITY.SECONDARY_LINK,
  tertiary: PRIORITY.TERTIARY, tertiary_link: PRIORITY.TERTIARY_LINK, unclassified: PRIORITY.UNCLASSIFIED,
  residential: PRIORITY.MAIN_RESIDENTIAL, service: PRIORITY.ALLEY, living_street: PRIORITY.SIDE_RESIDENTIAL,
  track: PRIORITY.BIKE_PATH, path: PRIORITY.BIKE_PATH, footway: PRIORITY.FOOT_PATH, pedestrian: PRIORITY.FOOT_PATH, steps: PRIORITY.FOOT_PATH,
};
const MOTORWAY_TYPES = new Set(['motorway', 'motorway_link', 'trunk', 'trunk_link']);
const ROAD_TYPES = new Set(['motorway', 'motorway_link', 'trunk', 'trunk_link', 'primary', 'primary_link', 'secondary', 'secondary_link',
  'tertiary', 'tertiary_link', 'unclassified', 'residential', 'living_street']);
const LINK_TYPES = new Set(['motorway_link', 'trunk_link', 'primary_link', 'secondary_link', 'tertiary_link']);
const PARKING_CLASS = new Set(['parking_aisle', 'driveway', 'drive-through', 'emergency_access']);

export const newClassification = (): RoadClassification => ({ motorwayClass: false, linkClass: false, mayBeIgnored: false, priority: PRIORITY.CONNECTIVITY, numLanes: 0 });

const uint = (s: string | undefined) => { const n = Number(s); return s !== undefined && s.trim() !== '' && n > 0 && n % 1 === 0 ? n : undefined; };

export function setClassification(highway: string | undefined, rc: RoadClassification, t: Tags): void {
  if (highway !== undefined && MOTORWAY_TYPES.has(highway)) rc.motorwayClass = true;
  if (highway !== undefined && LINK_TYPES.has(highway)) rc.linkClass = true;
  if (highway === 'service') {
    const st = t.service;
    rc.priority = st === undefined || st === 'alley' || PARKING_CLASS.has(st) ? PRIORITY.ALLEY : HIGHWAY_CLASSES.service;
  } else {
    rc.priority = highway !== undefined && Object.prototype.hasOwnProperty.call(HIGHWAY_CLASSES, highway) ? HIGHWAY_CLASSES[highway] : PRIORITY.CONNECTIVITY;
  }
  rc.mayBeIgnored = !(highway !== undefined && ROAD_TYPES.has(highway));
  if (t.lanes !== undefined) {
    const lc = uint(t.lanes);
    if (lc !== undefined) rc.numLanes = lc;
  } else {
    const total = (uint(t['lanes:forward']) ?? 0) + (uint(t['lanes:backward']) ?? 0);
    if (total !== 0) rc.numLanes = total;
  }
}
