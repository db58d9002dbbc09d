// Feature → response object. Geocode-shaped results carry SPEC §2's fields (id, name,
// lat, lng, address, country_code) plus type, score and source.
import type { Gazetteer } from './store.ts';

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

export function result(g: Gazetteer, f: number, extra?: Record<string, unknown>): Record<string, unknown> {
  const src = g.sources(f);
  const out: Record<string, unknown> = {
    id: 'svc:' + g.code(f),
    name: g.name(f),
    lat: round6(g.lat[f]),
    lng: round6(g.lng[f]),
    address: g.address(f),
    country_code: g.countryCode(f),
    type: g.category(f),
    source: src.length ? src[0] : null,
  };
  if (src.length > 1) out.sources = src;
  if (extra) for (const k in extra) out[k] = extra[k];
  return out;
}

/** Full record for /places/{id}: the result plus admin-1, locality, population, licences and source fields. */
export function detail(g: Gazetteer, f: number): Record<string, unknown> {
  const r = result(g, f);
  const loc = g.locality[f];
  const licences = g.sources(f).map((k) => g.meta.sources.find((s: any) => s.key === k)).filter(Boolean);
  return {
    ...r,
    admin1: g.admin1Name(f),
    country: g.countryName(f),
    locality: loc >= 0 ? { id: `svc:${g.code(loc)}`, name: g.name(loc) } : null,
    population: g.pop[f] || null,
    importance: round(g.importance[f], 3),
    layer: g.layerOf(f),
    licences,
    properties: g.extra(f) ?? {},
  };
}
