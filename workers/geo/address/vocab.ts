// Word lists of the address parser, in folded form (src/core/text/normalize.ts `fold`: lower
// case, no diacritics, apostrophes dropped). English, French, Portuguese and Arabic, the way
// addresses are written across Africa: descriptions relative to a road or a landmark more
// often than house numbers.

export const RELATIONS = ['near', 'opposite', 'behind', 'off', 'along', 'after', 'before', 'next_to'] as const;
export type Relation = (typeof RELATIONS)[number];

/** Relation phrases (word sequences) → relation. Longer phrases are tried first. */
export const RELATION_PHRASES: [string, Relation][] = ([
  // English
  ['near', 'near'], ['nr', 'near'], ['near to', 'near'], ['close to', 'near'], ['around', 'near'],
  ['opposite', 'opposite'], ['opp', 'opposite'], ['opposite to', 'opposite'], ['facing', 'opposite'], ['across from', 'opposite'], ['in front of', 'opposite'],
  ['behind', 'behind'], ['at the back of', 'behind'],
  ['off', 'off'], ['just off', 'off'],
  ['along', 'along'],
  ['after', 'after'], ['just after', 'after'], ['past', 'after'],
  ['before', 'before'], ['just before', 'before'],
  ['next to', 'next_to'], ['beside', 'next_to'], ['adjacent to', 'next_to'], ['adj to', 'next_to'],
  // French
  ['pres de', 'near'], ['pres du', 'near'], ['pres des', 'near'], ['proche de', 'near'], ['proche du', 'near'], ['non loin de', 'near'], ['non loin du', 'near'],
  ['en face de', 'opposite'], ['en face du', 'opposite'], ['en face des', 'opposite'], ['face a', 'opposite'], ['face au', 'opposite'], ['devant', 'opposite'],
  ['derriere', 'behind'], ['a cote de', 'next_to'], ['a cote du', 'next_to'], ['a cote des', 'next_to'],
  ['le long de', 'along'], ['le long du', 'along'], ['apres', 'after'], ['avant', 'before'],
  // Portuguese
  ['perto de', 'near'], ['perto do', 'near'], ['perto da', 'near'], ['perto dos', 'near'], ['perto das', 'near'], ['proximo de', 'near'], ['proximo do', 'near'], ['proximo da', 'near'], ['junto a', 'near'], ['junto ao', 'near'], ['junto da', 'near'], ['junto do', 'near'],
  ['em frente a', 'opposite'], ['em frente ao', 'opposite'], ['em frente de', 'opposite'], ['em frente do', 'opposite'], ['em frente da', 'opposite'], ['defronte', 'opposite'],
  ['atras de', 'behind'], ['atras do', 'behind'], ['atras da', 'behind'], ['por tras de', 'behind'], ['por tras do', 'behind'], ['por tras da', 'behind'],
  ['ao lado de', 'next_to'], ['ao lado do', 'next_to'], ['ao lado da', 'next_to'],
  ['ao longo de', 'along'], ['ao longo do', 'along'], ['ao longo da', 'along'],
  ['depois de', 'after'], ['depois do', 'after'], ['depois da', 'after'], ['antes de', 'before'], ['antes do', 'before'], ['antes da', 'before'],
  // Arabic
  ['بالقرب من', 'near'], ['قرب', 'near'], ['قريب من', 'near'], ['بجوار', 'next_to'], ['بجانب', 'next_to'], ['جنب', 'next_to'],
  ['مقابل', 'opposite'], ['امام', 'opposite'], ['أمام', 'opposite'], ['قبالة', 'opposite'], ['خلف', 'behind'], ['وراء', 'behind'],
  ['بعد', 'after'], ['قبل', 'before'], ['على طول', 'along'],
] as [string, Relation][]).sort((a, b) => b[0].split(' ').length - a[0].split(' ').length);

/** Words that make a part a street (as a whole folded word). */
export const STREET_WORDS = new Set([
  'road', 'rd', 'street', 'str', 'avenue', 'ave', 'av', 'drive', 'lane', 'ln', 'close', 'crescent', 'cres', 'way', 'highway', 'hwy', 'boulevard', 'blvd',
  'terrace', 'grove', 'bypass', 'expressway', 'parkway', 'link', 'mews', 'circle',
  'rue', 'route', 'chemin', 'allee', 'impasse', 'corniche', 'voie', 'bd', 'bld',
  'rua', 'avenida', 'avda', 'travessa', 'estrada', 'alameda', 'praca', 'largo', 'beco', 'rodovia',
  'شارع', 'طريق', 'نهج', 'زنقة', 'درب', 'جادة', 'ممر',
  'mtaa', 'barabara',
]);

/** Words that never make a place on their own, though villages bear them as names ("Central", "Centre"). */
export const GENERIC_WORDS = new Set(['central', 'centre', 'center', 'north', 'south', 'east', 'west', 'new', 'old', 'main', 'grand', 'petit', 'upper', 'lower',
  'general', 'regional', 'provincial', 'district', 'national', 'municipal', 'limited', 'ltd', 'nord', 'sud', 'est', 'ouest', 'norte', 'sul', 'leste', 'oeste']);

/** Words that make an unknown name a landmark rather than a neighbourhood. */
export const LANDMARK_WORDS = new Set([
  'hospital', 'clinic', 'market', 'school', 'church', 'mosque', 'station', 'stage', 'hotel', 'bank', 'supermarket', 'mall', 'stadium', 'university',
  'college', 'police', 'post', 'petrol', 'filling', 'pharmacy', 'chemist', 'dispensary', 'centre', 'center', 'plaza', 'tower', 'house', 'building',
  'airport', 'park', 'roundabout', 'junction', 'bridge', 'terminal', 'office', 'cathedral', 'temple', 'dispensaire', 'pharmacie',
  'stop', 'terminus', 'overhead', 'interchange', 'flyover', 'chemists', 'pharmacies', 'clinics', 'hospitals', 'polyclinic', 'academy', 'barracks',
  'marche', 'ecole', 'eglise', 'mosquee', 'gare', 'hopital', 'mairie', 'rondpoint', 'carrefour', 'pont', 'lycee', 'universite', 'banque',
  'mercado', 'escola', 'igreja', 'mesquita', 'estacao', 'farmacia', 'hospital', 'paragem', 'bomba',
  'مسجد', 'المسجد', 'مستشفى', 'المستشفى', 'سوق', 'السوق', 'مدرسة', 'المدرسة', 'صيدلية', 'الصيدلية', 'محطة', 'المحطة', 'كنيسة', 'بنك', 'فندق', 'جامعة', 'الجامعة',
]);
/**
 * Words people add after a landmark's name that the place's own name often lacks ("Kwa Njogu
 * stage" is the stop "Kwa Njogu", "Caprice bus stop" the stop "Caprice"), longest first: the
 * landmark lookup drops them from the end when the name as written matches nothing.
 */
export const LANDMARK_SUFFIXES: string[][] = [
  ['bus', 'stop'], ['bus', 'stage'], ['bus', 'station'], ['bus', 'terminus'], ['matatu', 'stage'], ['trotro', 'station'], ['taxi', 'rank'],
  ['stage'], ['stop'], ['station'], ['terminus'], ['junction'], ['roundabout'], ['market'], ['church'], ['area'],
  ['arret'], ['gare'], ['carrefour'], ['paragem'],
];

/** Last words of a neighbourhood's name ("Airport Residential Area", "North Industrial Area"): a sublocality, not a landmark. */
export const NEIGHBOURHOOD_TAILS = new Set(['area']);

/** "St" is Street only after a name (a leading St is Saint). */
export const STREET_TAIL_ONLY = new Set(['st']);

/** Premise keywords → component, each followed by its identifier ("Plot 12", "BP" is a PO box and handled apart). */
export const PREMISE: Record<string, 'unit' | 'plot' | 'house_number'> = {
  apt: 'unit', apartment: 'unit', flat: 'unit', suite: 'unit', unit: 'unit', room: 'unit', rm: 'unit', shop: 'unit', stall: 'unit', office: 'unit',
  floor: 'unit', appt: 'unit', appartement: 'unit', bureau: 'unit', porte: 'unit', etage: 'unit', apartamento: 'unit', sala: 'unit', loja: 'unit', andar: 'unit',
  'شقة': 'unit', 'محل': 'unit', 'مكتب': 'unit',
  plot: 'plot', lot: 'plot', parcelle: 'plot', parcela: 'plot', lote: 'plot', ilot: 'plot', parcel: 'plot', lr: 'plot', 'قطعة': 'plot',
  house: 'house_number', hse: 'house_number', villa: 'house_number', maison: 'house_number', casa: 'house_number', 'منزل': 'house_number', 'فيلا': 'house_number',
};
/** Filler between a premise keyword and its identifier: "Plot No. 12", "Lot n° 4". */
export const NUMBER_WORDS = new Set(['no', 'nos', 'number', 'num', 'n', 'nr', 'nro', 'numero', 'rakam', 'رقم']);

/** Named housing estates and their kin → estate. */
export const ESTATE_WORDS = new Set([
  'estate', 'estates', 'gardens', 'phase', 'layout', 'gra', 'scheme', 'heights', 'flats', 'apartments', 'villas', 'residence', 'residences',
  'cite', 'lotissement', 'hlm', 'sicap', 'condominio', 'urbanizacao', 'conjunto', 'إقامة', 'اقامة', 'تجزئة', 'مجمع',
]);
/** Neighbourhood words → sublocality: "Quartier Plateau", "Bairro Alto Maé", "حي النصر". */
export const SUBLOCALITY_WORDS = new Set(['quartier', 'quarter', 'bairro', 'ward', 'zone', 'secteur', 'حي']);

/** Suffixes and prefixes around admin-1 names: "Lagos State", "Région de Dakar", "ولاية الجزائر". */
export const ADMIN1_AFFIXES = new Set([
  'state', 'province', 'region', 'county', 'governorate', 'wilaya', 'prefecture', 'departement', 'department', 'provincia', 'regiao', 'estado',
  'de', 'du', 'da', 'do', 'of', 'la', 'ولاية', 'محافظة', 'اقليم', 'إقليم', 'جهة',
]);

/** Articles dropped at the head of a landmark: "opposite the market" → market. */
export const ARTICLES = new Set(['the', 'le', 'la', 'les', 'o', 'a', 'os', 'as', 'un', 'une', 'um', 'uma']);

/** Country names the Natural Earth alternates lack (Arabic, common short forms), folded. */
export const COUNTRY_EXTRA: Record<string, string> = {
  'مصر': 'EG', 'المغرب': 'MA', 'الجزائر': 'DZ', 'تونس': 'TN', 'ليبيا': 'LY', 'السودان': 'SD', 'موريتانيا': 'MR', 'جيبوتي': 'DJ', 'الصومال': 'SO',
  'drc': 'CD', 'rdc': 'CD', 'ivory coast': 'CI', 'cote divoire': 'CI', 'tanzania': 'TZ', 'cabo verde': 'CV', 'cape verde': 'CV', 'swaziland': 'SZ',
  'senegal': 'SN', 'algerie': 'DZ', 'maroc': 'MA', 'tunisie': 'TN', 'egypte': 'EG', 'mocambique': 'MZ', 'mozambique': 'MZ', 'angola': 'AO',
};

/** Postal codes by country (ISO alpha-2): the form a standalone code takes. */
export const POSTCODES: Record<string, RegExp> = {
  KE: /^\d{5}$/, TZ: /^\d{5}$/, NG: /^\d{6}$/, ZA: /^\d{4}$/, EG: /^\d{5}$/, MA: /^\d{5}$/, DZ: /^\d{5}$/, TN: /^\d{4}$/, SN: /^\d{5}$/,
  ET: /^\d{4}$/, MZ: /^\d{4}$/, LS: /^\d{3}$/, CV: /^\d{4}$/, LR: /^\d{4}$/, MG: /^\d{3}$/, NE: /^\d{4}$/, ZM: /^\d{5}$/, SD: /^\d{5}$/,
  SZ: /^[A-Z]\d{3}$/, GH: /^[A-Z]{2}-?\d{3,4}-?\d{3,4}$/, GN: /^\d{3}$/, MW: /^\d{6}$/, MU: /^\d{5}$/, DJ: /^$/, BW: /^$/,
};
