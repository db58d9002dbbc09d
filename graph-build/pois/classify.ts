// Which OpenStreetMap objects are places this service serves, and as what: businesses (shop,
// office, craft, the commercial amenities, lodging), markets (amenity=marketplace) and protected
// areas (boundary=protected_area, boundary=national_park, leisure=nature_reserve).
import { LODGING_CATEGORIES, type PoiKind } from '../../src/core/format/pois.ts';

/** amenity=* values that are businesses (services a customer walks into). */
export const BUSINESS_AMENITIES = new Set([
  'restaurant', 'cafe', 'fast_food', 'bar', 'pub', 'biergarten', 'food_court', 'ice_cream', 'bank', 'atm', 'bureau_de_change', 'money_transfer',
  'mobile_money_agent', 'payment_centre', 'fuel', 'charging_station', 'car_wash', 'car_rental', 'pharmacy', 'clinic', 'doctors', 'dentist', 'veterinary',
  'post_office', 'internet_cafe', 'cinema', 'nightclub', 'driving_school', 'marketplace_stall', 'laundry', 'hairdresser', 'taxi',
]);
const LODGING_SET: Set<string> = new Set(LODGING_CATEGORIES);

export interface Classified { kind: PoiKind; category: string; group: string }

export function classify(t: Record<string, string> | undefined): Classified | null {
  if (!t) return null;
  if (t.boundary === 'protected_area' || t.boundary === 'national_park' || t.leisure === 'nature_reserve') {
    const category = t.boundary === 'national_park' ? 'national_park' : t.leisure === 'nature_reserve' ? 'nature_reserve' : 'protected_area';
    return { kind: 'protected_area', category, group: 'protected_area' };
  }
  if (t.amenity === 'marketplace') return { kind: 'market', category: 'marketplace', group: 'market' };
  if (t.shop) return { kind: 'business', category: t.shop === 'yes' ? 'shop' : t.shop, group: 'shop' };
  if (t.amenity && BUSINESS_AMENITIES.has(t.amenity)) return { kind: 'business', category: t.amenity, group: 'amenity' };
  if (t.office) return { kind: 'business', category: t.office === 'yes' ? 'office' : t.office, group: 'office' };
  if (t.craft) return { kind: 'business', category: t.craft === 'yes' ? 'craft' : t.craft, group: 'craft' };
  if (t.tourism && LODGING_SET.has(t.tourism)) return { kind: 'business', category: t.tourism, group: 'tourism' };
  return null;
}

/** Tags kept per item (the rest of an OSM object's tags is not served). */
export const KEPT_TAGS = [
  'name:en', 'name:fr', 'name:ar', 'name:pt', 'brand', 'operator', 'opening_hours', 'phone', 'contact:phone', 'website', 'contact:website', 'email',
  'addr:housenumber', 'addr:street', 'addr:suburb', 'addr:city', 'addr:postcode', 'cuisine', 'wheelchair', 'payment:mobile_money',
  'stars', 'rooms', 'beds', 'check_in', 'check_out', 'url', 'contact:email', 'internet_access',
  'protect_class', 'protection_title', 'iucn_level', 'designation', 'ownership', 'wikidata', 'wikipedia', 'opening_date', 'start_date',
];
