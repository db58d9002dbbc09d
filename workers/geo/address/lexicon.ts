// The parser's lexicon over the gazetteer: folded names of countries, admin-1 units and
// populated places → features, built once per worker from the names the text index already
// holds, each under the key the gazetteer build stored for it (nameKey, computed here for an
// older file that lacks them).
import type { Gazetteer } from '../store.ts';
import { nameKey } from '../../../src/core/text/normalize.ts';
import { COUNTRY_EXTRA } from './vocab.ts';
import { haversine } from '../../../src/core/geometry.ts';
import type { Lexicon, PlaceRef } from './parse.ts';

export class GazetteerLexicon implements Lexicon {
  private countries = new Map<string, string>();
  private countryNames = new Map<string, string>();
  private admin1s = new Map<string, number[]>();
  private places = new Map<string, number[]>();
  private streets = new Map<string, string[]>();
  /** Folded names of facilities and POIs (health sites, airports, ports), with and without a company suffix. */
  private landmarks = new Set<string>();

  constructor(private g: Gazetteer) {
    for (const c of g.meta.countries as { code: string; name: string; alias?: boolean }[]) {
      if (!c.alias) this.countryNames.set(c.code, c.name);
      this.countries.set(nameKey(c.name), c.code);
    }
    for (const [k, v] of Object.entries(COUNTRY_EXTRA)) this.countries.set(nameKey(k), v);
    const [cs, ce] = g.layers.country, [ps, pe] = g.layers.place;
    const a1 = g.layers.admin1 ?? [0, 0];
    const [ss, se] = g.layers.street;
    // Transit stops are left out: many are named after their neighbourhood ("Kaneshie", "Osu").
    const [hs, he] = g.layers.health ?? [0, 0], [os, oe] = g.layers.poi ?? [0, 0];
    const add = (m: Map<string, number[]>, k: string, f: number) => { if (!k) return; const l = m.get(k); if (!l) m.set(k, [f]); else if (!l.includes(f)) l.push(f); };
    for (let n = 0; n < g.nameFeat.length; n++) {
      const f = g.nameFeat[n];
      if (f >= cs && f < ce) {
        const s = g.altName(n);
        const cc = g.countryCode(f);
        if (cc && !/^[A-Z]{3}$/.test(s) && !this.countries.has(nameKey(s))) this.countries.set(nameKey(s), cc);
      } else if (f >= ps && f < pe) add(this.places, g.lexKey(n), f);
      else if (f >= a1[0] && f < a1[1]) add(this.admin1s, g.lexKey(n), f);
      else if ((f >= hs && f < he) || (f >= os && f < oe)) {
        const k = g.lexKey(n);
        if (k.includes(' ')) { this.landmarks.add(k); this.landmarks.add(k.replace(/ (ltd|limited|plc)$/, '')); }
      }
      else if (f >= ss && f < se) {
        const k = g.lexKey(n), cc = g.countryCode(f);
        const l = this.streets.get(k);
        if (!l) this.streets.set(k, cc ? [cc] : []); else if (cc && !l.includes(cc)) l.push(cc);
      }
    }
    // Most important first, so a lookup without a country takes the likeliest.
    for (const m of [this.places, this.admin1s]) for (const l of m.values()) l.sort((a, b) => g.importance[b] - g.importance[a] || a - b);
  }

  street(key: string): boolean { return this.streets.has(key); }
  landmark(key: string): boolean { return this.landmarks.has(key); }
  streetCountries(key: string): string[] { return this.streets.get(key) ?? []; }
  distance(a: PlaceRef, b: PlaceRef): number { const g = this.g; return haversine(g.lat[a.f], g.lng[a.f], g.lat[b.f], g.lng[b.f]); }
  country(key: string): string | null { return this.countries.get(key) ?? null; }
  countryName(cc: string): string | null { return this.countryNames.get(cc) ?? null; }
  admin1(key: string, cc: string | null): PlaceRef | null { return this.pick(this.admin1s.get(key), cc); }
  locality(key: string, cc: string | null): PlaceRef | null { return this.pick(this.places.get(key), cc); }

  private pick(l: number[] | undefined, cc: string | null): PlaceRef | null {
    if (!l) return null;
    const g = this.g;
    for (const f of l) {
      const c = g.countryCode(f);
      if (!cc || c === cc) return { name: g.name(f) ?? '', country: c ?? '', f };
    }
    return null;
  }
}

const cache = new WeakMap<Gazetteer, GazetteerLexicon>();
export function lexiconOf(g: Gazetteer): GazetteerLexicon {
  let l = cache.get(g);
  if (!l) { l = new GazetteerLexicon(g); cache.set(g, l); }
  return l;
}
