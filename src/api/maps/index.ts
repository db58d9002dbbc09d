// Maps: tiles, styles, glyphs, sprites, static maps, the embed page, the browser SDK and geocoder adapter.
import type { RouteDef } from '../../http/types.ts';
import { routes as tiles } from './tiles.ts';

export const routes: RouteDef[] = [...tiles];
