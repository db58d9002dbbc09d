// Every response carries this (JSON field `attribution`, header `X-Attribution`, drawn on images).
// It names the service and the licences of the data it serves from.
export const ATTRIBUTION =
  'svc maps API. Data © OpenStreetMap contributors (ODbL), GeoNames (CC BY 4.0), Natural Earth (public domain), healthsites.io (ODbL), WHO/KEMRI-Wellcome, USGS, GTFS feeds of Accra, Nairobi and Kigali';

/** HTTP header values must be Latin-1; spell the copyright sign out. */
export const ATTRIBUTION_HEADER = ATTRIBUTION.replace('©', '(c)');
