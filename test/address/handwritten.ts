// Scoring of the hand-written labelled addresses (test/fixtures/addresses/handwritten.json), shared by
// the accuracy test and `npm run bench -- address-landmarks`: top-1 within the label's tolerance (for a
// street, of any of its OSM ways' lines) and the share of labelled components parsed exactly.
import { haversine } from '../../src/core/geometry.ts';
import { nameKey } from '../../src/core/text/normalize.ts';

export interface LabelledAddress {
  split: 'tune' | 'report';
  kind: 'street' | 'landmark' | 'poi' | 'po_box';
  q: string;
  ref: string;
  components: Record<string, string>;
  expect: { lat: number; lng: number; tolerance_m: number; lines?: [number, number][][] };
}

/** Metres from (lat, lng) to the polyline, on a local flat projection (lines span a few km). */
function toLine(lat: number, lng: number, line: [number, number][]): number {
  if (line.length === 1) return haversine(lat, lng, line[0][0], line[0][1]);
  const kx = 111_320 * Math.cos((lat * Math.PI) / 180), ky = 110_540;
  let best = Infinity;
  for (let i = 1; i < line.length; i++) {
    const ax = (line[i - 1][1] - lng) * kx, ay = (line[i - 1][0] - lat) * ky;
    const bx = (line[i][1] - lng) * kx, by = (line[i][0] - lat) * ky;
    const dx = bx - ax, dy = by - ay;
    const len = dx * dx + dy * dy;
    const t = len ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len)) : 0;
    best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
  }
  return best;
}

/** Metres from a point to what the label expects (the street's lines, or its point). */
export function distanceToExpected(e: LabelledAddress['expect'], lat: number, lng: number): number {
  if (e.lines?.length) return Math.min(...e.lines.map((l) => toLine(lat, lng, l)));
  return haversine(lat, lng, e.lat, e.lng);
}

/** Components compare case-, accent- and punctuation-blind ("St. Hannah's" = "St Hannahs"). */
const same = (a: unknown, b: string) => typeof a === 'string' && nameKey(a) === nameKey(b);

type Tally = { n: number; top1: number; components: number; components_exact: number };
const rate = (x: number, n: number) => (n ? Math.round((x / n) * 1000) / 1000 : null);

export function scoreLabelled(
  set: LabelledAddress[],
  geocode: (q: string) => { lat: number; lng: number; name?: string; type?: string } | null,
  parse: (q: string) => Record<string, unknown>,
) {
  const by: Record<string, Tally> = {};
  const misses: Record<string, unknown>[] = [];
  for (const a of set) {
    const r = geocode(a.q);
    const d = r ? distanceToExpected(a.expect, r.lat, r.lng) : Infinity;
    const hit = d <= a.expect.tolerance_m;
    const c = parse(a.q);
    const wrong = Object.entries(a.components).filter(([k, v]) => !same(c[k], v));
    for (const key of [`${a.split}.all`, `${a.split}.${a.kind}`]) {
      const t = (by[key] ??= { n: 0, top1: 0, components: 0, components_exact: 0 });
      t.n++; if (hit) t.top1++;
      t.components += Object.keys(a.components).length;
      t.components_exact += Object.keys(a.components).length - wrong.length;
    }
    if (!hit || wrong.length) {
      misses.push({
        split: a.split, kind: a.kind, q: a.q, ...(hit ? {} : { got: r ? { name: r.name, type: r.type, distance_m: Math.round(d) } : null }),
        ...(wrong.length ? { components: Object.fromEntries(wrong.map(([k, v]) => [k, { want: v, got: c[k] ?? null }])) } : {}),
      });
    }
  }
  const summary: Record<string, Record<string, unknown>> = {};
  for (const [key, t] of Object.entries(by).sort()) {
    const [split, kind] = key.split('.');
    (summary[split] ??= {})[kind] = { n: t.n, top1_within_tolerance: t.top1, top1_rate: rate(t.top1, t.n), components: t.components, components_exact: t.components_exact, components_rate: rate(t.components_exact, t.components) };
  }
  return { summary, misses };
}
