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
import { joinParts, meetRoom } from '../../src/pool/matrix-dispatch.ts';
import { MATRIX_LIMITS } from '../../src/core/limits.ts';
import { meetBytes, meetLayout, meetLength } from '../../src/core/meet.ts';
import { routing } from '../../workers/routing/index.ts';
import { KEEP_CELLS, RELEASE_MS, BLOCK_CELLS, keptBytes } from '../../workers/routing/matrix/task.ts';
import { writeSide, readSides } from '../../workers/routing/matrix/meeting.ts';
import { rowsText, ByteWriter, snappedJson } from '../../workers/routing/matrix/json.ts';
import { useNativeQuery } from '../../workers/routing/search/native-query.ts';
import { warmUpMatrix, WARM_UP_SIZES } from '../../workers/routing/matrix/warm-up.ts';
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
    // The warm-up loadInto starts runs a matrix per event-loop turn: let it finish here, or it runs
    // during a later test's wait and leaves its arrays where that test measures what is kept.
    for (let k = 0; k <= WARM_UP_SIZES.length; k++) await new Promise((r) => setImmediate(r));
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
    const parts = ([[0, 11], [11, 12], [12, 30]] as [number, number][]).map((rows) => ({ body: (routing.tasks.route_matrix({ sources: S, destinations: D, rows }, { sandbox: false }) as BinaryBody).bytes.slice() }));
    expect(JSON.parse(Buffer.concat(joinParts(parts)).toString())).toEqual({ ...whole, attribution: ATTRIBUTION });
  });

  it('on threads meeting in shared memory (each side writes the spaces of a share of the points, then answers rows) joined as bytes equals the whole matrix', () => {
    // off-road points (no candidate), a repeated point (the same-edge shortcut) and unreachable cells
    const S = points('tanzania-sw', 'driving', 30, 23), D = points('tanzania-sw', 'driving', 17, 24).concat([S[3]]);
    const whole = task('route_matrix', { sources: S, destinations: D });
    const parts = [[0, 13], [13, 31], [31, 48]] as [number, number][], rows = [[0, 11], [11, 12], [12, 30]] as [number, number][];
    const side = (k: number, room = 4096) => ({ sources: S, destinations: D, phase: 'meet' as const, part: parts[k], side: k, sides: 3, room, rows: rows[k] });
    const buf = new SharedArrayBuffer(meetBytes(3, 4096));
    // one thread here: every side written first, then each reads them all and answers its rows
    for (const k of [2, 0, 1]) writeSide(side(k), buf);
    const answer = (k: number) => ({ body: (routing.tasks.route_matrix(side(k), { sandbox: false, attached: [new Uint8Array(buf)] }) as BinaryBody).bytes.slice() });
    // (a task writes its own side again, the same bytes, before it reads)
    expect(JSON.parse(Buffer.concat(joinParts([0, 1, 2].map(answer))).toString())).toEqual({ ...whole, attribution: ATTRIBUTION });
    expect(whole.durations_s.flat().filter((x: number | null) => x === null).length).toBeGreaterThan(0);
    expect(whole.sources.filter((x: unknown) => x === null).length).toBeGreaterThan(0);
    // a side not written in time: 503 after the time-out, not a wait for ever
    const late = new SharedArrayBuffer(meetBytes(3, 4096));
    writeSide(side(0), late); writeSide(side(2), late);
    const t0 = Date.now();
    expect(() => readSides(side(0), late, 50)).toThrow(expect.objectContaining({ status: 503 }));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(45);
    // a region too small: every side answers 409 and the header says what each side needed
    const small = new SharedArrayBuffer(meetBytes(3, 64));
    for (const k of [0, 1, 2]) writeSide(side(k, 64), small);
    const m = meetLayout(small, 3, 64)!;
    for (const k of [0, 1, 2]) expect(meetLength(m, k)).toBe(meetLength(meetLayout(buf, 3, 4096)!, k));
    expect(meetLength(m, 0)).toBeGreaterThan(64);
    expect(task('route_matrix', side(1, 64), { attached: [new Uint8Array(small)] }).status).toBe(409);
    // without its buffer, with a side outside it or more room than it has, the task is refused
    expect(task('route_matrix', side(1)).status).toBe(400);
    expect(task('route_matrix', { ...side(1), side: 3 }, { attached: [new Uint8Array(buf)] }).status).toBe(400);
    expect(task('route_matrix', side(1, 4097), { attached: [new Uint8Array(buf)] }).status).toBe(400);
  });

  it(`a matrix above ${KEEP_CELLS} cells equals its row parts; smaller ones after it are unchanged; its arrays are given back ${RELEASE_MS} ms after`, async () => {
    const S = points('tanzania-sw', 'driving', 220, 31), D = points('tanzania-sw', 'driving', 200, 32);
    expect(S.length * D.length).toBeGreaterThan(KEEP_CELLS);
    const small = () => task('route_matrix', { sources: S.slice(0, 30), destinations: D.slice(0, 40) });
    const before = small();
    const whole = task('route_matrix', { sources: S, destinations: D });
    const parts = ([[0, 100], [100, 200], [200, 220]] as [number, number][]).map((rows) => ({ body: (routing.tasks.route_matrix({ sources: S, destinations: D, rows }, { sandbox: false }) as BinaryBody).bytes.slice() }));
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

  it('a warm-up told to wait runs nothing before its time, then runs to the end', async () => {
    let answered = -1;
    const t0 = Date.now();
    await new Promise<void>((ready) => {
      warmUpMatrix(loadedGraphs(), [10, 30], (n) => { answered = n; ready(); }, 300);
      setTimeout(() => expect(answered).toBe(-1), 200);
    });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(295);
    expect(answered).toBe(2);
  });

  it('writes every cell as JSON.stringify writes /route\'s rounded value', () => {
    const r = rng(3);
    const vals = [0, 1, 9, 10, 49, 50, 95, 99.95, 100, 999.94, 1000, 9999.96, 10000, 12345.65, 99999.5, 1e6, 1234567.8, 99999999.9, 1e8, 123456789.4, 5e9, Infinity,
      0.049999999999999994, 0.05, 0.44999999999999996, 99999999.94, 99999999.96, 2.5];
    for (let i = 0; i < 2000; i++) vals.push(Math.floor(r() * 10 ** (1 + Math.floor(r() * 9))) + (r() < 0.5 ? 0 : r()));
    // the native writer (native/query) takes rows without values of 10^8 or more, TypeScript the others
    const small = vals.filter((v) => v < 9e7);
    for (const native of [true, false]) {
      useNativeQuery(native);
      for (const list of [vals, small.slice(0, small.length & ~1)]) {
        const arr = Float64Array.from(list);
        for (const secs of [true, false]) {
          const want = list.map((v) => (v === Infinity ? null : Math.round((secs ? v / 1000 : v) * 10) / 10));
          expect(rowsText(arr, 2, list.length / 2, secs)).toBe(`${JSON.stringify(want.slice(0, list.length / 2))},${JSON.stringify(want.slice(list.length / 2))}`);
        }
      }
    }
    useNativeQuery(true);
  });

  it('writes the snapped points as JSON.stringify writes them', () => {
    const r = rng(5);
    const snap = (lat: number, lng: number, dist: number) => [{ edge: 0, pt: 0, pos: 0, frac: 0, lat, lng, dist }];
    const list = [null, snap(0, 0, 0), snap(-6.1234567, 33.0000001, 12.25), snap(0.00000004, -0.00000005, 0.04), snap(0.0000003, 1, 0.05), snap(-0.0000009, 45.5, 999.95),
      snap(-33.99999999, 179.99999996, 9999.96), snap(89.9999999, -179.9999999, 10000)];
    for (let i = 0; i < 3000; i++) list.push(r() < 0.05 ? null : snap((r() - 0.5) * 180, (r() - 0.5) * 360, r() < 0.5 ? r() * 10 : r() * 10_000));
    for (const [from, to] of [[0, list.length], [3, 9], [1, 2]]) {
      const w = new ByteWriter();
      w.snapped(list, from, to);
      expect(Buffer.from(w.buf.subarray(0, w.n)).toString()).toBe(JSON.stringify(list.slice(from, to).map(snappedJson)).slice(1, -1));
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
    s = await startTestServer(db, { WORKERS: '2', MATRIX_MEET: 'on' });
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

  it('POST 60 × 60 on idle threads runs on both at once, meeting in shared memory, and equals /route cell by cell; on busy threads it runs whole; a side out of room makes it run whole once', async () => {
    const engine = s.app.ctx.pool, sent: string[] = [], released: string[] = [], run: string[] = [];
    const together = engine.runTogether.bind(engine), one = engine.run.bind(engine);
    engine.runTogether = (reqs, ...rest) => {
      // one message per thread: its side, its rows, and the buffer attached (shared memory, not packed)
      sent.push(...reqs.map((r) => { const a = r.args as { phase?: string; side?: number; rows?: number[] }; return `${a.phase} ${a.side} ${a.rows} ${r.attached?.map((b) => b.buffer.constructor.name)}`; }));
      const p = together(reqs, ...rest);
      return p && p.then((replies) => { replies.forEach((r, i) => { const own = r.release; r.release = () => { released.push(String(i)); own?.(); }; }); return replies; });
    };
    engine.run = (op, args, ...rest) => { if (op === 'route_matrix') run.push(String((args as { phase?: string }).phase)); return one(op, args, ...rest); };
    try {
      const S = points('tanzania-sw', 'driving', 60, 43), D = points('tanzania-sw', 'driving', 60, 44);
      const ok = await s.post('/api/v1/route/matrix', { sources: S, destinations: D }, key);
      const m = await ok.json() as any;
      expect(ok.status, JSON.stringify(m).slice(0, 300)).toBe(200);
      expect(sent).toEqual(['meet 0 0,30 SharedArrayBuffer', 'meet 1 30,60 SharedArrayBuffer']);
      expect(run).toEqual([]);
      // once the answer is written, both reply buffers go back to their threads
      expect(released.sort()).toEqual(['0', '1']);
      expect(m.durations_s).toHaveLength(60);
      expect(m.sources).toHaveLength(60);
      const rows = [0, 29, 30, 59];
      checkAgainstRoute({ durations_s: rows.map((i) => m.durations_s[i]), distances_m: rows.map((i) => m.distances_m[i]) }, rows.map((i) => S[i]), D, 'driving');
      // a side out of room: the matrix runs whole on one thread, and the next one gets the room it needed
      const room = meetRoom.perPoint;
      meetRoom.perPoint = 8;
      sent.length = 0;
      try {
        const again = await s.post('/api/v1/route/matrix', { sources: S, destinations: D }, key);
        expect(await again.json()).toEqual(m);
        expect([sent.length, run]).toEqual([2, ['undefined']]);
        expect(meetRoom.perPoint).toBeGreaterThan(8);
        run.length = 0;
        expect(await (await s.post('/api/v1/route/matrix', { sources: S, destinations: D }, key)).json()).toEqual(m);
        expect([sent.length, run]).toEqual([4, []]);
      } finally { meetRoom.perPoint = Math.max(room, meetRoom.perPoint); }
      // while a large matrix keeps both threads busy, it goes whole to one
      const L = points('tanzania-sw', 'driving', 1000, 45);
      let bigDone = false;
      const big = s.post('/api/v1/route/matrix', { sources: L, destinations: L }, key).then(async (r) => { await r.arrayBuffer(); bigDone = true; return r.status; });
      while (engine.idleLanes === engine.threads) await new Promise((r) => setTimeout(r, 1));
      sent.length = 0; run.length = 0;
      const busy = await s.post('/api/v1/route/matrix', { sources: S, destinations: D }, key);
      expect(bigDone).toBe(false);
      expect(await busy.json()).toEqual(m);
      expect([sent, run]).toEqual([[], ['undefined']]);
      expect(await big).toBe(200);
    } finally { engine.runTogether = together; engine.run = one; }
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
