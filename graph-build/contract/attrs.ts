// Guidance attributes of a way: what a turn-by-turn step names and how it classifies a maneuver.
// Ways with equal attributes share one table row, so an edge stores one Int32 and the table
// (a JSON section of the route file, a few thousand rows per extract) is read once per worker.
import type { WayAttr } from '../../src/core/format/route.ts';
export type { WayAttr } from '../../src/core/format/route.ts';

const clean = (v: string | undefined) => (v && v.trim() ? v.trim() : undefined);

/** The attributes of one way's tags (undefined fields are left out of the stored row). */
export function wayAttr(t: Record<string, string>): WayAttr {
  const a: WayAttr = { cls: t.route === 'ferry' ? 'ferry' : t.highway ?? '' };
  const set = (k: keyof WayAttr, v: string | undefined) => { const c = clean(v); if (c) (a as any)[k] = c; };
  set('name', t.name); set('fr', t['name:fr']); set('en', t['name:en']); set('ar', t['name:ar']);
  set('pt', t['name:pt']); set('sw', t['name:sw']);
  // "I 80;CO 93" → "I 80; CO 93", as car.lua's names handler lists refs
  set('ref', t.ref?.split(';').map((x) => x.trim()).filter(Boolean).join('; ')); set('pron', t['name:pronunciation']);
  set('dest', t.destination); set('destRef', t['destination:ref']);
  if (t.junction === 'roundabout' || t.junction === 'circular') a.rb = 1;
  return a;
}

/** Interns attribute rows; row 0 is always the empty row. */
export class WayAttrTable {
  readonly list: WayAttr[] = [{ cls: '' }];
  private ids = new Map<string, number>([[JSON.stringify({ cls: '' }), 0]]);
  id(tags: Record<string, string>): number {
    const a = wayAttr(tags);
    const k = JSON.stringify(a);
    let i = this.ids.get(k);
    if (i === undefined) { i = this.list.length; this.list.push(a); this.ids.set(k, i); }
    return i;
  }
}
