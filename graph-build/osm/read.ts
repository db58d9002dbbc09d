// Reads the parts of an .osm.pbf that routing needs: every node's coordinates and
// every way that some profile might use (highway=* or route=ferry), relation-free.
// Node coordinates go into growable typed arrays rather than one object per node,
// so a large extract costs ~20 bytes per node instead of ~100.
import { existsSync, statSync } from 'node:fs';
import { createOSMStream } from 'osm-pbf-parser-node';

/** The tag keys the profiles read; every other way tag is dropped at parse time. */
export const WAY_TAGS = [
  'highway', 'route', 'oneway', 'junction', 'maxspeed', 'access', 'motor_vehicle', 'motorcar', 'vehicle',
  'foot', 'bicycle', 'oneway:bicycle', 'cycleway', 'surface', 'area', 'duration', 'motorroad', 'ferry',
  // guidance (graph-build/contract/attrs.ts): street names, numbers and signposted destinations
  'name', 'name:fr', 'name:en', 'name:ar', 'name:pt', 'name:sw', 'ref', 'destination', 'destination:ref',
];

export interface RawWay {
  id: number;
  /** Node indices into RawNetwork.lat/lon (not OSM ids). */
  refs: number[];
  tags: Record<string, string>;
}

/** A road network before profiles: coordinates by node index and tagged ways. */
export interface RawNetwork {
  lat: Float64Array;
  lon: Float64Array;
  ways: RawWay[];
}

export interface OsmInfo {
  /** Newest of the header replication timestamp and every element timestamp; null when the file carries neither. */
  dataDate: string | null;
  dataDateSource: 'header' | 'element_timestamps' | null;
  writingProgram: string | null;
  nodeCount: number;
  wayCount: number;
  /** Ways missing at least one referenced node (clipped extracts); they are cut at the gap. */
  missingRefs: number;
}

class GrowF64 {
  a = new Float64Array(1 << 16);
  n = 0;
  push(v: number) {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
  done(): Float64Array { return this.a.slice(0, this.n); }
}

const wanted = (t: Record<string, string> | undefined) => !!t && (t.highway !== undefined || t.route === 'ferry');

/** Stream the file once; keeps routable ways and all node coordinates. Throws a clear Error on missing/corrupt input. */
export async function readOsm(file: string, onProgress?: (fraction: number) => void): Promise<{ net: RawNetwork; info: OsmInfo }> {
  if (!existsSync(file)) throw new Error(`input not found: ${file}`);
  const size = statSync(file).size;
  if (size === 0) throw new Error(`input is empty: ${file}`);
  const ids = new GrowF64(), lats = new GrowF64(), lons = new GrowF64();
  const rawWays: { id: number; refs: number[]; tags: Record<string, string> }[] = [];
  let headerTs = 0, maxTs = 0, program: string | null = null, wayCount = 0;
  let sorted = true, lastId = -Infinity, seen = 0;
  try {
    for await (const item of createOSMStream(file, { withTags: { node: false, way: WAY_TAGS, relation: false }, withInfo: true }) as AsyncGenerator<any>) {
      if (item.type === 'node') {
        if (item.id < lastId) sorted = false;
        lastId = item.id;
        ids.push(item.id); lats.push(item.lat); lons.push(item.lon);
        const ts = item.info?.timestamp;
        if (typeof ts === 'number' && ts > maxTs) maxTs = ts;
      } else if (item.type === 'way') {
        wayCount++;
        const ts = item.info?.timestamp;
        if (typeof ts === 'number' && ts > maxTs) maxTs = ts;
        if (wanted(item.tags)) rawWays.push({ id: item.id, refs: item.refs, tags: item.tags });
      } else if (item.type === undefined && 'required_features' in item) {
        headerTs = Number(item.osmosis_replication_timestamp || 0) * 1000;
        program = item.writingprogram || null;
      }
      if (onProgress && (++seen & 0xffff) === 0) onProgress(Math.min(0.99, (ids.n * 9) / size));
    }
  } catch (e) {
    throw new Error(`cannot read ${file} as OSM PBF: ${(e as Error).message}`);
  }
  if (ids.n === 0 && wayCount === 0) throw new Error(`${file}: no OSM nodes or ways (not an .osm.pbf?)`);
  let idArr = ids.done(), lat = lats.done(), lon = lons.done();
  if (!sorted) {
    // Rare (osmium sorts by default); sort an index permutation so lookups can binary-search.
    const perm = Uint32Array.from({ length: idArr.length }, (_, i) => i).sort((a, b) => idArr[a] - idArr[b]);
    idArr = Float64Array.from(perm, (i) => idArr[i]);
    lat = Float64Array.from(perm, (i) => lat[i]);
    lon = Float64Array.from(perm, (i) => lon[i]);
  }
  const find = (id: number): number => {
    let lo = 0, hi = idArr.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = idArr[mid];
      if (v === id) return mid;
      if (v < id) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
  };
  let missingRefs = 0;
  const ways: RawWay[] = [];
  for (const w of rawWays) {
    // A clipped extract may reference nodes it does not contain: split the way at the gap.
    let cur: number[] = [];
    let broke = false;
    for (const r of w.refs) {
      const i = find(r);
      if (i < 0) {
        broke = true;
        if (cur.length > 1) ways.push({ id: w.id, refs: cur, tags: w.tags });
        cur = [];
      } else cur.push(i);
    }
    if (broke) missingRefs++;
    if (cur.length > 1) ways.push({ id: w.id, refs: cur, tags: w.tags });
  }
  const ts = Math.max(headerTs, maxTs);
  return {
    net: { lat, lon, ways },
    info: {
      dataDate: ts > 0 ? new Date(ts).toISOString() : null,
      dataDateSource: headerTs > 0 && headerTs >= maxTs ? 'header' : maxTs > 0 ? 'element_timestamps' : null,
      writingProgram: program,
      nodeCount: idArr.length,
      wayCount,
      missingRefs,
    },
  };
}
