// The ports against OSRM's Lua profiles themselves: the same tags through the real Lua (lua5.4 and
// osrm-harness.lua) and through graph-build/profiles/car.ts, foot.ts and bicycle.ts must give the same modes,
// speeds, rates, durations, restricted flags, start points and node obstacles. One test per rule family.
import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { car } from '../../graph-build/profiles/car.ts';
import { foot } from '../../graph-build/profiles/foot.ts';
import { bicycle } from '../../graph-build/profiles/bicycle.ts';
import { parseDuration } from '../../graph-build/profiles/lib/duration.ts';
import { parseMaxspeed } from '../../graph-build/profiles/lib/way-handlers.ts';
import { CAR } from '../../graph-build/profiles/car.ts';
import type { Tags } from '../../graph-build/profiles/types.ts';
import { wayCases, nodeCases, FEATURES } from './cases.ts';
import { compare, haveLua, LUA_PROFILES } from './oracle.ts';

const ready = haveLua() && existsSync(LUA_PROFILES) && existsSync(FEATURES);
const ways = wayCases(), nodes = nodeCases();
const has = (t: Tags, re: RegExp) => Object.keys(t).some((k) => re.test(k));

const FAMILIES: [string, (t: Tags) => boolean][] = [
  ['access tag hierarchy (access, motorcar, motor_vehicle, vehicle, :forward/:backward)', (t) => has(t, /^(access|motorcar|motor_vehicle|vehicle)(:|$)/)],
  ['oneway rules (oneway, oneway:motorcar|vehicle, reversible, alternating, roundabouts, implied)', (t) => has(t, /^(oneway|junction)/) || /^motorway/.test(t.highway ?? '')],
  ['class speeds and unroutable classes', (t) => Object.keys(t).length === 1 && t.highway !== undefined],
  ['maxspeed (numeric, mph, symbolic FR:urban, none, advisory, :forward/:backward)', (t) => has(t, /maxspeed/)],
  ['surface, tracktype and smoothness caps', (t) => has(t, /^(surface|tracktype|smoothness)$/)],
  ['width, narrow, lanes, height, weight and length limits', (t) => has(t, /^(width|narrow|lanes|lane_markings|maxwidth|maxheight|maxweight|maxlength|est_width)/)],
  ['destination-only and restricted access', (t) => Object.values(t).some((v) => ['destination', 'private', 'delivery', 'customers'].includes(v))],
  ['service roads and side roads', (t) => t.service !== undefined || t.side_road !== undefined || t.highway === 'service'],
  ['HOV', (t) => has(t, /^hov/)],
  ['ferries, shuttle trains and movable bridges (duration=, ISO 8601)', (t) => t.route !== undefined || t.bridge !== undefined || t.duration !== undefined],
  ['blocked ways (area, construction, proposed, impassable, toll)', (t) => has(t, /^(area|construction|proposed|impassable|status|toll|motorroad)$/)],
];

describe.skipIf(!ready)('car.ts against car.lua', () => {
  for (const [name, pick] of FAMILIES) {
    it(name, () => {
      const sel = ways.filter(pick);
      expect(sel.length).toBeGreaterThan(10);
      expect(compare(car, 'car', sel, [])).toEqual([]);
    });
  }
  it(`every way of the feature files and the grid (${ways.length} tag sets)`, () => {
    expect(compare(car, 'car', ways, [])).toEqual([]);
  });
  it(`node barriers, gates, node access and signals (${nodes.length} tag sets)`, () => {
    expect(compare(car, 'car', [], nodes)).toEqual([]);
  });
});

// foot.lua's own tags beside the car grid: platforms, piers, parkings, separate sidewalks, escalators
const FOOT_EXTRA: Tags[] = [
  { railway: 'platform' }, { amenity: 'parking' }, { man_made: 'pier' }, { leisure: 'track' }, { public_transport: 'platform' },
  { highway: 'footway', sidewalk: 'separate' }, { highway: 'primary', sidewalk: 'separate', foot: 'yes' }, { highway: 'primary', 'sidewalk:left': 'separate' },
  { highway: 'steps', conveying: 'forward' }, { highway: 'footway', conveying: 'backward', oneway: 'no' }, { highway: 'footway', 'oneway:foot': 'yes' },
  { highway: 'trunk' }, { highway: 'trunk', foot: 'yes' }, { highway: 'footway', access: 'use_sidepath' },
];

describe.skipIf(!ready)('foot.ts against foot.lua', () => {
  it(`every way of the car feature files, the grid and foot's own tags (${ways.length + FOOT_EXTRA.length} tag sets)`, () => {
    expect(compare(foot, 'foot', [...ways, ...FOOT_EXTRA], [])).toEqual([]);
  });
  it(`node barriers, access and signals (${nodes.length} tag sets)`, () => {
    expect(compare(foot, 'foot', [], nodes)).toEqual([]);
  });
});

describe.skipIf(!ready)('bicycle.ts against bicycle.lua', () => {
  const BIKE_EXTRA: Tags[] = [
    { highway: 'primary', cycleway: 'separate' }, { highway: 'primary', 'cycleway:left': 'separate', bicycle: 'designated' },
    { highway: 'residential', oneway: 'yes', 'cycleway:left': 'opposite_lane' }, { highway: 'residential', oneway: '-1', cycleway: 'track' },
    { highway: 'residential', 'cycleway:right': 'lane' }, { highway: 'footway', bicycle: 'dismount' }, { highway: 'primary', 'foot:forward': 'yes', bicycle: 'no' },
    { railway: 'train', bicycle: 'yes' }, { railway: 'platform' }, { public_transport: 'platform' }, { amenity: 'parking' }, { man_made: 'pier' },
    { highway: 'residential', 'maxspeed:forward': '10', maxspeed: '12' }, { highway: 'track', surface: 'woodchips' }, { bridge: 'movable', highway: 'primary' },
    { highway: 'motorway', foot: 'yes' }, { highway: 'steps', foot: 'no' }, { highway: 'path', access: 'yes', bicycle: 'use_sidepath' },
  ];
  it(`every way of the car feature files, the grid and bicycle's own tags (${ways.length + BIKE_EXTRA.length} tag sets)`, () => {
    expect(compare(bicycle, 'bicycle', [...ways, ...BIKE_EXTRA], [])).toEqual([]);
  });
  it(`node barriers, access and directed signals (${nodes.length} tag sets)`, () => {
    expect(compare(bicycle, 'bicycle', [], nodes)).toEqual([]);
  });
});

describe('car.ts rules the features name', () => {
  it('reads OSM and ISO 8601 durations as OSRM does', () => {
    expect(parseDuration('00:01')).toBe(60);
    expect(parseDuration('5')).toBe(300);
    expect(parseDuration('1:30:00')).toBe(5400);
    expect(parseDuration('PT1M')).toBe(60);
    expect(parseDuration('P1DT2H')).toBe(93600);
    expect(parseDuration('PT013000')).toBe(5400);
    expect(parseDuration('PT25:00:00')).toBeUndefined();
    expect(parseDuration('nonsense')).toBeUndefined();
  });
  it('parses symbolic and directional maxspeeds', () => {
    expect(parseMaxspeed('FR:urban', CAR)).toBe(50);
    expect(parseMaxspeed('RU:urban', CAR)).toBe(60);
    expect(parseMaxspeed('none', CAR)).toBe(140);
    expect(parseMaxspeed('30 mph', CAR)).toBeCloseTo(48.27, 2);
    expect(parseMaxspeed('signals', CAR)).toBe(0);
    const r = car.processWay({ highway: 'primary', 'maxspeed:forward': '20', 'maxspeed:backward': '100' })!;
    expect([r.forwardSpeed, r.backwardSpeed]).toEqual([16, 80]);
  });
  it('opens private and destination roads as restricted, closes psv and tracks', () => {
    expect(car.processWay({ highway: 'residential', access: 'destination' })).toMatchObject({ forwardRestricted: true, forwardMode: 'driving' });
    expect(car.processWay({ highway: 'residential', access: 'private' })).toMatchObject({ backwardRestricted: true });
    expect(car.processWay({ highway: 'residential', access: 'psv' })).toBeNull();
    expect(car.processWay({ highway: 'track' })).toBeNull();
    expect(car.processWay({ highway: 'primary', 'access:forward': 'no' })).toMatchObject({ forwardMode: 'inaccessible', backwardMode: 'driving' });
  });
  it('keeps oneway:motorcar over oneway and an untagged motorway_link two-way', () => {
    expect(car.processWay({ highway: 'primary', oneway: 'yes', 'oneway:motorcar': 'no' })).toMatchObject({ forwardMode: 'driving', backwardMode: 'driving' });
    expect(car.processWay({ highway: 'primary', 'oneway:vehicle': '-1' })).toMatchObject({ forwardMode: 'inaccessible', backwardMode: 'driving' });
    expect(car.processWay({ highway: 'motorway_link' })).toMatchObject({ forwardMode: 'driving', backwardMode: 'driving' });
    expect(car.processWay({ highway: 'motorway' })).toMatchObject({ backwardMode: 'inaccessible' });
    expect(car.processWay({ highway: 'primary', oneway: 'reversible' })).toBeNull();
  });
  it('blocks at bollards and walls, passes gates with 60 s and signals with 2 s', () => {
    expect(car.processNode({ barrier: 'bollard' })).toEqual([{ type: 'barrier', direction: 'none', duration: 0, weight: 0 }]);
    expect(car.processNode({ barrier: 'gate' })).toEqual([{ type: 'gate', direction: 'both', duration: 60, weight: 0 }]);
    expect(car.processNode({ barrier: 'cattle_grid' })).toEqual([]);
    expect(car.processNode({ highway: 'traffic_signals', 'traffic_signals:direction': 'forward' })).toEqual([{ type: 'traffic_signals', direction: 'forward', duration: 2, weight: 0 }]);
  });
});
