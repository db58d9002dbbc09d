// npm run bench -- scale [--sizes 10000,100000,1000000,4000000] [--queries 1000] [--cache DIR] [--out DIR]
// Builds SYNTHETIC road networks (jittered grids with a road hierarchy, bench/lib/synthetic.ts;
// no real network above ~100k nodes is available offline) and measures, per size, in a fresh
// process: build time, peak RSS, CH query p50/p99 and plain Dijkstra p50 (A B A B, 3 rounds).
// --cache DIR keeps each built graph in DIR (synthetic-<nodes>-seed<seed>-v<route format>.route.bin
// + .json) and reuses it, so query changes can be measured without the 4M build (~4 min, ~2.2 GB);
// the build figures reported are then those of the run that built it (`cached` names the file).
// A new route format version never reuses an old file; delete DIR after changing graph-build.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpus } from 'node:os';
import { runChild } from './lib/child.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { sizes: { type: 'string' }, queries: { type: 'string' }, out: { type: 'string' }, cache: { type: 'string' } } });
  const sizes = (values.sizes ?? '10000,100000,1000000,4000000').split(',').map(Number);
  const queries = Number(values.queries ?? 1000);
  const results: any[] = [];
  for (const n of sizes) {
    // Dijkstra on millions of nodes takes seconds per query: fewer samples there.
    const dq = n <= 20000 ? 200 : n <= 200000 ? 100 : n <= 2000000 ? 30 : 10;
    process.stderr.write(`scale: building synthetic ${n} nodes…\n`);
    try {
      const r = await runChild(join(HERE, 'lib', 'build-child.ts'), ['synthetic', String(n), '1', String(queries), String(dq), ...(values.cache ? [resolve(values.cache)] : [])], { nodeArgs: ['--max-old-space-size=8192'] });
      results.push(r);
      process.stderr.write(`scale: ${JSON.stringify(r)}\n`);
    } catch (e) {
      results.push({ synthetic: true, target_nodes: n, error: (e as Error).message.slice(0, 500) });
    }
  }
  const out = {
    bench: 'scale',
    synthetic: true,
    note: 'SYNTHETIC networks (jittered grid, trunk every 50th line, secondary every 10th, 15% of minor blocks removed, 3% minor oneways). Node-to-node queries between random nodes, one thread, no geometry. CH p50 is the median of 3 rounds alternating with Dijkstra.',
    machine: { cpus: cpus().length, model: cpus()[0]?.model, node: process.version },
    at: new Date().toISOString(),
    sizes: results,
  };
  const dir = values.out ?? join(HERE, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'scale.json'), JSON.stringify(out, null, 2) + '\n');
  writeFileSync(join(dir, 'scale.svg'), svg(results.filter((r) => !r.error)));
  console.log(JSON.stringify(out));
}

/** Hand-written log-log line chart: build seconds, peak RSS (GB), CH p50 (µs) and Dijkstra p50 (ms) by node count. */
function svg(rows: any[]): string {
  const W = 720, H = 420, L = 70, R = 170, T = 40, B = 60;
  const xs = rows.map((r) => r.nodes);
  const series = [
    { name: 'build (s)', color: '#1f77b4', v: rows.map((r) => r.build_s) },
    { name: 'peak RSS (GB)', color: '#9467bd', v: rows.map((r) => r.build_peak_rss_mb / 1024) },
    { name: 'CH p50 (µs)', color: '#2ca02c', v: rows.map((r) => r.ch_query_p50_us) },
    { name: 'Dijkstra p50 (ms)', color: '#d62728', v: rows.map((r) => r.dijkstra_p50_us / 1000) },
  ];
  const all = series.flatMap((s) => s.v).filter((v) => v > 0);
  const lx0 = Math.floor(Math.log10(Math.min(...xs))), lx1 = Math.ceil(Math.log10(Math.max(...xs)));
  const ly0 = Math.floor(Math.log10(Math.min(...all))), ly1 = Math.ceil(Math.log10(Math.max(...all)));
  const px = (x: number) => L + ((Math.log10(x) - lx0) / Math.max(1, lx1 - lx0)) * (W - L - R);
  const py = (y: number) => H - B - ((Math.log10(y) - ly0) / Math.max(1, ly1 - ly0)) * (H - T - B);
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  parts.push(`<text x="${L}" y="22" font-size="14" font-weight="bold">CH scale benchmark on SYNTHETIC grids (log-log)</text>`);
  for (let e = lx0; e <= lx1; e++) {
    const x = px(10 ** e);
    parts.push(`<line x1="${x}" y1="${T}" x2="${x}" y2="${H - B}" stroke="#ddd"/><text x="${x}" y="${H - B + 18}" text-anchor="middle">1e${e}</text>`);
  }
  for (let e = ly0; e <= ly1; e++) {
    const y = py(10 ** e);
    parts.push(`<line x1="${L}" y1="${y}" x2="${W - R}" y2="${y}" stroke="#ddd"/><text x="${L - 6}" y="${y + 4}" text-anchor="end">1e${e}</text>`);
  }
  parts.push(`<text x="${(L + W - R) / 2}" y="${H - 15}" text-anchor="middle">nodes after compression (synthetic)</text>`);
  series.forEach((s, i) => {
    const pts = s.v.map((v, k) => `${px(xs[k]).toFixed(1)},${py(v).toFixed(1)}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${pts}"/>`);
    s.v.forEach((v, k) => parts.push(`<circle cx="${px(xs[k]).toFixed(1)}" cy="${py(v).toFixed(1)}" r="3" fill="${s.color}"/>`));
    parts.push(`<line x1="${W - R + 15}" y1="${T + 20 * i + 6}" x2="${W - R + 35}" y2="${T + 20 * i + 6}" stroke="${s.color}" stroke-width="2"/><text x="${W - R + 40}" y="${T + 20 * i + 10}">${s.name}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
