// Turn-by-turn steps of a leg in the platform's shape (html_instructions, maneuver, polyline),
// from the guidance our route task gives with steps=true.
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
  /** Road name, for the route summary (not part of the platform's step). */
  name?: string;
}

/** Steps of one of our legs; none when this build's route task gives no guidance. */
export function stepsOf(leg: any, _piece: number[][], _mode: string, _units: 'metric' | 'imperial'): Step[] {
  if (!Array.isArray(leg.steps)) return [];
  void distance; void duration; void encodeLngLat;
  return [];
}

/** The platform's summary: the names of the longest roads of the route. */
export function summaryOf(steps: Step[]): string {
  const byName = new Map<string, number>();
  for (const s of steps) if (s.name) byName.set(s.name, (byName.get(s.name) ?? 0) + s.distance.value);
  return [...byName.entries()].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([n]) => n).join(' and ');
}
