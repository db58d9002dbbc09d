// Publishes speeds into the graphs' shared traffic state (src/core/traffic-state.ts): every few
// seconds the live speed of each directed edge from the last 15 minutes of samples, and every
// minute the weekly profile. PostgreSQL holds the samples, so every node of a cluster publishes
// the same speeds. A speed is published only with samples from ≥ 3 distinct devices or traces.
import type { Engine } from '../../pool.ts';
import type { Store } from '../../store/index.ts';
import { openGraph, type GraphViews } from '../../core/format/route.ts';
import { TrafficState, PROFILE_SLOTS } from '../../core/traffic-state.ts';
import { log } from '../../core/log.ts';

export const LIVE_WINDOW_MS = 15 * 60_000;
/** Weight of a sample halves every ~3.5 minutes: the estimate follows a change within minutes. */
const DECAY_TAU_MS = 5 * 60_000;
export const MIN_DEVICES = 3;
/** Speeds below this are stored as this: a queue still moves, and a zero speed has no travel time. */
const MIN_KPH = 2;

interface Target { extract: string; profile: string; state: TrafficState; g: GraphViews }

export class SpeedPublisher {
  now = () => Date.now();
  private targets: Target[] = [];
  private seen: SharedArrayBuffer[] = [];
  private profileAt = 0;

  constructor(private store: Store, private engine: Engine) {}

  /** The graphs that carry traffic in the engine's current generation (new after a reload). */
  private refreshTargets(): boolean {
    const bufs = this.engine.datasets.flatMap((d) => Object.values(d.traffic ?? {}));
    if (bufs.length === this.seen.length && bufs.every((b, i) => b === this.seen[i])) return false;
    this.targets = [];
    for (const d of this.engine.datasets) {
      for (const [profile, buf] of Object.entries(d.traffic ?? {})) {
        const f = (d.manifest.files as { file: string; profile?: string }[]).find((x) => x.profile === profile);
        if (!f || !d.files[f.file]) continue;
        const g = openGraph(d.files[f.file], `${d.dir}/${f.file}`);
        this.targets.push({ extract: d.name, profile, state: new TrafficState(buf, g.edgeU.length), g });
      }
    }
    this.seen = bufs;
    return true;
  }

  /** One publication of live speeds (and of the profile when due or when the graphs changed). */
  async publish(): Promise<{ live: number; profile: number }> {
    const changed = this.refreshTargets();
    const now = this.now();
    const live = await this.publishLive(now);
    let profile = -1;
    if (changed || now - this.profileAt >= 60_000) { profile = await this.publishProfile(); this.profileAt = now; }
    return { live, profile };
  }

  private async publishLive(now: number): Promise<number> {
    const { rows } = await this.store.pool.query(
      `SELECT extract, profile, edge, dir, (extract(epoch FROM ts) * 1000)::float8 AS ms, speed_kph, device
         FROM traffic_samples WHERE ts > $1 AND ts <= $2`,
      [new Date(now - LIVE_WINDOW_MS), new Date(now)],
    );
    const groups = new Map<string, { ms: number[]; kph: number[]; devices: Set<string> }>();
    for (const r of rows) {
      const k = `${r.extract}\u0000${r.profile}\u0000${r.edge}\u0000${r.dir}`;
      let gr = groups.get(k);
      if (!gr) groups.set(k, (gr = { ms: [], kph: [], devices: new Set() }));
      gr.ms.push(r.ms); gr.kph.push(r.speed_kph); gr.devices.add(r.device);
    }
    let published = 0;
    for (const t of this.targets) {
      const n = 2 * t.state.edges;
      const w = new Int32Array(n), sp = new Float32Array(n), cnt = new Int32Array(n), up = new Int32Array(n);
      let count = 0;
      for (let i = 0; i < n; i++) {
        const gr = groups.get(`${t.extract}\u0000${t.profile}\u0000${i >> 1}\u0000${i & 1}`);
        if (!gr || gr.devices.size < MIN_DEVICES) continue;
        const kph = Math.max(MIN_KPH, decayedMedian(gr.kph, gr.ms, now));
        w[i] = Math.max(1, Math.round((t.g.edgeDist[i >> 1] / (kph / 3.6)) * 1000));
        sp[i] = kph; cnt[i] = gr.kph.length; up[i] = Math.floor(Math.max(...gr.ms) / 1000);
        count++;
      }
      // Whole arrays at once: a query running meanwhile sees old or new values per edge, never garbage.
      t.state.weightMs.set(w); t.state.speedKph.set(sp); t.state.samples.set(cnt); t.state.updatedS.set(up);
      t.state.meta[1] = count;
      Atomics.add(t.state.meta, 0, 1);
      published += count;
    }
    return published;
  }

  private async publishProfile(): Promise<number> {
    const { rows } = await this.store.pool.query(
      `SELECT extract, profile, edge, dir, dow, hour, sum_kph / n AS kph FROM traffic_profile WHERE devices >= $1`, [MIN_DEVICES]);
    const by = new Map<string, Target>(this.targets.map((t) => [`${t.extract}\u0000${t.profile}`, t]));
    const fresh = new Map<Target, { w: Int32Array; counts: Int32Array }>();
    for (const t of this.targets) fresh.set(t, { w: new Int32Array(t.state.profileMs.length), counts: new Int32Array(PROFILE_SLOTS) });
    let n = 0;
    for (const r of rows) {
      const t = by.get(`${r.extract}\u0000${r.profile}`);
      if (!t || r.edge >= t.state.edges) continue;
      const slot = r.dow * 24 + r.hour;
      const kph = Math.max(MIN_KPH, r.kph);
      const f = fresh.get(t)!;
      f.w[slot * 2 * t.state.edges + 2 * r.edge + r.dir] = Math.max(1, Math.round((t.g.edgeDist[r.edge] / (kph / 3.6)) * 1000));
      f.counts[slot]++;
      n++;
    }
    for (const [t, f] of fresh) { t.state.profileMs.set(f.w); t.state.meta.set(f.counts, 2); }
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
