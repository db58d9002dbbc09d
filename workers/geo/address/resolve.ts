// From a parsed address to places in the gazetteer: the most precise part that matches (street,
// landmark, locality, admin-1, country), and what each component matched. Geocode falls back to
// it when it cannot match a query whole; verify reads the per-component matches.
import type { Gazetteer } from '../store.ts';
import type { TextSearch } from '../text.ts';
import type { ParsedAddress, PlaceRef, AddressComponents } from './parse.ts';
import { CAT } from '../../../src/core/categories.ts';
import { haversine } from '../../../src/core/geometry.ts';
import { fold } from '../../../src/core/text/normalize.ts';
import { LANDMARK_SUFFIXES, GENERIC_WORDS } from './vocab.ts';

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
    // Best text first; at equal text a feature's own name beats another's alternate name (King
    // Tackie Avenue is also tagged Kanda Highway, which is a street of its own).
    let h: (typeof hits)[number] | undefined;
    for (const x of hits) {
      if (x.text < MIN_TEXT) continue;
      if (!h || x.text > h.text || (x.text === h.text && g.altName(x.name) === g.name(x.f) && g.altName(h.name) !== g.name(h.f))) h = x;
    }
    if (h) matched[component] = { f: h.f, level, component, score: Math.round(h.text * 1000) / 1000 };
  };
  find(c.street, STREET_CATS, 'street', 'street');
  find(c.cross_street, STREET_CATS, 'cross_street', 'street');
  // A landmark by its name as written, then without the words people add ("… stage", "… bus stop").
  for (const name of landmarkNames(c.landmark)) {
    find(name, LANDMARK_CATS, 'landmark', 'landmark');
    if (matched.landmark) break;
  }
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

const keyOf = (w: string) => fold(w).replace(/[^\p{L}\p{N}]+/gu, '');
const SUFFIX_WORDS = new Set(LANDMARK_SUFFIXES.flat());

/**
 * The names a landmark is looked up by, in order: as written, then with the words people add after
 * a name dropped from its end, one group at a time ("Okaiman Junction bus stop" → "Okaiman
 * Junction" → "Okaiman"), never down to such words alone ("bus") or to a lone generic word.
 */
export function landmarkNames(text: string | undefined): string[] {
  if (!text) return [];
  const out = [text];
  let ws = text.split(/\s+/).filter(Boolean);
  for (let guard = 0; guard < 3; guard++) {
    const ks = ws.map(keyOf);
    const sfx = LANDMARK_SUFFIXES.find((x) => x.length < ks.length && x.every((w, i) => ks[ks.length - x.length + i] === w));
    if (!sfx) break;
    ws = ws.slice(0, ws.length - sfx.length);
    const rest = ws.map(keyOf).filter(Boolean);
    if (rest.every((w) => SUFFIX_WORDS.has(w)) || (rest.length === 1 && GENERIC_WORDS.has(rest[0]))) break;
    out.push(ws.join(' '));
  }
  return out;
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
