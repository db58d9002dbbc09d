// From a parsed address to places in the gazetteer: the most precise part that matches (street,
// landmark, locality, admin-1, country), and what each component matched. Geocode falls back to
// it when it cannot match a query whole; verify reads the per-component matches.
import type { Gazetteer } from '../store.ts';
import type { TextSearch } from '../text.ts';
import type { ParsedAddress, PlaceRef, AddressComponents } from './parse.ts';
import { CAT } from '../../../src/core/categories.ts';
import { haversine } from '../../../src/core/geometry.ts';

export const MATCH_LEVELS = ['premise', 'street', 'landmark', 'locality', 'admin1', 'country'] as const;
export type MatchLevel = (typeof MATCH_LEVELS)[number];

/** A street or landmark must lie this close to the locality the address names. */
export const NEAR_LOCALITY_M = 30_000;
/** Least text score of a street or landmark match (most of its words, typos allowed). */
const MIN_TEXT = 0.8;

export interface Matched { f: number; level: MatchLevel; component: keyof AddressComponents; score: number }

export interface Resolution {
  /** Best match first (the most precise level that matched). */
  best: Matched | null;
  /** Every component that matched a feature. */
  matched: Partial<Record<keyof AddressComponents, Matched>>;
  /** Country index (meta.countries) the address is in, or -1. */
  country: number;
}

const STREET_CATS = new Set([CAT.street]);
const EXCLUDE_FROM_LANDMARK = new Set([CAT.street, CAT.country, CAT.admin1, CAT.city, CAT.town, CAT.village, CAT.locality, CAT.earthquake, CAT.river, CAT.lake]);
const LANDMARK_CATS = new Set(Object.values(CAT).filter((c) => !EXCLUDE_FROM_LANDMARK.has(c)));

export function countryIndexOf(g: Gazetteer, cc: string | null | undefined): number {
  if (!cc) return -1;
  const i = (g.meta.countries as { code: string; alias?: boolean }[]).findIndex((c) => c.code === cc && !c.alias);
  return i;
}

/**
 * Looks up each component, most precise first. `accept` narrows every match (the sandbox box).
 * A street or landmark is taken only near the locality (or admin-1) the address names, when it names one.
 */
export function resolveParsed(g: Gazetteer, text: TextSearch, p: ParsedAddress, accept?: (f: number) => boolean): Resolution {
  const c = p.components;
  const country = countryIndexOf(g, c.country);
  const matched: Resolution['matched'] = {};
  const ok = (f: number) => !accept || accept(f);
  const ref = (r: PlaceRef | undefined, component: keyof AddressComponents, level: MatchLevel) => {
    if (r && r.f >= 0 && ok(r.f)) matched[component] = { f: r.f, level, component, score: 1 };
  };
  ref(p.refs.sublocality, 'sublocality', 'locality');
  ref(p.refs.locality, 'locality', 'locality');
  ref(p.refs.admin1, 'admin1', 'admin1');
  const anchor = matched.sublocality?.f ?? matched.locality?.f ?? -1;
  const a1 = matched.admin1?.f ?? -1;
  const near = (f: number) => {
    if (anchor >= 0) return haversine(g.lat[anchor], g.lng[anchor], g.lat[f], g.lng[f]) <= NEAR_LOCALITY_M;
    if (a1 >= 0 && g.admin1Unit) return g.admin1Unit[f] === g.admin1Unit[a1];
    return true;
  };
  const focus: [number, number] | null = anchor >= 0 ? [g.lat[anchor], g.lng[anchor]] : null;
  const find = (q: string | undefined, cats: Set<number>, component: keyof AddressComponents, level: MatchLevel) => {
    if (!q) return;
    const hits = text.search(q, { country, cats, accept: (f) => ok(f) && near(f) }, { limit: 3, focus, minCover: MIN_TEXT });
    const h = hits.find((x) => x.text >= MIN_TEXT);
    if (h) matched[component] = { f: h.f, level, component, score: Math.round(h.text * 1000) / 1000 };
  };
  find(c.street, STREET_CATS, 'street', 'street');
  find(c.cross_street, STREET_CATS, 'cross_street', 'street');
  find(c.landmark, LANDMARK_CATS, 'landmark', 'landmark');
  find(c.estate, LANDMARK_CATS, 'estate', 'landmark');
  if (country >= 0) {
    const cf = g.layers.country[0] + country;
    if (ok(cf) || !accept) matched.country = { f: cf, level: 'country', component: 'country', score: 1 };
  }
  const order: (keyof AddressComponents)[] = ['street', 'cross_street', 'landmark', 'estate', 'sublocality', 'locality', 'admin1', 'country'];
  let best: Matched | null = null;
  for (const k of order) if (matched[k]) { best = matched[k]!; break; }
  // The sandbox never answers with a whole country outside its box.
  if (best?.level === 'country' && accept && !accept(best.f)) best = null;
  return { best, matched, country };
}

/** Component ranks: what lies finer than a match level. */
const RANK: Partial<Record<keyof AddressComponents, number>> = {
  unit: 0, plot: 0, house_number: 0, street: 1, cross_street: 1, landmark: 2, estate: 2, sublocality: 3, locality: 3, admin1: 4, country: 5,
};
const LEVEL_RANK: Record<MatchLevel, number> = { premise: 0, street: 1, landmark: 2, locality: 3, admin1: 4, country: 5 };

/** True when the address names something finer than the level matched (a plot, an unknown street…). */
export function isPartial(c: AddressComponents, r: Resolution): boolean {
  if (!r.best) return true;
  const lv = LEVEL_RANK[r.best.level];
  for (const [k, rank] of Object.entries(RANK) as [keyof AddressComponents, number][]) {
    if (c[k] === undefined) continue;
    if (rank < lv) return true;
    if (rank === lv && !r.matched[k] && !(k === 'sublocality' && r.matched.locality) && !(k === 'locality' && r.matched.sublocality)) return true;
  }
  return false;
}

/** Whether a parse found address structure beyond a bare place name (then geocode resolves it by parts). */
export function hasStructure(p: ParsedAddress): boolean {
  const c = p.components;
  return !!(c.plot || c.unit || c.house_number || c.relation || c.po_box || c.postcode || c.street || c.estate || c.sublocality || c.cross_street
    || (c.landmark && (p.refs.locality || p.refs.admin1)));
}
