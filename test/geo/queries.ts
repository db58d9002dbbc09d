// Geocoding queries generated from the built data, each with the feature it should find.
// Shared by the quality test (test/geo/geo.test.ts) and the benchmark (bench/geocode.ts).
//
// A query is only fair when the data can answer it: a name that several features share
// (a dozen villages called "Kasongo") resolves to the most important one by design. So
// an expected feature is drawn only from names (primary or alternate) for which it is
// strictly the most important feature carrying that name — within its country for the
// with-country variants. Typos are applied to the longest word and must not produce
// another real word of the dictionary.
import type { Gazetteer } from '../../workers/geo/store.ts';
import { tokens, maxEdits } from '../../src/core/text/normalize.ts';

export type Kind = 'exact' | 'alternate' | 'typo1' | 'typo2' | 'exact+country' | 'typo1+country';
export interface GenQuery { kind: Kind; q: string; country?: string; expect: string; layer: string; name: string }

/** Small deterministic PRNG (mulberry32) so every run asks the same questions. */
function rng(seed: number) {
  return () => {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function typo(word: string, edits: number, r: () => number): string {
  let w = word;
  for (let k = 0; k < edits; k++) {
    const op = Math.floor(r() * 4);
    const i = 1 + Math.floor(r() * (w.length - 2)); // keep the first letter, as people mostly do
    const c = LETTERS[Math.floor(r() * 26)];
    if (op === 0) w = w.slice(0, i) + c + w.slice(i + 1);
    else if (op === 1) w = w.slice(0, i) + w.slice(i + 1);
    else if (op === 2) w = w.slice(0, i) + c + w.slice(i);
    else w = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  }
  return w;
}

export function generateQueries(g: Gazetteer, seed = 42, per = { exact: 70, alternate: 30, typo1: 70, typo2: 30, country: 30 }): GenQuery[] {
  const r = rng(seed);
  // Most important feature per normalised name (any name), globally and per country.
  const best = new Map<string, { f: number; imp: number; tie: boolean }>();
  const bestCC = new Map<string, { f: number; imp: number; tie: boolean }>();
  const bump = (m: typeof best, k: string, f: number) => {
    const imp = g.importance[f];
    const b = m.get(k);
    if (!b || imp > b.imp) m.set(k, { f, imp, tie: false });
    else if (b.f !== f && Math.abs(imp - b.imp) < 1e-6) b.tie = true;
  };
  const dict = new Set(g.tokens);
  for (let n = 0; n < g.nameFeat.length; n++) {
    const f = g.nameFeat[n];
    const k = tokens(g.altName(n)).join(' ');
    bump(best, k, f);
    bump(bestCC, `${g.country[f]}|${k}`, f);
  }
  const layerWeights: [string, number][] = [['place', 0.4], ['poi', 0.1], ['health', 0.25], ['street', 0.1], ['transit', 0.1], ['country', 0.05]];
  const pickLayer = () => {
    let x = r();
    for (const [l, w] of layerWeights) { if ((x -= w) < 0) return l; }
    return 'place';
  };
  const unique = (f: number, name: string, cc: boolean) => {
    const k = tokens(name).join(' ');
    const b = (cc ? bestCC.get(`${g.country[f]}|${k}`) : best.get(k));
    return !!b && b.f === f && !b.tie;
  };
  const okName = (s: string | null): s is string => !!s && /^[\p{Script=Latin}\d\s'’.,()-]+$/u.test(s) && tokens(s).length >= 1 && tokens(s).length <= 5 && s.length >= 4;
  const drawFeature = (layer: string): number => {
    const [s, e] = g.layers[layer];
    return s + Math.floor(r() * (e - s));
  };
  const out: GenQuery[] = [];
  const seen = new Set<string>();
  const add = (q: GenQuery) => { const k = `${q.kind}|${q.q}|${q.country}`; if (!seen.has(k)) { seen.add(k); out.push(q); return true; } return false; };
  const base = (f: number, kind: Kind, q: string, country?: string): GenQuery =>
    ({ kind, q, country, expect: `svc:${g.code(f)}`, layer: g.layerOf(f), name: g.name(f) ?? '' });

  const fill = (kind: Kind, count: number, make: (f: number) => GenQuery | null) => {
    let n = 0, tries = 0;
    while (n < count && tries++ < count * 400) {
      const f = drawFeature(pickLayer());
      if (g.layerOf(f) === 'place' && g.pop[f] < 1000 && r() < 0.7) continue; // favour places people search for
      const q = make(f);
      if (q && add(q)) n++;
    }
  };
  const typoQuery = (name: string, edits: number): string | null => {
    const words = name.split(/\s+/);
    let wi = -1, len = 0;
    words.forEach((w, i) => { const t = tokens(w); if (t.length === 1 && t[0].length > len && /^[a-z]+$/.test(t[0])) { wi = i; len = t[0].length; } });
    if (wi < 0 || maxEdits(len) < edits) return null;
    const w0 = tokens(words[wi])[0];
    for (let k = 0; k < 5; k++) {
      const w = typo(w0, edits, r);
      if (w === w0 || dict.has(w) || w.length < 3) continue;
      return [...words.slice(0, wi), w, ...words.slice(wi + 1)].join(' ');
    }
    return null;
  };
  fill('exact', per.exact, (f) => { const nm = g.name(f); return okName(nm) && unique(f, nm, false) ? base(f, 'exact', nm) : null; });
  fill('alternate', per.alternate, (f) => {
    const nm = g.name(f);
    const alts: string[] = [];
    // Names of f other than its primary: they sit next to each other in the name table.
    const lo = lowerBound(g.nameFeat, f);
    for (let n = lo; n < g.nameFeat.length && g.nameFeat[n] === f; n++) {
      const a = g.altName(n);
      if (okName(a) && tokens(a).join(' ') !== tokens(nm ?? '').join(' ') && unique(f, a, false) && !/^[A-Z]{3,4}$/.test(a)) alts.push(a);
    }
    if (!alts.length) return null;
    return base(f, 'alternate', alts[Math.floor(r() * alts.length)]);
  });
  fill('typo1', per.typo1, (f) => { const nm = g.name(f); if (!okName(nm) || !unique(f, nm, false)) return null; const q = typoQuery(nm, 1); return q ? base(f, 'typo1', q) : null; });
  fill('typo2', per.typo2, (f) => { const nm = g.name(f); if (!okName(nm) || !unique(f, nm, false)) return null; const q = typoQuery(nm, 2); return q ? base(f, 'typo2', q) : null; });
  fill('exact+country', per.country, (f) => {
    const nm = g.name(f), cc = g.countryCode(f);
    return okName(nm) && cc && unique(f, nm, true) && !unique(f, nm, false) ? base(f, 'exact+country', nm, cc) : null;
  });
  fill('typo1+country', per.country, (f) => {
    const nm = g.name(f), cc = g.countryCode(f);
    if (!okName(nm) || !cc || !unique(f, nm, true)) return null;
    const q = typoQuery(nm, 1);
    return q ? base(f, 'typo1+country', q, cc) : null;
  });
  return out;
}

function lowerBound(a: Uint32Array, x: number): number {
  let lo = 0, hi = a.length;
  while (lo < hi) { const m = (lo + hi) >> 1; if (a[m] < x) lo = m + 1; else hi = m; }
  return lo;
}

export interface Accuracy { n: number; top1: number; top5: number }

/** Runs every query through `search` (returns ids best first) and reports top-1/top-5 per kind. */
export function accuracy(qs: GenQuery[], search: (q: GenQuery) => string[]): { byKind: Record<string, Accuracy>; misses: { q: GenQuery; got: string[] }[] } {
  const byKind: Record<string, { n: number; h1: number; h5: number }> = {};
  const misses: { q: GenQuery; got: string[] }[] = [];
  for (const q of qs) {
    const ids = search(q);
    const k = (byKind[q.kind] ??= { n: 0, h1: 0, h5: 0 });
    k.n++;
    if (ids[0] === q.expect) k.h1++;
    if (ids.slice(0, 5).includes(q.expect)) k.h5++;
    else misses.push({ q, got: ids.slice(0, 3) });
  }
  const out: Record<string, Accuracy> = {};
  for (const [k, v] of Object.entries(byKind)) out[k] = { n: v.n, top1: Math.round((v.h1 / v.n) * 1000) / 1000, top5: Math.round((v.h5 / v.n) * 1000) / 1000 };
  return { byKind: out, misses };
}
