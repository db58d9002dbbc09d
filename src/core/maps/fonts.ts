// Fonts of the styles and the static-map renderer: Debian's fonts-noto-core, one family per
// script (Latin, Arabic, Ethiopic) merged into one fontstack per weight.
import { existsSync } from 'node:fs';

export const FONT_DIR = process.env.NOTO_FONT_DIR || '/usr/share/fonts/truetype/noto';
export const FONTSTACKS = { regular: 'Noto Sans Regular', bold: 'Noto Sans Bold' } as const;

/** Files per weight, in fallback order. */
export const FONT_FILES: Record<keyof typeof FONTSTACKS, { family: string; file: string; script: 'latin' | 'arabic' | 'ethiopic' }[]> = {
  regular: [
    { family: 'svc Noto Sans', file: 'NotoSans-Regular.ttf', script: 'latin' },
    { family: 'svc Noto Sans Arabic', file: 'NotoSansArabic-Regular.ttf', script: 'arabic' },
    { family: 'svc Noto Sans Ethiopic', file: 'NotoSansEthiopic-Regular.ttf', script: 'ethiopic' },
  ],
  bold: [
    { family: 'svc Noto Sans Bold', file: 'NotoSans-Bold.ttf', script: 'latin' },
    { family: 'svc Noto Sans Arabic Bold', file: 'NotoSansArabic-Bold.ttf', script: 'arabic' },
    { family: 'svc Noto Sans Ethiopic Bold', file: 'NotoSansEthiopic-Bold.ttf', script: 'ethiopic' },
  ],
};

export function fontsInstalled(): boolean {
  return Object.values(FONT_FILES).every((l) => l.every((f) => existsSync(`${FONT_DIR}/${f.file}`)));
}

/** Which script's font draws a code point. */
export function scriptOf(cp: number): 'latin' | 'arabic' | 'ethiopic' {
  if ((cp >= 0x0600 && cp <= 0x08ff) || (cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfeff)) return 'arabic';
  if ((cp >= 0x1200 && cp <= 0x139f) || (cp >= 0x2d80 && cp <= 0x2ddf) || (cp >= 0xab00 && cp <= 0xab2f)) return 'ethiopic';
  return 'latin';
}

/** The 256-code-point ranges generated at build time (Latin, Arabic, Ethiopic and general punctuation). */
export const GLYPH_RANGES = [
  0, 256, 512, 768, 1536, 1792, 2048, 4608, 4864, 7680, 8192, 11520, 43776, 64256, 64512, 64768, 65024,
].map((s) => [s, s + 255] as [number, number]);
