// Issue 11 §2: the distance matrix. Every cell equals /route's answer for the pair (duration
// exactly, distance to 0.5 m; null exactly where /route answers no_route), on real extracts with
// random points on and off the roads; row ranges joined as bytes equal the whole; the HTTP routes
// (GET, POST split over two worker threads) and their limits.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { join } from 'node:path';
import { buildRoadExtract } from '../../graph-build/roads.ts';
import { rng } from '../../bench/lib/rand.ts';
import { randomPoints } from '../../bench/lib/check.ts';
import { loadedGraphs } from '../../workers/routing/graphs.ts';
import { joinParts, MATRIX_LIMITS } from '../../src/api/matrix.ts';
import { giveBack } from '../../src/core/lent.ts';
import { routing } from '../../workers/routing/index.ts';
import { rowsText, KEEP_CELLS, RELEASE_MS, BLOCK_CELLS, keptBytes } from '../../workers/routing/matrix.ts';
import { warmUpMatrix, WARM_UP_SIZES } from '../../workers/routing/warm-up.ts';
import type { BinaryBody } from '../../src/core/task.ts';
import { ATTRIBUTION } from '../../src/core/attribution.ts';
import { freshPglite, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { tempDir, loadInto, task, SHARED_DATA } from './helpers.ts';

const EXTRACTS = [
  { name: 'tanzania-sw', file: 'tanzania-sw-rural-roads-gostnets-2025.osm.pbf' },
  { name: 'algiers-east', file: 'algiers-east-streets-osmnx-2025.osm.pbf' },
];

/** n points: most on the network, some jittered up to ~1.5 km off it (some then have no road within the radius). */
function points(name: string, mode: string, n: number, seed: number): [number, number][] {
  const g = loadedGraphs().find((x) => x.extract === name && x.profile === mode)!.g;
  const r = rng(seed);
  return randomPoints(g, n, seed).map(([la, lo]) => (r() < 0.25 ? [la + (r() - 0.5) * 0.03, lo + (r() - 0.5) * 0.03] : [la, lo]));
}

function checkAgainstRoute(m: any, S: [number, number][], D: [number, number][], mode: string, radius?: number) {
  let routed = 0, none = 0;
  for (let i = 0; i < S.length; i++) for (let j = 0; j < D.length; j++) {
    const r = task('route', { from: S[i], to: D[j], mode, ...(radius ? { radius } : {}) });
    const dur = m.durations_s[i][j], dist = m.distances_m[i][j];
    if (r.status) {
      expect(['no_route', 'no_road_nearby'], `${i},${j}`).toContain(r.code);
      expect(dur, `cell ${i},${j}: /route says ${r.code}`).toBeNull();
      expect(dist).toBeNull();
      none++;
    } else {
      expect(dur, `cell ${i},${j}`).toBe(r.route.duration_s);
      expect(Math.abs(dist - r.route.distance_m), `cell ${i},${j} distance`).toBeLessThanOrEqual(0.5);
      routed++;
    }
  }
  return { routed, none };
}

describe('route_matrix task', () => {
  const tmp = tempDir();
  beforeAll(async () => {
    for (const e of EXTRACTS) await buildRoadExtract({ input: join(SHARED_DATA, e.file), name: e.name, out: tmp.dir });
    loadInto(tmp.dir, EXTRACTS.map((e) => e.name));
  }, 120_000);
  afterAll(() => tmp.remove());

  for (const e of EXTRACTS) {
    for (const mode of ['driving', 'walk']) {
      it(`${e.name}/${mode}: 40 × 40 cells equal /route`, () => {
        const S = points(e.name, mode, 40, 11), D = points(e.name, mode, 40, 12);
        const m = task('route_matrix', { sources: S, destinations: D, mode });
        expect(m.mode).toBe(mode);
        expect(m.extract).toBe(e.name);
        expect(m.durations_s).toHaveLength(40);
        expect(m.sources).toHaveLength(40);
        const { routed, none } = checkAgainstRoute(m, S, D, mode);
        expect(routed).toBeGreaterThan(200);
        if (mode === 'driving') expect(none).toBeGreaterThan(0); // off-road and disconnected points are in the sample
      });
    }
  }

  it('a source equal to its destination costs 0; the diagonal of a square matrix is 0', () => {
    const S = points('tanzania-sw', 'driving', 20, 5).map((p) => p);
    const m = task('route_matrix', { sources: S, destinations: S });
    for (let i = 0; i < S.length; i++) if (m.sources[i]) expect(m.durations_s[i][i]).toBe(0);
  });

  it('row ranges joined as bytes equal the whole matrix', () => {
    const S = points('algiers-east', 'driving', 30, 21), D = points('algiers-east', 'driving', 17, 22);
    const whole = task('route_matrix', { sources: S, destinations: D });
    // each part copied out, as the engine does before the thread's next task reuses its buffer
    const parts = [[0, 11], [11, 12], [12, 30]].map((rows) => ({ body: (routing.tasks.route_matrix({ sources: S, destinations: D, rows }, { sandbox: false }) as BinaryBody).bytes.slice() }));
    expect(JSON.parse(Buffer.concat(joinParts(parts)).toString())).toEqual({ ...whole, attribution: ATTRIBUTION });
  });

  it('in two phases (search spaces of any share of the points, then cells by rows) joined as bytes equals the whole matrix', () => {
    // off-road points (no candidate), a repeated point (the same-edge shortcut) and unreachable cells
    const S = points('tanzania-sw', 'driving', 30, 23), D = points('tanzania-sw', 'driving', 17, 24).concat([S[3]]);
    const whole = task('route_matrix', { sources: S, destinations: D });
    const run = (args: object) => (routing.tasks.route_matrix({ sources: S, destinations: D, ...args }, { sandbox: false }) as BinaryBody).bytes.slice();
    const spaces = [[0, 13], [13, 31], [31, 48]].map((part) => run({ phase: 'spaces', part }));
    const parts = [[0, 11], [11, 30]].map((rows) => ({ body: run({ phase: 'cells', rows, spaces }) }));
    expect(JSON.parse(Buffer.concat(joinParts(parts)).toString())).toEqual({ ...whole, attribution: ATTRIBUTION });
    // on a lane: the spaces go ahead in shared memory (an empty answer), and phase 'cells' reads them attached
    const lent = (part: number[]) => {
      const sent: Uint8Array[] = [];
      const r = routing.tasks.route_matrix({ sources: S, destinations: D, phase: 'spaces', part }, { sandbox: false, piece: (_s: number, b: Uint8Array) => sent.push(b) }) as BinaryBody;
      expect([r.bytes.byteLength, sent.length, sent[0].buffer instanceof SharedArrayBuffer]).toEqual([0, 1, true]);
      return sent[0];
    };
    const shared = [[0, 20], [20, 48]].map(lent);
    // the thread writes its next spaces into a slab that has been given back, never into one still out
    const again = lent([0, 20]);
    expect(again).toEqual(shared[0]);
    expect([shared[0].buffer, shared[1].buffer]).not.toContain(again.buffer);
    shared.forEach(giveBack);
    const back = lent([20, 48]);
    expect(back).toEqual(shared[1]);
    expect([shared[0].buffer, shared[1].buffer]).toContain(back.buffer);
    giveBack(back);
    const kept = lent([20, 48]);
    expect(kept.buffer).toBe(back.buffer);
    shared[1] = kept;
    const attached = [[0, 17], [17, 30]].map((rows) => ({ body: (routing.tasks.route_matrix({ sources: S, destinations: D, phase: 'cells', rows }, { sandbox: false, attached: shared }) as BinaryBody).bytes.slice() }));
    expect(JSON.parse(Buffer.concat(joinParts(attached)).toString())).toEqual({ ...whole, attribution: ATTRIBUTION });
    expect(whole.durations_s.flat().filter((x: number | null) => x === null).length).toBeGreaterThan(0);
    expect(whole.sources.filter((x: unknown) => x === null).length).toBeGreaterThan(0);
    // spaces that do not cover every point, or are not search spaces, are refused
    for (const bad of [spaces.slice(1), [new Uint8Array(7)], 'x']) {
      const r = task('route_matrix', { sources: S, destinations: D, phase: 'cells', rows: [0, 30], spaces: bad });
      expect(r.status, String(bad)).toBe(400);
    }
  });

  it(`a matrix above ${KEEP_CELLS} cells equals its row parts; smaller ones after it are unchanged; its arrays are given back ${RELEASE_MS} ms after`, async () => {
    const S = points('tanzania-sw', 'driving', 220, 31), D = points('tanzania-sw', 'driving', 200, 32);
    expect(S.length * D.length).toBeGreaterThan(KEEP_CELLS);
    const small = () => task('route_matrix', { sources: S.slice(0, 30), destinations: D.slice(0, 40) });
    const before = small();
    const whole = task('route_matrix', { sources: S, destinations: D });
    const parts = [[0, 100], [100, 200], [200, 220]].map((rows) => ({ body: (routing.tasks.route_matrix({ sources: S, destinations: D, rows }, { sandbox: false }) as BinaryBody).bytes.slice() }));
    expect(JSON.parse(Buffer.concat(joinParts(parts)).toString())).toEqual({ ...whole, attribution: ATTRIBUTION });
    expect(small()).toEqual(before);
    expect(task('route_matrix', { sources: S, destinations: D })).toEqual(whole); // a second large one starts from clean cells
    expect(keptBytes()).toBeGreaterThan(16 * S.length * D.length);
    await new Promise((r) => setTimeout(r, RELEASE_MS + 200));
    expect(keptBytes()).toBeLessThan(256 * 1024);
    expect(small()).toEqual(before);
  });

  it(`a matrix sent in pieces (blocks of ${BLOCK_CELLS} cells) equals the whole; the thread keeps about a block, not the matrix`, async () => {
    await new Promise((r) => setTimeout(r, RELEASE_MS + 200)); // what an earlier large matrix left is given back
    const S = points('algiers-east', 'driving', 1000, 51), D = points('algiers-east', 'driving', 300, 52);
    const streamed = (rows: [number, number]) => {
      const pieces: Uint8Array[][] = [[], []];
      const body = (routing.tasks.route_matrix({ sources: S, destinations: D, rows, stream: true }, { sandbox: false, piece: (s, b) => pieces[s].push(b.slice()) }) as BinaryBody).bytes.slice();
      return { body, pieces };
    };
    const parts = [streamed([0, 600]), streamed([600, 1000])];
    expect(parts[0].pieces[0].length).toBeGreaterThan(2); // several blocks
    expect(parts[0].pieces[1].length).toBe(parts[0].pieces[0].length);
    expect(keptBytes()).toBeLessThan(4 * 1024 * 1024);
    await new Promise((r) => setTimeout(r, RELEASE_MS + 200)); // and gives that back once quiet
    expect(keptBytes()).toBeLessThan(256 * 1024);
    const whole = task('route_matrix', { sources: S, destinations: D });
    expect(keptBytes()).toBeGreaterThan(16 * S.length * D.length);
    expect(JSON.parse(Buffer.concat(joinParts(parts)).toString())).toEqual({ ...whole, attribution: ATTRIBUTION });
    expect(whole.durations_s.flat().filter((x: number | null) => x === null).length).toBeGreaterThan(0);
  });

  it('the warm-up runs matrices on a loaded graph to the end, and answers after it are unchanged', async () => {
    const S = points('tanzania-sw', 'driving', 30, 41), D = points('tanzania-sw', 'driving', 30, 42);
    const before = task('route_matrix', { sources: S, destinations: D });
    const answered = await new Promise<number>((done) => warmUpMatrix(loadedGraphs(), WARM_UP_SIZES, done));
    expect(answered).toBe(WARM_UP_SIZES.length);
    expect(task('route_matrix', { sources: S, destinations: D })).toEqual(before);
  });

  it('writes every cell as JSON.stringify writes /route\'s rounded value', () => {
    const r = rng(3);
    const vals = [0, 1, 9, 10, 49, 50, 95, 99.95, 100, 999.94, 1000, 9999.96, 10000, 12345.65, 99999.5, 1e6, 1234567.8, 99999999.9, 1e8, 123456789.4, 5e9, Infinity,
      0.049999999999999994, 0.05, 0.44999999999999996, 99999999.94, 99999999.96, 2.5];
    for (let i = 0; i < 2000; i++) vals.push(Math.floor(r() * 10 ** (1 + Math.floor(r() * 9))) + (r() < 0.5 ? 0 : r()));
    const arr = Float64Array.from(vals);
    for (const secs of [true, false]) {
      const want = vals.map((v) => (v === Infinity ? null : Math.round((secs ? v / 1000 : v) * 10) / 10));
      expect(rowsText(arr, 2, vals.length / 2, secs)).toBe(`${JSON.stringify(want.slice(0, vals.length / 2))},${JSON.stringify(want.slice(vals.length / 2))}`);
    }
  });

  it('rejects bad arguments with 400 naming them', () => {
    expect(task('route_matrix', { sources: [], destinations: [[0, 0]] }).message).toMatch(/sources/);
    expect(task('route_matrix', { sources: [[-6, 33]], destinations: [[100, 0]] }).message).toMatch(/destinations\[0\]/);
    // each of these is not a [lat, lng] pair; the index names the point
    for (const bad of [[-6], [-6, 33, 1], ['-6', 33], [-6, null], [NaN, 33], [-6, Infinity], [-90.5, 33], [-6, 181], { 0: -6, 1: 33, length: 2 }, null])
      expect(task('route_matrix', { sources: [[-6, 33], [-6, 33], bad], destinations: [[-6, 33]] }).message, JSON.stringify(bad)).toBe("Parameter 'sources[2]' must be a [lat, lng] pair.");
    expect(task('route_matrix', { sources: [[0, 0]], destinations: [[1, 1]] }).code).toBe('out_of_coverage');
    expect(task('route_matrix', { sources: [[-6, 33]], destinations: [[-6, 33]], rows: [0, 2] }).message).toMatch(/rows/);
  });
});

describe('/api/v1/route/matrix over HTTP (2 worker threads)', () => {
  let db: TestDb;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    db = freshPglite();
    await buildRoadExtract({ input: join(SHARED_DATA, EXTRACTS[0].file), name: EXTRACTS[0].name, out: join(db.dataDir, 'built'), profiles: ['driving'] });
    s = await startTestServer(db, { WORKERS: '2' });
    key = await s.key({ plan: 'enterprise' });
    loadInto(join(db.dataDir, 'built'), ['tanzania-sw']); // the same graph in this process, for /route's answers
  }, 120_000);
  afterAll(async () => { await s?.close(); await db?.drop(); });

  it('GET answers a small matrix; destinations default to the sources', async () => {
    const S = points('tanzania-sw', 'driving', 5, 31);
    const q = S.map((p) => p.join(',')).join(';');
    const r = await s.get(`/api/v1/route/matrix?sources=${q}&mode=car`, key);
    const m = await r.json() as any;
    expect(r.status, JSON.stringify(m)).toBe(200);
    expect(m.attribution).toBeTruthy();
    checkAgainstRoute(m, S, S, 'driving');
  });

  it('POST 250 × 200 (split over both threads) equals /route cell by cell', async () => {
    const S = points('tanzania-sw', 'driving', 250, 41), D = points('tanzania-sw', 'driving', 200, 42);
    const r = await s.post('/api/v1/route/matrix', { sources: S.map(([lat, lng]) => ({ lat, lng })), destinations: D });
    expect(r.status).toBe(401);
    const ok = await s.post('/api/v1/route/matrix', { sources: S.map(([lat, lng]) => ({ lat, lng })), destinations: D }, key);
    const m = await ok.json() as any;
    expect(ok.status, JSON.stringify(m).slice(0, 300)).toBe(200);
    expect(m.durations_s).toHaveLength(250);
    expect(m.sources).toHaveLength(250);
    expect(m.durations_s[249]).toHaveLength(200);
    // a sample of cells from every part
    const Ss = [0, 1, 124, 125, 126, 249].map((i) => S[i]);
    const sub = { durations_s: [0, 1, 124, 125, 126, 249].map((i) => m.durations_s[i].slice(0, 25)), distances_m: [0, 1, 124, 125, 126, 249].map((i) => m.distances_m[i].slice(0, 25)) };
    checkAgainstRoute(sub, Ss, D.slice(0, 25), 'driving');
  });

  it('POST 60 × 60 on idle threads runs in two phases over both and equals /route cell by cell; on busy threads it runs whole', async () => {
    const engine = s.app.ctx.engine, phases: string[] = [], given: string[] = [], released: string[] = [], lent: Uint8Array[] = [];
    const spread = engine.runSpread.bind(engine);
    engine.runSpread = async (reqs, ...rest) => {
      const phase = reqs.map((r) => String((r.args as { phase?: string }).phase));
      phases.push(...phase);
      // how phase 'cells' gets the spaces: attached in shared memory, not packed into its arguments
      given.push(...reqs.map((r) => `${'spaces' in (r.args as object)} ${r.attached?.map((b) => b.buffer.constructor.name)}`));
      lent.push(...(reqs[0].attached ?? []));
      const replies = await spread(reqs, ...rest);
      replies.forEach((r, i) => { const own = r.release; r.release = () => { released.push(phase[i]); own?.(); }; });
      return replies;
    };
    try {
      const S = points('tanzania-sw', 'driving', 60, 43), D = points('tanzania-sw', 'driving', 60, 44);
      const ok = await s.post('/api/v1/route/matrix', { sources: S, destinations: D }, key);
      const m = await ok.json() as any;
      expect(ok.status, JSON.stringify(m).slice(0, 300)).toBe(200);
      expect(phases).toEqual(['spaces', 'spaces', 'cells', 'cells']);
      expect(given.slice(2)).toEqual(Array(2).fill('false SharedArrayBuffer,SharedArrayBuffer'));
      // once the answer is written, every reply buffer goes back to its thread, and so do the spaces
      expect(released.sort()).toEqual(['cells', 'cells', 'spaces', 'spaces']);
      expect(lent.map((b) => new Int32Array(b.buffer, 0, 1)[0])).toEqual([0, 0]);
      expect(m.durations_s).toHaveLength(60);
      expect(m.sources).toHaveLength(60);
      const rows = [0, 29, 30, 59];
      checkAgainstRoute({ durations_s: rows.map((i) => m.durations_s[i]), distances_m: rows.map((i) => m.distances_m[i]) }, rows.map((i) => S[i]), D, 'driving');
      // while a large matrix keeps both threads busy, it goes whole to one
      const L = points('tanzania-sw', 'driving', 1000, 45);
      let bigDone = false;
      const big = s.post('/api/v1/route/matrix', { sources: L, destinations: L }, key).then(async (r) => { await r.arrayBuffer(); bigDone = true; return r.status; });
      while (!phases.includes('undefined')) await new Promise((r) => setTimeout(r, 1));
      phases.length = 0;
      const busy = await s.post('/api/v1/route/matrix', { sources: S, destinations: D }, key);
      expect(bigDone).toBe(false);
      expect(await busy.json()).toEqual(m);
      expect(phases).toEqual([]);
      expect(await big).toBe(200);
    } finally { engine.runSpread = spread; }
  });

  it('POST 1000 × 300 streams its ~5 MB body whole (pieces written as the socket drains)', async () => {
    const S = points('tanzania-sw', 'driving', 1000, 51), D = points('tanzania-sw', 'driving', 300, 52);
    const r = await s.post('/api/v1/route/matrix', { sources: S, destinations: D }, key);
    const text = Buffer.from(await r.arrayBuffer());
    expect(r.status).toBe(200);
    expect(text.byteLength).toBeGreaterThan(4_000_000);
    expect(Number(r.headers.get('content-length'))).toBe(text.byteLength);
    const m = JSON.parse(text.toString());
    expect(m.durations_s).toHaveLength(1000);
    expect(m.distances_m[999]).toHaveLength(300);
    expect(m.sources).toHaveLength(1000);
    expect(m.destinations).toHaveLength(300);
    const rows = [0, 499, 500, 999];
    checkAgainstRoute({ durations_s: rows.map((i) => m.durations_s[i].slice(290)), distances_m: rows.map((i) => m.distances_m[i].slice(290)) }, rows.map((i) => S[i]), D.slice(290), 'driving');
  });

  it('answers the documented errors', async () => {
    const many = Array.from({ length: MATRIX_LIMITS.maxPointsGet + 1 }, () => '-5.7,32.8').join(';');
    const a = await s.get(`/api/v1/route/matrix?sources=${many}`, key);
    expect(a.status).toBe(400);
    expect((await a.json() as any).error.message).toMatch(/sources/);
    const big = Array.from({ length: 1001 }, () => [-5.7, 32.8]);
    const b = await s.post('/api/v1/route/matrix', { sources: big }, key);
    expect(b.status).toBe(400);
    expect((await b.json() as any).error.message).toMatch(/sources/);
    const c = await s.post('/api/v1/route/matrix', { sources: [[-5.7, 32.8]], mode: 'truck' }, key);
    expect(c.status).toBe(501);
    const d = await s.post('/api/v1/route/matrix', { sources: [{ lat: 95, lng: 0 }] }, key);
    expect(d.status).toBe(400);
    const e = await s.get('/api/v1/route/matrix?destinations=-5.7,32.8', key);
    expect(e.status).toBe(400);
    expect((await e.json() as any).error.message).toMatch(/sources/);
  });
});
