// Every endpoint group of the API. Adding a group = one file in src/api/ and one line here.
import type { RouteDef } from '../http/types.ts';
import { routes as system } from './system.ts';
import { routes as route } from './route.ts';
import { routes as geo } from './geo.ts';
import { routes as logistics } from './logistics/index.ts';
import { routes as weather } from './weather/index.ts';
import { routes as traffic } from './traffic/index.ts';

export const allRoutes: RouteDef[] = [...system, ...route, ...geo, ...logistics, ...weather, ...traffic];
