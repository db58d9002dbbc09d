// Placeholder until the route endpoints land (owned by that module's engineer).
import type { RouteDef } from '../http/types.ts';

export const routes: RouteDef[] = [];
