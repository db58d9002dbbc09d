// The vocabulary of OSRM's v5 HTTP options that the HTTP layer (src/api/osrm.ts) declares and the
// routing workers (workers/routing/osrm/osrm.ts) answer: one list of each, so both sides agree.

/** `annotations=` values, in OSRM's order; `annotations=true` means all but `nodes`. */
export const ANNOTATIONS = ['duration', 'distance', 'speed', 'weight', 'datasources', 'nodes'] as const;
export type Annotation = (typeof ANNOTATIONS)[number];

/** `geometries=` values. */
export const GEOMETRIES = ['polyline', 'polyline6', 'geojson'] as const;
export type Geometries = (typeof GEOMETRIES)[number];

/** `overview=` values we answer (OSRM's by_legs is refused with NotImplemented). */
export const OVERVIEWS = ['simplified', 'full', 'false'] as const;
export type Overview = (typeof OVERVIEWS)[number];
