// The capability document (SPEC §1, §2). A capability is true only when a registered
// route serves it and that route reports itself ready (its op is registered in the
// workers and its data is loaded) — derived, never a hand-kept list of trues.
import type { AppContext, RouteDef } from './http/types.ts';

export const CAPABILITIES = [
  'geocode', 'reverse', 'suggest', 'parse_freeform', 'hints', 'dispatchable', 'staticmap',
  'route_driving', 'route_truck', 'google_compat', 'map_embed', 'browser_map_sdk', 'place_by_id',
  'places_search', 'places_nearby', 'businesses_search', 'markets', 'address_autocomplete',
  'address_verify', 'delivery_code', 'trip_outcome_webhook', 'pin_confirm', 'track_ping',
  'track_trail', 'pod', 'disputes', 'traffic', 'traffic_contribute', 'weather', 'transit_nearby',
  'health_nearby', 'earthquakes_nearby', 'waterways', 'protected_areas', 'boundaries_at',
  'geofence_check', 'fleet_vehicles', 'verify_products',
  // the ride-hailing and hotels product areas (SPEC §1), one entry per part that can be on or off
  'fleet_nearest', 'pickup_points', 'trip_share', 'hotels',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const RECIPES: Record<string, string[]> = {
  logistics: ['geocode', 'stops/confirm', 'track/ping', 'pod', 'disputes'],
  marketplace: ['geocode', 'places/search', 'staticmap', 'stops/confirm'],
  wallet: ['address/verify', 'geocode', 'delivery/{code}'],
  fleet_ops: ['traffic', 'fleet/vehicles', 'geofence/check', 'track/ping'],
  website_map: ['embed', 'sdk/v1/svc.js', 'staticmap'],
  migrate_alt: ['compat/alt/geocode', 'compat/alt/directions', 'compat/alt/nearbysearch', 'compat/alt/autocomplete', 'compat/alt/staticmap'],
};

/** Why a capability is off when no route serves it. */
const OFF_NOTES: Partial<Record<Capability, string>> = {
  route_truck: 'Truck routing is not offered: /route with mode=truck (or hgv) answers 501.',
  traffic: 'No routed driving graph with traffic state is loaded, or map matching is not available in this build.',
  weather: 'No weather upstream is configured (WEATHER_URL), or it has not answered yet since start: no weather is invented.',
  protected_areas: 'No protected-area polygons are loaded: the default African road extracts carry no such features (and no open African protected-area set is available offline). An operator builds them from a full-tag OpenStreetMap extract: npm run graph-build -- pois --input country.osm.pbf, then reload.',
  businesses_search: 'No business data is loaded: the default African road extracts carry no POIs. An operator builds them from a full-tag OpenStreetMap extract: npm run graph-build -- pois --input country.osm.pbf, then reload.',
  markets: 'No market data is loaded: the default African road extracts carry no POIs. An operator builds them from a full-tag OpenStreetMap extract: npm run graph-build -- pois --input country.osm.pbf, then reload.',
};

export function capabilityDocument(routes: RouteDef[], ctx: AppContext) {
  const capabilities = {} as Record<Capability, boolean>;
  const notes: Record<string, string> = {};
  for (const c of CAPABILITIES) {
    const serving = routes.filter((r) => r.capabilities?.includes(c));
    const live = serving.filter((r) => (r.ready ? safe(() => r.ready!(ctx)) : true));
    // route_truck is never on: its route exists only to answer 501.
    capabilities[c] = c !== 'route_truck' && live.length > 0;
    if (capabilities[c]) {
      const n = live.map((r) => r.note).filter(Boolean);
      notes[c] = n.length ? [...new Set(n)].join(' ') : `Served by ${live.map((r) => `${r.method} ${displayPath(r.path)}`).join(', ')}.`;
    } else if (serving.length) {
      const why = serving.find((r) => r.offNote)?.offNote;
      notes[c] = (why && safeText(() => why(ctx))) || (OFF_NOTES[c] ?? `${serving.map((r) => displayPath(r.path)).join(', ')} is registered but its data is not loaded in this build.`);
    } else {
      notes[c] = OFF_NOTES[c] ?? 'Not available in this build.';
    }
  }
  return {
    version: 'v1',
    product: 'svc maps, address and logistics API for the 54 African countries',
    docs: `${ctx.config.baseUrl}/docs`,
    reference: `${ctx.config.baseUrl}/reference`,
    capabilities,
    notes,
    recipes: RECIPES,
  };
}

const displayPath = (p: string) => (p.startsWith('//') ? p.slice(1) : `/api/v1${p}`);

function safeText(f: () => string): string | null {
  try { return f(); } catch { return null; }
}

function safe(f: () => boolean): boolean {
  try { return !!f(); } catch { return false; }
}
