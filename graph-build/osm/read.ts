// Reads the parts of an OSM file that routing needs, from .osm.pbf or .osm XML (as the OSM API,
// JOSM, osmium and OSRM's test suite write it): every node's coordinates, the tags of nodes a
// profile reads (barriers, access on nodes, traffic signals…), every way some profile might use
// (highway=*, route=ferry|shuttle_train) and the turn restriction relations, kept for the
// turn-aware graph. Node coordinates go into growable typed arrays rather than one object per
// node, so a large extract costs ~28 bytes per node instead of ~100.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createOSMStream } from 'osm-pbf-parser-node';
import { readXml } from './elements.ts';
import { PROFILE_WAY_TAGS, PROFILE_NODE_TAGS } from '../profiles/index.ts';
import { NodeIndex } from './node-index.ts';

/** The tag keys the profiles and guidance read; every other way tag is dropped at parse time. */
export const WAY_TAGS = [...new Set([
  ...PROFILE_WAY_TAGS,
  // guidance (graph-build/contract/attrs.ts): street names, numbers and signposted destinations
  'name', 'name:fr', 'name:en', 'name:ar', 'name:pt', 'name:sw', 'ref', 'destination', 'destination:ref',
])];
/** Node tag keys the profiles read; a node without any of them keeps no tags. */
export const NODE_TAGS = [...new Set(PROFILE_NODE_TAGS)];
/** Relation tag keys of turn restrictions (graph-build/profiles/lib/restrictions.ts). */
const RELATION_TAGS = ['type', 'restriction', 'except', 'restriction:motorcar', 'restriction:motor_vehicle', 'restriction:vehicle', 'restriction:bicycle', 'restriction:foot'];

export interface RawWay {
  id: number;
  /** Node indices into RawNetwork.lat/lon (not OSM ids). */
  refs: number[];
  tags: Record<string, string>;
}

/** A turn restriction relation as read (OSM ids); profiles decide what it means for them. */
export interface RawRelation {
  id: number;
  members: { type: 'node' | 'way' | 'relation'; ref: number; role: string }[];
  tags: Record<string, string>;
}

/** A road network before profiles: coordinates by node index, tagged nodes and ways, restrictions. */
export interface RawNetwork {
  lat: Float64Array;
  lon: Float64Array;
  ways: RawWay[];
  /** Tags of the nodes that carry a profile's node tag, by node index (absent on synthetic networks). */
  nodeTags?: Map<number, Record<string, string>>;
  /** OSM id of each node index (absent on synthetic networks). */
  nodeIds?: Float64Array;
  /** type=restriction relations. */
  relations?: RawRelation[];
  /**
   * Node index by OSM id of every node a restriction names, so a build can let nodeIds go (8 bytes a
   * node) before its largest phases; without it the turns search nodeIds.
   */
  restrictionNodes?: Map<number, number>;
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

const WAY_KEYS = new Set(WAY_TAGS);
const wanted = (t: Record<string, string> | undefined) => !!t && (t.highway !== undefined || t.route === 'ferry' || t.route === 'shuttle_train');

const isXml = (file: string) => /\.(osm|xml)$/i.test(file);

/**
 * Keeps only `keys` of `tags`, and only non-empty values: OSRM's profiles read `k=""` as no tag at all
 * (its get_value_by_key answers nil for an empty value); undefined when none is left.
 */
function pick(tags: Record<string, string> | undefined, keys: Set<string>): Record<string, string> | undefined {
  if (!tags) return undefined;
  let out: Record<string, string> | undefined;
  for (const k in tags) if (keys.has(k) && tags[k] !== '') (out ??= {})[k] = tags[k];
  return out;
}

/** The elements of an .osm XML file in the PBF stream's shape (header fields from <osm generator=…>). */
function* xmlItems(text: string): Generator<any> {
  const head = /<osm\b([^>]*)>/.exec(text);
  const gen = head ? /generator\s*=\s*"([^"]*)"/.exec(head[1]) : null;
  yield { required_features: [], writingprogram: gen ? gen[1] : null };
  for (const el of readXml(text)) {
    if (el.type === 'node' || el.type === 'way' || el.type === 'relation') yield el;
  }
  // element timestamps: the newest one, as the PBF path reads them
  let max = 0;
  for (const m of text.matchAll(/\btimestamp\s*=\s*"([^"]+)"/g)) { const t = Date.parse(m[1]); if (t > max) max = t; }
  if (max > 0) yield { type: 'timestamp', ms: max };
}

/**
 * Stream the file (or files) once; keeps routable ways, tagged nodes, restrictions and all node
 * coordinates. Several files are read as one map: neighbouring countries' extracts share the nodes
 * and ways of the roads that cross their border (the same OSM ids), so each is kept once and a
 * way one file clips is whole again with the other's nodes. Throws a clear Error on missing/corrupt input.
 */
export async function readOsm(input: string | string[], onProgress?: (fraction: number) => void): Promise<{ net: RawNetwork; info: OsmInfo }> {
  const files = typeof input === 'string' ? [input] : input;
  if (!files.length) throw new Error('no input file');
  let size = 0;
  for (const file of files) {
    if (!existsSync(file)) throw new Error(`input not found: ${file}`);
    const bytes = statSync(file).size;
    if (bytes === 0) throw new Error(`input is empty: ${file}`);
    size += bytes;
  }
  const nodes = new NodeIndex();
  const rawWays: { id: number; refs: number[]; tags: Record<string, string> }[] = [];
  const taggedNodes: { id: number; tags: Record<string, string> }[] = [];
  const relations: RawRelation[] = [];
  const nodeKeys = new Set(NODE_TAGS), relKeys = new Set(RELATION_TAGS);
  let headerTs = 0, maxTs = 0, program: string | null = null, wayCount = 0;
  let seen = 0;
  for (const file of files) {
    const xml = isXml(file);
    try {
      const items = xml ? xmlItems(readFileSync(file, 'utf8'))
        : createOSMStream(file, { withTags: { node: NODE_TAGS, way: WAY_TAGS, relation: RELATION_TAGS }, withInfo: true }) as AsyncGenerator<any>;
      for await (const item of items) {
        if (item.type === 'node') {
          nodes.add(item.id, item.lat, item.lon);
          const ts = item.info?.timestamp;
          if (typeof ts === 'number' && ts > maxTs) maxTs = ts;
          const nt = pick(item.tags, nodeKeys);
          if (nt) taggedNodes.push({ id: item.id, tags: nt });
        } else if (item.type === 'way') {
          wayCount++;
          const ts = item.info?.timestamp;
          if (typeof ts === 'number' && ts > maxTs) maxTs = ts;
          const wt = pick(item.tags, WAY_KEYS);
          if (wanted(wt)) rawWays.push({ id: item.id, refs: item.refs, tags: wt! });
        } else if (item.type === 'relation') {
          const rt = pick(item.tags, relKeys);
          if (rt && rt.type === 'restriction') relations.push({ id: item.id, members: item.members, tags: rt });
        } else if (item.type === 'timestamp') {
          if (item.ms > maxTs) maxTs = item.ms;
        } else if (item.type === undefined && 'required_features' in item) {
          headerTs = Math.max(headerTs, Number(item.osmosis_replication_timestamp || 0) * 1000);
          program ??= item.writingprogram || null;
        }
        if (onProgress && (++seen & 0xffff) === 0) onProgress(Math.min(0.99, (nodes.size * 9) / size));
      }
    } catch (e) {
      throw new Error(`cannot read ${file} as ${xml ? 'OSM XML' : 'OSM PBF'}: ${(e as Error).message}`);
    }
    if (nodes.size === 0 && wayCount === 0) throw new Error(`${file}: no OSM nodes or ways (not an ${xml ? '.osm' : '.osm.pbf'}?)`);
  }
  // sorted by id, a node two files share kept once
  const { ids: idArr, lat, lon } = nodes.arrays();
  if (files.length > 1) {
    // A way or restriction in two files is kept once: the copy with the most nodes (a clipped file
    // may list only its side's). Id order, as in one sorted file, so the graph is numbered alike.
    const byId = new Map<number, (typeof rawWays)[number]>();
    for (const w of rawWays) { const o = byId.get(w.id); if (!o || w.refs.length > o.refs.length) byId.set(w.id, w); }
    rawWays.splice(0, rawWays.length, ...[...byId.values()].sort((a, b) => a.id - b.id));
    relations.splice(0, relations.length, ...[...new Map(relations.map((r) => [r.id, r] as const)).values()].sort((a, b) => a.id - b.id));
  }
  const find = (id: number) => nodes.find(id);
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
  const nodeTags = new Map<number, Record<string, string>>();
  for (const n of taggedNodes) { const i = find(n.id); if (i >= 0) nodeTags.set(i, n.tags); }
  const ts = Math.max(headerTs, maxTs);
  return {
    net: { lat, lon, ways, nodeTags, nodeIds: idArr, relations },
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
