// Static maps on the real tiles, decoded as images: size and scale, a varied picture, the
// road colour of the style where the data has a road (day and dark), marker pixels where the
// marker is, a path and a routed path, the attribution box, signed URLs and the limits.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildTestTiles, trunkVertex, SHARED_DATA } from './fixture.ts';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { PALETTES } from '../../src/core/maps/style.ts';
import { project, unproject } from '../../src/core/maps/staticmap.ts';

let db: TestDb;
let s: TestServer;
let key: string;
let road: [number, number]; // a vertex of a trunk road in the Sikonge z14 tile

beforeAll(async () => {
  db = freshPglite();
  const built = join(db.dataDir, 'built');
  await buildTestTiles(built);
  await buildRoadExtract({ input: join(SHARED_DATA, 'djibouti-2022-08-roads-secondary-plus.osm.pbf'), name: 'djibouti', out: built, profiles: ['driving'] });
  s = await startTestServer(db);
  key = await s.key({ scopes: ['maps'] });
  road = trunkVertex(built);
}, 600_000);
afterAll(async () => {
  await s?.close();
  await db?.drop();
});

async function image(path: string, k: string | null = key) {
  const r = await s.get(path, k);
  expect(r.status, await r.clone().text().catch(() => '')).toBe(200);
  expect(r.headers.get('content-type')).toBe('image/png');
  const bytes = Buffer.from(await r.arrayBuffer());
  const img = await loadImage(bytes);
  const cv = createCanvas(img.width, img.height);
  const ctx = cv.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  const px = (x: number, y: number) => { const i = 4 * (Math.round(y) * img.width + Math.round(x)); return [data[i], data[i + 1], data[i + 2]]; };
  return { w: img.width, h: img.height, px, data, bytes, headers: r.headers };
}
const hex = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
const near = (a: number[], b: number[], tol = 24) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

describe('GET /staticmap', () => {
  it('answers a PNG of the requested size, twice the pixels at scale=2, with many colours', async () => {
    const a = await image('/api/v1/staticmap?center=-5.6333,32.7667&zoom=13&size=600x400');
    expect([a.w, a.h]).toEqual([600, 400]);
    expect(a.headers.get('cache-control')).toMatch(/max-age/);
    const colours = new Set<number>();
    for (let i = 0; i < a.data.length; i += 4 * 37) colours.add((a.data[i] << 16) | (a.data[i + 1] << 8) | a.data[i + 2]);
    expect(colours.size).toBeGreaterThan(20);
    const b = await image('/api/v1/staticmap?center=-5.6333,32.7667&zoom=13&size=300x200&scale=2');
    expect([b.w, b.h]).toEqual([600, 400]);
  });

  it('draws the road in the style colour where the tiles have a road, day and dark', async () => {
    expect(road).toBeDefined();
    const q = `center=${road[0]},${road[1]}&zoom=16&size=200x200`;
    const day = await image(`/api/v1/staticmap?${q}`);
    expect(near(day.px(100, 100), hex(PALETTES.day.trunk))).toBe(true);
    expect(near(day.px(100, 100), hex(PALETTES.day.land))).toBe(false);
    const dark = await image(`/api/v1/staticmap?${q}&theme=dark`);
    expect(near(dark.px(100, 100), hex(PALETTES.dark.trunk))).toBe(true);
    // Away from every road (top-left corner, 80+ px off) is land.
    expect(near(day.px(5, 5), hex(PALETTES.day.land)) || near(day.px(195, 5), hex(PALETTES.day.land))).toBe(true);
  });

  it('draws a marker where it is placed, in its colour', async () => {
    const c: [number, number] = [-5.6333, 32.7667];
    const [cx, cy] = project(c[0], c[1], 13);
    const m = unproject(cx + 100, cy + 50, 13); // 100 px right, 50 px down of the centre
    const img = await image(`/api/v1/staticmap?center=${c}&zoom=13&size=400x300&markers=color:0x0000ff|${m[0]},${m[1]}`);
    // The pin's tip is at (300, 200); its head (30 px pin) is centred ~19 px above, white dot in the middle.
    expect(near(img.px(300, 200 - 12), [0, 0, 255], 40)).toBe(true);
    expect(near(img.px(300, 200 - 19), [255, 255, 255], 40)).toBe(true);
    const none = await image(`/api/v1/staticmap?center=${c}&zoom=13&size=400x300`);
    expect(near(none.px(300, 200 - 12), [0, 0, 255], 40)).toBe(false);
  });

  it('draws a path and a routed path; fits the view to them without center and zoom', async () => {
    const img = await image('/api/v1/staticmap?size=300x300&path=color:0xff00ff|weight:8|11.59,43.13|11.60,43.15');
    let magenta = 0;
    for (let i = 0; i < img.data.length; i += 4) if (img.data[i] > 220 && img.data[i + 1] < 40 && img.data[i + 2] > 220) magenta++;
    expect(magenta).toBeGreaterThan(500);
    const routed = await image('/api/v1/staticmap?size=300x300&path=route|color:0xff00ff|weight:6|11.5886,43.1456|11.5600,43.1000');
    let m2 = 0;
    for (let i = 0; i < routed.data.length; i += 4) if (routed.data[i] > 220 && routed.data[i + 1] < 40 && routed.data[i + 2] > 220) m2++;
    expect(m2).toBeGreaterThan(300);
    expect(routed.bytes.equals(img.bytes)).toBe(false);
  });

  it('draws the attribution box in the bottom-right corner', async () => {
    const img = await image('/api/v1/staticmap?center=2,20&zoom=3&size=400x200');
    let dark = 0;
    for (let x = 250; x < 400; x++) for (let y = 188; y < 200; y++) { const p = img.px(x, y); if (p[0] < 120 && p[1] < 120 && p[2] < 120) dark++; }
    expect(dark).toBeGreaterThan(40);
  });

  it('format=json gives a signed URL on this host that renders the same image without a key; altered → 403', async () => {
    const q = 'center=-5.6333,32.7667&zoom=13&size=300x200&markers=label:A|-5.6333,32.7667';
    const j = await (await s.get(`/api/v1/staticmap?${q}&format=json`, key)).json() as any;
    expect(j.url.startsWith(`${s.config.baseUrl}/api/v1/staticmap/signed?`)).toBe(true);
    const path = j.url.slice(s.config.baseUrl.length);
    const viaUrl = await image(path, null);
    const direct = await image(`/api/v1/staticmap?${q}`);
    expect(viaUrl.bytes.equals(direct.bytes)).toBe(true);
    const u = new URL(j.url);
    const d = JSON.parse(Buffer.from(u.searchParams.get('d')!, 'base64url').toString());
    d.z = 5;
    const forged = `/api/v1/staticmap/signed?d=${Buffer.from(JSON.stringify(d)).toString('base64url')}&sig=${u.searchParams.get('sig')}`;
    expect((await s.get(forged, null)).status).toBe(403);
  });

  it('rejects sizes over 640, scale 3, bad markers and paths with 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['center=0,20&zoom=3&size=641x100', 'size'], ['center=0,20&zoom=3&size=100x100&scale=3', 'scale'],
      ['center=0,20&zoom=3&size=100', 'size'], ['center=0,20&zoom=30&size=100x100', 'zoom'],
      ['center=0,20&zoom=3&size=100x100&markers=color:nope|1,2', 'markers'], ['center=0,20&zoom=3&size=100x100&markers=Nairobi', 'markers'],
      ['center=0,20&zoom=3&size=100x100&path=enc:%7F%7F', 'path'], ['size=100x100', 'center'],
    ];
    for (const [q, p] of cases) {
      const r = await s.get(`/api/v1/staticmap?${q}`, key);
      expect(r.status, q).toBe(400);
      expect((await r.json() as any).error.message, q).toContain(`'${p}'`);
    }
  });
});
