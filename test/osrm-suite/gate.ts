// Runs OSRM's own car test suite against svc's /osrm/ layer (../shared/tools/osrm-features/run.py,
// svc side only: each row checked against the expectations written in the feature files) and fails
// when fewer rows pass than floor.json holds, so the road rules cannot regress unnoticed.
//   npm run test:osrm-suite [-- --out DIR]       run the suite, then check
//   npm run test:osrm-suite -- --results FILE     check a results.json of an earlier run
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const tools = resolve(root, '../shared/tools/osrm-features');
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const out = outArg >= 0 ? resolve(args[outArg + 1]) : join(root, 'osrm-features-results');
const work = join(out, 'work');

if (!existsSync(join(tools, 'run.py'))) { console.error(`${tools}/run.py is missing: the suite needs ../shared beside the checkout`); process.exit(2); }
const resArg = args.indexOf('--results');
let resultsFile = resArg >= 0 ? resolve(args[resArg + 1]) : join(out, 'results.json');
if (resArg < 0) {
  const files = readdirSync(join(tools, 'features/car')).filter((f) => f.endsWith('.feature')).map((f) => `car/${f.replace(/\.feature$/, '')}`).sort();
  const run = spawnSync('python3', [join(tools, 'run.py'), '--engines', 'svc', '--svc-routability', 'as_suite', '--build-jobs', '2',
    '--features', files.join(','), '--out', out, '--work', work], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) { console.error(`run.py exited with ${run.status}`); process.exit(1); }
  resultsFile = join(out, 'results.json');
}

const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as { rows: { kind?: string; svc_pass?: boolean; skipped?: string }[] };
const passed = { route: 0, routability: 0 };
for (const r of results.rows) if (!r.skipped && r.svc_pass && (r.kind === 'route' || r.kind === 'routability')) passed[r.kind]++;
const { floor, osrm_passes: osrm } = JSON.parse(readFileSync(join(import.meta.dirname, 'floor.json'), 'utf8'));
const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}%`;
console.log(`OSRM car suite, svc: route rows ${passed.route}/${osrm.route} (${pct(passed.route, osrm.route)}, floor ${floor.route}), routability rows ${passed.routability}/${osrm.routability} (${pct(passed.routability, osrm.routability)}, floor ${floor.routability})`);
if (passed.route < floor.route || passed.routability < floor.routability) {
  console.error(`below the floor: see the summary.md beside ${resultsFile}`);
  process.exit(1);
}
