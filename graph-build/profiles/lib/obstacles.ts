// Obstacles at tagged nodes other than barriers (profiles/lib/obstacles.lua): traffic signals,
// stop and give-way signs, crossings, traffic calming… with their duration and direction.
import type { Obstacle, ObstacleDirection, ObstacleType, Tags } from '../types.ts';

/** highway=* values that are obstacles (OSRM's obstacle_type names). */
const TYPES = new Set<string>(['traffic_signals', 'stop', 'give_way', 'crossing', 'traffic_calming', 'mini_roundabout', 'turning_loop', 'turning_circle']);
const DIRECTIONS = new Set<string>(['none', 'forward', 'backward', 'both']);

/** Seconds at a traffic signal (car.lua sets no traffic_signal_penalty, so the library's 2 s). */
export const TRAFFIC_SIGNAL_PENALTY = 2;

export function highwayObstacles(t: Tags, trafficSignalPenalty = TRAFFIC_SIGNAL_PENALTY): Obstacle[] {
  const highway = t.highway;
  if (highway === undefined || !TYPES.has(highway)) return [];
  let type = highway as ObstacleType;
  let direction = t.direction;
  let duration = 0;
  if (type === 'traffic_signals') {
    direction = t['traffic_signals:direction'] ?? direction;
    duration = trafficSignalPenalty;
  }
  if (type === 'stop') {
    if (t.stop === 'minor') type = 'stop_minor';
    duration = 2;
  }
  if (type === 'give_way') duration = 1;
  const dir: ObstacleDirection = direction !== undefined && DIRECTIONS.has(direction) ? (direction as ObstacleDirection) : 'none';
  return [{ type, direction: dir, duration, weight: 0 }];
}
