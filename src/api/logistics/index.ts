// The proof layer: stops and pin confirmation, delivery codes, GPS tracking,
// proof of delivery, disputes, trip outcomes, geofences and fleet — all on Postgres,
// every row scoped to the key's project and sandbox (see owner.ts).
import type { RouteDef } from '../../http/types.ts';
import { routes as stops } from './stops.ts';
import { routes as tracking } from './tracking.ts';
import { routes as pod } from './pod.ts';
import { routes as disputes } from './disputes.ts';
import { routes as tripOutcomes } from './trip-outcomes.ts';
import { routes as geofence } from './geofence.ts';
import { routes as fleet } from './fleet.ts';
import { routes as dispatchable } from './dispatchable.ts';

// The store is always present (PGlite when no DATABASE_URL), so these routes are ready
// whenever the server runs; a database that is down shows in /healthz, not here.
export const routes: RouteDef[] = [...stops, ...tracking, ...pod, ...disputes, ...tripOutcomes, ...geofence, ...fleet, ...dispatchable];
