// The day and night map styles, generated from one table of layers so that the MapLibre
// styles (served at {TILES_URL}/style.json and style-dark.json) and the static-map renderer
// (workers/render) draw the same things in the same colours.
import { BASE_MAXZOOM, DETAIL_MINZOOM, LAYER, MAXZOOM, SOURCE } from './schema.ts';
import { FONTSTACKS } from './fonts.ts';

export const THEMES = ['day', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export interface Palette {
  water: string; land: string; lake: string; river: string; admin1: string; border: string;
  motorway: string; trunk: string; primary: string; secondary: string; tertiary: string; minor: string; service: string; path: string; ferry: string;
  casing: string; label: string; halo: string; roadLabel: string;
}

export const PALETTES: Record<Theme, Palette> = {
  day: {
    water: '#aad3df', land: '#f2efe9', lake: '#aad3df', river: '#8fc1d4', admin1: '#b9a8c9', border: '#8d7ea3',
    motorway: '#e8828f', trunk: '#f29b76', primary: '#fcc77a', secondary: '#f4f18a', tertiary: '#ffffff', minor: '#ffffff', service: '#ffffff', path: '#c98c7f', ferry: '#6f9fd1',
    casing: '#b5aca3', label: '#333333', halo: '#ffffff', roadLabel: '#555555',
  },
  dark: {
    water: '#0d1b2a', land: '#1e2227', lake: '#0d1b2a', river: '#1d3a55', admin1: '#4a4458', border: '#7a6f94',
    motorway: '#b8515f', trunk: '#a8633f', primary: '#9c7a3c', secondary: '#7d7a45', tertiary: '#5b6169', minor: '#4a5058', service: '#40454c', path: '#6b5550', ferry: '#3b5f86',
    casing: '#111316', label: '#e6e6e6', halo: '#111316', roadLabel: '#b0b0b0',
  },
};

type Stops = [number, number][];
/** A road line drawn by the style and by the renderer: classes, colour key, width stops (px at zoom). */
export interface RoadLine { id: string; classes: string[]; colour: keyof Palette; width: Stops; minzoom: number; dash?: number[]; casing?: boolean }

export const ROAD_LINES: RoadLine[] = [
  { id: 'path', classes: ['path'], colour: 'path', width: [[14, 1], [18, 3]], minzoom: 14, dash: [2, 1] },
  { id: 'ferry', classes: ['ferry'], colour: 'ferry', width: [[8, 0.8], [14, 2]], minzoom: 8, dash: [3, 2] },
  { id: 'service', classes: ['service', 'track'], colour: 'service', width: [[13, 1], [18, 6]], minzoom: 13, casing: true },
  { id: 'minor', classes: ['minor'], colour: 'minor', width: [[12, 1.2], [18, 12]], minzoom: 12, casing: true },
  { id: 'tertiary', classes: ['tertiary'], colour: 'tertiary', width: [[10, 1], [18, 14]], minzoom: 10, casing: true },
  { id: 'secondary', classes: ['secondary'], colour: 'secondary', width: [[8, 1], [18, 16]], minzoom: 8, casing: true },
  { id: 'primary', classes: ['primary'], colour: 'primary', width: [[7, 1], [18, 18]], minzoom: 7, casing: true },
  { id: 'trunk', classes: ['trunk'], colour: 'trunk', width: [[5, 0.8], [18, 20]], minzoom: 5, casing: true },
  { id: 'motorway', classes: ['motorway'], colour: 'motorway', width: [[5, 1], [18, 22]], minzoom: 5, casing: true },
];
export const RIVER_WIDTH: Stops = [[3, 0.4], [8, 1.2], [14, 3]];
export const BORDER_WIDTH: Stops = [[2, 0.6], [8, 1.5], [14, 2.5]];
export const ADMIN1_WIDTH: Stops = [[3, 0.4], [8, 1], [14, 1.5]];
const WIDTH_BASE = 1.4;

/** Width at a zoom, as MapLibre's ["interpolate", ["exponential", base], ["zoom"], …] evaluates it. */
export function widthAt(stops: Stops, z: number, base = WIDTH_BASE): number {
  if (z <= stops[0][0]) return stops[0][1];
  for (let i = 1; i < stops.length; i++) {
    const [z1, w1] = stops[i];
    if (z <= z1) {
      const [z0, w0] = stops[i - 1];
      const t = (base ** (z - z0) - 1) / (base ** (z1 - z0) - 1);
      return w0 + (w1 - w0) * t;
    }
  }
  return stops[stops.length - 1][1];
}

const interp = (stops: Stops, k = 1) => ['interpolate', ['exponential', WIDTH_BASE], ['zoom'], ...stops.flatMap(([z, w]) => [z, +(w * k).toFixed(2)])];

/** Icon of a POI class (sprite name). */
export const POI_ICON: [string, string[]][] = [
  ['hospital', ['hospital']], ['pharmacy', ['pharmacy']], ['bus_stop', ['bus_stop']], ['airport', ['airport']], ['port', ['port']],
];

export interface StyleOptions {
  /** Public tile address, e.g. https://maps.example/tiles. */
  tilesUrl: string;
  theme: Theme;
  /** A browser key to carry in every URL the style makes the map load (tiles, glyphs, sprites). */
  key?: string;
  /** [w, s, e, n] of each road extract: the detail source's bounds. */
  bounds?: [number, number, number, number];
}

export function buildStyle(o: StyleOptions): Record<string, unknown> {
  const p = PALETTES[o.theme];
  const q = o.key ? `?key=${encodeURIComponent(o.key)}` : '';
  const tiles = [`${o.tilesUrl}/tiles/{z}/{x}/{y}.pbf${q}`];
  const layers: Record<string, unknown>[] = [
    { id: 'background', type: 'background', paint: { 'background-color': p.water } },
    { id: 'land', type: 'fill', source: SOURCE.base, 'source-layer': LAYER.boundaries, filter: ['==', ['get', 'admin_level'], 2], paint: { 'fill-color': p.land } },
    { id: 'lake', type: 'fill', source: SOURCE.base, 'source-layer': LAYER.water, filter: ['==', ['get', 'class'], 'lake'], paint: { 'fill-color': p.lake } },
    { id: 'river', type: 'line', source: SOURCE.base, 'source-layer': LAYER.water, filter: ['==', ['get', 'class'], 'river'], layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': p.river, 'line-width': interp(RIVER_WIDTH) } },
    { id: 'admin1', type: 'line', source: SOURCE.base, 'source-layer': LAYER.boundaries, minzoom: 3, filter: ['==', ['get', 'admin_level'], 4], paint: { 'line-color': p.admin1, 'line-width': interp(ADMIN1_WIDTH), 'line-dasharray': [3, 2] } },
    { id: 'border', type: 'line', source: SOURCE.base, 'source-layer': LAYER.boundaries, filter: ['==', ['get', 'admin_level'], 2], layout: { 'line-join': 'round' }, paint: { 'line-color': p.border, 'line-width': interp(BORDER_WIDTH) } },
  ];
  // Roads: from the base source up to z8 (over-zoomed no further), from the detail source from z9.
  for (const [src, minz, maxz] of [[SOURCE.base, 0, DETAIL_MINZOOM], [SOURCE.detail, DETAIL_MINZOOM, MAXZOOM + 10]] as const) {
    const filter = (r: RoadLine) => ['in', ['get', 'class'], ['literal', r.classes]];
    const zoomed = (r: RoadLine) => ({ minzoom: Math.max(minz, r.minzoom), ...(maxz <= MAXZOOM ? { maxzoom: maxz } : {}) });
    const visible = ROAD_LINES.filter((r) => Math.max(minz, r.minzoom) < maxz);
    for (const r of visible) if (r.casing) {
      layers.push({ id: `road-${r.id}-casing-${src === SOURCE.base ? 'low' : 'high'}`, type: 'line', source: src, 'source-layer': LAYER.roads, ...zoomed(r), filter: filter(r),
        layout: { 'line-cap': 'round', 'line-join': 'round' }, paint: { 'line-color': p.casing, 'line-width': interp(r.width, 1.35) } });
    }
    for (const r of visible) {
      layers.push({ id: `road-${r.id}-${src === SOURCE.base ? 'low' : 'high'}`, type: 'line', source: src, 'source-layer': LAYER.roads, ...zoomed(r), filter: filter(r),
        layout: { 'line-cap': r.dash ? 'butt' : 'round', 'line-join': 'round' },
        paint: { 'line-color': p[r.colour], 'line-width': interp(r.width), ...(r.dash ? { 'line-dasharray': r.dash } : {}) } });
    }
  }
  layers.push(
    { id: 'road-label', type: 'symbol', source: SOURCE.detail, 'source-layer': LAYER.roads, minzoom: 13, filter: ['has', 'name'],
      layout: { 'symbol-placement': 'line', 'text-field': ['get', 'name'], 'text-font': [FONTSTACKS.regular], 'text-size': 11 },
      paint: { 'text-color': p.roadLabel, 'text-halo-color': p.halo, 'text-halo-width': 1.2 } },
    { id: 'poi', type: 'symbol', source: SOURCE.base, 'source-layer': LAYER.pois,
      filter: ['any',
        ['all', ['==', ['get', 'group'], 'airport'], ['>=', ['zoom'], 6]],
        ['all', ['==', ['get', 'group'], 'port'], ['>=', ['zoom'], 8]],
        ['all', ['==', ['get', 'class'], 'hospital'], ['>=', ['zoom'], 12]],
        ['all', ['==', ['get', 'group'], 'health'], ['>=', ['zoom'], 14]],
        ['all', ['==', ['get', 'group'], 'transit'], ['>=', ['zoom'], 15]]],
      layout: {
        'icon-image': ['match', ['get', 'class'], 'hospital', 'hospital', 'pharmacy', 'pharmacy', 'bus_stop', 'bus_stop', 'airport', 'airport', 'port', 'port', 'health'],
        'icon-size': 1, 'text-field': ['step', ['zoom'], '', 15, ['coalesce', ['get', 'name'], '']], 'text-font': [FONTSTACKS.regular], 'text-size': 10,
        'text-offset': [0, 1.1], 'text-anchor': 'top', 'text-optional': true,
      },
      paint: { 'text-color': p.label, 'text-halo-color': p.halo, 'text-halo-width': 1 } },
    { id: 'place', type: 'symbol', source: SOURCE.base, 'source-layer': LAYER.places,
      layout: {
        'text-field': ['get', 'name'],
        'text-font': ['case', ['any', ['==', ['get', 'class'], 'city'], ['==', ['get', 'capital'], 1]], ['literal', [FONTSTACKS.bold]], ['literal', [FONTSTACKS.regular]]],
        'text-size': ['match', ['get', 'class'], 'city', 14, 'town', 12, 11],
        'symbol-sort-key': ['get', 'rank'], 'text-max-width': 8, 'text-padding': 4,
      },
      paint: { 'text-color': p.label, 'text-halo-color': p.halo, 'text-halo-width': 1.5 } },
  );
  return {
    version: 8,
    name: o.theme === 'dark' ? 'svc night' : 'svc day',
    metadata: { 'svc:theme': o.theme },
    center: [20, 2], zoom: 3,
    sources: {
      [SOURCE.base]: { type: 'vector', tiles, minzoom: 0, maxzoom: BASE_MAXZOOM, attribution: ATTRIBUTION_HTML },
      [SOURCE.detail]: { type: 'vector', tiles, minzoom: DETAIL_MINZOOM, maxzoom: MAXZOOM, ...(o.bounds ? { bounds: o.bounds } : {}), attribution: ATTRIBUTION_HTML },
    },
    sprite: `${o.tilesUrl}/sprites/sprite${q}`,
    glyphs: `${o.tilesUrl}/glyphs/{fontstack}/{range}.pbf${q}`,
    layers,
  };
}

/** Shown by MapLibre's attribution control and drawn on static maps. */
export const ATTRIBUTION_HTML = '© OpenStreetMap contributors, Natural Earth, GeoNames, healthsites.io, WHO';
export const ATTRIBUTION_TEXT = '© OpenStreetMap contributors · Natural Earth · GeoNames';
