// The task map: every task a worker thread answers, its arguments and its answer. The pool's
// run() takes an op and exactly that op's arguments (src/pool/worker-pool.ts), and every worker
// module's task table is checked against the same entries (TaskTable, with `satisfies`), so a field
// renamed on one side fails to compile on the other instead of failing at run time.
//
// `reply` is the JSON body a task answers with on success (the worker adds `attribution`); errors
// are TaskErrorBody with their status. The main thread mostly writes the bytes out unread; where it
// reads them it decodes with replyJson().
import type { BinaryBody, JsonText, TaskContext, TaskReply } from '../task.ts';
import type { StaticMapSpec } from '../maps/staticmap.ts';
import type * as R from './routing.ts';
import type * as L from './lookup.ts';

export * from './routing.ts';
export * from './lookup.ts';

export interface TaskMap {
  // the pool's control tasks (workers/system.ts)
  ping: { args: null; reply: { ok: true } };
  describe: { args: null; reply: L.DescribeReply };
  // routing (workers/routing)
  route: { args: R.GuidedRouteArgs; reply: R.RouteReply };
  route_cost: { args: R.RouteArgs; reply: R.RouteCostReply };
  /** a part of a split or meeting matrix answers bytes (src/pool/matrix-dispatch.ts reads them) */
  route_matrix: { args: R.MatrixArgs; reply: R.MatrixReply | BinaryBody };
  route_isochrone: { args: R.IsochroneArgs; reply: R.IsochroneReply };
  route_match: { args: R.MatchArgs; reply: R.MatchReply };
  route_optimize: { args: R.OptimizeArgs; reply: R.OptimizeReply };
  road_access: { args: R.RoadAccessArgs; reply: R.RoadAccessReply };
  osrm_route: { args: R.OsrmRouteArgs; reply: R.OsrmReply };
  osrm_nearest: { args: R.OsrmNearestArgs; reply: R.OsrmReply };
  osrm_table: { args: R.OsrmTableArgs; reply: R.OsrmReply };
  osrm_trip: { args: R.OsrmTripArgs; reply: R.OsrmReply };
  osrm_match: { args: R.OsrmMatchArgs; reply: R.OsrmReply };
  // ride: vehicles by ETA to a rider, kerb-side pickup roads (workers/routing/ride)
  fleet_eta: { args: R.FleetEtaArgs; reply: R.FleetEtaReply };
  pickup_roads: { args: R.PickupArgs; reply: R.PickupReply };
  // the gazetteer (workers/geo)
  geocode: { args: L.TextSearchArgs; reply: L.ResultsReply };
  suggest: { args: L.TextSearchArgs; reply: L.SuggestReply };
  reverse: { args: L.ReverseArgs; reply: L.ResultsReply };
  places_nearby: { args: L.NearbyArgs; reply: L.ResultsReply };
  health_nearby: { args: L.NearbyArgs; reply: L.ResultsReply };
  transit_nearby: { args: L.NearbyArgs; reply: L.ResultsReply };
  place_by_id: { args: L.IdArgs; reply: L.PlaceReply };
  places_search: { args: L.PlacesSearchArgs; reply: L.ResultsReply };
  earthquakes_nearby: { args: L.EarthquakesArgs; reply: L.ResultsReply };
  waterways_nearby: { args: L.NearbyArgs; reply: L.ResultsReply };
  boundaries_at: { args: L.PointArgs; reply: L.BoundariesReply };
  // addresses (workers/geo/address)
  address_parse: { args: L.AddressParseArgs; reply: L.AddressReply };
  address_verify: { args: L.AddressVerifyArgs; reply: L.AddressReply };
  address_autocomplete: { args: L.AddressAutocompleteArgs; reply: L.AddressReply };
  // the POI build (workers/pois)
  businesses_search: { args: L.PoiSearchArgs; reply: L.ResultsReply };
  markets_list: { args: L.PoiSearchArgs; reply: L.ResultsReply };
  market_by_id: { args: L.IdArgs; reply: L.MarketReply };
  hotels_search: { args: L.HotelsSearchArgs; reply: L.ResultsReply };
  /** any item of the POI build by its svc:poi.<n|w|r><OSM id> */
  poi_by_id: { args: L.IdArgs; reply: L.PlaceReply };
  protected_at: { args: L.PointArgs; reply: L.ResultsReply };
  protected_nearby: { args: L.NearbyArgs; reply: L.ResultsReply };
  // traffic (workers/traffic)
  traffic_segments: { args: L.TrafficSegmentsArgs; reply: L.TrafficSegmentsReply };
  traffic_samples: { args: L.TrafficSamplesArgs; reply: L.TrafficSamplesReply };
  // the static-map renderer (workers/render): PNG bytes
  staticmap: { args: StaticMapSpec; reply: BinaryBody };
}

export type TaskOp = keyof TaskMap;
export type TaskArgs<K extends TaskOp> = TaskMap[K]['args'];
export type TaskResult<K extends TaskOp> = TaskMap[K]['reply'];

/** What a task function may return for answer R: the object, or its JSON already written as text (or bytes, when R is). */
export type TaskAnswer<Rp> = Rp | JsonText<Exclude<Rp, BinaryBody>>;

/** A worker module's task functions for ops K, each taking exactly that op's arguments. */
export type TaskTable<K extends TaskOp> = { [P in K]: (args: TaskArgs<P>, ctx: TaskContext) => TaskAnswer<TaskResult<P>> };

/** One task of a job the caller splits over threads (the pool's runSpread and runTogether). */
export interface TaskCall<K extends TaskOp> { op: K; args: TaskArgs<K>; attached?: Uint8Array[] }

/** The body every failed task answers with (and its HTTP status). */
export interface TaskErrorBody { error: { code: string; message: string } }

const decoder = new TextDecoder();

/** A reply's JSON body, decoded: the answer on status 200, else the error body. */
export function replyJson<Rp>(r: TaskReply<Rp>): Rp | TaskErrorBody {
  return JSON.parse(decoder.decode(r.body));
}
