// Places from OpenStreetMap (datasets of kind "pois", built by graph-build/pois): businesses,
// markets and protected areas. Tasks:
//   businesses_search { q?, category?, lat?, lng?, radius?, limit? } → { results }
//   markets_list { q?, lat?, lng?, radius?, limit? } → { results };  market_by_id { id } → { market } (404)
//   protected_at { lat, lng } → { results };  protected_nearby { lat, lng, radius?, limit? } → { results }
//   hotels_search { q?, category?, min_stars?, lat?, lng?, radius?, limit? } → { results } (lodging, with its `lodging` fields)
//   poi_by_id { id } → { result } (any item, 404 when unknown)
// Text matching is a scan of the folded names (every query word a prefix of a name word): the
// item counts of one country's extract (tens of thousands) keep it within a few milliseconds.
import type { TaskTable } from '../../src/core/tasks/index.ts';
import KDBush from 'kdbush';
import { around } from 'geokdbush';
import Flatbush from 'flatbush';
import { TaskError, type Dataset, type WorkerModule, type TaskContext } from '../../src/core/task.ts';
import { open } from '../../src/core/format/index.ts';
import { POI_FILES, POI_VERSION, POI_KINDS, LODGING_CATEGORIES, type PoiKind } from '../../src/core/format/pois.ts';
import { tokens } from '../../src/core/text/normalize.ts';
import { haversine, inRing, segmentDistance, degBox } from '../../src/core/geometry.ts';
import { inLagos } from '../../src/core/categories.ts';
import { kdView } from '../geo/store.ts';

export const POI_LIMITS = { radius: { default: 5000, max: 50_000 }, protectedRadius: { default: 20_000, max: 200_000 }, limit: { default: 10, max: 50 } };

const dec = new TextDecoder();
class Strings {
  constructor(private bytes: Uint8Array, private off: Uint32Array) {}
  at(i: number): string { return dec.decode(this.bytes.subarray(this.off[i], this.off[i + 1])); }
}

class PoiSet {
  readonly lat: Float64Array; readonly lng: Float64Array; readonly area: Float64Array;
  readonly kind: Uint8Array; readonly cat: Uint16Array; readonly group: Uint8Array;
  readonly ids: Strings; readonly names: Strings; readonly tags: Strings;
  readonly rStart: Uint32Array; readonly rCoords: Float64Array; readonly rOwner: Uint32Array; readonly rIndex: Flatbush | null;
  readonly kd: KDBush | null;
  readonly meta: { categories: string[]; groups: string[]; counts: Record<PoiKind, number> };
  readonly n: number;
  /** Folded name words per item, built once per worker. */
  readonly words: string[][];
  readonly byId = new Map<string, number>();
  /** Lodging items (tourism=hotel…), from the manifest. */
  readonly lodging: number;
  readonly ringsOf = new Map<number, number[]>();
  constructor(readonly ds: Dataset) {
    const f = POI_FILES.pois;
    const o = open(ds.files[f.file], { file: `${ds.dir}/${f.file}`, kind: f.kind, version: POI_VERSION });
    this.meta = o.meta;
    this.lat = o.get('lat', Float64Array); this.lng = o.get('lng', Float64Array); this.area = o.get('area', Float64Array);
    this.kind = o.get('kind', Uint8Array); this.cat = o.get('cat', Uint16Array); this.group = o.get('group', Uint8Array);
    this.ids = new Strings(o.get('idStr', Uint8Array), o.get('idOff', Uint32Array));
    this.names = new Strings(o.get('nameStr', Uint8Array), o.get('nameOff', Uint32Array));
    this.tags = new Strings(o.get('tagStr', Uint8Array), o.get('tagOff', Uint32Array));
    this.rStart = o.get('rStart', Uint32Array); this.rCoords = o.get('rCoords', Float64Array); this.rOwner = o.get('rOwner', Uint32Array);
    this.rIndex = o.sections.rIndex ? Flatbush.from((o.sections.rIndex as Uint8Array).buffer as ArrayBuffer, (o.sections.rIndex as Uint8Array).byteOffset) : null;
    this.kd = o.sections.kd ? kdView(o.sections.kd as Uint8Array) : null;
    this.n = this.lat.length;
    this.lodging = Number(ds.manifest.lodging ?? 0);
    this.words = new Array(this.n);
    for (let i = 0; i < this.n; i++) {
      this.words[i] = tokens(this.names.at(i));
      this.byId.set(this.ids.at(i), i);
    }
    for (let r = 0; r < this.rOwner.length; r++) {
      const l = this.ringsOf.get(this.rOwner[r]);
      if (l) l.push(r); else this.ringsOf.set(this.rOwner[r], [r]);
    }
  }
}

let sets: PoiSet[] = [];

function need(kind: PoiKind): PoiSet[] {
  const s = sets.filter((x) => (x.meta.counts[kind] ?? 0) > 0);
  if (!s.length) throw new TaskError(503, 'not_loaded', `No ${kind.replace('_', ' ')} data is loaded: build a full OpenStreetMap extract with \`npm run graph-build -- pois --input country.osm.pbf\`.`);
  return s;
}

function bad(name: string, why: string): never { throw new TaskError(400, 'invalid_parameter', `Parameter '${name}' ${why}.`); }
function point(a: any, required: boolean): [number, number] | null {
  if (a?.lat === undefined && a?.lng === undefined) { if (required) throw new TaskError(400, 'missing_parameter', "Parameters 'lat' and 'lng' are required."); return null; }
  const lat = Number(a.lat), lng = Number(a.lng);
  if (!Number.isFinite(lat) || Math.abs(lat) > 90) bad('lat', 'must be a latitude between -90 and 90');
  if (!Number.isFinite(lng) || Math.abs(lng) > 180) bad('lng', 'must be a longitude between -180 and 180');
  return [lat, lng];
}
const num = (a: any, k: string, d: { default: number; max: number }) => {
  const v = a?.[k] === undefined ? d.default : Number(a[k]);
  if (!Number.isFinite(v) || v <= 0 || v > d.max) bad(k, `must be a number above 0 and at most ${d.max}`);
  return v;
};

/** Text score of item i for query words q: share of query words that prefix a name word (0 when one does not). */
function textScore(s: PoiSet, i: number, q: string[]): number {
  const w = s.words[i];
  if (!w.length) return 0;
  let hit = 0;
  for (const t of q) {
    let ok = false;
    for (const x of w) if (x === t || x.startsWith(t)) { ok = true; break; }
    if (!ok) return 0;
    hit++;
  }
  // Names made only of the query rank first.
  return hit / q.length + 0.5 * (q.length / w.length);
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
const LODGING: Set<string> = new Set(LODGING_CATEGORIES);
const isLodging = (s: PoiSet, i: number) => s.meta.groups[s.group[i]] === 'tourism' && LODGING.has(s.meta.categories[s.cat[i]]);
const tagsOf = (s: PoiSet, i: number): Record<string, string> => { const t = s.tags.at(i); return t ? JSON.parse(t) as Record<string, string> : {}; };

/** A leading count in a tag ("4", "4S" → 4, "3.5" → 3.5), else null: OSM writes stars and rooms as free text. */
function count(v: string | undefined): number | null {
  const m = v === undefined ? null : /^\s*(\d+(?:\.\d+)?)/.exec(v);
  return m ? Number(m[1]) : null;
}

/**
 * What a lodging item's OSM tags say about it, null where not tagged: stars (the number of
 * `stars`, the raw text beside it: "4S" is a superior 4), rooms, beds, phone, website, e-mail,
 * check-in and check-out times (`check_in`, `check_out`, as tagged).
 */
function lodgingOf(tags: Record<string, string>) {
  return {
    stars: count(tags.stars), stars_tag: tags.stars ?? null, rooms: count(tags.rooms), beds: count(tags.beds),
    phone: tags.phone ?? tags['contact:phone'] ?? null, website: tags.website ?? tags['contact:website'] ?? tags.url ?? null,
    email: tags.email ?? tags['contact:email'] ?? null, check_in: tags.check_in ?? null, check_out: tags.check_out ?? null,
    internet_access: tags.internet_access ?? null,
  };
}

function item(s: PoiSet, i: number, extra?: Record<string, unknown>): Record<string, unknown> {
  const tags = tagsOf(s, i);
  const addr = [tags['addr:housenumber'] && tags['addr:street'] ? `${tags['addr:housenumber']} ${tags['addr:street']}` : tags['addr:street'], tags['addr:suburb'], tags['addr:city'], tags['addr:postcode']].filter(Boolean).join(', ');
  const osm = s.ids.at(i);
  return {
    id: `svc:poi.${osm}`, name: s.names.at(i) || null, category: s.meta.categories[s.cat[i]], group: s.meta.groups[s.group[i]], type: POI_KINDS[s.kind[i]],
    lat: r6(s.lat[i]), lng: r6(s.lng[i]), address: addr || null,
    osm: { type: osm[0] === 'n' ? 'node' : osm[0] === 'w' ? 'way' : 'relation', id: Number(osm.slice(1)) },
    ...(s.area[i] > 0 ? { area_m2: s.area[i] } : {}),
    tags, ...(isLodging(s, i) ? { lodging: lodgingOf(tags) } : {}), source: s.ds.name, ...extra,
  };
}

/** Items of `kind` matching the filters: by distance when a point is given, else by text score. */
function find(kind: PoiKind, a: any, ctx: TaskContext, categoryOk?: (s: PoiSet, i: number) => boolean) {
  const k = POI_KINDS.indexOf(kind);
  const at = point(a, false);
  const q = typeof a?.q === 'string' && a.q.trim() ? tokens(a.q) : null;
  if (!at && !q && kind === 'business' && !a?.category) throw new TaskError(400, 'missing_parameter', "Parameter 'q' (or 'category', or lat/lng) is required.");
  const radius = num(a, 'radius', POI_LIMITS.radius);
  const limit = Math.floor(num(a, 'limit', POI_LIMITS.limit));
  const hits: { s: PoiSet; i: number; d: number | null; score: number }[] = [];
  for (const s of need(kind)) {
    const ok = (i: number) => s.kind[i] === k && (!categoryOk || categoryOk(s, i)) && (!ctx.sandbox || inLagos(s.lat[i], s.lng[i]));
    if (at && s.kd) {
      for (const i of around(s.kd, at[1], at[0], Infinity, radius / 1000, ok)) {
        const score = q ? textScore(s, i, q) : 1;
        if (score > 0) hits.push({ s, i, d: haversine(at[0], at[1], s.lat[i], s.lng[i]), score });
      }
    } else if (!at) {
      for (let i = 0; i < s.n; i++) {
        if (!ok(i)) continue;
        const score = q ? textScore(s, i, q) : 1;
        if (score > 0) hits.push({ s, i, d: null, score });
      }
    }
  }
  // Same OSM object in two loaded extracts: keep one.
  const seen = new Set<string>();
  return hits
    .sort((x, y) => (at && !q ? x.d! - y.d! : y.score - x.score || (x.d ?? 0) - (y.d ?? 0) || (x.s.names.at(x.i) < y.s.names.at(y.i) ? -1 : 1)))
    .filter((h) => { const id = h.s.ids.at(h.i); if (seen.has(id)) return false; seen.add(id); return true; })
    .slice(0, limit)
    .map((h) => item(h.s, h.i, h.d !== null ? { distance_m: Math.round(h.d) } : {}));
}

/** Rings of item i as a GeoJSON (Multi)Polygon-like geometry: every ring listed, even-odd (outer and inner alike). */
function geometry(s: PoiSet, i: number): Record<string, unknown> | null {
  const rs = s.ringsOf.get(i);
  if (!rs) return null;
  const rings = rs.map((r) => {
    const out: number[][] = [];
    for (let k = s.rStart[r]; k < s.rStart[r + 1]; k++) out.push([r6(s.rCoords[2 * k]), r6(s.rCoords[2 * k + 1])]);
    return out;
  });
  return { type: 'Polygon', coordinates: rings, rule: 'even-odd' };
}

function containing(s: PoiSet, k: number, lat: number, lng: number): number[] {
  if (!s.rIndex) return [];
  const parity = new Map<number, boolean>();
  for (const r of s.rIndex.search(lng, lat, lng, lat)) {
    const o = s.rOwner[r];
    if (s.kind[o] !== k) continue;
    if (inRing(lng, lat, s.rCoords, s.rStart[r], s.rStart[r + 1])) parity.set(o, !parity.get(o));
  }
  return [...parity].filter(([, v]) => v).map(([o]) => o);
}

export const pois = {
  init(datasets: Dataset[]) {
    sets = datasets.filter((d) => d.dataset === 'pois').map((d) => new PoiSet(d));
  },
  tasks: {
    businesses_search(a, ctx) {
      const c = typeof a?.category === 'string' && a.category ? a.category.toLowerCase() : null;
      const results = find('business', a, ctx, c ? (s, i) => s.meta.categories[s.cat[i]] === c || s.meta.groups[s.group[i]] === c : undefined);
      return { results, ...(ctx.sandbox ? { sandbox: true } : {}) };
    },
    hotels_search(a, ctx) {
      if (!sets.some((x) => x.lodging > 0)) throw new TaskError(503, 'not_loaded', 'No lodging (tourism=hotel, guest_house, hostel, motel, apartment, chalet) is loaded: build a full OpenStreetMap extract with `npm run graph-build -- pois --input country.osm.pbf`.');
      const c = typeof a?.category === 'string' && a.category && a.category !== 'lodging' ? a.category.toLowerCase() : null;
      if (c && !LODGING.has(c)) bad('category', `must be lodging or one of ${LODGING_CATEGORIES.join(', ')}`);
      const minStars = a?.min_stars === undefined ? null : Number(a.min_stars);
      if (minStars !== null && !(minStars >= 0 && minStars <= 7)) bad('min_stars', 'must be a number from 0 to 7');
      const ok = (s: PoiSet, i: number) => isLodging(s, i) && (!c || s.meta.categories[s.cat[i]] === c) && (minStars === null || (count(tagsOf(s, i).stars) ?? -1) >= minStars);
      // A listing without name or point is every lodging item, by name (find() asks for one of them).
      return { results: find('business', { ...a, category: a?.category ?? 'lodging' }, ctx, ok), ...(ctx.sandbox ? { sandbox: true } : {}) };
    },
    poi_by_id(a, ctx) {
      const id = String(a?.id ?? '');
      const osm = id.startsWith('svc:poi.') ? id.slice(8) : id;
      for (const s of sets) {
        const i = s.byId.get(osm);
        if (i !== undefined && (!ctx.sandbox || inLagos(s.lat[i], s.lng[i]))) return { result: item(s, i, { geometry: geometry(s, i) }), ...(ctx.sandbox ? { sandbox: true } : {}) };
      }
      throw new TaskError(404, 'not_found', `No place with id '${id.slice(0, 80)}'.`);
    },
    markets_list(a, ctx) {
      return { results: find('market', a, ctx), ...(ctx.sandbox ? { sandbox: true } : {}) };
    },
    market_by_id(a, ctx) {
      const id = String(a?.id ?? '');
      const osm = id.startsWith('svc:poi.') ? id.slice(8) : id;
      for (const s of need('market')) {
        const i = s.byId.get(osm);
        if (i !== undefined && s.kind[i] === POI_KINDS.indexOf('market') && (!ctx.sandbox || inLagos(s.lat[i], s.lng[i]))) {
          return { market: item(s, i, { geometry: geometry(s, i) }) };
        }
      }
      throw new TaskError(404, 'not_found', `No market with id '${id.slice(0, 80)}'.`);
    },
    protected_at(a, ctx) {
      const [lat, lng] = point(a, true)!;
      const k = POI_KINDS.indexOf('protected_area');
      const results: Record<string, unknown>[] = [];
      if (!ctx.sandbox || inLagos(lat, lng)) {
        for (const s of need('protected_area')) for (const i of containing(s, k, lat, lng)) results.push(item(s, i, { inside: true }));
      }
      return { results, ...(ctx.sandbox ? { sandbox: true } : {}) };
    },
    protected_nearby(a, ctx) {
      const [lat, lng] = point(a, true)!;
      const radius = num(a, 'radius', POI_LIMITS.protectedRadius);
      const limit = Math.floor(num(a, 'limit', POI_LIMITS.limit));
      const k = POI_KINDS.indexOf('protected_area');
      const out: { r: Record<string, unknown>; d: number }[] = [];
      if (!ctx.sandbox || inLagos(lat, lng)) {
        for (const s of need('protected_area')) {
          if (!s.rIndex) continue;
          const inside = new Set(containing(s, k, lat, lng));
          const best = new Map<number, number>();
          const { dLat, dLng } = degBox(lat, radius);
          for (const r of s.rIndex.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat)) {
            const o = s.rOwner[r];
            if (s.kind[o] !== k) continue;
            for (let v = s.rStart[r]; v < s.rStart[r + 1] - 1; v++) {
              const d = segmentDistance(lat, lng, s.rCoords[2 * v], s.rCoords[2 * v + 1], s.rCoords[2 * v + 2], s.rCoords[2 * v + 3]);
              if (d <= radius && d < (best.get(o) ?? Infinity)) best.set(o, d);
            }
          }
          for (const o of inside) if (!best.has(o)) best.set(o, Infinity);
          for (const [o, d] of best) {
            const inn = inside.has(o);
            out.push({ r: item(s, o, { inside: inn, distance_m: inn ? 0 : Math.round(d), ...(inn && Number.isFinite(d) ? { distance_to_boundary_m: Math.round(d) } : {}) }), d: inn ? 0 : d });
          }
        }
      }
      out.sort((x, y) => x.d - y.d);
      return { results: out.slice(0, limit).map((x) => x.r), radius_m: radius, ...(ctx.sandbox ? { sandbox: true } : {}) };
    },
  } satisfies TaskTable<'businesses_search' | 'hotels_search' | 'poi_by_id' | 'markets_list' | 'market_by_id' | 'protected_at' | 'protected_nearby'>,
} satisfies WorkerModule;
