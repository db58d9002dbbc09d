// Feature categories (the `type` of a result) and the layers they belong to. Codes are
// stored per feature as a Uint8 index into CATEGORIES, so the order here is part of the
// gazetteer file format: append only, and bump GAZ_VERSION when changing it.

export const CATEGORIES = [
  'country', 'city', 'town', 'village', 'locality',
  'airport', 'port', 'river', 'lake', 'street',
  'hospital', 'clinic', 'health_centre', 'health_post', 'dispensary', 'pharmacy', 'doctors', 'dentist', 'health_other',
  'bus_stop', 'earthquake', 'admin1', 'address', 'admin',
] as const;
export type Category = (typeof CATEGORIES)[number];
export const CAT: Record<Category, number> = Object.fromEntries(CATEGORIES.map((c, i) => [c, i])) as any;

/** Layers: contiguous feature-id ranges with one spatial index each. */
export const LAYERS = ['country', 'place', 'poi', 'water', 'street', 'health', 'transit', 'quake', 'admin1', 'address', 'admin'] as const;
export type Layer = (typeof LAYERS)[number];

export const HEALTH_CATEGORIES: Category[] = ['hospital', 'clinic', 'health_centre', 'health_post', 'dispensary', 'pharmacy', 'doctors', 'dentist', 'health_other'];
export const PLACE_CATEGORIES: Category[] = ['city', 'town', 'village', 'locality'];

/**
 * Categories accepted by /places/nearby and /places/search, with the layer to search
 * and the category codes that match. Group names (place, health) cover several.
 */
export const NEARBY: Record<string, { layer: Layer; cats: Category[] }> = {
  city: { layer: 'place', cats: ['city'] },
  town: { layer: 'place', cats: ['town'] },
  village: { layer: 'place', cats: ['village'] },
  locality: { layer: 'place', cats: ['locality'] },
  place: { layer: 'place', cats: PLACE_CATEGORIES },
  airport: { layer: 'poi', cats: ['airport'] },
  port: { layer: 'poi', cats: ['port'] },
  bus_stop: { layer: 'transit', cats: ['bus_stop'] },
  transit: { layer: 'transit', cats: ['bus_stop'] },
  health: { layer: 'health', cats: HEALTH_CATEGORIES },
  hospital: { layer: 'health', cats: ['hospital'] },
  clinic: { layer: 'health', cats: ['clinic'] },
  health_centre: { layer: 'health', cats: ['health_centre'] },
  health_post: { layer: 'health', cats: ['health_post'] },
  dispensary: { layer: 'health', cats: ['dispensary'] },
  pharmacy: { layer: 'health', cats: ['pharmacy'] },
  doctors: { layer: 'health', cats: ['doctors'] },
  dentist: { layer: 'health', cats: ['dentist'] },
  health_other: { layer: 'health', cats: ['health_other'] },
};
/** Aliases callers commonly send (Google place types, spelling variants). */
export const NEARBY_ALIASES: Record<string, string> = {
  health_center: 'health_centre', bus_station: 'bus_stop', transit_station: 'bus_stop', stop: 'bus_stop',
  doctor: 'doctors', seaport: 'port', harbour: 'port', harbor: 'port', hospitals: 'hospital', pharmacies: 'pharmacy',
  drugstore: 'pharmacy', chemist: 'pharmacy', locality_any: 'place', settlement: 'place',
};
export const NEARBY_NAMES = Object.keys(NEARBY);

/** Resolve a caller's category (already lower-cased) to a NEARBY key, or null when unknown. */
export function resolveCategory(c: string): string | null {
  const k = c.trim().toLowerCase().replace(/[\s-]+/g, '_');
  if (NEARBY[k]) return k;
  if (NEARBY_ALIASES[k]) return NEARBY_ALIASES[k];
  return null;
}

/** Lagos State bounding box (sandbox for svc_test_ keys); checked against GeoNames Lagos State places. */
export const LAGOS_BBOX = { minLat: 6.37, maxLat: 6.70, minLng: 2.70, maxLng: 4.35 };
export function inLagos(lat: number, lng: number): boolean {
  return lat >= LAGOS_BBOX.minLat && lat <= LAGOS_BBOX.maxLat && lng >= LAGOS_BBOX.minLng && lng <= LAGOS_BBOX.maxLng;
}
