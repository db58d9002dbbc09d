// Address tasks of the worker (task interface, also used by the compat layer's autocomplete):
//   address_parse        { q, country? }                          → { query, components, normalized, confidence, country_source, resolved }
//   address_verify       { address? | components?, country?, lat?, lng? } → { verdict, components, granularity, normalized, geocode, issues, pin }
//   address_autocomplete { q, focus?: [lat, lng], country?, limit?, sessiontoken? } → { suggestions: [{ description, kind, components, place_id, lat, lng, … }] }
// Arguments arrive validated by src/api/address.ts; the checks here are a second line.
import type { TaskTable } from '../../../src/core/tasks/index.ts';
import { TaskError, type WorkerModule, type TaskContext } from '../../../src/core/task.ts';
import { inLagos, CAT } from '../../../src/core/categories.ts';
import { haversine } from '../../../src/core/geometry.ts';
import { gazetteer, parseQuery, admin1Result, ADMIN1_BOUNDARIES } from '../index.ts';
import type { Gazetteer } from '../store.ts';
import { result } from '../results.ts';
import { countryAt, countryNear, nearestStreets, admin1At } from '../spatial.ts';
import { lexiconOf } from './lexicon.ts';
import { nameKey } from '../../../src/core/text/normalize.ts';
import { premiseAndStreet, type AddressComponents, type ParsedAddress } from './parse.ts';
import { resolveParsed, isPartial, countryIndexOf, type Resolution, type MatchLevel } from './resolve.ts';
import { RELATION_PHRASES, PREMISE, NUMBER_WORDS, STREET_WORDS } from './vocab.ts';
import { fold } from '../../../src/core/text/normalize.ts';

export const AUTOCOMPLETE_LIMIT = { default: 5, max: 10 };
/** Letters of a name typed before suggestions start (after a premise or relation). */
export const AUTOCOMPLETE_MIN_CHARS = 2;
/** How far a pin may lie from the address's matched place before `pin_far_from_address`, by match level (metres). */
export const PIN_FAR_M: Record<MatchLevel, number> = { premise: 100, street: 300, landmark: 500, locality: 15_000, admin1: 0, country: 0 };

const sandboxOk = (g: Gazetteer, ctx: TaskContext) => (ctx.sandbox ? (f: number) => inLagos(g.lat[f], g.lng[f]) : undefined);
const ref = (g: Gazetteer, f: number) => ({ id: `svc:${g.code(f)}`, name: g.name(f), lat: g.lat[f], lng: g.lng[f], type: g.category(f) });

function latLngOpt(a: any): [number, number] | null {
  if (a?.lat === undefined && a?.lng === undefined) return null;
  const lat = Number(a.lat), lng = Number(a.lng);
  if (!Number.isFinite(lat) || Math.abs(lat) > 90) throw new TaskError(400, 'invalid_parameter', "Field 'lat' must be a latitude between -90 and 90.");
  if (!Number.isFinite(lng) || Math.abs(lng) > 180) throw new TaskError(400, 'invalid_parameter', "Field 'lng' must be a longitude between -180 and 180.");
  return [lat, lng];
}

const COMPONENT_KEYS: (keyof AddressComponents)[] = ['unit', 'plot', 'house_number', 'street', 'cross_street', 'landmark', 'relation', 'estate', 'sublocality', 'locality', 'admin1', 'country', 'postcode', 'po_box'];

/** Caller-given components as a parse: places looked up in the lexicon, the rest taken as given. */
function fromComponents(g: Gazetteer, given: Record<string, unknown>, country: string | null): ParsedAddress {
  const lex = lexiconOf(g);
  const c: AddressComponents = {};
  for (const k of COMPONENT_KEYS) {
    const v = given[k];
    if (typeof v === 'string' && v.trim()) (c as any)[k] = v.trim();
  }
  let cc = country ?? (c.country ? (c.country.length === 2 ? c.country.toUpperCase() : lex.country(nameKey(c.country))) : null);
  if (cc) c.country = cc;
  const refs: ParsedAddress['refs'] = {};
  const look = (s: string | undefined, k: 'locality' | 'sublocality') => { if (s) { const r = lex.locality(nameKey(s), cc); if (r) refs[k] = r; } };
  look(c.locality, 'locality');
  if (!cc && refs.locality) cc = c.country = refs.locality.country;
  look(c.sublocality, 'sublocality');
  if (c.admin1) { const r = lex.admin1(nameKey(c.admin1.replace(/\b(state|province|region|county)\b/gi, '')), cc); if (r) refs.admin1 = r; }
  if (c.relation && !c.landmark && c.street) c.relation_to = 'street';
  else if (c.relation) c.relation_to = 'landmark';
  return { components: c, refs, country_source: country ? 'argument' : c.country ? 'text' : null, normalized: '', confidence: 1 };
}

type Status = 'confirmed' | 'unconfirmed' | 'inferred' | 'unknown';

function verify(a: any, ctx: TaskContext) {
  const { g, text } = gazetteer();
  const country = a?.country ? String(a.country).toUpperCase() : null;
  const pin = latLngOpt(a);
  let parsed: ParsedAddress;
  if (typeof a?.address === 'string' && a.address.trim()) parsed = parseQuery(g, a.address, country);
  else if (a?.components && typeof a.components === 'object') parsed = fromComponents(g, a.components, country);
  else throw new TaskError(400, 'missing_parameter', "Field 'address' (or 'components') is required.");
  const accept = sandboxOk(g, ctx);
  const r = resolveParsed(g, text, parsed, accept);
  const c = parsed.components;
  const components: Record<string, { value: string; status: Status; matched?: unknown; note?: string }> = {};
  const issues: Record<string, unknown>[] = [];
  for (const k of COMPONENT_KEYS) {
    const v = c[k] as string | undefined;
    if (v === undefined || k === 'country') continue;
    const m = r.matched[k];
    if (m) components[k] = { value: v, status: 'confirmed', matched: ref(g, m.f) };
    else if (k === 'unit' || k === 'plot' || k === 'house_number' || k === 'po_box' || k === 'relation')
      components[k] = { value: v, status: 'unknown', note: k === 'relation' ? 'A relation is kept as written.' : 'No premise, plot or PO box register is available to check this against.' };
    else if (k === 'postcode') components[k] = { value: v, status: 'unknown', note: 'The format fits the country; no postcode areas are available to check it.' };
    else components[k] = { value: v, status: 'unconfirmed' };
  }
  // What the address leaves out, inferred from what it matched.
  const anchor = r.best?.f ?? -1;
  if (anchor >= 0 && !c.locality && !c.sublocality) {
    const loc = r.best!.level === 'street' || r.best!.level === 'landmark' ? g.locality[anchor] : -1;
    if (loc >= 0) components.locality = { value: g.name(loc) ?? '', status: 'inferred', matched: ref(g, loc) };
  }
  if (anchor >= 0 && r.best!.level !== 'country') {
    const a1 = admin1Result(g, g.lat[anchor], g.lng[anchor], g.countryCode(anchor));
    if (a1 && !components.admin1) components.admin1 = { value: String(a1.name), status: 'inferred', matched: { id: a1.id, name: a1.name, type: 'admin1' } };
    else if (a1 && components.admin1?.status === 'unconfirmed') components.admin1.note = `The matched place lies in ${a1.name}.`;
  }
  const cc = c.country ?? (anchor >= 0 ? g.countryCode(anchor) : null);
  if (cc) {
    const ci = countryIndexOf(g, cc);
    const st: Status = parsed.country_source === 'text' || parsed.country_source === 'argument' ? (ci >= 0 ? 'confirmed' : 'unconfirmed') : 'inferred';
    components.country = { value: cc, status: st, ...(ci >= 0 ? { matched: ref(g, g.layers.country[0] + ci) } : {}) };
    if (ci < 0) issues.push({ code: 'outside_coverage', message: `Country '${cc}' is not among the 54 African countries this service covers.` });
  }
  if (c.street && !r.matched.street) issues.push({ code: 'unknown_street', message: `No street named '${c.street}' is known${c.locality ? ` near ${c.locality}` : ''} (named streets come from the OpenStreetMap extracts loaded).` });
  if (c.landmark && !r.matched.landmark) issues.push({ code: 'unknown_landmark', message: `No landmark named '${c.landmark}' is known nearby.` });
  if (!r.matched.locality && !r.matched.sublocality && !components.locality) issues.push({ code: 'missing_locality', message: c.locality ? `Locality '${c.locality}' is not known${cc ? ` in ${cc}` : ''}.` : 'The address names no town or city.' });
  if (!r.best && !issues.some((i) => i.code === 'outside_coverage')) issues.push({ code: 'no_match', message: 'No part of the address matched a known place.' });
  const granularity: MatchLevel | 'none' = r.best?.level ?? 'none';
  let pinBlock: Record<string, unknown> | null = null;
  if (pin) {
    const [lat, lng] = pin;
    const inside = countryAt(g, lat, lng);
    const ci = inside >= 0 ? inside : countryNear(g, lat, lng, 10_000);
    if (ci < 0) issues.push({ code: 'outside_coverage', message: 'The pin is not in any of the covered African countries.' });
    pinBlock = { lat, lng, country_code: ci >= 0 ? g.meta.countries[ci].code : null };
    if (r.best) {
      const d = pinDistance(g, r, lat, lng);
      pinBlock.distance_m = d.distance_m;
      pinBlock.measured_to = d.to;
      const far = d.far;
      if (far) issues.push({ code: 'pin_far_from_address', distance_m: d.distance_m, threshold_m: d.threshold_m ?? null, message: d.message });
      pinBlock.consistent = !far;
    }
  }
  const normalized = normalizedOf(g, parsed, components);
  const geocode = r.best ? result(g, r.best.f, { match_level: r.best.level, partial_match: isPartial(c, r) }) : null;
  const verdict = {
    granularity,
    premise_checked: false,
    address_complete: !!(c.street || c.landmark || c.plot || c.house_number) && !!(r.matched.locality || r.matched.sublocality || components.locality),
    has_unconfirmed_components: Object.values(components).some((x) => x.status === 'unconfirmed'),
    has_inferred_components: Object.values(components).some((x) => x.status === 'inferred'),
  };
  return {
    ...(ctx.sandbox ? { sandbox: true } : {}),
    verdict, components, normalized, geocode, issues, ...(pinBlock ? { pin: pinBlock } : {}),
    parse_confidence: parsed.confidence,
    notes: {
      premise: 'No house-number or plot register is available: premise-level components are reported as unknown, never as confirmed.',
      admin1: ADMIN1_BOUNDARIES,
    },
  };
}

function pinDistance(g: Gazetteer, r: Resolution, lat: number, lng: number): { distance_m: number; far: boolean; threshold_m?: number; to: string; message: string } {
  const m = r.best!;
  if (m.level === 'street') {
    // Distance to the street line, not its middle point.
    const s = nearestStreets(g, lat, lng, 50_000, (f) => f === m.f)[0];
    const d = Math.round(s ? s.d : haversine(lat, lng, g.lat[m.f], g.lng[m.f]));
    return { distance_m: d, far: d > PIN_FAR_M.street, threshold_m: PIN_FAR_M.street, to: 'street_line', message: `The pin is ${d} m from ${g.name(m.f)}.` };
  }
  if (m.level === 'admin1' || m.level === 'country') {
    const d = Math.round(haversine(lat, lng, g.lat[m.f], g.lng[m.f]));
    const inside = m.level === 'admin1'
      ? (() => { const h = admin1At(g, lat, lng, g.countryCode(m.f), 10_000); return !!h && g.admin1Feature(h.u) === m.f; })()
      : countryAt(g, lat, lng) === m.f - g.layers.country[0] || countryNear(g, lat, lng, 10_000) === m.f - g.layers.country[0];
    return { distance_m: d, far: !inside, to: `${m.level}_polygon`, message: inside ? `The pin lies in ${g.name(m.f)}.` : `The pin is outside ${g.name(m.f)}.` };
  }
  const d = Math.round(haversine(lat, lng, g.lat[m.f], g.lng[m.f]));
  const t = PIN_FAR_M[m.level];
  return { distance_m: d, far: d > t, threshold_m: t, to: `${m.level}_point`, message: `The pin is ${d} m from ${g.name(m.f)}.` };
}

function normalizedOf(g: Gazetteer, p: ParsedAddress, comps: Record<string, { value: string; status: Status }>): string {
  const c = p.components;
  const { out, street } = premiseAndStreet(c);
  const rel = c.relation ? c.relation.replace('_', ' ') : '';
  if (street) out.push(rel && c.relation_to === 'street' ? `${rel} ${street}` : street);
  if (c.landmark) out.push(rel && c.relation_to !== 'street' ? `${rel} ${c.landmark}` : c.landmark);
  for (const k of ['estate', 'sublocality', 'locality', 'admin1'] as const) if (comps[k]) out.push(comps[k].value);
  if (c.po_box) out.push(`P.O. Box ${c.po_box}`);
  if (c.postcode) out.push(c.postcode);
  if (comps.country) {
    const ci = countryIndexOf(g, comps.country.value);
    out.push(ci >= 0 ? g.meta.countries[ci].name : comps.country.value);
  }
  return out.join(', ');
}

const relationStarts = RELATION_PHRASES.map(([p, rel]) => [p.split(' ').map((w) => fold(w)), rel] as const);

/** Splits the fragment being typed into a prefix kept as typed (premise, relation) and the name being completed. */
function splitFragment(frag: string): { lead: string; name: string; relation: string | null; premise: Partial<AddressComponents> } {
  let words = frag.split(/\s+/).filter(Boolean);
  const lead: string[] = [];
  const premise: Partial<AddressComponents> = {};
  for (let guard = 0; guard < 2 && words.length > 1; guard++) {
    const k = fold(words[0]).replace(/[^\p{L}\p{N}]+/gu, '');
    const kind = PREMISE[k];
    if (!kind) break;
    let j = 1;
    while (j < words.length && NUMBER_WORDS.has(fold(words[j]).replace(/[^\p{L}\p{N}]+/gu, ''))) j++;
    if (j >= words.length || !/\d/.test(words[j])) break;
    if (kind === 'unit') premise.unit = `${words[0]} ${words[j]}`; else premise[kind] = words[j].replace(/[,.]$/, '');
    lead.push(...words.slice(0, j + 1));
    words = words.slice(j + 1);
  }
  if (words.length > 1 && /^\d{1,5}[a-z]?$/i.test(words[0]) && !premise.house_number) { premise.house_number = words[0]; lead.push(words[0]); words = words.slice(1); }
  let relation: string | null = null;
  const fw = words.map((w) => fold(w).replace(/[^\p{L}\p{N}]+/gu, ''));
  for (const [p, rel] of relationStarts) {
    if (p.length < words.length && p.every((w, i) => fw[i] === w)) {
      relation = rel;
      lead.push(...words.slice(0, p.length));
      words = words.slice(p.length);
      if (words.length > 1 && ['the', 'le', 'la', 'les', 'o', 'a'].includes(fw[p.length])) { lead.push(words[0]); words = words.slice(1); }
      break;
    }
  }
  return { lead: lead.join(' '), name: words.join(' '), relation, premise };
}

const PLACE_SET = new Set([CAT.city, CAT.town, CAT.village, CAT.locality]);
const LANDMARK_SET = new Set(Object.values(CAT).filter((c) => ![CAT.street, CAT.country, CAT.admin1, CAT.city, CAT.town, CAT.village, CAT.locality, CAT.earthquake, CAT.river, CAT.lake].includes(c)));

function autocomplete(a: any, ctx: TaskContext) {
  const { g, text } = gazetteer();
  const q = typeof a?.q === 'string' ? a.q : '';
  if (!q.trim()) throw new TaskError(400, 'missing_parameter', "Parameter 'q' is required.");
  const limit = a?.limit === undefined ? AUTOCOMPLETE_LIMIT.default : Number(a.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > AUTOCOMPLETE_LIMIT.max) throw new TaskError(400, 'invalid_parameter', `Parameter 'limit' must be a whole number from 1 to ${AUTOCOMPLETE_LIMIT.max}.`);
  const cut = Math.max(q.lastIndexOf(','), q.lastIndexOf('،'));
  const head = cut >= 0 ? q.slice(0, cut) : '';
  const frag = (cut >= 0 ? q.slice(cut + 1) : q).replace(/^\s+/, '');
  let cc: string | null = a?.country ? String(a.country).toUpperCase() : null;
  let focus: [number, number] | null = Array.isArray(a?.focus) ? [Number(a.focus[0]), Number(a.focus[1])] : null;
  // What is typed before the last comma is context: its locality steers the suggestions.
  let headParse: ParsedAddress | null = null;
  if (head.trim()) {
    headParse = parseQuery(g, head, cc);
    cc ??= headParse.components.country ?? null;
    const anchor = headParse.refs.sublocality ?? headParse.refs.locality;
    if (anchor && !focus) focus = [g.lat[anchor.f], g.lng[anchor.f]];
  }
  const { lead, name, relation, premise } = splitFragment(frag);
  const country = countryIndexOf(g, cc);
  const sb = sandboxOk(g, ctx);
  const suggestions: Record<string, unknown>[] = [];
  if (!name.trim()) return { suggestions, ...(ctx.sandbox ? { sandbox: true } : {}) };
  const streetLike = frag.split(/\s+/).some((w: string) => STREET_WORDS.has(fold(w).replace(/[^\p{L}\p{N}]+/gu, '')));
  // One search over every kind, then sorted into kinds: a category-filtered search reads far more
  // postings before its top k fills (streets are rare), which broke the 10 ms budget on short prefixes.
  type H = { f: number; score: number; kind: 'street' | 'landmark' | 'locality' };
  const hits: H[] = [];
  // A premise or relation word still being typed ("Shop ", "near") has nothing to complete yet.
  const nk = fold(name.trim()).replace(/[^\p{L}\p{N}\s]+/gu, '');
  const bare = !!PREMISE[nk] || NUMBER_WORDS.has(nk) || relationStarts.some(([p]) => p.join(' ') === nk);
  if (!bare && name.trim().length >= AUTOCOMPLETE_MIN_CHARS && !(cc && country < 0)) {
    const wantPlaces = !relation && !streetLike && !headParse?.refs.locality;
    for (const h of text.search(name, { country, cats: null, accept: sb }, { limit: Math.min(30, 3 * limit), focus, prefix: true })) {
      const c = g.cat[h.f];
      if (c === CAT.street) hits.push({ f: h.f, score: h.score + (streetLike ? 0.2 : 0), kind: 'street' });
      else if (PLACE_SET.has(c)) { if (wantPlaces) hits.push({ f: h.f, score: h.score + 0.05, kind: 'locality' }); }
      else if (LANDMARK_SET.has(c) && !streetLike) hits.push({ f: h.f, score: h.score, kind: 'landmark' });
    }
  }
  hits.sort((x, y) => y.score - x.score || x.f - y.f);
  const seen = new Set<string>();
  const headText = head.trim();
  for (const h of hits) {
    if (suggestions.length >= limit) break;
    const f = h.f;
    const loc = g.locality[f];
    const locName = loc >= 0 && h.kind !== 'locality' ? g.name(loc) : null;
    const a1 = g.admin1Name(f);
    const cn = g.countryName(f);
    const nm = g.name(f) ?? '';
    const line = [lead, nm].filter(Boolean).join(' ');
    const tail = headParse?.refs.locality ? [] : [locName, a1, cn];
    const parts = [headText || null, line, ...tail].filter((s, i, arr): s is string => !!s && arr.indexOf(s) === i);
    const description = parts.join(', ');
    if (seen.has(description)) continue;
    seen.add(description);
    const components: Record<string, unknown> = { ...premise };
    if (h.kind === 'street') { components.street = nm; if (relation) { components.relation = relation; components.relation_to = 'street'; } }
    else if (h.kind === 'landmark') { components.landmark = nm; if (relation) components.relation = relation; }
    if (h.kind === 'locality') components.locality = nm; else if (locName) components.locality = locName;
    if (a1) components.admin1 = a1;
    components.country = g.countryCode(f);
    suggestions.push({
      description, kind: h.kind, place_id: `svc:${g.code(f)}`, name: nm, type: g.category(f), lat: g.lat[f], lng: g.lng[f],
      components, matched: { offset: description.indexOf(nm), length: nm.length },
      ...(focus ? { distance_m: Math.round(haversine(focus[0], focus[1], g.lat[f], g.lng[f])) } : {}),
    });
  }
  return {
    suggestions, ...(a?.sessiontoken ? { sessiontoken: String(a.sessiontoken) } : {}), ...(ctx.sandbox ? { sandbox: true } : {}),
  };
}

export const address = {
  init() { /* the geo module loads the gazetteer and the lexicon */ },
  tasks: {
    address_parse(a, ctx) {
      const { g } = gazetteer();
      const q = typeof a?.q === 'string' ? a.q.trim() : '';
      if (!q) throw new TaskError(400, 'missing_parameter', "Parameter 'q' is required.");
      const p = parseQuery(g, q, a?.country);
      const resolved: Record<string, unknown> = {};
      const sb = sandboxOk(g, ctx);
      for (const k of ['sublocality', 'locality', 'admin1'] as const) {
        const r = p.refs[k];
        if (r && r.f >= 0 && (!sb || sb(r.f))) resolved[k] = ref(g, r.f);
      }
      const ci = countryIndexOf(g, p.components.country);
      if (ci >= 0) resolved.country = ref(g, g.layers.country[0] + ci);
      return {
        query: q, components: p.components, normalized: p.normalized, confidence: p.confidence, country_source: p.country_source, resolved,
        ...(ctx.sandbox ? { sandbox: true } : {}),
      };
    },
    address_verify: verify,
    address_autocomplete: autocomplete,
  } satisfies TaskTable<'address_parse' | 'address_verify' | 'address_autocomplete'>,
} satisfies WorkerModule;
