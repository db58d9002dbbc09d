// Turns probes into speed samples: claims stored probe traces (and windows of live tracking
// pings), has a worker map-match them to directed road edges (task traffic_samples), and stores
// the samples and the weekly profile in one transaction with the probes marked done. A node that
// dies mid-way leaves its claim to expire, so an acknowledged probe is processed by some node.
import { createHash } from 'node:crypto';
import type { WorkerPool } from '../pool/worker-pool.ts';
import type { Store } from '../store/index.ts';
import { log } from '../core/log.ts';
import { claimProbes, livePings, markProbesProcessed, storeSamples, takePingWindow, type ClaimedProbe, type Sample } from '../store/traffic.ts';

/** Pings join traffic this long after their timestamp, so late uploads of a window are in. */
export const PING_LAG_MS = 60_000;
/** A gap longer than this between two pings of a device starts a new trace. */
const TRACE_GAP_MS = 120_000;
const CLAIM_EXPIRY_S = 60;
const PROBES_PER_TICK = 200;

export interface Trace { device: string; points: [number, number, number][] }
export type { Sample };

/** One-way: samples and profiles keep only this, never the caller's device or trace id. */
export const deviceHash = (project: string, kind: string, id: string) =>
  createHash('sha256').update(`${project}\u0000${kind}\u0000${id}`).digest('base64url').slice(0, 22);

/**
 * Whether this node can match probes to roads: the matching task and a loaded graph that carries
 * traffic. A node that cannot neither takes probes (the contribute route is not ready) nor
 * processes them, so no window of pings is taken from the nodes that can.
 */
export const canMatchProbes = (pool: Pick<WorkerPool, 'has' | 'datasets'>): boolean =>
  pool.has('traffic_samples') && pool.datasets.some((d) => d.traffic);

export class ProbeProcessor {
  now = () => Date.now();
  constructor(private store: Store, private pool: WorkerPool) {}

  /** One round: returns how many traces were matched and samples stored. */
  async tick(): Promise<{ traces: number; samples: number }> {
    const probes = await this.claimProbes();
    const pings = await this.pingTraces();
    const traces: Trace[] = [
      ...probes.map((p) => ({ device: deviceHash(p.project_id, 'trace', p.trace_id), points: p.points as [number, number, number][] })),
      ...pings,
    ];
    let samples: Sample[] = [];
    if (traces.length) {
      const reply = await this.pool.run('traffic_samples', { traces });
      const body = JSON.parse(new TextDecoder().decode(reply.body));
      if (reply.status !== 200) throw new Error(`traffic_samples answered ${reply.status}: ${body?.error?.message}`);
      samples = body.samples as Sample[];
    }
    if (!samples.length && !probes.length) return { traces: traces.length, samples: 0 };
    await this.store.tx(async (c) => {
      if (samples.length) await storeSamples(c, samples);
      if (probes.length) await markProbesProcessed(c, probes.map((p) => p.id));
    });
    return { traces: traces.length, samples: samples.length };
  }

  private claimProbes(): Promise<ClaimedProbe[]> {
    return claimProbes(this.store, CLAIM_EXPIRY_S, PROBES_PER_TICK);
  }

  /**
   * Live keys' pings up to PING_LAG_MS ago, in windows behind a shared cursor. A node takes a
   * window by moving the cursor with a compare-and-set, so two nodes never read the same pings.
   */
  private async pingTraces(): Promise<Trace[]> {
    const end = new Date(this.now() - PING_LAG_MS);
    const window = await takePingWindow(this.store, end);
    if (!window) return [];
    const rows = await livePings(this.store, window.from, window.end);
    const traces: Trace[] = [];
    let cur2: Trace | null = null, key = '', last = 0;
    for (const r of rows) {
      const k = `${r.project_id}\u0000${r.device}`;
      if (k !== key || r.ms - last > TRACE_GAP_MS) {
        if (cur2 && cur2.points.length >= 2) traces.push(cur2);
        cur2 = { device: deviceHash(r.project_id, 'device', r.device), points: [] };
        key = k;
      }
      cur2!.points.push([r.lat, r.lng, r.ms]);
      last = r.ms;
    }
    if (cur2 && cur2.points.length >= 2) traces.push(cur2);
    return traces;
  }
}

export function logProcessError(e: unknown) {
  log.error('traffic_process', { error: String((e as Error)?.message ?? e) });
}
