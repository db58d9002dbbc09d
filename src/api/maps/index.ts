// Maps: tiles, styles, glyphs, sprites, static maps, the embed page, the browser SDK and geocoder adapter.
import type { RouteDef } from '../../http/types.ts';
import { routes as tiles } from './tiles.ts';
import { routes as staticmap } from './staticmap.ts';
import { routes as sdk } from './sdk.ts';
export { renderStaticMap } from './staticmap.ts';
export type { StaticMapSpec, StaticMarker, StaticPath } from '../../core/maps/staticmap.ts';

export const routes: RouteDef[] = [...tiles, ...staticmap, ...sdk];
