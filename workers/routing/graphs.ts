// The routed graphs a worker holds: views over shared buffers plus per-worker query state,
// created on first use so idle extracts cost no memory beyond the shared file bytes.
import type Flatbush from 'flatbush';
import type { Dataset } from '../../src/core/task.ts';
import { openGraph, ROUTE_KIND, type GraphViews } from '../../src/core/format/route.ts';
import { ChQuery } from './search/ch-query.ts';
import { DijkstraQuery } from './search/dijkstra.ts';
import { TrafficState } from '../../src/core/traffic-state.ts';
import { loadIndex } from './locate/snap.ts';

export class LoadedGraph {
  readonly index: Flatbush;
  private _q: ChQuery | null = null;
  private _tq: DijkstraQuery | null = null;
  /** Whether a base edge lies inside one of the graph's big strongly connected components. */
  readonly onBig: (edge: number) => boolean;
  /** The big components as a mask by component id (snapping's filter: locate/snap.ts ComponentMask). */
  get bigMask(): Uint8Array { return osrmDepth > 0 ? this.osrmBigMask : this.allBigMask; }
  private readonly allBigMask: Uint8Array;
  private readonly osrmBigMask: Uint8Array;
  /**
   * `profile` is the mode the graph answers (driving, walk, cycle); `rules` the profile it was built
   * with: 'driving_tracks' (car.lua that also drives highway=track, graph-build/profiles/index.ts)
   * answers mode=driving on /api/v1 and says so in answers, never on the /osrm/ layer.
   */
  readonly rules: string;
  constructor(readonly extract: string, readonly profile: string, readonly g: GraphViews, readonly traffic: TrafficState | null = null) {
    this.rules = profile;
    if (profile === 'driving_tracks') this.profile = 'driving';
    this.index = loadIndex(g);
    const big = new Set(g.meta.big_components ?? [g.meta.main_component]);
    // OSRM calls a component below 1,000 edge-based nodes tiny, the largest too: on a small extract
    // its layer gives no point a second candidate, where /api/v1 still offers the largest component
    const osrmBig = new Set(big);
    if ((g.meta.main_component_edges ?? Infinity) < 1000) osrmBig.delete(g.meta.main_component);
    this.onBig = (e) => (osrmDepth > 0 ? osrmBig : big).has(g.edgeComp[e]);
    this.allBigMask = componentMask(big);
    this.osrmBigMask = componentMask(osrmBig);
  }
  get query(): ChQuery { return (this._q ??= new ChQuery(this.g)); }
  /** The search of traffic-aware routes: weights from `traffic` at query time (dijkstra.ts). */
  get trafficQuery(): DijkstraQuery { return (this._tq ??= new DijkstraQuery(this.g)); }
  /** Whether the point lies inside the graph's bbox grown by `radius` metres. */
  covers(lat: number, lng: number, radius: number): boolean {
    const b = this.g.meta.bbox; // [w, s, e, n], read by index: a destructuring here allocated on every point
    const dLat = radius / 111195, dLng = dLat / Math.max(0.05, Math.cos((lat * Math.PI) / 180));
    return lat >= b[1] - dLat && lat <= b[3] + dLat && lng >= b[0] - dLng && lng <= b[2] + dLng;
  }
  get area(): number { const [w, s, e, n] = this.g.meta.bbox; return (e - w) * (n - s); }
}

/** A mask by component id: 1 for each id in `comps`. */
function componentMask(comps: Set<number>): Uint8Array {
  const m = new Uint8Array(Math.max(0, ...comps) + 1);
  for (const c of comps) if (c >= 0) m[c] = 1;
  return m;
}

export function loadGraphs(datasets: Dataset[]): LoadedGraph[] {
  const out: LoadedGraph[] = [];
  for (const ds of datasets) {
    if (ds.dataset !== 'road') continue;
    for (const f of ds.manifest.files as { file: string; kind: string }[]) {
      if (f.kind !== ROUTE_KIND) continue;
      const buf = ds.files[f.file];
      if (!buf) continue;
      const g = openGraph(buf, `${ds.dir}/${f.file}`);
      const t = ds.traffic?.[g.meta.profile];
      if (g.meta.nodes > 0) out.push(new LoadedGraph(ds.name, g.meta.profile, g, t ? new TrafficState(t, g.edgeU.length) : null));
    }
  }
  // Smallest coverage first: the most specific extract answers when several cover a point; an
  // extract built with driving_tracks answers mode=driving with it (the operator built it for that).
  return out.sort((a, b) => a.area - b.area || +(b.rules === 'driving_tracks') - +(a.rules === 'driving_tracks'));
}

/** The graphs this worker serves (set once by the routing module's init), smallest coverage first. */
let current: LoadedGraph[] = [], osrmOnly: LoadedGraph[] = [];
let osrmDepth = 0;
/** Inside withCarLua() (the /osrm/ layer): OSRM's snapping rules, no second candidate beyond its big components. */
export const osrmRules = (): boolean => osrmDepth > 0;
/** Inside withCarLua(), only graphs built with OSRM's own rules (no driving_tracks). */
export const loadedGraphs = (): LoadedGraph[] => (osrmDepth > 0 ? osrmOnly : current);
export function setLoadedGraphs(gs: LoadedGraph[]) { current = gs; osrmOnly = gs.filter((g) => g.rules === g.profile); }
/** Runs f (synchronous, as every task is) seeing only graphs built with OSRM's profiles: the /osrm/ layer always answers with car.lua. */
export function withCarLua<T>(f: () => T): T {
  osrmDepth++;
  try { return f(); } finally { osrmDepth--; }
}
