// Every endpoint group of the API. Adding a group = one file in src/api/ and one line in each list here.
import type { RouteDef } from '../http/types.ts';
import { routes as system } from './system.ts';
import { routes as route } from './route.ts';
import { routes as matrix } from './matrix.ts';
import { routes as optimize } from './optimize.ts';
import { routes as match } from './match.ts';
import { routes as isochrone } from './isochrone.ts';
import { routes as geo } from './geo.ts';
import { routes as address } from './address.ts';
import { routes as placesOsm } from './places-osm.ts';
import { routes as hotels } from './hotels.ts';
import { routes as logistics } from './logistics/index.ts';
import { routes as ride } from './ride/index.ts';
import { routes as weather } from './weather/index.ts';
import { routes as traffic } from './traffic/index.ts';
import { routes as webhooks } from './webhooks.ts';
import { routes as dashboard } from './dashboard/index.ts';
import { routes as maps } from './maps/index.ts';
import { routes as compatAlt } from './compat/alt/index.ts';
import { routes as osrm } from './osrm/index.ts';
import { readinessRoutes } from '../http/readiness.ts';
import { routes as verify } from './verify/index.ts';

export const allRoutes: RouteDef[] = [
  ...system,
  ...readinessRoutes,
  ...route,
  ...matrix,
  ...optimize,
  ...match,
  ...isochrone,
  ...geo,
  ...address,
  ...placesOsm,
  ...hotels,
  ...logistics,
  ...verify,
  ...ride,
  ...weather,
  ...webhooks,
  ...dashboard,
  ...maps,
  ...compatAlt,
  ...traffic,
  ...osrm,
];
