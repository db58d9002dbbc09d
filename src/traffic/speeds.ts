// Publishes speeds into the graphs' shared traffic state (src/core/traffic-state.ts): every few
// seconds the live speed of each directed edge from the last 15 minutes of samples, and every
// minute the weekly profile. PostgreSQL holds the samples, so every node of a cluster publishes
// the same speeds. A speed is published only with samples from ≥ 3 distinct devices or traces.
import type { WorkerPool } from '../pool/worker-pool.ts';
import type { Store } from '../store/index.ts';
import { openGraph, type GraphViews } from '../core/format/route.ts';
import { TrafficState, PROFILE_SLOTS } from '../core/traffic-state.ts';
import { log } from '../core/log.ts';
import { profileSpeeds, samplesBetween } from '../store/traffic.ts';

export const LIVE_WINDOW_MS = 15 * 60_000;
/** Weight of a sample halves every ~3.5 minutes: the estimate follows a change within minutes. */
const DECAY_TAU_MS = 5 * 60_000;
export const MIN_DEVICES = 3;
/** Speeds below this are stored as this: a queue still moves, and a zero speed has no travel time. */
const MIN_KPH = 2;

interface Target {
  extract: string; profile: string; state: TrafficState; g: GraphViews;
  /** indices (2 × edge + dir) that hold a live speed now: the next publication clears those it drops */
  live: number[];
  /** indices into profileMs that hold a profile speed now (beyond 2^31 on a large graph: not an Int32Array) */
  profiled: number[];
}

/** Travel time of `metres` at `kph`, whole ms, at least 1. */
const travelMs = (metres: number, kph: number) => Math.max(1, Math.round((metres / (kph / 3.6)) * 1000));

// Work and memory follow the samples, never the graph: a publication reads the rows and writes only
// the directed edges they name, and clears only those it published last time. Walking every edge
// (a string key each) and writing whole arrays cost the main thread ~45% of its CPU on a 1M-node
// graph and touched all of its 1.4 KB per edge of shared memory (2.3 GB there), so the weekly
// profile, mostly zeros, was written out in full every minute.
export class SpeedPublisher {
  now = () => Date.now();
  private targets: Target[] = [];
  private seen: SharedArrayBuffer[] = [];
  private profileAt = 0;

  constructor(private store: Store, private pool: WorkerPool) {}

  /** The graphs that carry traffic in the pool's current generation (new after a reload). */
  private refreshTargets(): boolean {
    const bufs = this.pool.datasets.flatMap((d) => Object.values(d.traffic ?? {}));
    if (bufs.length === this.seen.length && bufs.every((b, i) => b === this.seen[i])) return false;
    this.targets = [];
    for (const d of this.pool.datasets) {
      for (const [profile, buf] of Object.entries(d.traffic ?? {})) {
        const f = (d.manifest.files as { file: string; profile?: string }[]).find((x) => x.profile === profile);
        if (!f || !d.files[f.file]) continue;
        const g = openGraph(d.files[f.file], `${d.dir}/${f.file}`);
        this.targets.push({ extract: d.name, profile, state: new TrafficState(buf, g.edgeU.length), g, live: [], profiled: [] });
      }
    }
    this.seen = bufs;
    return true;
  }

  /** Finds a row's graph and directed edge index (2 × edge + dir); undefined for a graph or edge not served. */
  private locator(): (r: { extract: string; profile: string; edge: number; dir: number }) => { t: Target; i: number } | undefined {
    const by = new Map(this.targets.map((t) => [`${t.extract}\u0000${t.profile}`, t]));
    return (r) => {
      const t = by.get(`${r.extract}\u0000${r.profile}`);
      return t && r.edge >= 0 && r.edge < t.state.edges ? { t, i: 2 * r.edge + (r.dir ? 1 : 0) } : undefined;
    };
  }

  /** One publication of live speeds (and of the profile when due or when the graphs changed). */
  async publish(): Promise<{ live: number; profile: number }> {
    const changed = this.refreshTargets();
    const now = this.now();
    if (!this.targets.length) {
      // No graph carries traffic (a gazetteer-only node): nothing to publish, so no query every
      // TRAFFIC_PUBLISH_MS on the HTTP thread's database while it serves.
      const due = changed || now - this.profileAt >= 60_000;
      if (due) this.profileAt = now;
      return { live: 0, profile: due ? 0 : -1 };
    }
    const live = await this.publishLive(now);
    let profile = -1;
    if (changed || now - this.profileAt >= 60_000) { profile = await this.publishProfile(); this.profileAt = now; }
    return { live, profile };
  }

  private async publishLive(now: number): Promise<number> {
    const rows = await samplesBetween(this.store, new Date(now - LIVE_WINDOW_MS), new Date(now));
    const locate = this.locator();
    const groups = new Map<Target, Map<number, { ms: number[]; kph: number[]; devices: Set<string>; from: number; to: number }>>(this.targets.map((t) => [t, new Map()]));
    for (const r of rows) {
      const at = locate(r);
      if (!at) continue;
      const byEdge = groups.get(at.t)!;
      let gr = byEdge.get(at.i);
      if (!gr) byEdge.set(at.i, (gr = { ms: [], kph: [], devices: new Set(), from: Infinity, to: -Infinity }));
      gr.ms.push(r.ms); gr.kph.push(r.speed_kph); gr.devices.add(r.device);
      // the part observed: the hull of the samples' parts (a sample without one: the whole edge)
      const len = at.t.g.edgeDist[r.edge];
      gr.from = Math.min(gr.from, r.from_m ?? 0); gr.to = Math.max(gr.to, r.to_m ?? len);
    }
    let published = 0;
    for (const [t, byEdge] of groups) {
      const s = t.state, next: number[] = [];
      for (const [i, gr] of byEdge) {
        if (gr.devices.size < MIN_DEVICES) continue;
        const kph = Math.max(MIN_KPH, decayedMedian(gr.kph, gr.ms, now));
        // Each element is written whole: a query running meanwhile sees an edge's old or new value, never garbage.
        s.weightMs[i] = travelMs(t.g.edgeDist[i >> 1], kph);
        s.speedKph[i] = kph; s.samples[i] = gr.kph.length; s.updatedS[i] = Math.floor(Math.max(...gr.ms) / 1000);
        s.partFrom[i] = gr.from; s.partTo[i] = gr.to;
        next.push(i);
      }
      const keep = new Set(next);
      for (const i of t.live) if (!keep.has(i)) { s.weightMs[i] = 0; s.speedKph[i] = 0; s.samples[i] = 0; s.updatedS[i] = 0; s.partFrom[i] = 0; s.partTo[i] = 0; }
      t.live = next;
      s.meta[1] = next.length;
      Atomics.add(s.meta, 0, 1);
      published += next.length;
    }
    return published;
  }

  private async publishProfile(): Promise<number> {
    const rows = await profileSpeeds(this.store, MIN_DEVICES);
    const locate = this.locator();
    const fresh = new Map<Target, { set: Map<number, number>; counts: Int32Array }>(this.targets.map((t) => [t, { set: new Map(), counts: new Int32Array(PROFILE_SLOTS) }]));
    let n = 0;
    for (const r of rows) {
      const at = locate(r);
      if (!at) continue;
      const slot = r.dow * 24 + r.hour, f = fresh.get(at.t)!;
      const i = slot * 2 * at.t.state.edges + at.i;
      if (!f.set.has(i)) { f.counts[slot]++; n++; }
      f.set.set(i, travelMs(at.t.g.edgeDist[r.edge], Math.max(MIN_KPH, r.kph)));
    }
    for (const [t, f] of fresh) {
      const p = t.state.profileMs;
      for (const [i, w] of f.set) p[i] = w;
      for (const i of t.profiled) if (!f.set.has(i)) p[i] = 0;
      t.profiled = [...f.set.keys()];
      t.state.meta.set(f.counts, 2);
    }
    return n;
  }
}

/** Weighted median of speeds, each sample weighted by exp(-age / τ): robust to a few wild samples. */
export function decayedMedian(kph: number[], ms: number[], now: number): number {
  const idx = kph.map((_, i) => i).sort((a, b) => kph[a] - kph[b]);
  const w = idx.map((i) => Math.exp(-Math.max(0, now - ms[i]) / DECAY_TAU_MS));
  const half = w.reduce((a, b) => a + b, 0) / 2;
  let acc = 0;
  for (let j = 0; j < idx.length; j++) {
    acc += w[j];
    if (acc >= half) return kph[idx[j]];
  }
  return kph[idx[idx.length - 1]];
}

export function logPublishError(e: unknown) {
  log.error('traffic_publish', { error: String((e as Error)?.message ?? e) });
}
