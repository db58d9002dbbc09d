// SDF glyph ranges (MapLibre's glyph PBF format) drawn at build time with tiny-sdf on a
// @napi-rs/canvas, from Debian's Noto fonts: Latin, Arabic and Ethiopic ranges per fontstack.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import TinySDF from '@mapbox/tiny-sdf';
import { PbfWriter } from 'pbf';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { FONT_DIR, FONT_FILES, FONTSTACKS, GLYPH_RANGES, scriptOf } from '../../src/core/maps/fonts.ts';

const FONT_SIZE = 24, BUFFER = 3, RADIUS = 8, CUTOFF = 0.25;

const TinySDFClass = TinySDF as unknown as new (o: Record<string, unknown>) => { draw(c: string): any };
class CanvasSDF extends (TinySDFClass as any) {
  _createCanvas(size: number) { return createCanvas(size, size); }
}

interface Glyph { id: number; bitmap: Uint8Array; width: number; height: number; left: number; top: number; advance: number }

/** Encode one range of one fontstack (glyphs.proto: stacks=1 { name=1, range=2, glyphs=3 {...} }). */
export function encodeGlyphRange(name: string, range: string, glyphs: Glyph[]): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(1, (_: unknown, p: PbfWriter) => {
    p.writeStringField(1, name);
    p.writeStringField(2, range);
    for (const g of glyphs) {
      p.writeMessage(3, (_g: unknown, q: PbfWriter) => {
        q.writeVarintField(1, g.id);
        if (g.bitmap.length) q.writeBytesField(2, g.bitmap);
        q.writeVarintField(3, g.width);
        q.writeVarintField(4, g.height);
        q.writeSVarintField(5, g.left);
        q.writeSVarintField(6, g.top);
        q.writeVarintField(7, g.advance);
      }, null);
    }
  }, null);
  return pbf.finish();
}

let registered = false;
function registerFonts() {
  if (registered) return;
  for (const list of Object.values(FONT_FILES)) for (const f of list) {
    if (!GlobalFonts.registerFromPath(join(FONT_DIR, f.file), f.family)) throw new Error(`cannot load font ${join(FONT_DIR, f.file)} (apt-get install fonts-noto-core)`);
  }
  registered = true;
}

export function registerMapFonts(): void { registerFonts(); }

export function buildGlyphs(dir: string, onProgress?: (f: number) => void): { fontstacks: string[]; ranges: string[] } {
  registerFonts();
  const stacks = Object.keys(FONTSTACKS) as (keyof typeof FONTSTACKS)[];
  let done = 0;
  for (const w of stacks) {
    const name = FONTSTACKS[w];
    const sdf: Record<string, any> = {};
    for (const f of FONT_FILES[w]) sdf[f.script] = new (CanvasSDF as any)({ fontSize: FONT_SIZE, buffer: BUFFER, radius: RADIUS, cutoff: CUTOFF, fontFamily: `"${f.family}"` });
    mkdirSync(join(dir, name), { recursive: true });
    for (const [a, b] of GLYPH_RANGES) {
      const glyphs: Glyph[] = [];
      for (let cp = a; cp <= b; cp++) {
        if (cp < 32 || (cp >= 127 && cp < 160)) continue;
        const g = sdf[scriptOf(cp)].draw(String.fromCodePoint(cp));
        if (!g.glyphAdvance && !g.glyphWidth) continue;
        glyphs.push({
          id: cp, bitmap: g.glyphWidth && g.glyphHeight ? new Uint8Array(g.data.buffer, g.data.byteOffset, g.data.length) : new Uint8Array(0),
          width: g.glyphWidth, height: g.glyphHeight, left: Math.round(g.glyphLeft), top: g.glyphTop - 27, advance: Math.round(g.glyphAdvance),
        });
      }
      writeFileSync(join(dir, name, `${a}-${b}.pbf`), encodeGlyphRange(name, `${a}-${b}`, glyphs));
      onProgress?.(++done / (stacks.length * GLYPH_RANGES.length));
    }
  }
  return { fontstacks: stacks.map((s) => FONTSTACKS[s]), ranges: GLYPH_RANGES.map(([a, b]) => `${a}-${b}`) };
}
