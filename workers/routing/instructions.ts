// Instruction text for guidance steps, in the languages of African road signs and official use.
// Phrasing comes from osrm-text-instructions (en, fr, pt-PT, ar, …: its translations are
// community-reviewed and it formats OSRM v5 steps, which ours are); it has no Swahili, so
// lang/sw.json supplies one with the same keys (written for svc, see docs/guidance.md).
import osrmTextInstructions from 'osrm-text-instructions';
import languages from 'osrm-text-instructions/languages.js';
import sw from './lang/sw.json' with { type: 'json' };
import type { GuidanceLang } from '../../src/core/guidance.ts';

/** The languages `lang` accepts, and the osrm-text-instructions code each uses. */
export const LANGS: Record<GuidanceLang, string> = { en: 'en', fr: 'fr', pt: 'pt-PT', ar: 'ar', sw: 'sw' };
export type Lang = GuidanceLang;

const langs = languages as unknown as { supportedCodes: string[]; instructions: Record<string, unknown> };
if (!langs.instructions.sw) { langs.instructions.sw = sw; langs.supportedCodes.push('sw'); }
const oti = osrmTextInstructions('v5');

/** What the phrasing reads from a step (OSRM v5 step fields). */
export interface PhraseStep {
  maneuver: { type: string; modifier?: string; exit?: number; bearing_after: number };
  name: string;
  ref?: string;
  destinations?: string;
  rotary_name?: string;
  mode: string;
}

export function instruction(lang: Lang, step: PhraseStep, legIndex: number, legCount: number): string {
  // osrm-text-instructions requires a modifier on every type but depart and arrive
  const s = step.maneuver.modifier || step.maneuver.type === 'depart' || step.maneuver.type === 'arrive'
    ? step : { ...step, maneuver: { ...step.maneuver, modifier: 'straight' } };
  let text: string = oti.compile(LANGS[lang], s, { legIndex, legCount });
  // Swahili: "kituo chako cha {nth}" with no ordinal (a single destination) drops the connective.
  text = text.replace(/\s+/g, ' ').trim();
  if (lang === 'sw') text = text.replace(/ cha(?=,|$)/, '');
  return text;
}
