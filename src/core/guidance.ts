// Guidance limits and languages, shared by the HTTP declarations (src/api) and the workers.

/** Instruction languages: English, French, Portuguese, Arabic (official and road-sign languages across Africa) and Swahili. */
export const GUIDANCE_LANGS = ['en', 'fr', 'pt', 'ar', 'sw'] as const;
export type GuidanceLang = (typeof GUIDANCE_LANGS)[number];

/** A language tag ("pt-BR", "sw_KE", "FR") → the guidance language it names, or null. */
export function guidanceLang(tag: string): GuidanceLang | null {
  const l = tag.toLowerCase().split(/[-_]/)[0];
  return (GUIDANCE_LANGS as readonly string[]).includes(l) ? (l as GuidanceLang) : null;
}

/** alternatives=N answers at most this many extra routes. */
export const MAX_ALTERNATIVES = 3;

/**
 * The first supported language of an Accept-Language header by quality ("fr-DZ,fr;q=0.9,ar;q=0.8"
 * → fr), or null. Region subtags match their language (pt-BR → pt, sw-KE → sw).
 */
export function negotiateLang(header: string | undefined): GuidanceLang | null {
  if (!header) return null;
  const ranked = header.split(',').map((part, i) => {
    const [tag, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)).find(Boolean);
    return { lang: tag.trim().toLowerCase().split('-')[0], q: q ? Number(q[1]) : 1, i };
  }).filter((x) => x.lang && x.q > 0 && Number.isFinite(x.q));
  ranked.sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranked) if ((GUIDANCE_LANGS as readonly string[]).includes(r.lang)) return r.lang as GuidanceLang;
  return null;
}
