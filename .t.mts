import { syntheticGrid } from './bench/lib/synthetic.ts';
import { compress } from './graph-build/contract/compress.ts';
import { contract } from './graph-build/contract/ch.ts';
import { renumberByRank } from './graph-build/contract/renumber.ts';
import { ChQuery } from './workers/routing/ch-query.ts';
const s = syntheticGrid(Number(process.argv[2]));
const b = compress(s);
for (const sim of [30, 10, 20]) {
  const c0 = process.cpuUsage();
  const { ch } = renumberByRank(b, contract(b, { simLimit: sim }));
  const d = process.cpuUsage(c0);
  const g: any = { meta: { nodes: b.nodes }, ...ch };
  const q = new ChQuery(g); let x = 7, settled = 0; const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const c1 = process.cpuUsage();
  for (let i = 0; i < 3000; i++) { q.reset(); q.addSource(Math.floor(rnd() * b.nodes), 0); q.addTarget(Math.floor(rnd() * b.nodes), 0); q.run(); settled += q.settled; }
  const dq = process.cpuUsage(c1);
  console.log({ sim, contract_cpu_s: ((d.user + d.system) / 1e6).toFixed(1), shortcuts: ch.shortcuts, query_cpu_us: ((dq.user + dq.system) / 3000).toFixed(1), settled: (settled / 3000).toFixed(0) });
}
