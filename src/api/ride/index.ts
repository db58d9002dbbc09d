// Ride-hailing, maps side only (SPEC §1: assignment stays with the caller): vehicles nearest a rider
// by road ETA, pickup points on the rider's side of the road, and shareable trip-tracking links.
import type { RouteDef } from '../../http/types.ts';
import { routes as nearest } from './nearest.ts';
import { routes as pickup } from './pickup-points.ts';
import { routes as tripLinks } from './trip-links.ts';

export const routes: RouteDef[] = [...nearest, ...pickup, ...tripLinks];
