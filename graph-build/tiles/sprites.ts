// The style's sprite sheets at 1x and 2x (PNG + JSON index), drawn at build time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { ICONS, ICON_SIZE, drawIcon } from '../../src/core/maps/icons.ts';

export function buildSprites(dir: string): { icons: string[] } {
  mkdirSync(dir, { recursive: true });
  for (const ratio of [1, 2]) {
    const s = ICON_SIZE * ratio, pad = 2 * ratio;
    const canvas = createCanvas(ICONS.length * (s + pad), s);
    const ctx = canvas.getContext('2d');
    const index: Record<string, { x: number; y: number; width: number; height: number; pixelRatio: number }> = {};
    ICONS.forEach((name, i) => {
      const x = i * (s + pad);
      ctx.save();
      ctx.translate(x, 0);
      drawIcon(ctx as any, name, s);
      ctx.restore();
      index[name] = { x, y: 0, width: s, height: s, pixelRatio: ratio };
    });
    const suffix = ratio === 1 ? '' : '@2x';
    writeFileSync(join(dir, `sprite${suffix}.png`), canvas.toBuffer('image/png'));
    writeFileSync(join(dir, `sprite${suffix}.json`), JSON.stringify(index));
  }
  return { icons: [...ICONS] };
}
