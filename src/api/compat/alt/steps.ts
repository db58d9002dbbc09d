// Turn-by-turn steps of a leg in the platform's shape (html_instructions, maneuver, polyline),
// from the OSRM-style guidance our route task gives with steps=true.
import { distance, duration, type LatLng } from './shapes.ts';
import { encodeLngLat } from './polyline.ts';

export interface Step {
  distance: { text: string; value: number };
  duration: { text: string; value: number };
  start_location: LatLng;
  end_location: LatLng;
  html_instructions: string;
  maneuver?: string;
  polyline: { points: string };
}

/** Our step (OSRM v5 fields: maneuver.type/modifier, name, ref, instruction, geometry). */
export interface OurStep {
  maneuver: { type: string; modifier?: string; location: [number, number] };
  name: string;
  ref?: string;
  distance_m: number;
  duration_s: number;
  instruction: string;
  geometry: { coordinates: number[][] };
}

const side = (m?: string) => (m && m.includes('left') ? 'left' : 'right');

/** OSRM maneuver → the platform's maneuver word (none for departures, name changes, notifications). */
export function maneuverOf(type: string, modifier?: string): string | undefined {
  switch (type) {
    case 'turn':
    case 'end of road':
    case 'continue':
      if (!modifier || modifier === 'straight') return type === 'continue' ? 'straight' : undefined;
      if (modifier === 'uturn') return 'uturn-left';
      return `turn-${modifier.replace(' ', '-')}`;
    case 'merge': return 'merge';
    case 'on ramp':
    case 'off ramp': return `ramp-${side(modifier)}`;
    case 'fork': return `fork-${side(modifier)}`;
    case 'use lane': return modifier && modifier !== 'straight' ? `keep-${side(modifier)}` : 'straight';
    case 'roundabout':
    case 'rotary':
    case 'roundabout turn':
    case 'exit roundabout':
    case 'exit rotary': return `roundabout-${side(modifier)}`;
    default: return undefined;
  }
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The instruction as the platform writes it: HTML, road names in bold. */
export function htmlInstruction(s: OurStep): string {
  let html = escape(s.instruction);
  for (const n of [s.name, s.ref].filter((x): x is string => !!x)) {
    const e = escape(n);
    if (html.includes(e)) { html = html.split(e).join(`<b>${e}</b>`); break; }
  }
  return html;
}

const at = ([lng, lat]: number[]): LatLng => ({ lat, lng });

/** Steps of one of our legs; the arrival (a point, no distance) is not a step on the platform. */
export function stepsOf(leg: { steps?: OurStep[] }, units: 'metric' | 'imperial'): (Step & { name: string })[] {
  if (!Array.isArray(leg.steps)) return [];
  return leg.steps.filter((s) => s.maneuver.type !== 'arrive').map((s) => {
    const c = s.geometry.coordinates;
    const m = maneuverOf(s.maneuver.type, s.maneuver.modifier);
    return {
      distance: distance(s.distance_m, units),
      duration: duration(s.duration_s),
      start_location: at(s.maneuver.location),
      end_location: at(c[c.length - 1]),
      html_instructions: htmlInstruction(s),
      ...(m ? { maneuver: m } : {}),
      polyline: { points: encodeLngLat(c) },
      name: s.ref || s.name,
    };
  });
}

/** The platform's summary: the names of the longest roads of the route. */
export function summaryOf(steps: { name?: string; distance: { value: number } }[]): string {
  const byName = new Map<string, number>();
  for (const s of steps) if (s.name) byName.set(s.name, (byName.get(s.name) ?? 0) + s.distance.value);
  return [...byName.entries()].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([n]) => n).join(' and ');
}
