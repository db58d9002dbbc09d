// Arguments and answers of the routing tasks (workers/routing), declared here so that the HTTP
// side and the workers compile against one definition: a field renamed on one side no longer
// compiles on the other. The HTTP layer validates before it calls; the tasks still check what
// they are also called with directly (tests, benches).
import type { GuidanceLang } from '../guidance.ts';

/** The profiles a road extract is built and routed for (the travel-mode rule lives in core/modes.ts). */
export { MODES as ROUTED_MODES, type Mode as RoutedMode } from '../modes.ts';
import type { Mode as RoutedMode } from '../modes.ts';

/** [lat, lng] */
export type LatLng = [number, number];

export interface TrafficArgs {
  /** live: observed speeds where published; forecast: the weekly profile at depart_at; none (default): profile speeds only. */
  traffic?: 'live' | 'forecast' | 'none';
  /** Epoch ms of departure (forecast slot); default now. */
  depart_at?: number;
}

/** What a route's answer says about the traffic it used. */
export interface TrafficUse { mode: 'live' | 'forecast'; applied: boolean; edges_with_data: number; slot?: { dow: number; hour: number } }

/** One route through `from`, the `via` points in order and `to` (task `route_cost`; `route` adds guidance). */
export interface RouteArgs extends TrafficArgs {
  from: LatLng;
  to: LatLng;
  via?: LatLng[];
  mode?: RoutedMode;
  radius?: number;
  /** 'any': a point may also snap to roads a route may not start on (ferries, private service roads): OSRM's snapping=any */
  snapping?: 'default' | 'any';
}

/** Task `route`: steps and alternatives take the guided path. */
export interface GuidedRouteArgs extends RouteArgs { steps?: boolean; lang?: GuidanceLang; alternatives?: number }

export interface SnappedPoint { lat: number; lng: number; distance_m: number }

/** The native /route answer (GET /route). */
export interface RouteReply {
  route: {
    mode: RoutedMode;
    distance_m: number;
    duration_s: number;
    geometry: { type: 'LineString'; coordinates: [number, number][] };
    legs: { distance_m: number; duration_s: number; steps?: Record<string, unknown>[] }[];
    snapped: { from: SnappedPoint; to: SnappedPoint; via?: SnappedPoint[] };
    extract: string;
    /** the rules of an operator's driving_tracks graph (car.lua's driving graph says nothing) */
    profile?: string;
    traffic?: TrafficUse;
  };
  alternatives?: Omit<RouteReply['route'], 'snapped' | 'extract' | 'profile' | 'traffic'>[];
}

/** Task `route_cost`: cost and length only (no geometry), for benches and the alt-platform matrix. */
export interface RouteCostReply { cost_ms: number; distance_m: number; settled: number; extract: string }

/** Task `route_matrix`. `rows`, `stream` and the meeting fields are set by the pool's matrix dispatch only. */
export interface MatrixArgs extends TrafficArgs {
  sources: LatLng[];
  destinations: LatLng[];
  mode?: string;
  radius?: number;
  rows?: [number, number];
  /** send the rows ahead in pieces where the thread can */
  stream?: boolean;
  /**
   * A matrix on several idle threads at once (src/pool/matrix-dispatch.ts, src/core/meet.ts): side
   * `side` of `sides` writes the upward search spaces of points [part[0], part[1]) of sources ++
   * destinations into its region (`room` Float64s) of the shared buffer attached to the task, waits
   * for the other sides, and answers rows `rows` as a part from every point's space, without a
   * search of its own.
   */
  phase?: 'meet';
  part?: [number, number];
  side?: number;
  sides?: number;
  room?: number;
}

/** The whole matrix answer. A part (rows of a split matrix) comes back as bytes instead (matrix-dispatch.ts reads them). */
export interface MatrixReply {
  durations_s: (number | null)[][];
  distances_m: (number | null)[][];
  sources: (SnappedPoint | null)[];
  destinations: (SnappedPoint | null)[];
  mode: string;
  extract: string;
  /** as RouteReply's */
  profile?: string;
  traffic?: TrafficUse | null;
}

/** Task `fleet_eta` (GET /fleet/vehicles/nearest): vehicles ranked by road ETA to one rider. */
export interface FleetEtaArgs {
  rider: LatLng;
  vehicles: LatLng[];
  radius?: number;
}
/** One vehicle's ETA, or why it has none; a vehicle never fails the rest. */
export type VehicleEta =
  | { eta_s: number; distance_m: number; snap_m: number }
  | { unreachable: 'out_of_coverage' | 'no_road' | 'no_route' };
export interface FleetEtaReply { extract: string; rider: SnappedPoint; vehicles: VehicleEta[] }

/** Task `pickup_roads` (GET /pickup-points): road points near a rider with the approach that keeps the rider on the kerb side. */
export interface PickupArgs {
  at: LatLng;
  radius: number;
  /** which side of the road traffic keeps to where the rider is */
  driving_side: 'left' | 'right';
  limit: number;
}
export interface PickupRoad {
  lat: number; lng: number; distance_m: number;
  road: string | null; ref: string | null; class: string | null;
  oneway: boolean;
  approach: 'curb' | 'oneway' | 'either';
  heading_deg: number;
  rider_side: 'left' | 'right' | 'on_road';
  curb_side: boolean;
}
export interface PickupReply { extract: string; driving_side: 'left' | 'right'; points: PickupRoad[] }

/** Contours in minutes or in metres, never both; their count and range are ISOCHRONE_LIMITS' (src/core/limits.ts), checked before. */
export type IsochroneArgs = { from: LatLng; mode?: string; radius?: number } & ({ minutes: number[]; meters?: undefined } | { meters: number[]; minutes?: undefined });
export interface IsochroneReply {
  type: 'FeatureCollection';
  features: { type: 'Feature'; geometry: { type: 'MultiPolygon'; coordinates: number[][][][] }; properties: Record<string, unknown> }[];
  snapped: SnappedPoint;
  cell_m: number;
  reached_nodes: number;
  mode: string;
  extract: string;
}

/** A fix: ts in unix seconds, accuracy_m in (0, MAX_TRACE_ACCURACY_M]. */
export interface TracePoint { lat: number; lng: number; ts?: number; accuracy_m?: number }
/** 2 to MAX_TRACE_POINTS fixes (src/core/limits.ts), checked before. */
export interface MatchArgs { points: TracePoint[]; mode?: string }
export interface MatchReply {
  matchings: { geometry: { type: 'LineString'; coordinates: [number, number][] }; distance_m: number; duration_s: number; confidence: number; from: number; to: number; points: number }[];
  /** each fix where it was matched, or null (an outlier, or no road near) */
  points: ({ lat: number; lng: number; distance_m: number; matching: number } | null)[];
  confidence: number;
  mode: string;
  extract: string;
}

export interface Stop { lat: number; lng: number; id?: string; service_s?: number; time_window?: [number, number] }
export interface OptimizeArgs { start: LatLng; end?: LatLng; round_trip?: boolean; stops: Stop[]; mode?: string; radius?: number }
export interface OptimizeReply {
  order: number[];
  stops: Record<string, unknown>[];
  legs: Record<string, unknown>[];
  distance_m: number;
  duration_s: number;
  total_time_s: number;
  unmet_time_windows: { index: number; id?: string; late_s: number }[];
  round_trip: boolean;
  method: string;
  mode: string;
  extract: string;
}

/** Task `road_access`: the nearest drivable road and the main network near a point. */
export interface RoadAccessArgs { lat: number; lng: number; search_m?: number }
export interface RoadAccessReply {
  covered: boolean;
  extract: string | null;
  nearest_road: { distance_m: number; lat: number; lng: number; on_main_network: boolean } | null;
  main_network: { distance_m: number; lat: number; lng: number; nodes: number } | null;
  search_m: number;
}

// ---- the OSRM v5 layer (/osrm/…): OSRM's own bodies, errors included ({code, message}, answered 400)

// the option vocabularies are core/osrm.ts's, shared with the HTTP declarations
export { ANNOTATIONS, type Annotation, type Geometries, type Overview } from '../osrm.ts';
import type { Geometries, Overview } from '../osrm.ts';

export interface OsrmRouteArgs {
  /** [lng, lat] as OSRM writes them */
  coordinates: [number, number][];
  mode: RoutedMode;
  radius: number;
  steps: boolean;
  alternatives: number;
  geometries: Geometries;
  overview: Overview;
  annotations: string[];
  skipWaypoints: boolean;
  /** OSRM's snapping option */
  snapping?: 'default' | 'any';
}
export interface OsrmNearestArgs { coordinate: [number, number]; mode: RoutedMode; number: number; radius?: number }
export interface OsrmTableArgs {
  coordinates: [number, number][];
  mode: RoutedMode;
  radius: number;
  /** indices into coordinates */
  sources: number[];
  destinations: number[];
  annotations: ('duration' | 'distance')[];
  fallbackSpeed?: number;
  fallbackCoordinate: 'input' | 'snapped';
  scaleFactor: number;
  skipWaypoints: boolean;
}
export interface OsrmTripArgs extends Omit<OsrmRouteArgs, 'alternatives'> {
  roundtrip: boolean;
  /** first coordinate fixed as the start (OSRM's source=first; source=any starts there too) */
  destinationLast: boolean;
}
export interface OsrmMatchArgs extends Omit<OsrmRouteArgs, 'alternatives' | 'radius'> {
  /** unix seconds per coordinate (gaps=split splits where they jump), or none */
  timestamps?: number[];
  /** GPS accuracy (metres) per coordinate, null = default */
  radiuses?: (number | null)[];
}
/** An OSRM answer: `code` 'Ok' with the service's fields, or an error code and message. */
export interface OsrmReply { code: string; message?: string; [field: string]: unknown }
