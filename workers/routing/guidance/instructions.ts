// Instruction text for guidance steps, in the languages of African road signs and official use.
// Phrasing comes from osrm-text-instructions (en, fr, pt-PT, ar, …: its translations are
// community-reviewed and it formats OSRM v5 steps, which ours are); it has no Swahili, so
// lang/sw.json supplies one with the same keys (written for svc, see docs/guidance.md).
import { createRequire, Module } from 'node:module';
import sw from './lang/sw.json' with { type: 'json' };
import type { GuidanceLang } from '../../../src/core/guidance.ts';

/** The languages `lang` accepts, and the osrm-text-instructions code each uses. */
export const LANGS: Record<GuidanceLang, string> = { en: 'en', fr: 'fr', pt: 'pt-PT', ar: 'ar', sw: 'sw' };
export type Lang = GuidanceLang;

interface Languages { supportedCodes: string[]; instructions: Record<string, unknown>; grammars: Record<string, unknown>; abbreviations: Record<string, unknown> }

/**
 * osrm-text-instructions, with only the languages we phrase in. Its index requires
 * `./languages`, which parses all 31 translations and every grammar and abbreviation file: 4.7 MB
 * more RSS per worker thread (bench: a bare thread that requires it, 8.5 → 13.8 MB; these four,
 * 9.1). Seeding the require cache with the four we use leaves its code as it is. Grammar: French
 * only among ours; abbreviations are not used by compile().
 */
function phrasing() {
  const req = createRequire(import.meta.url);
  const at = req.resolve('osrm-text-instructions/languages.js');
  if (!req.cache[at]) {
    const file = (f: string) => req(`osrm-text-instructions/languages/${f}.json`);
    const instructions: Record<string, unknown> = {};
    for (const code of Object.values(LANGS)) if (code !== 'sw') instructions[code] = file(`translations/${code}`);
    const slim = new Module(at);
    slim.filename = at;
    slim.loaded = true;
    slim.exports = { supportedCodes: Object.keys(instructions), instructions, grammars: { fr: file('grammar/fr') }, abbreviations: {} } satisfies Languages;
    req.cache[at] = slim;
  }
  // Already loaded whole (a test imported the package first): the same code, more languages.
  const langs = req(at) as Languages;
  if (!langs.instructions.sw) { langs.instructions.sw = sw; langs.supportedCodes.push('sw'); }
  return (req('osrm-text-instructions') as (v: 'v5') => { compile(language: string, step: unknown, opts?: { legIndex?: number; legCount?: number }): string })('v5');
}
const oti = phrasing();

/** What the phrasing reads from a step (OSRM v5 step fields). */
export interface PhraseStep {
  maneuver: { type: string; modifier?: string; exit?: number; bearing_after: number };
  name: string;
  ref?: string;
  destinations?: string;
  rotary_name?: string;
  mode: string;
}

/**
 * Phrasings already made, by everything the text depends on. Compiling one (templates tokenised,
 * grammar rules applied) cost more than building the rest of a step; routes through one city
 * repeat the same streets and turns, so most are found here. Cleared when full, to stay bounded.
 */
const made = new Map<string, string>();
const MADE_MAX = 20_000;

export function instruction(lang: Lang, step: PhraseStep, legIndex: number, legCount: number, way?: object): string {
  const m = step.maneuver;
  if (way && step.rotary_name === undefined) {
    const k = smallKey(lang, m, step.mode, legIndex, legCount);
    if (k >= 0) {
      let known = byWay.get(way);
      if (!known) byWay.set(way, (known = new Map()));
      let text = known.get(k);
      if (text === undefined) {
        if (++byWayCount > MADE_MAX) { byWay = new WeakMap(); byWayCount = 0; }
        known.set(k, (text = instruction(lang, step, legIndex, legCount)));
      }
      return text;
    }
  }
  // legIndex and legCount matter to depart and arrive only ("your 2nd destination")
  const leg = m.type === 'arrive' || m.type === 'depart' ? `${legIndex}/${legCount}` : '';
  const key = `${lang}\u0001${m.type}\u0001${m.modifier ?? ''}\u0001${m.exit ?? ''}\u0001${step.name}\u0001${step.ref ?? ''}\u0001${step.destinations ?? ''}\u0001${step.rotary_name ?? ''}\u0001${step.mode}\u0001${leg}\u0001${bearingWord(m.bearing_after)}`;
  let text = made.get(key);
  if (text === undefined) {
    if (made.size >= MADE_MAX) made.clear();
    text = phrase(lang, step, legIndex, legCount);
    made.set(key, text);
  }
  return text;
}

/**
 * Phrasings by the way a step's name, ref and destinations come from, then by a number for the
 * rest: building and hashing a string key of every field took most of a step's phrasing time.
 */
let byWay = new WeakMap<object, Map<number, string>>();
let byWayCount = 0;
const TYPES = ['depart', 'turn', 'continue', 'new name', 'merge', 'on ramp', 'off ramp', 'fork', 'end of road', 'roundabout', 'exit roundabout', 'arrive'];
const MODIFIERS = ['', 'uturn', 'sharp right', 'right', 'slight right', 'straight', 'slight left', 'left', 'sharp left'];
const STEP_MODES = ['driving', 'walking', 'cycling', 'ferry'];
const LANG_CODES = Object.keys(LANGS);

/** Everything but the way that the text depends on, as one integer; -1 when a field is outside the tables. */
function smallKey(lang: Lang, m: PhraseStep['maneuver'], mode: string, legIndex: number, legCount: number): number {
  const t = TYPES.indexOf(m.type), mod = MODIFIERS.indexOf(m.modifier ?? ''), md = STEP_MODES.indexOf(mode), l = LANG_CODES.indexOf(lang);
  const exit = m.exit === undefined ? 0 : m.exit + 1;
  if (t < 0 || mod < 0 || md < 0 || l < 0 || !Number.isInteger(exit) || exit < 0 || exit >= 64) return -1;
  // legIndex and legCount matter to depart and arrive only, as in the string key
  const leg = m.type === 'arrive' || m.type === 'depart' ? legIndex * 1024 + legCount : 0;
  if (!(leg >= 0 && legIndex < 1024 && legCount < 1024)) return -1;
  // mixed radix, one digit per field: < 2^53 throughout
  return (((((leg * TYPES.length + t) * MODIFIERS.length + mod) * 64 + exit) * STEP_MODES.length + md) * LANG_CODES.length + l) * 8 + bearingWord(m.bearing_after);
}

/** Which compass word a depart instruction may use ("Head north"), with osrm-text-instructions' own bounds. */
function bearingWord(b: number): number {
  if (b <= 20) return 0;
  if (b < 70) return 1;
  if (b <= 110) return 2;
  if (b < 160) return 3;
  if (b <= 200) return 4;
  if (b < 250) return 5;
  if (b <= 290) return 6;
  return b < 340 ? 7 : 0;
}

function phrase(lang: Lang, step: PhraseStep, legIndex: number, legCount: number): string {
  // osrm-text-instructions requires a modifier on every type but depart and arrive
  const s = step.maneuver.modifier || step.maneuver.type === 'depart' || step.maneuver.type === 'arrive'
    ? step : { ...step, maneuver: { ...step.maneuver, modifier: 'straight' } };
  let text: string = oti.compile(LANGS[lang], s, { legIndex, legCount });
  // Swahili: "kituo chako cha {nth}" with no ordinal (a single destination) drops the connective.
  text = text.replace(/\s+/g, ' ').trim();
  if (lang === 'sw') text = text.replace(/ cha(?=,|$)/, '');
  return text;
}
