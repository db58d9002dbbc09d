// Arguments and answers of the lookup tasks: the gazetteer (workers/geo: geocoding, the
// gazetteer's places_* and nearby layers, boundaries), addresses (workers/geo/address), the POI
// build (workers/pois), traffic (workers/traffic), the static-map renderer (workers/render) and
// the pool's own control tasks (workers/system.ts). The tasks still check what they read (they are
// also called by tests and benches directly); these are the fields the HTTP side sends.

/** A gazetteer or POI record as answered (its fields depend on its kind). */
export type Place = Record<string, unknown>;

/** [lat, lng] to rank nearer results first. */
export type Focus = [number, number];

export interface TextSearchArgs { q?: string; limit?: number; country?: string; focus?: Focus }
export interface PointArgs { lat: number; lng: number }
export interface NearbyArgs extends PointArgs {
  radius?: number;
  limit?: number;
  category?: string;
  /** the name the caller's parameter has, for the 400 on a bad category (the alt platform says `type`) */
  categoryParam?: string;
}
export interface PlacesSearchArgs extends TextSearchArgs { category?: string; lat?: number; lng?: number; radius?: number }
export interface EarthquakesArgs extends PointArgs { radius_km?: number; min_magnitude?: number; since?: string; limit?: number }
export interface ReverseArgs extends PointArgs { radius?: number }
export interface IdArgs { id: string }

export interface ResultsReply { results: Place[]; [field: string]: unknown }
export interface SuggestReply { suggestions: Place[]; sandbox?: boolean }
export interface PlaceReply { result: Place; sandbox?: boolean }
/** OpenStreetMap admin_level units (`admin`) exist only where a country was built from a full-tag extract. */
export interface BoundariesReply { country: Place | null; admin1: Place | null; admin: Place[]; note: string; sandbox?: boolean }

export interface AddressParseArgs { q?: string; country?: string }
export interface AddressVerifyArgs { address?: string; components?: Record<string, string>; country?: string; lat?: number; lng?: number }
export interface AddressAutocompleteArgs { q?: string; focus?: Focus; country?: string; sessiontoken?: string; limit?: number }
/** The address tasks' answers: parsed components, resolution and confidence (see the /address operations). */
export type AddressReply = Record<string, unknown>;

export interface PoiSearchArgs { q?: string; category?: string; lat?: number; lng?: number; radius?: number; limit?: number }
export interface MarketReply { market: Place }
/** Task `hotels_search`: lodging of the POI build, optionally of a category and at least `min_stars`. */
export interface HotelsSearchArgs extends PoiSearchArgs { min_stars?: number }

export interface TrafficSegmentsArgs {
  /** west, south, east, north */
  bbox: [number, number, number, number];
  mode: 'live' | 'forecast';
  /** forecast: day of week (0 = Sunday, UTC) and hour. */
  dow?: number;
  hour?: number;
  limit: number;
}
export interface TrafficSegmentsReply { type: 'FeatureCollection'; features: Record<string, unknown>[]; [field: string]: unknown }
/** Probe traces to turn into speed samples: each point [lat, lng, unix seconds]. */
export interface TrafficSamplesArgs { traces: { device: string; points: [number, number, number][] }[] }
export interface TrafficSample { extract: string; profile: string; edge: number; dir: number; ts: number; speed_kph: number; device: string }
export interface TrafficSamplesReply { samples: TrafficSample[]; traces: { matched: number; unmatched: number } }

/** What a worker thread says about itself (/healthz, the capability document, the pool's start). */
export interface DescribeReply { ops: string[]; datasets: { dataset: string; name: string; files: string[] }[]; young_mb: number | null }
