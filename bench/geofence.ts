// Geofence cost per request (issue 10 §3b): 50 zones of 10,000 positions each (the per-project
// vertex budget, 500,000, exactly), then GET /geofence/check at points inside and outside them and
// a listing page. The issue's figure before the index: 335 ms per check, 19.3 MB per listing.
//
//   npm run bench -- geofence [--checks 400]
//
// The server runs in this process (2 workers, embedded PGlite unless DATABASE_URL is set); the
// client shares the 2 cores and the event loop with it.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../src/core/config.ts';
import { startServer } from '../src/app.ts';
import { createKey } from '../src/auth/keys.ts';

const REPO = resolve(import.meta.dirname, '..');
const arg = (args: string[], name: string, def: number) => { const i = args.indexOf(`--${name}`); return i >= 0 ? Number(args[i + 1]) : def; };
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const r2 = (x: number) => Math.round(x * 100) / 100;

/** A closed ring of n positions: a wobbly circle of `r` degrees around (lat, lng). */
function ring(lat: number, lng: number, r: number, n: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < n - 1; i++) {
    const a = (2 * Math.PI * i) / (n - 1), rr = r * (1 + 0.05 * Math.sin(7 * a));
    out.push([Math.round((lng + rr * Math.cos(a)) * 1e6) / 1e6, Math.round((lat + rr * Math.sin(a)) * 1e6) / 1e6]);
  }
  out.push(out[0]);
  return out;
}

export async function main(args: string[]) {
  const checks = arg(args, 'checks', 400);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-geofence-'));
  process.env.LOG_LEVEL = 'silent';
  const config = loadConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', WORKERS: '2', DATA_DIR: dir, BUILT_DIR: join(dir, 'built'), LOG_REQUESTS: '0', SKIP_BUILD: '1', BURST_RPS: '0' });
  const app = await startServer(config);
  const base = `http://127.0.0.1:${app.port}`;
  const { key } = await createKey(app.ctx.store, { project: 'bench', plan: 'enterprise', test: false });
  const H = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const centres: [number, number][] = [];
  for (let i = 0; i < 50; i++) centres.push([-1.3 + (i % 10) * 0.05, 36.7 + Math.floor(i / 10) * 0.05]);
  for (const [i, [lat, lng]] of centres.entries()) {
    const r = await fetch(base + '/api/v1/geofence/zones', { method: 'POST', headers: H, body: JSON.stringify({ name: `zone ${i}`, polygon: { type: 'Polygon', coordinates: [ring(lat, lng, 0.03, 10_000)] } }) });
    if (r.status !== 201) throw new Error(`zone ${i}: ${r.status} ${await r.text()}`);
  }
  const times: number[] = [];
  let inside = 0;
  for (let i = 0; i < checks; i++) {
    const [lat, lng] = centres[i % centres.length];
    const q = i % 2 ? `lat=${lat + 0.01}&lng=${lng}` : `lat=${lat + 0.5}&lng=${lng + 1}`;
    const t = performance.now();
    const d = await (await fetch(`${base}/api/v1/geofence/check?${q}`, { headers: H })).json() as { inside: unknown[] };
    times.push(performance.now() - t);
    inside += d.inside.length ? 1 : 0;
  }
  const t = performance.now();
  const page = await fetch(`${base}/api/v1/geofence/zones`, { headers: H });
  const listBytes = (await page.arrayBuffer()).byteLength;
  const listMs = performance.now() - t;
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  const result = {
    bench: 'geofence', when: new Date().toISOString(), zones: 50, positions_per_zone: 10_000, checks, checks_inside: inside,
    note: 'server in this process (2 workers, PGlite unless DATABASE_URL); the client shares the cores and event loop',
    check_ms: { p50: r2(pct(times, 0.5)), p99: r2(pct(times, 0.99)), max: r2(Math.max(...times)) },
    listing_first_page: { bytes: listBytes, ms: r2(listMs) },
    before_in_issue: { check_ms: 335, listing_bytes: 19_300_000 },
  };
  console.log(JSON.stringify(result, null, 2));
  mkdirSync(join(REPO, 'bench', 'results'), { recursive: true });
  writeFileSync(join(REPO, 'bench', 'results', 'geofence.json'), JSON.stringify(result, null, 2) + '\n');
}
