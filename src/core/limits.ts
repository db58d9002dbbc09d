// Request limits that both a declaration (src/api, which validates them) and a worker task
// (which applies the default when a direct caller omits the value) need: one constant each.
// Workers trust the validated arguments and never re-check these ranges.

export interface Limit { default: number; max: number; min?: number }

/** Results of geocode, suggest and text search. */
export const GEOCODE_LIMIT: Limit = { default: 5, max: 20 };
/** Search radius of reverse geocoding (nearest named street), metres. */
export const REVERSE_RADIUS: Limit = { default: 250, max: 5000 };
/** Radius of the nearby layers (places, health, transit), metres, and their result count. */
export const NEARBY_RADIUS: Limit = { default: 1000, max: 50_000 };
export const NEARBY_LIMIT: Limit = { default: 10, max: 50 };
/** Text search filtered by distance, metres; without text it browses the nearby layers (capped at NEARBY_RADIUS.max). */
export const SEARCH_RADIUS: Limit = { default: 50_000, max: 500_000 };
export const SEARCH_LIMIT: Limit = { default: 10, max: 20 };
/** Earthquakes: radius in kilometres and result count. */
export const QUAKE_RADIUS_KM: Limit = { default: 500, max: 5000, min: 0.001 };
export const QUAKE_LIMIT: Limit = { default: 10, max: 100 };
/** Rivers and lakes: metres and result count. */
export const WATER_RADIUS: Limit = { default: 10_000, max: 50_000 };
export const WATER_LIMIT: Limit = { default: 5, max: 50 };
/** Route snap radius: how far from a road a point may be, metres. */
export const SNAP_RADIUS: Limit = { default: 1000, max: 10_000 };
/** Intermediate points of one route. */
export const MAX_VIA = 25;

/** Contours of one isochrone and their largest values (plan-independent). */
export const ISOCHRONE_LIMITS = { contours: 4, minutes: 120, meters: 100_000 };
/** Points of one map-matched trace (plan-independent). */
export const MAX_TRACE_POINTS = 2000;
/** A fix's GPS accuracy the matcher takes, metres: above it a fix says nothing of the road. */
export const MAX_TRACE_ACCURACY_M = 1000;
/** Stops of one trip optimisation (plan-independent). */
export const MAX_STOPS = 200;

/** Plan-independent limits of one matrix request. */
export const MATRIX_LIMITS = {
  /** points per side in a POST body */
  maxPoints: 1000,
  /** sources × destinations */
  maxCells: 1_000_000,
  /** points per side in a GET URL (longer lists belong in a POST body) */
  maxPointsGet: 100,
};

/** Cells of one traffic-aware matrix: each cell is its own search over the traffic weights (workers/routing/matrix/task.ts). */
export const TRAFFIC_MATRIX_MAX_CELLS = 2_500;

/** Ride-hailing (src/api/ride): vehicles per answer of /fleet/vehicles/nearest, seconds of ETA and of position age. */
export const NEAREST_LIMIT: Limit = { default: 5, max: 50 };
export const NEAREST_MAX_ETA_S: Limit = { default: 1800, max: 10_800, min: 1 };
export const NEAREST_FRESH_S: Limit = { default: 300, max: 86_400, min: 1 };
/** Vehicles one nearest query routes (the crow-flies nearest of the fresh ones): one matrix column of this many rows. */
export const NEAREST_CANDIDATES = 1000;
/** Pickup points: search radius around the rider (metres) and named spots per answer. */
export const PICKUP_RADIUS: Limit = { default: 200, max: 500, min: 10 };
export const PICKUP_LIMIT: Limit = { default: 5, max: 20 };
