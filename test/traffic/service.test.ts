// The traffic jobs' timers: a node without a graph that carries traffic leaves the database alone
// (no probe claimed, no window of pings taken from the nodes that can match them), and a round
// that found nothing opens no transaction.
import { describe, it, expect } from 'vitest';
import { startTraffic } from '../../src/traffic/service.ts';
import type { TrafficDeps } from '../../src/traffic/service.ts';

function fakes(datasets: object[]) {
  const sql: string[] = [];
  let txs = 0;
  const store = {
    pool: { query: async (text: string) => { sql.push(text.replace(/\s+/g, ' ').trim()); return { rows: text.includes('FROM traffic_cursor') ? [{ ts: new Date(0) }] : [], rowCount: 1 }; } },
    tx: async (fn: (c: unknown) => Promise<unknown>) => { txs++; return fn({ query: async () => ({ rows: [] }) }); },
  };
  const pool = { has: (op: string) => op === 'traffic_samples', datasets, run: async () => ({ status: 200, body: new TextEncoder().encode('{"samples":[]}') }) };
  const deps = { store, pool, config: { trafficProcessMs: 20, trafficPublishMs: 3_600_000 } } as unknown as TrafficDeps;
  return { deps, sql, txs: () => txs };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('traffic service timers', () => {
  it('a node whose graphs carry no traffic never queries for probes or pings', async () => {
    const f = fakes([{ dataset: 'gazetteer' }]);
    const svc = startTraffic(f.deps);
    await settle(150);
    await svc.stop();
    expect(f.sql.filter((q) => /traffic_probes|traffic_cursor|FROM pings/.test(q))).toEqual([]);
    expect(f.txs()).toBe(0);
  });

  it('a node with a traffic graph claims probes and reads pings every round, without a transaction when nothing came', async () => {
    const f = fakes([{ dataset: 'graph', traffic: { driving: new SharedArrayBuffer(8) }, manifest: { files: [] }, files: {} }]);
    const svc = startTraffic(f.deps);
    await settle(150);
    await svc.stop();
    expect(f.sql.filter((q) => q.startsWith('UPDATE traffic_probes')).length).toBeGreaterThanOrEqual(2);
    expect(f.sql.some((q) => q.includes('FROM pings'))).toBe(true);
    expect(f.txs()).toBe(0);
  });
});
