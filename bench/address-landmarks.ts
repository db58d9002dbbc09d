// `npm run bench -- address-landmarks [--built data/built] [--label]`: geocode accuracy and parser
// accuracy on the hand-written addresses of Accra and Nairobi (test/fixtures/addresses/handwritten.txt:
// real street, stop and facility names with the words people add — stage, junction, bus stop, opp., nr,
// behind — written by hand, not by generate.ts). Per split (tune, report) and kind (street, landmark,
// poi, po_box): top-1 of GET /geocode within the label's tolerance, and the share of labelled
// components the parser gives exactly. Writes bench/results/address-landmarks.json.
//   --label   resolves each line's reference against the source files in ../shared/data (GTFS stops,
//             healthsites.io, the Accra OSM extract's named ways, GeoNames) into handwritten.json, the
//             labels the tests read. Run it after editing handwritten.txt.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cpus } from 'node:os';
import { createOSMStream } from 'osm-pbf-parser-node';
import { REPO } from './lib/server-process.ts';
import { zipEntries, zipText } from '../graph-build/gazetteer/zip.ts';
import { parseCsv } from '../graph-build/gazetteer/csv.ts';
import { loadDataset } from '../src/data/catalog.ts';
import { geo, load, parseQuery } from '../workers/geo/index.ts';
import { scoreLabelled, type LabelledAddress } from '../test/address/handwritten.ts';

const FIXTURE = join(REPO, 'test/fixtures/addresses');
const TOLERANCE_M = { street: 250, stop: 500, hs: 300, city: 5000 } as const;

interface Line { split: 'tune' | 'report'; kind: string; ref: string; text: string; components: Record<string, string> }

export function readHandwritten(): Line[] {
  const out: Line[] = [];
  for (const raw of readFileSync(join(FIXTURE, 'handwritten.txt'), 'utf8').split('\n')) {
    if (!raw.trim() || raw.startsWith('#')) continue;
    const [split, kind, ref, text, comps] = raw.split('|').map((s) => s.trim());
    const components = Object.fromEntries(comps.split(';').map((kv) => kv.trim()).filter(Boolean).map((kv) => {
      const i = kv.indexOf('=');
      return [kv.slice(0, i).trim(), kv.slice(i + 1).trim()];
    }));
    out.push({ split: split as Line['split'], kind, ref, text, components });
  }
  return out;
}

/** Resolves every reference in the source files (never through our gazetteer). */
async function label(shared: string): Promise<LabelledAddress[]> {
  const lines = readHandwritten();
  const stops = new Map<string, { lat: number; lng: number; name: string }>();
  for (const [feed, file] of [['accra', 'accra-gtfs-osm2gtfs-2019.zip'], ['nairobi', 'nairobi-gtfs-digitalmatatus-2019.zip']]) {
    const buf = readFileSync(join(shared, file));
    const text = zipText(buf, zipEntries(buf, file), 'stops.txt', file)!;
    for (const r of parseCsv(text.replace(/^\uFEFF/, ''))) stops.set(`${feed}:${r.stop_id}`, { lat: Number(r.stop_lat), lng: Number(r.stop_lon), name: r.stop_name });
  }
  const wantHs = new Set(lines.filter((l) => l.ref.startsWith('hs:')).map((l) => l.ref.slice(3)));
  const hs = new Map<string, { lat: number; lng: number; name: string }>();
  for (const r of parseCsv(gunzipSync(readFileSync(join(shared, 'healthsites-io-africa-2020.csv.gz'))).toString('utf8'))) {
    if (wantHs.has(r.osm_id)) hs.set(r.osm_id, { lat: Number(r.lat), lng: Number(r.lon), name: r.name });
  }
  const cities = new Map<string, { lat: number; lng: number }>();
  for (const row of readFileSync(join(shared, 'geonames-cities500-africa.tsv'), 'utf8').split('\n')) {
    const c = row.split('\t');
    const key = `${c[1]}:${c[8]}`;
    if (c.length > 8 && !cities.has(key)) cities.set(key, { lat: Number(c[4]), lng: Number(c[5]) });
  }
  // Named ways of the Accra extract: every node of every way of that name.
  const wantStreets = new Set(lines.filter((l) => l.ref.startsWith('street:')).map((l) => l.ref.slice(7)));
  const nodes = new Map<number, [number, number]>();
  const ways: { name: string; refs: number[] }[] = [];
  const opts = { withTags: { node: false as const, way: ['highway', 'name'], relation: false as const }, withInfo: false };
  for await (const item of createOSMStream(join(shared, 'accra-trotro-route-streets-2017.osm.pbf'), opts) as AsyncGenerator<any>) {
    if (item.type === 'node') nodes.set(item.id, [item.lat, item.lon]);
    else if (item.type === 'way' && item.tags?.highway && wantStreets.has(item.tags.name)) ways.push({ name: item.tags.name, refs: item.refs });
  }
  const r5 = (x: number) => Math.round(x * 1e5) / 1e5;
  return lines.map((l) => {
    const [src, ...rest] = l.ref.split(':');
    const id = rest.join(':');
    let at: { lat: number; lng: number } | undefined;
    let tol: number;
    let lines_: [number, number][][] | undefined;
    if (src === 'stop') { at = stops.get(id); tol = TOLERANCE_M.stop; }
    else if (src === 'hs') { at = hs.get(id); tol = TOLERANCE_M.hs; }
    else if (src === 'city') { at = cities.get(id); tol = TOLERANCE_M.city; }
    else if (src === 'street') {
      lines_ = ways.filter((w) => w.name === id).map((w) => w.refs.map((r) => nodes.get(r)!).filter(Boolean).map(([a, b]) => [r5(a), r5(b)] as [number, number]));
      const pts = lines_.flat();
      if (pts.length) {
        const lat = pts.reduce((s, p) => s + p[0], 0) / pts.length, lng = pts.reduce((s, p) => s + p[1], 0) / pts.length;
        const mid = pts.reduce((b, p) => ((p[0] - lat) ** 2 + (p[1] - lng) ** 2 < (b[0] - lat) ** 2 + (b[1] - lng) ** 2 ? p : b));
        at = { lat: mid[0], lng: mid[1] };
      }
      tol = TOLERANCE_M.street;
    } else throw new Error(`unknown reference kind in '${l.ref}'`);
    if (!at) throw new Error(`reference '${l.ref}' not found in ${shared}`);
    return {
      split: l.split, kind: l.kind, q: l.text, components: l.components, ref: l.ref,
      expect: { lat: r5(at.lat), lng: r5(at.lng), tolerance_m: tol!, ...(lines_ ? { lines: lines_ } : {}) },
    } as LabelledAddress;
  });
}

export async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { built: { type: 'string', default: 'data/built' }, label: { type: 'boolean', default: false } } });
  if (values.label) {
    const shared = process.env.SHARED_DATA_DIR ?? join(REPO, '..', 'shared', 'data');
    const set = await label(shared);
    writeFileSync(join(FIXTURE, 'handwritten.json'), JSON.stringify({
      made_by: 'npm run bench -- address-landmarks --label (from handwritten.txt)',
      tolerance_m: TOLERANCE_M, addresses: set,
    }) + '\n');
    console.log(`wrote ${set.length} labelled addresses to test/fixtures/addresses/handwritten.json`);
    return;
  }
  const ds = loadDataset(resolve(REPO, values.built!, 'gazetteer'));
  if (!ds) throw new Error(`no gazetteer in ${values.built}: run npm run graph-build -- gazetteer`);
  const g = load([ds])!;
  const set: LabelledAddress[] = JSON.parse(readFileSync(join(FIXTURE, 'handwritten.json'), 'utf8')).addresses;
  const ctx = { sandbox: false } as any;
  const scored = scoreLabelled(set, (q) => (geo.tasks.geocode({ q, limit: 1 }, ctx) as any).results?.[0] ?? null, (q) => parseQuery(g, q).components as Record<string, unknown>);
  const out = {
    bench: 'address-landmarks',
    date: new Date().toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version },
    gazetteer_built_at: ds.manifest?.built_at ?? null,
    set: 'test/fixtures/addresses/handwritten.txt (hand-written from real names; tune = looked at while changing the code, report = measured only)',
    ...scored.summary,
    misses: scored.misses,
  };
  mkdirSync(join(REPO, 'bench/results'), { recursive: true });
  writeFileSync(join(REPO, 'bench/results/address-landmarks.json'), JSON.stringify(out, null, 2) + '\n');
  console.log(JSON.stringify(out, null, 2));
}
