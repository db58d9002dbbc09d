// Builds one road extract: OSM PBF → per-profile contracted graphs → data/built/<name>/.
import { mkdirSync, statSync } from 'node:fs';
import { join, basename, resolve } from 'node:path';
import { readOsm, type RawNetwork, type OsmInfo } from './osm/read.ts';
import { restrictionNodeIndex } from './turns/restrictions.ts';
import { PROFILES, profileFor, type ProfileName } from './profiles/index.ts';
import { buildTurns } from './turns/index.ts';
import { profileSegments } from './contract/segments.ts';
import { buildGraph, writeGraph } from './contract/build.ts';
import { writeManifest, type Manifest } from '../src/core/format/index.ts';
import { ROUTE_FORMAT_VERSION, ROUTE_KIND } from '../src/core/format/route.ts';
import { progressBar, type Progress } from './progress.ts';
import { collectNow } from './collect.ts';

export interface RoadBuildOptions {
  /** One extract, or several read as one map (neighbouring countries: routes cross their borders). */
  input: string | string[];
  name: string;
  profiles?: ProfileName[];
  /** Parent folder; the dataset goes to <out>/<name>/. */
  out: string;
  /** A bar on a terminal, JSON lines otherwise (graph-build/progress.ts). */
  progress?: boolean;
}

type NetworkBuildOptions = { name: string; out: string; profiles?: ProfileName[]; progress?: boolean | Progress; source?: Record<string, unknown>; osm?: OsmInfo };

/** Build from an in-memory network (tests and fixtures use this directly). */
export function buildRoadNetwork(net: RawNetwork, o: NetworkBuildOptions): Manifest {
  return buildRoads({ net }, o);
}

/**
 * The network comes in a box that is emptied once the last profile's turns are built, so the
 * contraction (the build's largest working set) does not run beside every coordinate and way
 * read from the file: on a country that is most of the memory the read took.
 */
export function buildRoads(src: { net: RawNetwork | null }, o: NetworkBuildOptions): Manifest {
  const t0 = performance.now();
  const dir = join(o.out, o.name);
  mkdirSync(dir, { recursive: true });
  const own = typeof o.progress !== 'object';
  const bar = typeof o.progress === 'object' ? o.progress : progressBar(!!o.progress);
  const profiles = o.profiles && o.profiles.length ? o.profiles : PROFILES;
  const files: Manifest['files'] = [];
  const counts: Record<string, unknown> = {};
  let bbox: [number, number, number, number] | null = null;
  for (const [i, p] of profiles.entries()) {
    bar.update(`segments ${p}`, 0);
    const profile = profileFor(p);
    // obstacles (signals, gates, stops) are charged on the turns through their node, as OSRM does
    const g = buildGraph(() => profileSegments(src.net!, p), p, {
      // its own phase in the progress lines: on a country it is a fifth of the build
      turns: (base) => {
        bar.update(`turns ${p}`, 0);
        // the segments' arrays, garbage since compression, are freed only when V8 collects
        collectNow();
        const turns = buildTurns(src.net!, base, profile);
        if (i === profiles.length - 1) src.net = null;
        collectNow();
        return turns;
      },
      weightName: profile.properties.weightName,
      onProgress: (f, done, total) => bar.update(`contract ${p}`, f, done, total),
    });
    const file = `${p}.route.bin`;
    bar.update(`write ${p}`, 0);
    const bytes = writeGraph(join(dir, file), g);
    bar.done();
    files.push({ file, kind: ROUTE_KIND, version: ROUTE_FORMAT_VERSION, bytes, profile: p });
    counts[p] = {
      nodes: g.meta.nodes, edges: g.meta.edges, shortcuts: g.meta.shortcuts, arcs: g.meta.arcs,
      shape_points: g.meta.shape_points, components: g.meta.components, main_component_nodes: g.meta.main_component_nodes, seconds: round3(g.seconds.compress + g.seconds.contract + g.seconds.index),
    };
    if (g.meta.nodes > 0) {
      const b = g.meta.bbox;
      bbox = bbox ? [Math.min(bbox[0], b[0]), Math.min(bbox[1], b[1]), Math.max(bbox[2], b[2]), Math.max(bbox[3], b[3])] : b;
    }
  }
  const m: Manifest = {
    dataset: 'road',
    name: o.name,
    format_version: ROUTE_FORMAT_VERSION,
    built_at: new Date().toISOString(),
    build_seconds: round3((performance.now() - t0) / 1000),
    files,
    source: o.source ?? null,
    bbox,
    osm_data_date: o.osm?.dataDate ?? null,
    osm_data_date_source: o.osm?.dataDateSource ?? null,
    weight_unit: 'ms',
    profiles: counts,
  };
  writeManifest(dir, m);
  // A caller that passed its bar reports once for the whole build.
  if (own) bar.summary({ name: o.name });
  return m;
}

export async function buildRoadExtract(opts: RoadBuildOptions): Promise<Manifest> {
  const t0 = performance.now();
  const inputs = (typeof opts.input === 'string' ? [opts.input] : opts.input).map((f) => resolve(f));
  const bar = progressBar(!!opts.progress);
  bar.update('reading', 0);
  const read = await readOsm(inputs, (f) => bar.update('reading', f));
  bar.done();
  const { info } = read, routable = read.net.ways.length;
  if (routable === 0) throw new Error(`${inputs.join(', ')}: no highway or ferry ways, nothing to route on`);
  const readS = (performance.now() - t0) / 1000;
  const file = inputs.map((f) => basename(f)).join(',');
  // handed over in a box and dropped here, so the build can let it go (buildRoads)
  // the turns need OSM ids only for the nodes restrictions name: the rest (8 bytes a node) can go
  read.net.restrictionNodes = restrictionNodeIndex(read.net);
  read.net.nodeIds = undefined;
  const src = { net: read.net as RawNetwork | null };
  (read as { net: RawNetwork | null }).net = null;
  // what the read left (decoded blocks, grown arrays, ways by OSM id) is freed only when V8 collects
  collectNow();
  const m = buildRoads(src, {
    name: opts.name, out: opts.out, profiles: opts.profiles, progress: bar, osm: info,
    source: {
      file, ...(inputs.length > 1 ? { files: inputs.map((f) => basename(f)) } : {}), bytes: inputs.reduce((t, f) => t + statSync(f).size, 0),
      osm_nodes: info.nodeCount, osm_ways: info.wayCount, routable_ways: routable, ways_with_missing_nodes: info.missingRefs, writing_program: info.writingProgram,
    },
  });
  // Include the PBF read in the reported build time, and rewrite the manifest last.
  m.build_seconds = round3((performance.now() - t0) / 1000);
  (m as any).read_seconds = round3(readS);
  writeManifest(join(opts.out, opts.name), m);
  bar.summary({ name: opts.name, input: file, osm_nodes: info.nodeCount });
  return m;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
