// Serving the tile set over HTTP: tiles (gzip, ETag, 304, 204, 404), TileJSON, the day and
// night styles (valid against the MapLibre style spec, every URL on this host, key carried),
// glyphs and sprites.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { buildTestTiles, tileOf } from './fixture.ts';
import { decodeMvt } from '../../src/core/maps/mvt.ts';
import { createKey } from '../../src/auth/keys.ts';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO } from './fixture.ts';

let db: TestDb;
let s: TestServer;
let key: string;

beforeAll(async () => {
  db = freshPglite();
  await buildTestTiles(`${db.dataDir}/built`);
  s = await startTestServer(db);
  key = await s.key({ scopes: ['maps', 'geo'] });
}, 600_000);
afterAll(async () => {
  await s?.close();
  await db?.drop();
});

const raw = (path: string, headers: Record<string, string> = {}) => fetch(s.url + path, { headers });

describe('tiles over HTTP', () => {
  it('the capabilities staticmap, map_embed and browser_map_sdk are true with the tile set loaded', async () => {
    const d = await (await raw('/api/v1/capabilities')).json() as any;
    expect(d.capabilities).toMatchObject({ staticmap: true, map_embed: true, browser_map_sdk: true });
  });

  it('serves a tile gzip-encoded with Cache-Control and ETag, and 304 for a matching If-None-Match', async () => {
    const [x, y] = tileOf(-5.6333, 32.7667, 14);
    const r = await s.get(`/tiles/tiles/14/${x}/${y}.pbf`, key, { 'accept-encoding': 'gzip' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    expect(r.headers.get('content-encoding')).toBe('gzip');
    expect(r.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const etag = r.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const layers = decodeMvt(new Uint8Array(await r.arrayBuffer())); // fetch inflates gzip
    expect(layers[0].name).toBe('roads');
    const again = await s.get(`/tiles/tiles/14/${x}/${y}.pbf`, key, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
  });

  it('sends identity bytes to a client that does not accept gzip', async () => {
    const r = await new Promise<{ status: number; enc?: string; body: Buffer }>((res, rej) => {
      import('node:http').then(({ get }) => get(`${s.url}/tiles/tiles/0/0/0.pbf?key=${key}`, { headers: { 'accept-encoding': 'identity' } }, (m) => {
        const c: Buffer[] = [];
        m.on('data', (d) => c.push(d)).on('end', () => res({ status: m.statusCode!, enc: m.headers['content-encoding'], body: Buffer.concat(c) }));
      }).on('error', rej));
    });
    expect(r.status).toBe(200);
    expect(r.enc).toBeUndefined();
    expect(decodeMvt(r.body).map((l) => l.name)).toContain('boundaries');
  });

  it('204 where the set has no data, 404 outside the grid or above z14, 401 without a key', async () => {
    const [x, y] = tileOf(0.3, 20.0, 14);
    expect((await s.get(`/tiles/tiles/14/${x}/${y}.pbf`, key)).status).toBe(204);
    expect((await s.get('/tiles/tiles/15/0/0.pbf', key)).status).toBe(404);
    expect((await s.get('/tiles/tiles/3/8/0.pbf', key)).status).toBe(404);
    expect((await s.get('/tiles/tiles/a/0/0.pbf', key)).status).toBe(400);
    expect((await s.get('/tiles/tiles/0/0/0.pbf', null)).status).toBe(401);
    expect((await raw(`/tiles/tiles/0/0/0.pbf?key=${key}`)).status).toBe(200);
  });

  it('TileJSON lists the layers and a tile URL on this host carrying the key', async () => {
    const j = await (await raw(`/tiles/tiles.json?key=${key}`)).json() as any;
    expect(j.tilejson).toBe('3.0.0');
    expect(j.tiles[0]).toBe(`${s.config.tilesUrl}/tiles/{z}/{x}/{y}.pbf?key=${key}`);
    expect(j.vector_layers.map((l: any) => l.id)).toEqual(['boundaries', 'water', 'roads', 'places', 'pois']);
    expect(j.maxzoom).toBe(14);
  });

  it('day and night styles validate with 0 errors, differ in colours and point only at this host', async () => {
    const day = await (await raw(`/tiles/style.json?key=${key}`)).json() as any;
    const dark = await (await raw(`/tiles/style-dark.json?key=${key}`)).json() as any;
    expect(validateStyleMin(day)).toEqual([]);
    expect(validateStyleMin(dark)).toEqual([]);
    const bg = (st: any) => st.layers.find((l: any) => l.id === 'background').paint['background-color'];
    expect(bg(day)).not.toBe(bg(dark));
    const urls = [day.glyphs, day.sprite, ...Object.values(day.sources).flatMap((x: any) => x.tiles)];
    for (const u of urls) {
      expect(u.startsWith(s.config.tilesUrl)).toBe(true);
      expect(u).toContain(`key=${key}`);
    }
  });

  it('serves glyph ranges (Latin, Arabic, Ethiopic, and an empty range) and sprites at 1x and 2x', async () => {
    for (const range of ['0-255', '1536-1791', '4608-4863']) {
      const r = await raw(`/tiles/glyphs/Noto%20Sans%20Regular/${range}.pbf?key=${key}`);
      expect(r.status).toBe(200);
      expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    }
    const empty = await raw(`/tiles/glyphs/Noto%20Sans%20Bold,Noto%20Sans%20Regular/19968-20223.pbf?key=${key}`);
    expect(empty.status).toBe(200);
    expect((await raw(`/tiles/glyphs/Comic%20Sans/0-255.pbf?key=${key}`)).status).toBe(404);
    expect((await raw(`/tiles/glyphs/Noto%20Sans%20Regular/1-256.pbf?key=${key}`)).status).toBe(404);
    const j = await (await raw(`/tiles/sprites/sprite@2x.json?key=${key}`)).json() as any;
    expect(j.marker.pixelRatio).toBe(2);
    const png = await raw(`/tiles/sprites/sprite.png?key=${key}`);
    expect(png.headers.get('content-type')).toBe('image/png');
  });
});

describe('browser keys', () => {
  const shop = 'https://shop.example';
  const browserKey = async (o: { origins?: string[]; burstRps?: number; scopes?: string[] } = {}) =>
    (await createKey(s.app.ctx.store, { project: 'shop', plan: 'enterprise', test: false, origins: o.origins ?? [shop], burstRps: o.burstRps, scopes: o.scopes })).key;

  it('hold only the maps and geo scopes and need valid origins', async () => {
    await expect(createKey(s.app.ctx.store, { project: 'shop', plan: 'free', test: false, origins: [shop], scopes: ['routing'] })).rejects.toThrow(/only the maps and geo/);
    await expect(createKey(s.app.ctx.store, { project: 'shop', plan: 'free', test: false, origins: ['shop.example/path'] })).rejects.toThrow(/origin/);
    const { row } = await createKey(s.app.ctx.store, { project: 'shop', plan: 'free', test: false, origins: ['https://Shop.Example:443'] });
    expect(row.scopes.sort()).toEqual(['geo', 'maps']);
    expect(row.origins).toEqual([shop]);
  });

  it('work from a listed origin (Origin or Referer) with CORS headers, and are refused elsewhere with the reason', async () => {
    const k = await browserKey();
    const ok = await raw(`/tiles/tiles/0/0/0.pbf?key=${k}`, { origin: shop });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(shop);
    expect((await raw(`/tiles/style.json?key=${k}`, { referer: `${shop}/checkout?x=1` })).status).toBe(200);
    const evil = await raw(`/tiles/tiles/0/0/0.pbf?key=${k}`, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as any).error.message).toMatch(/evil\.example is not allowed/);
    const bare = await raw(`/tiles/tiles/0/0/0.pbf?key=${k}`);
    expect(bare.status).toBe(403);
    // Other endpoints: the origin is checked everywhere, and scopes keep it to maps and geo.
    expect((await raw(`/api/v1/route?from=0,0&to=1,1&key=${k}`, { origin: shop, authorization: `Bearer ${k}` })).status).toBe(403);
  });

  it('a live server key sent from a browser page (Origin) is refused with why; a sandbox key is not', async () => {
    const r = await raw(`/tiles/style.json?key=${key}`, { origin: shop });
    expect(r.status).toBe(403);
    expect(((await r.json()) as any).error.message).toMatch(/live server key was sent from a browser/i);
    expect((await raw(`/tiles/style.json?key=${key}`)).status).toBe(200); // from a server: fine
    const t = await s.key({ test: true, scopes: ['maps'] });
    expect((await raw(`/tiles/style.json?key=${t}`, { origin: shop })).status).toBe(200);
  });

  it('have their own burst limit', async () => {
    const k = await browserKey({ burstRps: 3 });
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await raw(`/tiles/tiles/0/0/0.pbf?key=${k}`, { origin: shop })).status);
    expect(codes.slice(0, 3)).toEqual([200, 200, 200]);
    expect(codes).toContain(429);
  });

  it('npm run keys -- create --browser --origins creates one the server accepts', async () => {
    // Asynchronously: the CLI talks to this very process's database socket.
    const { stdout: out } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', 'create', '--project', 'cli', '--plan', 'free', '--browser', '--origins', `${shop},https://www.shop.example`], {
      // The CLI must reach the database of this suite's server, not the DATABASE_URL of the run.
      cwd: REPO, env: { ...process.env, DATABASE_URL: db.url ?? '', DATA_DIR: db.dataDir, LOG_LEVEL: 'silent' }, encoding: 'utf8',
    });
    expect(out).toMatch(/browser key for https:\/\/shop\.example https:\/\/www\.shop\.example/);
    const k = out.trim().split('\n').pop()!;
    await new Promise((r) => setTimeout(r, 1200));
    expect((await raw(`/tiles/tiles.json?key=${k}`, { origin: 'https://www.shop.example' })).status).toBe(200);
  });
});
