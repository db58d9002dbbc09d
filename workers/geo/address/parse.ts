// Free-form address parser: the way addresses are written across Africa ("Plot 12, off Ngong
// Road, Nairobi", "BP 1234 Dakar", "Rue 10 x 11, Médina", "Rua da Missão 45, Maputo", "شارع
// النصر، بالقرب من المسجد، الجزائر") → components. Rules for the shape (PO boxes, premises,
// relations, street words, estates), a lexicon for the places (the gazetteer's countries, admin-1
// units and populated places), resolved right to left as addresses are written.
import { fold } from '../../../src/core/text/normalize.ts';
import {
  RELATION_PHRASES, STREET_WORDS, LANDMARK_WORDS, NEIGHBOURHOOD_TAILS, GENERIC_WORDS, STREET_TAIL_ONLY, PREMISE, NUMBER_WORDS, ESTATE_WORDS, SUBLOCALITY_WORDS, ADMIN1_AFFIXES, ARTICLES, POSTCODES,
  type Relation,
} from './vocab.ts';

export interface AddressComponents {
  unit?: string; plot?: string; house_number?: string;
  street?: string; cross_street?: string;
  landmark?: string; relation?: Relation;
  /** What the relation points at: a landmark ("opposite the market") or the street ("off Ngong Road"). */
  relation_to?: 'landmark' | 'street';
  estate?: string; sublocality?: string; locality?: string; admin1?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
  postcode?: string; po_box?: string;
  /** Parts that fit nowhere. */
  unparsed?: string[];
}

/** A place the lexicon knows: its name, country and gazetteer feature. */
export interface PlaceRef { name: string; country: string; f: number }

export interface Lexicon {
  /** Country code of a folded name, or null. */
  country(key: string): string | null;
  countryName(cc: string): string | null;
  admin1(key: string, cc: string | null): PlaceRef | null;
  locality(key: string, cc: string | null): PlaceRef | null;
  /** Whether a street of that folded name exists (a known street is never cut into street + place). */
  street(key: string): boolean;
  /** Whether a facility or POI of that folded name exists (a known name is kept whole, never cut into name + place). */
  landmark?(key: string): boolean;
  /** Countries that have a street of that name (to choose among places of one name). */
  streetCountries?(key: string): string[];
  /** Metres between two places the lexicon returned. */
  distance?(a: PlaceRef, b: PlaceRef): number;
}

/** A place this close to a bigger one of the same country named right of it is its neighbourhood ("Le Plateau, Dakar"). */
const NEIGHBOURHOOD_M = 15_000;

export interface ParsedAddress {
  components: AddressComponents;
  refs: { locality?: PlaceRef; sublocality?: PlaceRef; admin1?: PlaceRef };
  /** Where the country came from: the `country` argument, the text, or the locality found. */
  country_source: 'argument' | 'text' | 'inferred' | null;
  normalized: string;
  confidence: number;
}

interface Word { o: string; k: string }

const ARABIC_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g;
const digitsOf = (s: string) => s.replace(ARABIC_DIGITS, (c) => String((c.charCodeAt(0) & 0xf) % 10));

const PO_BOX: { re: RegExp; postcodeGroup?: number }[] = [
  { re: /(?<![\p{L}\p{N}])(?:P\.?\s*O\.?\s*Box|Post\s+Office\s+Box|G\.?\s*P\.?\s*O\.?\s*Box|Private\s+Bag|P\.?\s*M\.?\s*B\.?|Box)\s*(?:No\.?\s*|#\s*)?((?:[A-Z]{1,3}\s?)?\d{1,6})(?:\s*[-–]\s*(\d{5}))?(?![\p{L}\p{N}])/iu, postcodeGroup: 2 },
  { re: /(?<![\p{L}\p{N}])(?:B\.?\s*P\.?|Bo[iî]te\s+Postale)\s*(?:N[°o]\.?\s*)?(\d{1,6})(?![\p{L}\p{N}])/iu },
  { re: /(?<![\p{L}\p{N}])(?:Caixa\s+Postal|C\.\s?P\.)\s*(?:N[°ºo]\.?\s*)?(\d{1,6})(?![\p{L}\p{N}])/iu },
  { re: /(?:ص\s*\.?\s*ب\s*\.?|صندوق\s+بريد)\s*:?\s*(\d{1,6})/u },
];

const ASCII = /^[\x00-\x7f]*$/;
/** A word's folded key; plain ASCII (most queries) skips fold's NFKD and Unicode classes, same result. */
const keyOf = (w: string) => (ASCII.test(w) ? w.toLowerCase().replace(/[^a-z0-9]+/g, '') : fold(w).replace(/[^\p{L}\p{N}]+/gu, ''));
const hasDigit = (s: string) => /\d/.test(s);
const join = (ws: Word[]) => ws.map((w) => w.o).join(' ').replace(/^[\s.,;:#\-–]+|[\s,;:\-–]+$/g, '');
const keys = (ws: Word[]) => ws.map((w) => w.k).filter(Boolean).join(' ');

function wordsOf(part: string): Word[] {
  return part.split(/\s+/).filter(Boolean).map((o) => ({ o, k: keyOf(o) })).filter((w) => w.k || /^[x×&]$/i.test(w.o));
}

/**
 * Relation phrases by their first word's key, longest first: findRelation runs on every geocode
 * query that falls back to the parser, and folding each phrase's words per query cost ~0.3 ms.
 */
const RELATION_INDEX = new Map<string, { keys: string[]; rel: Relation }[]>();
for (const [phrase, rel] of RELATION_PHRASES) {
  const keys = phrase.split(' ').map((w) => keyOf(w));
  const l = RELATION_INDEX.get(keys[0]);
  if (l) l.push({ keys, rel }); else RELATION_INDEX.set(keys[0], [{ keys, rel }]);
}

/** Index and length of the first relation phrase in ws (not at the very end), or null. */
function findRelation(ws: Word[]): { i: number; n: number; rel: Relation } | null {
  for (let i = 0; i < ws.length - 1; i++) {
    const cands = RELATION_INDEX.get(ws[i].k);
    if (!cands) continue;
    for (const { keys, rel } of cands) {
      if (i + keys.length >= ws.length) continue;
      let ok = true;
      for (let k = 1; k < keys.length; k++) if (ws[i + k].k !== keys[k]) { ok = false; break; }
      if (ok) return { i, n: keys.length, rel };
    }
  }
  return null;
}

/** Words a name does not end with: the place after them belongs to the name. */
const CONNECTORS = new Set(['de', 'du', 'des', 'da', 'do', 'das', 'dos', 'of', 'la', 'le', 'les', 'the', 'and', 'et', 'e', 'al', 'el']);
/** Words after which a number belongs to a road's name (Route Nationale 1, طريق وطني 11). */
const ROAD_NUMBER_WORDS = new Set(['national', 'nationale', 'regional', 'regionale', 'departementale', 'nacional', 'provincial', 'وطني', 'الوطني', 'رقم']);

const isStreetWord = (w: Word, pos: number) => STREET_WORDS.has(w.k) || (pos > 0 && STREET_TAIL_ONLY.has(w.k));
/**
 * A street has a street word; but a name that ends in a landmark word after it is the landmark
 * on that street ("Kirichwa Road Junction", "Ngong Road Hospital"), unless the street word leads
 * (French, Portuguese and Arabic order: "Rue de l'Hôpital", "شارع المستشفى").
 */
const isStreet = (ws: Word[]) => ws.some((w, i) => isStreetWord(w, i))
  && (isStreetWord(ws[0], 0) || ws.length < 2 || !LANDMARK_WORDS.has(ws[ws.length - 1].k) || isStreetWord(ws[ws.length - 1], ws.length - 1));

/** Drops a leading article ("the market", "la mairie", "l'église"). */
function stripArticle(ws: Word[]): Word[] {
  if (ws.length > 1 && ARTICLES.has(ws[0].k)) return ws.slice(1);
  if (ws.length && /^[lLdD]['’]/.test(ws[0].o) && ws[0].o.length > 2) return [{ o: ws[0].o.slice(2), k: keyOf(ws[0].o.slice(2)) }, ...ws.slice(1)];
  return ws;
}

type Seg = { kind: 'place' | 'number'; ws: Word[]; pos: number } ;

/** Words that can start address structure in a part without digits or commas (see mayHaveStructure). */
const STRUCTURE_WORDS = new Set<string>([...RELATION_INDEX.keys(), ...STREET_WORDS, ...STREET_TAIL_ONLY, ...ESTATE_WORDS, ...SUBLOCALITY_WORDS, 'angle', 'corner']);

/**
 * Whether parseAddress could find structure (what hasStructure asks) in `input`, read from its
 * words alone: a comma or digit (premises, PO boxes and postcodes all carry digits), a relation,
 * street, estate or neighbourhood word, or known places at its end (a one-part text gains a
 * locality only by peeling places off its end). False means the parse would find a bare name, so
 * geocode's fallback skips it: most queries that miss a whole match are typos of a name.
 */
export function mayHaveStructure(input: string, lex: Lexicon): boolean {
  if (/[,،;\n|\d\u0660-\u0669\u06f0-\u06f9]/.test(input)) return true;
  const ws = wordsOf(ASCII.test(input) ? input : input.normalize('NFC'));
  for (const w of ws) if (STRUCTURE_WORDS.has(w.k)) return true;
  for (let n = 1; n <= 3 && n < ws.length; n++) if (knownPlace(ws.slice(ws.length - n), lex, null)) return true;
  return false;
}

/** Whether words t (1-3) name a country, admin-1 unit or populated place that may be peeled off a part as a place. */
function knownPlace(t: Word[], lex: Lexicon, cc: string | null): boolean {
  const k = keys(t);
  // A lone generic word ("Centre", "Market") is no place, even where a village bears that name.
  if (!k || hasDigit(k) || CONNECTORS.has(t[0].k) || (t.length === 1 && (GENERIC_WORDS.has(k) || LANDMARK_WORDS.has(k) || STREET_WORDS.has(k) || ESTATE_WORDS.has(k)))) return false;
  return !!(lex.country(k) || lex.locality(k, cc) || lex.admin1(stripAffixes(t).key, cc));
}

export function parseAddress(input: string, lex: Lexicon, countryArg?: string | null): ParsedAddress {
  const c: AddressComponents = {};
  let text = digitsOf(input.normalize('NFC'));
  // PO boxes first: their digits must not be read as house numbers or postcodes. Every pattern
  // needs a digit, and these case-folding Unicode patterns are the dearest part of a parse on a
  // busy worker (~20 µs for the four), so text without a digit skips them.
  if (/\d/.test(text)) for (const { re, postcodeGroup } of PO_BOX) {
    const m = re.exec(text);
    if (!m || c.po_box) continue;
    c.po_box = m[1];
    if (postcodeGroup && m[postcodeGroup]) c.postcode = m[postcodeGroup];
    text = text.slice(0, m.index) + ',' + text.slice(m.index + m[0].length);
  }
  const parts = text.split(/[,،;\n|]+/).map((p) => p.trim()).filter(Boolean);
  const segs: Seg[] = [];
  let assigned = 0;
  const set = (k: keyof AddressComponents, v: string) => {
    if (!v) return false;
    if ((c as any)[k] === undefined) { (c as any)[k] = v; return true; }
    return false;
  };
  const unparsed = (v: string) => { if (v) (c.unparsed ??= []).push(v); };
  let lastKind = '';

  /** A run of words that is wholly known places (each 1-3 words), as segments, or null. */
  const placesIn = (ws: Word[]): Word[][] | null => {
    const out: Word[][] = [];
    for (let i = 0; i < ws.length;) {
      let n = Math.min(3, ws.length - i);
      for (; n >= 1; n--) {
        if (knownPlace(ws.slice(i, i + n), lex, countryArg ?? null)) break;
      }
      if (n < 1) return null;
      out.push(ws.slice(i, i + n));
      i += n;
    }
    return out;
  };
  /** Trailing known places of a street/landmark ("… Ngong Road Nairobi Kenya") → place segments; the shortest such tail whose rest still `keep`s. */
  const peel = (ws: Word[], keep: (rest: Word[]) => boolean, pos: number): Word[] => {
    for (let k = ws.length - 1; k >= 1 && k >= ws.length - 6; k--) {
      const rest = ws.slice(0, k);
      // "Hôpital Préfectoral de | Mandiana": a name does not end in a preposition.
      if (!keep(rest) || CONNECTORS.has(rest[rest.length - 1].k)) continue;
      const tail = placesIn(ws.slice(k));
      if (!tail) continue;
      for (const t of tail) segs.push({ kind: 'place', ws: t, pos });
      return rest;
    }
    return ws;
  };

  const streetPart = (ws: Word[], pos: number): boolean => {
    // Dakar's grid: "Rue 10 x 11", "Rue 10 angle Rue 11", "angle rue 10 et rue 11".
    let w = ws;
    if (w.length && (w[0].k === 'angle' || w[0].k === 'corner')) w = w.slice(w[1]?.k === 'of' || w[1]?.k === 'de' ? 2 : 1);
    const xi = w.findIndex((x, i) => i > 0 && (/^[x×&]$/i.test(x.o) || x.k === 'angle' || x.k === 'et' || x.k === 'and' || x.k === 'e'));
    if (xi > 0 && isStreet(w.slice(0, xi)) && xi < w.length - 1) {
      const right = w.slice(xi + 1);
      const rest = peel(right, (r) => r.length > 0, pos);
      set('street', join(w.slice(0, xi)));
      const streetWord = w.find((x, i) => isStreetWord(x, i));
      set('cross_street', isStreet(rest) || !streetWord ? join(rest) : `${streetWord.o} ${join(rest)}`);
      return true;
    }
    if (!isStreet(w)) return false;
    // Peel a trailing place only off a street that is complete without it ("Ngong Road | Nairobi",
    // "Rue X | Dakar") and is not itself a known name ("Ring Road Central").
    const whole = lex.street(keys(w));
    let rest = whole ? w : peel(w, (r) => isStreet(r) && (isStreetWord(r[r.length - 1], r.length - 1) || isStreetWord(r[0], 0)), pos);
    // "12 Kenyatta Avenue" / "Rua da Missão 45": a number at either end is the house number.
    if (rest.length > 1 && /^\d{1,5}[a-z]?$/i.test(rest[0].o.replace(/[,#]/g, '')) && !isStreetWord(rest[0], 0)) {
      set('house_number', rest[0].o.replace(/[,#]/g, ''));
      rest = rest.slice(1);
    } else if (rest.length > 2 && !whole && /^\d{1,5}[a-z]?$/i.test(rest[rest.length - 1].o) && !isStreetWord(rest[rest.length - 2], 1) && !ROAD_NUMBER_WORDS.has(rest[rest.length - 2].k)) {
      set('house_number', rest[rest.length - 1].o);
      rest = rest.slice(0, -1);
    }
    if (!set('street', join(rest))) unparsed(join(rest));
    return true;
  };

  parts.forEach((part, pos) => {
    let ws = wordsOf(part);
    if (!ws.length) return;
    let used = false;
    // Premises: "Plot 12", "Shop 4", "House No. 7", "Villa 123", "No. 5", "#12".
    for (let guard = 0; guard < 3 && ws.length; guard++) {
      const kind = PREMISE[ws[0].k] ?? (NUMBER_WORDS.has(ws[0].k) && ws.length > 1 && hasDigit(ws[1].k) && ws[0].k !== 'n' ? 'house_number' : undefined);
      if (!kind) break;
      let j = 1;
      while (j < ws.length && NUMBER_WORDS.has(ws[j].k)) j++;
      if (j >= ws.length || !hasDigit(ws[j].o)) break;
      const id = ws[j].o.replace(/^[#:]+|[,.;:]+$/g, '');
      if (kind === 'unit') set('unit', `${ws[0].o} ${id}`);
      else set(kind, id);
      ws = ws.slice(j + 1);
      used = true; lastKind = kind;
    }
    if (!ws.length) { if (used) assigned++; return; }
    // Relation: "off Ngong Road", "opposite the market", "en face de la mairie", "perto do mercado".
    const r = findRelation(ws);
    if (r && !c.relation) {
      const left = ws.slice(0, r.i);
      let obj = ws.slice(r.i + r.n);
      if (!isStreet(obj)) obj = stripArticle(obj);
      if (left.length) {
        if (!streetPart(left, pos)) {
          if (/^\d{1,5}[a-z]?$/i.test(left[0].o) && left.length === 1) set('house_number', left[0].o);
          else set('landmark', join(left)) || unparsed(join(left));
        }
      }
      c.relation = r.rel;
      if (isStreet(obj) && !c.street) {
        obj = lex.street(keys(obj)) ? obj : peel(obj, (x) => isStreet(x) && (isStreetWord(x[x.length - 1], x.length - 1) || isStreetWord(x[0], 0)), pos);
        c.relation_to = 'street';
        streetPart(obj, pos);
      } else {
        // A landmark gives up trailing places only in the last part: "…, Beira" already names the town.
        if (pos === parts.length - 1) obj = peel(obj, (rest) => rest.length > 0, pos);
        c.relation_to = 'landmark';
        set('landmark', join(obj)) || unparsed(join(obj));
      }
      assigned++; lastKind = 'relation';
      return;
    }
    if (streetPart(ws, pos)) { assigned++; lastKind = 'street'; return; }
    if (ws.some((w) => ESTATE_WORDS.has(w.k)) && !lex.locality(keys(ws), countryArg ?? null)) {
      const rest = peel(ws, (x) => x.some((w) => ESTATE_WORDS.has(w.k)), pos);
      set('estate', join(rest)) || unparsed(join(rest)); assigned++; lastKind = 'estate'; return;
    }
    if (SUBLOCALITY_WORDS.has(ws[0].k) && ws.length > 1) {
      set('sublocality', join(ws)) || unparsed(join(ws)); assigned++; lastKind = 'sublocality'; return;
    }
    // A bare number: after a street it is the house number ("Rua X, 45"); otherwise a postcode candidate.
    if (ws.length === 1 && /^\d[\d\-]*[a-z]?$/i.test(ws[0].o)) {
      if (lastKind === 'street' && !c.house_number && ws[0].o.length <= 4) { set('house_number', ws[0].o); assigned++; return; }
      segs.push({ kind: 'number', ws, pos }); return;
    }
    if (used) assigned++;
    // Numbers at either end of a place part: "Nairobi 00100", "10200 Dakar", "GPO 00100".
    while (ws.length > 1 && /^\d{3,6}$/.test(ws[ws.length - 1].o)) { segs.push({ kind: 'number', ws: [ws[ws.length - 1]], pos }); ws = ws.slice(0, -1); }
    while (ws.length > 1 && /^\d{3,6}$/.test(ws[0].o)) { segs.push({ kind: 'number', ws: [ws[0]], pos }); ws = ws.slice(1); }
    if (ws.length > 1 && ws[0].k === 'gpo') ws = ws.slice(1);
    // Several places without commas ("Westlands Nairobi Kenya"): peel known places off the end.
    const whole = keys(ws);
    if (ws.length > 1 && !lex.locality(whole, countryArg ?? null) && !lex.country(whole) && !lex.admin1(stripAffixes(ws).key, countryArg ?? null) && !lex.landmark?.(whole)) {
      ws = peel(ws, (rest) => rest.length > 0, pos);
    }
    segs.push({ kind: 'place', ws, pos });
  });

  // Places, right to left: the country, then admin-1 and locality, then what lies left of the locality.
  const refs: ParsedAddress['refs'] = {};
  const places = segs.filter((s) => s.kind === 'place').sort((a, b) => a.pos - b.pos);
  let country_source: ParsedAddress['country_source'] = null;
  let cc = countryArg ? countryArg.toUpperCase() : null;
  if (cc) country_source = 'argument';
  const done = new Set<Seg>();
  for (let i = places.length - 1; i >= 0; i--) {
    const code = lex.country(keys(places[i].ws));
    if (code) {
      // "…, Djibouti" alone: the city of the country's name (the country follows from it).
      if (places.length === 1 && !countryArg && lex.locality(keys(places[i].ws), code)) { cc = code; country_source = 'text'; break; }
      done.add(places[i]); assigned++;
      if (!cc) { cc = code; country_source = 'text'; }
      if (!c.country) c.country = code;
      break;
    }
  }
  const rest = places.filter((s) => !done.has(s));
  // No country yet: the rightmost place that resolves anywhere sets it, so the places left of it
  // are looked up in that country ("Médina, Dakar" is Dakar's Médina, not Morocco's).
  if (!cc) {
    // A street of a known name narrows the countries first ("…, Osu" is Accra's Osu when the street is Accra's).
    const sc = c.street && lex.streetCountries ? lex.streetCountries(keys(wordsOf(c.street))) : [];
    for (let i = rest.length - 1; i >= 0 && !cc; i--) {
      for (const s of sc) {
        const hit = lex.locality(keys(rest[i].ws), s) ?? lex.admin1(stripAffixes(rest[i].ws).key, s);
        if (hit) { cc = hit.country; country_source = 'inferred'; break; }
      }
      if (cc) break;
      const hit = lex.locality(keys(rest[i].ws), null) ?? lex.admin1(stripAffixes(rest[i].ws).key, null);
      if (hit) { cc = hit.country; country_source = 'inferred'; }
    }
  }
  const locOf = (s: Seg) => lex.locality(keys(s.ws), cc);
  for (let i = rest.length - 1; i >= 0; i--) {
    const s = rest[i];
    const aff = stripAffixes(s.ws);
    const a1 = lex.admin1(aff.key, cc);
    const loc = locOf(s);
    const left = i > 0 ? locOf(rest[i - 1]) : null;
    // "Ikeja, Lagos": Lagos is the state; "Le Plateau, Dakar": Dakar is the city around its neighbourhood.
    const leftIsPlace = !!left && !(loc && lex.distance && lex.distance(left, loc) <= NEIGHBOURHOOD_M);
    if (a1 && !refs.admin1 && !refs.locality && (aff.affixed || !loc || leftIsPlace)) {
      refs.admin1 = a1; c.admin1 = a1.name; assigned++;
    } else if (loc && !refs.locality) {
      refs.locality = loc; c.locality = join(s.ws); assigned++;
    } else if (loc && refs.locality && !c.sublocality) {
      refs.sublocality = loc; c.sublocality = join(s.ws); assigned++;
    } else if (a1 && !refs.admin1 && !refs.locality) {
      refs.admin1 = a1; c.admin1 = a1.name; assigned++;
    } else {
      // Unknown names: left of a street or premise they are the neighbourhood; alone, a landmark.
      // "Airport Residential Area" names a neighbourhood; a facility's known name ("Medanta Kenya") a landmark.
      const area = NEIGHBOURHOOD_TAILS.has(s.ws[s.ws.length - 1].k);
      const landmarkish = !area && (s.ws.some((w) => LANDMARK_WORDS.has(w.k)) || !!lex.landmark?.(keys(s.ws)));
      if (landmarkish && !c.landmark) { c.landmark = join(s.ws); assigned++; }
      else if (!c.sublocality && (refs.locality || refs.admin1 || c.street)) { c.sublocality = join(s.ws); assigned++; }
      else if (!c.landmark && i === 0) { c.landmark = join(s.ws); assigned++; }
      else unparsed(join(s.ws));
    }
  }
  if (!cc) {
    const from = refs.locality ?? refs.admin1 ?? refs.sublocality;
    if (from) { cc = from.country; country_source = 'inferred'; }
  }
  if (cc && !c.country) c.country = cc;
  for (const s of segs) if (s.kind === 'number') {
    const v = s.ws[0].o.toUpperCase();
    if (!c.postcode && cc && POSTCODES[cc]?.test(v)) { c.postcode = v; assigned++; }
    else if (!c.house_number && /^\d{1,4}[A-Z]?$/.test(v)) { c.house_number = v; assigned++; }
    else unparsed(s.ws[0].o);
  }
  if (c.po_box) assigned++;
  const total = Math.max(1, assigned + (c.unparsed?.length ?? 0));
  const confidence = Math.round(Math.min(1,
    0.55 * (assigned / total) + (refs.locality || refs.admin1 ? 0.25 : 0) + (cc ? 0.1 : 0) + (c.street || c.landmark || c.po_box ? 0.1 : 0)) * 100) / 100;
  return { components: c, refs, country_source, normalized: normalizedText(c, lex), confidence };
}

function stripAffixes(ws: Word[]): { key: string; affixed: boolean } {
  let s = 0, e = ws.length;
  while (s < e - 1 && ADMIN1_AFFIXES.has(ws[s].k)) s++;
  while (e > s + 1 && ADMIN1_AFFIXES.has(ws[e - 1].k)) e--;
  return { key: keys(ws.slice(s, e)), affixed: s > 0 || e < ws.length };
}

const EXPAND: Record<string, string> = { rd: 'Road', st: 'Street', str: 'Street', ave: 'Avenue', av: 'Avenue', blvd: 'Boulevard', bd: 'Boulevard', bld: 'Boulevard', hwy: 'Highway', ln: 'Lane', cres: 'Crescent', avda: 'Avenida' };
const RELATION_TEXT: Record<Relation, string> = { near: 'near', opposite: 'opposite', behind: 'behind', off: 'off', along: 'along', after: 'after', before: 'before', next_to: 'next to' };

/** Expands street abbreviations (Rd → Road, a trailing St → Street). */
export function expandStreet(s: string): string {
  const ws = s.split(/\s+/);
  return ws.map((w, i) => {
    const k = keyOf(w);
    if (k === 'st' && i === 0) return w;
    return EXPAND[k] ?? w;
  }).join(' ');
}

/**
 * The premise parts of a normalised address (unit, plot, a house number without a street) and the
 * street text with its house number and cross street: what parse and verify write the same way.
 */
export function premiseAndStreet(c: AddressComponents): { out: string[]; street: string } {
  const out: string[] = [];
  if (c.unit) out.push(c.unit);
  if (c.plot) out.push(`Plot ${c.plot}`);
  let street = c.street ? expandStreet(c.street) : '';
  if (street && c.cross_street) street += ` x ${expandStreet(c.cross_street)}`;
  if (street && c.house_number) street = `${c.house_number} ${street}`;
  else if (c.house_number) out.push(`No. ${c.house_number}`);
  return { out, street };
}

function normalizedText(c: AddressComponents, lex: Lexicon): string {
  const { out, street } = premiseAndStreet(c);
  if (street && c.relation && c.relation_to === 'street') out.push(`${RELATION_TEXT[c.relation]} ${street}`);
  else if (street) out.push(street);
  if (c.landmark) out.push(c.relation && c.relation_to !== 'street' ? `${RELATION_TEXT[c.relation]} ${c.landmark}` : c.landmark);
  for (const k of ['estate', 'sublocality', 'locality', 'admin1'] as const) if (c[k]) out.push(c[k]!);
  if (c.po_box) out.push(`P.O. Box ${c.po_box}${c.postcode && c.country === 'KE' ? `-${c.postcode}` : ''}`);
  if (c.postcode && !(c.po_box && c.country === 'KE')) out.push(c.postcode);
  if (c.country) out.push(lex.countryName(c.country) ?? c.country);
  return out.join(', ');
}
