// The alt platform (Google Maps Platform web services) compatibility layer: its request
// parameters and response envelopes over our own data and engine. See docs/compat-alt.md.
import type { RouteDef } from '../../../http/types.ts';
import { geocode } from './geocode.ts';
import { autocomplete } from './autocomplete.ts';
import { nearbysearch } from './nearbysearch.ts';
import { placedetails } from './placedetails.ts';
import { directions } from './directions.ts';
import { distancematrix } from './distancematrix.ts';
import { staticmap } from './staticmap.ts';

const primary: RouteDef[] = [geocode, directions, autocomplete, nearbysearch, placedetails, distancematrix, staticmap];

/**
 * The platform's own paths below /compat/alt, so a client built on a base URL (the platform's
 * Python client's `base_url`, an HTTP proxy rule) migrates by changing that URL and the key only:
 * https://maps.googleapis.com/maps/api/geocode/json → {base}/api/v1/compat/alt/maps/api/geocode/json.
 */
const PLATFORM_PATHS: Record<string, string> = {
  geocode: 'maps/api/geocode/json',
  directions: 'maps/api/directions/json',
  autocomplete: 'maps/api/place/autocomplete/json',
  nearbysearch: 'maps/api/place/nearbysearch/json',
  placedetails: 'maps/api/place/details/json',
  distancematrix: 'maps/api/distancematrix/json',
  staticmap: 'maps/api/staticmap',
};

function aliasOf(r: RouteDef): RouteDef | null {
  const name = r.path.slice('/compat/alt/'.length);
  const p = PLATFORM_PATHS[name];
  if (!p) return null;
  return { ...r, path: `/compat/alt/${p}`, decl: r.decl && { ...r.decl, summary: `${r.decl.summary} (the platform's path; same as /compat/alt/${name})` } };
}

export const routes: RouteDef[] = [...primary, ...primary.map(aliasOf).filter((r): r is RouteDef => r !== null)];
