// npm run bench -- scale-country [--sizes 1M,10M,30M] [--inputs tanzania-sw,algiers-east,accra] [--work DIR]
//   [--routes 10000] [--seconds 8] [--rounds 2] [--out scale-country.json]
//
// Country scale side by side with OSRM v26.4.1 (../shared/tools/osrm), per input size:
//  1. the input: ../shared/tools/stitch_country.py writes a country-sized .osm.pbf by tiling the real
//     extracts (a STITCHED file, not a real country) and 1,000 far-apart pairs beside it; kept in
//     --work and reused;
//  2. the builds, each timed by /usr/bin/time (wall, peak RSS): ours (`graph-build --profiles driving`)
//     and osrm-extract + osrm-contract (car.lua, 2 threads); each is built once into --work, and its
//     figures are kept beside it (a later run reuses both and says so);
//  3. the servers, one at a time then side by side: ours (src/main.ts, 2 workers, SKIP_BUILD) and
//     osrm-routed (CH, 2 threads): spawn to first answer, RSS idle, /route p50 over the pairs
//     (one client, alternated ours/OSRM per pair), req/s by wrk (2 threads × 8 connections,
//     rounds alternated), RSS after --routes routes, and the 100 × 100 and 1,000 × 1,000 matrix
//     against /table (node:http to the last byte, alternated).
// Our server's memory is also read as PSS (/proc/<pid>/smaps_rollup: mapped files count once).
// The machine has 2 cores; wrk, both servers and this script share them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, statSync, readdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpus, loadavg, tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { REPO, startServerProcess } from './lib/server-process.ts';
import { OSRM_DIR, osrmAvailable, startOsrm } from './lib/osrm.ts';
import { runWrk } from './lib/wrk.ts';
import { median, round } from './lib/stats.ts';
import { timeRequest } from './matrix.ts';
import { memory } from './lib/proc-memory.ts';

const STITCH = resolve(REPO, '..', 'shared', 'tools', 'stitch_country.py');
const PY = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** "10M" → 10000000. */
const count = (s: string) => Math.round(Number(s.replace(/[mM]$/, '')) * (/[mM]$/.test(s) ? 1e6 : 1));

interface Timed { wall_s: number; peak_rss_mb: number; stdout?: string }

/** Runs a command under /usr/bin/time -v: wall seconds and peak RSS; throws with its stderr tail on failure. */
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Timed {
  const r = spawnSync('/usr/bin/time', ['-v', cmd, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr.slice(-3000)}`);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(r.stderr)!;
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)!;
  return { wall_s: round(Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]), 1)!, peak_rss_mb: Math.round(Number(rss[1]) / 1024), stdout: r.stdout + r.stderr };
}

/** Reads a JSON file of figures kept beside a build, or makes it with `make` and keeps it. */
function kept<T>(path: string, make: () => T): T & { reused?: boolean } {
  if (existsSync(path)) return { ...JSON.parse(readFileSync(path, 'utf8')), reused: true };
  const v = make();
  writeFileSync(path, JSON.stringify(v, null, 2) + '\n');
  return v as T & { reused?: boolean };
}

const dirBytes = (d: string) => readdirSync(d).reduce((t, f) => t + statSync(join(d, f)).size, 0);

/** `n` requests through `concurrency` kept-alive connections: how many answered 200. */
async function drive(urls: string[], n: number, concurrency: number, headers: Record<string, string>): Promise<number> {
  let next = 0, ok = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < n; i = next++) {
      try { await timeRequest(urls[i % urls.length], undefined, headers); ok++; } catch { /* counted as not 200 */ }
    }
  }));
  return ok;
}

const f6 = (x: number) => x.toFixed(6);

export async function main(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: 'string', default: '1M,10M,30M' }, inputs: { type: 'string', default: 'tanzania-sw,algiers-east,accra' },
      work: { type: 'string', default: '/tmp/svc-scale-country' }, routes: { type: 'string', default: '10000' },
      seconds: { type: 'string', default: '8' }, rounds: { type: 'string', default: '2' }, out: { type: 'string', default: 'scale-country.json' },
    },
  });
  if (!osrmAvailable()) throw new Error(`no OSRM build at ${OSRM_DIR}`);
  const work = resolve(values.work!);
  mkdirSync(work, { recursive: true });
  const seconds = Number(values.seconds), rounds = Number(values.rounds), routes = Number(values.routes);
  const osrmEnv = { ...process.env, LD_LIBRARY_PATH: join(OSRM_DIR, 'lib') };
  const results: Record<string, unknown>[] = [];
  for (const size of values.sizes!.split(',')) {
    const stem = `stitch-${size.toLowerCase()}${values.inputs === 'tanzania-sw,algiers-east,accra' ? '' : `-${values.inputs!.replace(/,/g, '-')}`}`;
    const pbf = join(work, `${stem}.osm.pbf`);
    const say = (m: string) => process.stderr.write(`scale-country ${size}: ${m}\n`);

    // 1. the stitched input
    const stitch = kept(join(work, `${stem}.stitch.json`), () => {
      say('stitching…');
      const t = timed(PY, [STITCH, pbf, String(count(size)), '--inputs', values.inputs!, '--pairs', '1000']);
      // its last line: "<file>: N copies (…) in R rows, <nodes> nodes, <ways> ways, …"
      const m = /, (\d+) nodes, (\d+) ways/.exec(t.stdout ?? '');
      if (!m) throw new Error(`stitch_country.py said: ${t.stdout}`);
      return { file: pbf, bytes: statSync(pbf).size, osm_nodes: Number(m[1]), osm_ways: Number(m[2]), stitch_s: t.wall_s };
    });
    const pairs = readFileSync(pbf.replace(/\.osm\.pbf$/, '.pairs.csv'), 'utf8').trim().split('\n').map((l) => l.split(',').map(Number));

    // 2. the builds
    const built = join(work, `built-${stem}`);
    const ours = kept(join(work, `${stem}.ours-build.json`), () => {
      say('our build…');
      const t = timed(process.execPath, [join(REPO, 'graph-build', 'cli.mjs'), '--input', pbf, '--name', 'country', '--profiles', 'driving', '--out', built], { ...process.env, CI: '1' });
      const m = JSON.parse(readFileSync(join(built, 'country', 'manifest.json'), 'utf8'));
      return { wall_s: t.wall_s, peak_rss_mb: t.peak_rss_mb, bytes: dirBytes(join(built, 'country')), bytes_per_input_node: round((t.peak_rss_mb * 2 ** 20) / stitch.osm_nodes, 0), graph: m.profiles.driving };
    });
    const osrmDir = join(work, `osrm-${stem}`);
    const osrmBase = join(osrmDir, `${stem}.osrm`);
    const osrm = kept(join(work, `${stem}.osrm-build.json`), () => {
      say('osrm-extract + osrm-contract…');
      mkdirSync(osrmDir, { recursive: true });
      const link = join(osrmDir, `${stem}.osm.pbf`);
      if (!existsSync(link)) symlinkSync(pbf, link);
      const ex = timed(join(OSRM_DIR, 'bin', 'osrm-extract'), ['-t', '2', '-p', join(OSRM_DIR, 'profiles', 'car.lua'), link], osrmEnv);
      const co = timed(join(OSRM_DIR, 'bin', 'osrm-contract'), ['-t', '2', osrmBase], osrmEnv);
      const strip = ({ wall_s, peak_rss_mb }: Timed) => ({ wall_s, peak_rss_mb });
      return { extract: strip(ex), contract: strip(co), wall_s: round(ex.wall_s + co.wall_s, 1)!, peak_rss_mb: Math.max(ex.peak_rss_mb, co.peak_rss_mb), bytes: dirBytes(osrmDir) };
    });

    // 3. the servers
    say('servers…');
    // The first start creates the embedded database; an operator's restart finds it, so that is the start timed.
    const serverEnv = { WORKERS: '2', BUILT_DIR: built, SKIP_BUILD: '1', LOG_LEVEL: 'info', DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-scale-')) };
    const port = 19100 + Math.floor(Math.random() * 400);
    const first = await startServerProcess(serverEnv, port, { pollMs: 20, entry: 'npm-start' });
    const firstStart = first.startedMs / 1000;
    const keys = first.keys;
    await first.stop();
    const server = await startServerProcess(serverEnv, port, { pollMs: 20, entry: 'npm-start' });
    const oursStart = server.startedMs / 1000;
    const t1 = performance.now();
    const or = await startOsrm(osrmBase, 5990, 2, 1_000_000);
    const osrmStart = (performance.now() - t1) / 1000;
    try {
      const key = keys!.live, auth = { authorization: `Bearer ${key}` };
      const idle = { ours: memory(server.child.pid!), osrm: memory(or.proc.pid!) };
      const oursPath = (p: number[]) => `/api/v1/route?from=${f6(p[0])},${f6(p[1])}&to=${f6(p[2])},${f6(p[3])}`;
      const osrmPath = (p: number[]) => `/route/v1/driving/${f6(p[1])},${f6(p[0])};${f6(p[3])},${f6(p[2])}?overview=full&geometries=geojson`;
      // pairs both answer with 200, timed one at a time, alternated
      const a: number[] = [], b: number[] = [], both: number[][] = [];
      for (const p of pairs) {
        try {
          const x = await timeRequest(server.base + oursPath(p), undefined, auth);
          const y = await timeRequest(or.url + osrmPath(p));
          a.push(x.ms); b.push(y.ms); both.push(p);
        } catch { /* one side has no route: left out */ }
      }
      say(`${both.length} of ${pairs.length} pairs answered by both`);
      const wrkOurs: number[] = [], wrkOsrm: number[] = [];
      for (let r = 0; r < rounds; r++) {
        for (const side of r % 2 ? ['osrm', 'ours'] : ['ours', 'osrm']) {
          const w = side === 'ours'
            ? await runWrk({ baseUrl: server.base, paths: both.map(oursPath), headers: auth, threads: 2, connections: 16, durationS: seconds })
            : await runWrk({ baseUrl: or.url, paths: both.map(osrmPath), threads: 2, connections: 16, durationS: seconds });
          (side === 'ours' ? wrkOurs : wrkOsrm).push(w.req_s);
        }
      }
      const answered = { ours: await drive(both.map((p) => server.base + oursPath(p)), routes, 8, auth), osrm: await drive(both.map((p) => or.url + osrmPath(p)), routes, 8, {}) };
      const after = { ours: memory(server.child.pid!), osrm: memory(or.proc.pid!) };
      const matrix: Record<string, unknown> = {};
      const pts = pairs.flatMap((p) => [[p[0], p[1]], [p[2], p[3]]]);
      for (const n of [100, 1000]) {
        const S = pts.slice(0, n), D = pts.slice(1000, 1000 + n);
        const body = JSON.stringify({ sources: S, destinations: D });
        const coords = [...S, ...D].map(([la, lo]) => `${lo},${la}`).join(';');
        const idx = (x: number, y: number) => Array.from({ length: y - x }, (_, i) => x + i).join(';');
        const osrmUrl = `${or.url}/table/v1/driving/${coords}?sources=${idx(0, n)}&destinations=${idx(n, 2 * n)}&annotations=duration,distance`;
        const mo: number[] = [], mt: number[] = [];
        const reps = n === 100 ? 10 : 3;
        for (let k = 0; k < reps + 2; k++) {
          const x = await timeRequest(`${server.base}/api/v1/route/matrix`, body, { ...auth, 'content-type': 'application/json' });
          const y = await timeRequest(osrmUrl);
          if (k >= 2) { mo.push(x.ms); mt.push(y.ms); } // two warm-up rounds
        }
        matrix[`${n}x${n}`] = { ours_p50_ms: round(median(mo), 1), osrm_table_p50_ms: round(median(mt), 1), osrm_over_ours: round(median(mt) / median(mo), 2) };
      }
      const row = {
        size, input: stitch, build: { ours, osrm, wall_ours_over_osrm: round(ours.wall_s / osrm.wall_s, 2), peak_ours_over_osrm: round(ours.peak_rss_mb / osrm.peak_rss_mb, 2) },
        start_s: {
          ours: round(oursStart, 2), osrm: round(osrmStart, 2), ours_first_start: round(firstStart, 2),
          ours_catalog_load_s: Number(/"load_s":([\d.]+)/.exec(server.output())?.[1] ?? NaN),
          ours_phases_ms: JSON.parse(/"start_ms":(\{[^}]*\})/.exec(server.output())?.[1] ?? 'null'),
        },
        memory_mb: { idle, after_routes: after, routes_answered: answered },
        route: {
          pairs_both_answer: both.length, ours_p50_ms: round(median(a), 2), osrm_p50_ms: round(median(b), 2), osrm_over_ours_p50: round(median(b) / median(a), 2),
          ours_req_s: round(median(wrkOurs), 0), osrm_req_s: round(median(wrkOsrm), 0), ours_over_osrm_req_s: round(median(wrkOurs) / median(wrkOsrm), 2),
          wrk_rounds: { ours: wrkOurs.map((x) => round(x, 0)), osrm: wrkOsrm.map((x) => round(x, 0)) },
        },
        matrix,
      };
      say(JSON.stringify(row));
      results.push(row);
    } finally {
      await server.stop();
      await or.stop();
    }
  }
  const out = {
    bench: 'scale-country', date: new Date().toISOString(),
    note: 'STITCHED inputs (../shared/tools/stitch_country.py), not real countries. Driving only (OSRM: car.lua). 2 cores shared by wrk, both servers and the bench; servers measured side by side, rounds alternated. Builds are kept in --work and reused by later runs (reused: true).',
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version }, load_average_at_end: loadavg().map((x) => round(x, 2)),
    results,
  };
  mkdirSync(join(REPO, 'bench', 'results'), { recursive: true });
  writeFileSync(join(REPO, 'bench', 'results', values.out!), JSON.stringify(out, null, 2) + '\n');
  console.log(JSON.stringify(out, null, 2));
}
