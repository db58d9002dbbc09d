// Tag combinations for the profile oracle test: every way and node table of OSRM's car feature
// files (../shared/tools/osrm-features/features/car), plus a grid of classes × modifiers so each
// rule family meets values the features do not spell out.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Tags } from '../../graph-build/profiles/types.ts';

export const FEATURES = join(import.meta.dirname, '../../../shared/tools/osrm-features/features/car');
const NOT_TAGS = new Set(['nodes', 'forw', 'backw', 'bothw', 'forw_rate', 'backw_rate', '#', 'node', 'way', 'from', 'to', 'route', 'time', 'speed']);

function tables(text: string): string[][][] {
  const out: string[][][] = [];
  let cur: string[][] | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('|')) {
      const cells = line.slice(1, line.endsWith('|') ? -1 : undefined).split('|').map((c) => c.trim());
      (cur ??= []).push(cells);
    } else if (cur) { out.push(cur); cur = null; }
  }
  if (cur) out.push(cur);
  return out;
}

function rows(kind: 'way' | 'node'): Tags[] {
  if (!existsSync(FEATURES)) return [];
  const seen = new Set<string>(), out: Tags[] = [];
  for (const f of readdirSync(FEATURES).filter((x) => x.endsWith('.feature')).sort()) {
    for (const tb of tables(readFileSync(join(FEATURES, f), 'utf8'))) {
      const head = tb[0];
      if (head.includes('from') || head.includes('waypoints')) continue;
      const isNode = head[0] === 'node';
      if (kind === 'node' ? !isNode : isNode || !(head.includes('highway') || head.includes('route'))) continue;
      for (const r of tb.slice(1)) {
        const t: Tags = {};
        head.forEach((k, i) => { if (!NOT_TAGS.has(k) && r[i] !== undefined && r[i] !== '') t[k] = r[i]; });
        // OSRM's support code gives ways without a highway tag highway=primary
        if (kind === 'way' && !head.includes('highway') && t.route === undefined) t.highway = 'primary';
        const key = JSON.stringify(t);
        if (!seen.has(key)) { seen.add(key); out.push(t); }
      }
    }
  }
  return out;
}

const CLASSES = ['motorway', 'motorway_link', 'trunk', 'primary', 'secondary_link', 'tertiary', 'unclassified', 'residential', 'living_street',
  'service', 'track', 'path', 'footway', 'road', 'construction', 'proposed', 'steps', 'cycleway', 'pedestrian', 'bridleway'];
const MODIFIERS: Tags[] = [
  {}, { oneway: 'yes' }, { oneway: '-1' }, { oneway: 'reversible' }, { oneway: 'alternating' }, { 'oneway:motorcar': 'no', oneway: 'yes' },
  { 'oneway:vehicle': 'yes' }, { junction: 'roundabout' }, { junction: 'roundabout', oneway: 'no' }, { access: 'private' }, { access: 'destination' },
  { access: 'no', motorcar: 'yes' }, { 'access:forward': 'no' }, { 'motor_vehicle:backward': 'destination' }, { access: 'psv' }, { access: 'delivery' },
  { maxspeed: '30' }, { maxspeed: '30 mph' }, { maxspeed: 'FR:urban' }, { maxspeed: 'RU:rural' }, { maxspeed: 'none' }, { maxspeed: 'signals' },
  { 'maxspeed:forward': '20', 'maxspeed:backward': '100' }, { 'maxspeed:advisory': '15', maxspeed: '60' }, { 'source:maxspeed': 'DE:urban' },
  { surface: 'gravel' }, { surface: 'asphalt' }, { surface: 'fine_gravel' }, { surface: 'mud' }, { surface: 'pebblestone' }, { surface: 'cobblestone' }, { tracktype: 'grade4' }, { smoothness: 'impassable' }, { smoothness: 'bad', surface: 'sand' },
  { width: '3' }, { width: '2.5 m' }, { narrow: 'yes' }, { maxwidth: '1.8' }, { maxheight: '1.9' }, { maxheight: "6'5\"" }, { maxheight: 'default' },
  { maxweight: '1.5' }, { maxweight: '3000 kg' }, { maxlength: '4' }, { lanes: '1' }, { lanes: '2', lane_markings: 'no' }, { side_road: 'yes' },
  { service: 'parking_aisle' }, { service: 'emergency_access' }, { hov: 'designated' }, { 'hov:lanes': 'designated|designated' },
  { 'hov:lanes:forward': 'designated', 'hov:lanes:backward': 'designated|no' }, { area: 'yes' }, { toll: 'yes' }, { impassable: 'yes' },
  { status: 'impassable' }, { construction: 'yes' }, { construction: 'minor' }, { proposed: 'secondary' }, { bridge: 'movable' },
  { bridge: 'movable', duration: 'PT2M' }, { motorroad: 'yes' }, { foot: 'yes', access: 'no' }, { bicycle: 'designated' },
  { 'oneway:bicycle': 'no', oneway: 'yes' }, { cycleway: 'opposite', oneway: 'yes' }, { 'cycleway:left': 'track' }, { sidewalk: 'both' },
];
const FERRIES: Tags[] = [
  { route: 'ferry' }, { route: 'ferry', duration: '00:01' }, { route: 'ferry', duration: 'PT1M' }, { route: 'ferry', duration: '1:30:00' },
  { route: 'ferry', duration: 'P1DT2H' }, { route: 'ferry', duration: 'nonsense' }, { route: 'ferry', duration: '5' }, { route: 'ferry', motorcar: 'no' },
  { route: 'shuttle_train' }, { route: 'shuttle_train', duration: '0:10' }, { route: 'ferry', maxspeed: '20' }, { route: 'ferry', highway: 'primary' },
];

export function wayCases(): Tags[] {
  const grid: Tags[] = [];
  for (const hw of CLASSES) for (const m of MODIFIERS) grid.push({ highway: hw, ...m });
  return [...rows('way'), ...grid, ...FERRIES];
}

const NODE_GRID: Tags[] = [
  { barrier: 'gate' }, { barrier: 'lift_gate' }, { barrier: 'bollard' }, { barrier: 'bollard', bollard: 'rising' }, { barrier: 'kerb' },
  { barrier: 'kerb', kerb: 'lowered' }, { barrier: 'kerb', highway: 'crossing' }, { barrier: 'wall' }, { barrier: 'fence', sensory: 'audible' },
  { barrier: 'cattle_grid' }, { barrier: 'toll_booth' }, { barrier: 'height_restrictor', maxheight: '1.8' }, { barrier: 'height_restrictor', maxheight: '3' },
  { barrier: 'gate', access: 'yes' }, { barrier: 'gate', access: 'private' }, { barrier: 'bollard', motorcar: 'yes' }, { access: 'no' }, { access: 'destination' },
  { highway: 'traffic_signals' }, { highway: 'traffic_signals', 'traffic_signals:direction': 'forward' }, { highway: 'traffic_signals', direction: 'backward' },
  { highway: 'stop' }, { highway: 'stop', stop: 'minor' }, { highway: 'give_way', direction: 'forward' }, { highway: 'crossing' },
  { highway: 'traffic_calming' }, { highway: 'mini_roundabout' }, { highway: 'turning_circle' }, { highway: 'motorway_junction' }, { foot: 'no', barrier: 'stile' },
  { bicycle: 'no' }, { barrier: 'cycle_barrier' }, { barrier: 'stile' }, { barrier: 'swing_gate' },
];
export function nodeCases(): Tags[] { return [...rows('node'), ...NODE_GRID]; }
