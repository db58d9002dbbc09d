// Places build: reads every element of a full OpenStreetMap extract (.osm.pbf or .osm XML) and
// writes data/built/<name>/pois.bin + manifest.json: businesses, markets and protected areas as
// items (point, kind, category, name, kept tags, OSM id), areas as rings (closed ways, and
// multipolygon/boundary relations whose member ways are joined into rings), a kdbush over the
// items' points and a flatbush over the rings.
//
// Two passes over the file: relations first (which ways their areas need), then nodes and ways.
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readElements, type OsmElement } from '../osm/elements.ts';
import { classify, KEPT_TAGS, type Classified } from './classify.ts';
import { pointIndex, ringSections } from '../gazetteer/spatialindex.ts';
import type { Rings } from '../gazetteer/sources/naturalearth.ts';
import { writeContainer, writeManifest, type Manifest } from '../../src/core/format/index.ts';
import { POI_FILES, POI_VERSION, POI_KINDS, LODGING_CATEGORIES } from '../../src/core/format/pois.ts';
import { EARTH_R } from '../../src/core/geometry.ts';
import { stringTable } from '../string-table.ts';
import { assembleRings } from '../osm/rings.ts';
import { NodeIndex } from '../osm/node-index.ts';

export interface PoiBuildOptions { input: string; name: string; out: string; progress?: boolean }

interface Item { osm: string; c: Classified; name: string; tags: Record<string, string>; lat: number; lng: number; rings: number[][][]; area: number }

/** Signed area (m², spherical approximation) of a lng/lat ring. */
function ringArea(r: number[][]): number {
  let a = 0;
  const rad = Math.PI / 180;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) a += (r[i][0] - r[j][0]) * rad * (2 + Math.sin(r[j][1] * rad) + Math.sin(r[i][1] * rad));
  return (a * EARTH_R * EARTH_R) / 2;
}

function centroid(r: number[][]): [number, number] {
  let a = 0, cx = 0, cy = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
    const f = r[j][0] * r[i][1] - r[i][0] * r[j][1];
    a += f; cx += (r[j][0] + r[i][0]) * f; cy += (r[j][1] + r[i][1]) * f;
  }
  if (a === 0) return [r[0][0], r[0][1]];
  return [cx / (3 * a), cy / (3 * a)];
}

export async function buildPois(opts: PoiBuildOptions): Promise<Manifest> {
  const t0 = performance.now();
  // Pass 1: area relations and the ways they are made of.
  const relations: { id: number; c: Classified; tags: Record<string, string>; ways: number[] }[] = [];
  const memberWays = new Set<number>();
  let elements = 0;
  for await (const e of readElements(opts.input)) {
    elements++;
    if (e.type !== 'relation') continue;
    const c = classify(e.tags);
    if (!c) continue;
    const type = e.tags?.type;
    // A market or business relation without area members still has a place (its first node member).
    const ways = e.members.filter((m) => m.type === 'way').map((m) => m.ref);
    if (type === 'multipolygon' || type === 'boundary' || c.kind !== 'business') {
      relations.push({ id: e.id, c, tags: e.tags!, ways });
      for (const w of ways) memberWays.add(w);
    }
  }
  // Pass 2: node coordinates, point items, ways.
  const nodeIndex = new NodeIndex();
  const items: Item[] = [];
  const wayRefs = new Map<number, number[]>();
  const areaWays: { id: number; c: Classified; tags: Record<string, string>; refs: number[] }[] = [];
  const keep = (t: Record<string, string>) => {
    const o: Record<string, string> = {};
    for (const k of KEPT_TAGS) if (t[k] !== undefined) o[k] = t[k];
    return o;
  };
  let nodes = 0, ways = 0;
  for await (const e of readElements(opts.input) as AsyncGenerator<OsmElement>) {
    if (e.type === 'node') {
      nodes++;
      nodeIndex.add(e.id, e.lat, e.lon);
      const c = classify(e.tags);
      if (c) items.push({ osm: `n${e.id}`, c, name: e.tags!.name ?? '', tags: keep(e.tags!), lat: e.lat, lng: e.lon, rings: [], area: 0 });
    } else if (e.type === 'way') {
      ways++;
      const c = classify(e.tags);
      if (memberWays.has(e.id)) wayRefs.set(e.id, e.refs);
      if (c) areaWays.push({ id: e.id, c, tags: e.tags!, refs: e.refs });
    }
  }
  const coords = (refs: number[]): number[][] | null => {
    const out: number[][] = [];
    for (const r of refs) {
      const i = nodeIndex.find(r);
      if (i < 0) return null; // clipped at the extract's edge
      out.push([nodeIndex.lon(i), nodeIndex.lat(i)]);
    }
    return out;
  };
  let dropped = 0;
  const addArea = (osm: string, c: Classified, tags: Record<string, string>, rings: number[][][], fallback: number[][] | null) => {
    if (rings.length) {
      let big = rings[0], bigA = 0, area = 0;
      for (const r of rings) { const a = Math.abs(ringArea(r)); area += a; if (a > bigA) { bigA = a; big = r; } }
      const [lng, lat] = centroid(big);
      items.push({ osm, c, name: tags.name ?? '', tags: keep(tags), lat, lng, rings, area: Math.round(area) });
    } else if (fallback && fallback.length && c.kind !== 'protected_area') {
      // An open way (a market street): its middle node is the place.
      const [lng, lat] = fallback[fallback.length >> 1];
      items.push({ osm, c, name: tags.name ?? '', tags: keep(tags), lat, lng, rings: [], area: 0 });
    } else dropped++;
  };
  for (const w of areaWays) {
    const cs = coords(w.refs);
    const closed = w.refs.length >= 4 && w.refs[0] === w.refs[w.refs.length - 1];
    addArea(`w${w.id}`, w.c, w.tags, cs && closed ? [cs] : [], cs);
  }
  for (const r of relations) {
    const parts = r.ways.map((w) => wayRefs.get(w)).filter((x): x is number[] => !!x);
    const rings = assembleRings(parts).map(coords).filter((x): x is number[][] => !!x);
    addArea(`r${r.id}`, r.c, r.tags, rings, null);
  }
  // Same object twice (a node and a way of one market are distinct objects; duplicates of one id are not).
  const seen = new Set<string>();
  const list = items.filter((it) => (seen.has(it.osm) ? false : (seen.add(it.osm), true)));
  list.sort((a, b) => POI_KINDS.indexOf(a.c.kind) - POI_KINDS.indexOf(b.c.kind) || (a.osm < b.osm ? -1 : 1));

  const n = list.length;
  const categories: string[] = [], groups: string[] = [];
  const idx = (arr: string[], s: string) => { let i = arr.indexOf(s); if (i < 0) { i = arr.length; arr.push(s); } return i; };
  const lat = new Float64Array(n), lng = new Float64Array(n), area = new Float64Array(n);
  const kind = new Uint8Array(n), cat = new Uint16Array(n), group = new Uint8Array(n);
  const rings: Rings = { owner: [], start: [], coords: [] };
  list.forEach((it, i) => {
    lat[i] = it.lat; lng[i] = it.lng; area[i] = it.area;
    kind[i] = POI_KINDS.indexOf(it.c.kind); cat[i] = idx(categories, it.c.category); group[i] = idx(groups, it.c.group);
    for (const r of it.rings) {
      rings.owner.push(i); rings.start.push(rings.coords.length / 2);
      for (const [x, y] of r) rings.coords.push(x, y);
    }
  });
  const ids = stringTable(list.map((it) => it.osm)), names = stringTable(list.map((it) => it.name)), tags = stringTable(list.map((it) => (Object.keys(it.tags).length ? JSON.stringify(it.tags) : '')));
  const counts = Object.fromEntries(POI_KINDS.map((k) => [k, list.filter((it) => it.c.kind === k).length]));
  // Lodging is a kind of business; its own count tells the server whether hotels are served.
  const lodging = list.filter((it) => it.c.group === 'tourism' && (LODGING_CATEGORIES as readonly string[]).includes(it.c.category)).length;
  const outDir = join(opts.out, opts.name);
  mkdirSync(outDir, { recursive: true });
  const sections: Record<string, any> = {
    lat, lng, area, kind, cat, group, idStr: ids.bytes, idOff: ids.off, nameStr: names.bytes, nameOff: names.off, tagStr: tags.bytes, tagOff: tags.off,
    ...ringSections(rings, (o) => o, 'r'),
  };
  if (n > 0) sections.kd = pointIndex(lng, lat, 0, n);
  const f = POI_FILES.pois;
  const bytes = writeContainer(join(outDir, f.file), f.kind, POI_VERSION, sections, { categories, groups, counts });
  const build_seconds = Math.round((performance.now() - t0) / 10) / 100;
  const manifest: Manifest = {
    dataset: 'pois', name: opts.name, format_version: POI_VERSION, built_at: new Date().toISOString(), build_seconds,
    files: [{ file: f.file, kind: f.kind, version: POI_VERSION, bytes }],
    counts, lodging, input: basename(opts.input), osm: { elements, nodes, ways, area_relations: relations.length, dropped_unclosed_or_clipped: dropped },
    source: { title: `OpenStreetMap extract ${basename(opts.input)}`, licence: 'ODbL 1.0', attribution: '© OpenStreetMap contributors' },
  };
  writeManifest(outDir, manifest);
  if (opts.progress !== false) console.log(`pois: ${n} places (${POI_KINDS.map((k) => `${k} ${counts[k]}`).join(', ')}; lodging ${lodging}) from ${basename(opts.input)} in ${build_seconds} s → ${outDir}`);
  return manifest;
}
