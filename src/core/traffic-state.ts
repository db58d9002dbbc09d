// Live and historical traffic of one routed graph, in shared memory: the main thread writes it
// (src/traffic/speeds.ts), every worker reads it at query time (workers/traffic, and routes
// with traffic=live|forecast), so a new speed reaches every thread without a copy or a rebuild.
// Index i = 2 * edge + dir (dir 0: u→v, 1: v→u) over the graph's compressed base edges.

/** Hour slots of the weekly profile: day of week (0 = Sunday, UTC) × hour. */
export const PROFILE_SLOTS = 7 * 24;

export class TrafficState {
  /** Live travel time of the directed edge in ms; 0 = no published observation (use the profile speed). */
  readonly weightMs: Int32Array;
  /** Live speed, km/h (0 = none). */
  readonly speedKph: Float32Array;
  /** Samples behind the live speed. */
  readonly samples: Int32Array;
  /** Epoch seconds of the newest sample behind the live speed. */
  readonly updatedS: Int32Array;
  /**
   * The part of the edge the live speed was observed on, metres from u (to ≤ from: none published):
   * the hull of its samples' parts. weightMs is the whole edge, that part at the observed speed and
   * the rest at the profile's; a route driving only some of the edge costs the overlap at the
   * observed speed (workers/routing/search/dijkstra.ts, partWeight).
   */
  readonly partFrom: Float32Array;
  readonly partTo: Float32Array;
  /** Historical travel time per (slot, directed edge), ms; 0 = not enough devices yet. */
  readonly profileMs: Int32Array;
  /**
   * [0]: bumped on every publication, so readers can tell a change; [1]: directed edges with a live
   * speed; [2 + slot]: directed edges with a profile speed in that slot.
   */
  readonly meta: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer, readonly edges: number) {
    const n = 2 * edges;
    let o = 0;
    const i32 = (len: number) => { const a = new Int32Array(buffer, o, len); o += 4 * len; return a; };
    this.meta = i32(2 + PROFILE_SLOTS);
    this.weightMs = i32(n);
    this.speedKph = new Float32Array(buffer, o, n); o += 4 * n;
    this.samples = i32(n);
    this.updatedS = i32(n);
    this.partFrom = new Float32Array(buffer, o, n); o += 4 * n;
    this.partTo = new Float32Array(buffer, o, n); o += 4 * n;
    this.profileMs = i32(n * PROFILE_SLOTS);
  }

  static bytes(edges: number): number {
    return 4 * (2 + PROFILE_SLOTS + 2 * edges * (6 + PROFILE_SLOTS));
  }

  static create(edges: number): TrafficState {
    return new TrafficState(new SharedArrayBuffer(TrafficState.bytes(edges)), edges);
  }

  /** Directed travel times of one profile slot (a view, not a copy). */
  profileSlot(slot: number): Int32Array {
    const n = 2 * this.edges;
    return this.profileMs.subarray(slot * n, (slot + 1) * n);
  }

  /** The slot of an epoch-ms instant. */
  static slot(ms: number): number {
    const d = new Date(ms);
    return d.getUTCDay() * 24 + d.getUTCHours();
  }
}
