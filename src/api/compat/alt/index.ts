// The alt platform (Google Maps Platform web services) compatibility layer: its request
// parameters and response envelopes over our own data and engine. See docs/compat-alt.md.
import type { RouteDef } from '../../../http/types.ts';
import { geocode } from './geocode.ts';
import { autocomplete } from './autocomplete.ts';
import { nearbysearch } from './nearbysearch.ts';
import { placedetails } from './placedetails.ts';
import { directions } from './directions.ts';
import { distancematrix } from './distancematrix.ts';

export const routes: RouteDef[] = [geocode, directions, autocomplete, nearbysearch, placedetails, distancematrix];
