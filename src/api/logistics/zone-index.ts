// A project's geofence zones held in memory for point checks: a Flatbush index over the zone
// boxes, and rings as flat Float64Arrays (ring-cast over typed arrays, no JSON per check).
// Built once per change of the project's zones (the version is read from the database on each
// check, so every node sees creations and deletions made on any other) and kept in an LRU
// bounded by vertices, so the memory it takes is bounded whatever the number of projects.
import Flatbush from 'flatbush';

interface Zone { id: string; name: string; rings: Float64Array[] }

export class ZoneSet {
  private index: Flatbush | null = null;
  constructor(private zones: Zone[], boxes: number[][], readonly vertices: number) {
    if (zones.length) {
      const fb = new Flatbush(zones.length);
      for (const b of boxes) fb.add(b[0], b[1], b[2], b[3]);
      fb.finish();
      this.index = fb;
    }
  }

  /** Zones containing the point (holes excluded), in the order the zones were created. */
  contains(lng: number, lat: number): { id: string; name: string }[] {
    if (!this.index) return [];
    const hits = this.index.search(lng, lat, lng, lat).sort((a, b) => a - b);
    const out: { id: string; name: string }[] = [];
    for (const i of hits) {
      const z = this.zones[i];
      if (inFlatPolygon(lng, lat, z.rings)) out.push({ id: z.id, name: z.name });
    }
    return out;
  }
}

/** Even-odd ray cast over one closed ring stored as x0,y0,x1,y1,… */
export function inFlatRing(lng: number, lat: number, r: Float64Array): boolean {
  let inside = false;
  const n = r.length;
  for (let i = 0, j = n - 2; i < n; j = i, i += 2) {
    const xi = r[i], yi = r[i + 1], xj = r[j], yj = r[j + 1];
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function inFlatPolygon(lng: number, lat: number, rings: Float64Array[]): boolean {
  if (!rings.length || !inFlatRing(lng, lat, rings[0])) return false;
  for (let h = 1; h < rings.length; h++) if (inFlatRing(lng, lat, rings[h])) return false;
  return true;
}

/** Rows as stored (polygon: GeoJSON Polygon, ordered by created_at, id) → a ZoneSet. */
export function buildZoneSet(rows: { id: string; name: string; polygon: { coordinates: number[][][] }; min_lat: number; min_lng: number; max_lat: number; max_lng: number }[]): ZoneSet {
  let vertices = 0;
  const zones: Zone[] = [], boxes: number[][] = [];
  for (const r of rows) {
    const rings = r.polygon.coordinates.map((ring) => {
      const f = new Float64Array(ring.length * 2);
      for (let i = 0; i < ring.length; i++) { f[2 * i] = ring[i][0]; f[2 * i + 1] = ring[i][1]; }
      vertices += ring.length;
      return f;
    });
    zones.push({ id: r.id, name: r.name, rings });
    boxes.push([r.min_lng, r.min_lat, r.max_lng, r.max_lat]);
  }
  return new ZoneSet(zones, boxes, vertices);
}

/** Least-recently-used ZoneSets per project, at most `maxVertices` in all. */
export class ZoneCache {
  private sets = new Map<string, { version: string; set: ZoneSet }>();
  private vertices = 0;
  constructor(private maxVertices: number) {}

  get(project: string, version: string): ZoneSet | undefined {
    const e = this.sets.get(project);
    if (!e || e.version !== version) return undefined;
    this.sets.delete(project);
    this.sets.set(project, e); // most recently used last
    return e.set;
  }

  set(project: string, version: string, set: ZoneSet) {
    const old = this.sets.get(project);
    if (old) { this.vertices -= old.set.vertices; this.sets.delete(project); }
    this.sets.set(project, { version, set });
    this.vertices += set.vertices;
    for (const [k, e] of this.sets) {
      if (this.vertices <= this.maxVertices || k === project) break;
      this.sets.delete(k);
      this.vertices -= e.set.vertices;
    }
  }
}
