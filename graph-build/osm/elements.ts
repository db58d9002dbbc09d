// Every OSM element of a file, tags included: .osm.pbf through osm-pbf-parser-node, and .osm
// (XML, as the OSM API and JOSM write it) through the small reader below, so tests can write
// their fixtures as text. Used by the places build (graph-build/pois), which needs relations.
import { existsSync, readFileSync } from 'node:fs';
import { createOSMStream } from 'osm-pbf-parser-node';

export interface OsmNode { type: 'node'; id: number; lat: number; lon: number; tags?: Record<string, string> }
export interface OsmWay { type: 'way'; id: number; refs: number[]; tags?: Record<string, string> }
export interface OsmRelation { type: 'relation'; id: number; members: { type: string; ref: number; role: string }[]; tags?: Record<string, string> }
export type OsmElement = OsmNode | OsmWay | OsmRelation;

/** Tag keys to keep per element type (PBF only: fewer tags, less garbage), or true for every tag. */
export type TagFilter = true | { node: string[] | false; way: string[] | false; relation: string[] | false };

export async function* readElements(file: string, withTags: TagFilter = true): AsyncGenerator<OsmElement> {
  if (!existsSync(file)) throw new Error(`input not found: ${file}`);
  if (/\.(osm|xml)$/i.test(file)) { yield* readXml(readFileSync(file, 'utf8')); return; }
  try {
    for await (const it of createOSMStream(file, { withTags, withInfo: false }) as AsyncGenerator<any>) {
      if (it.type === 'node' || it.type === 'way' || it.type === 'relation') yield it as OsmElement;
    }
  } catch (e) {
    throw new Error(`cannot read ${file} as OSM PBF: ${(e as Error).message}`);
  }
}

const ENT: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (s: string) => s.replace(/&(#x?[0-9a-f]+|\w+);/gi, (m, e: string) => e[0] === '#'
  ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1))) : ENT[e] ?? m);
function attrs(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of s.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out[m[1]] = unescape(m[2] ?? m[3]);
  return out;
}

/** OSM XML: <node/>, <way><nd/><tag/></way>, <relation><member/><tag/></relation>. */
export function* readXml(text: string): Generator<OsmElement> {
  const re = /<(node|way|relation)\b([^>]*?)(\/>|>([\s\S]*?)<\/\1>)/g;
  for (const m of text.matchAll(re)) {
    const a = attrs(m[2]);
    const body = m[4] ?? '';
    const tags: Record<string, string> = {};
    for (const t of body.matchAll(/<tag\b([^>]*?)\/?>/g)) { const ta = attrs(t[1]); if (ta.k !== undefined) tags[ta.k] = ta.v ?? ''; }
    const tg = Object.keys(tags).length ? tags : undefined;
    const id = Number(a.id);
    if (m[1] === 'node') yield { type: 'node', id, lat: Number(a.lat), lon: Number(a.lon), tags: tg };
    else if (m[1] === 'way') yield { type: 'way', id, refs: [...body.matchAll(/<nd\b([^>]*?)\/?>/g)].map((n) => Number(attrs(n[1]).ref)), tags: tg };
    else yield { type: 'relation', id, members: [...body.matchAll(/<member\b([^>]*?)\/?>/g)].map((n) => { const x = attrs(n[1]); return { type: x.type, ref: Number(x.ref), role: x.role ?? '' }; }), tags: tg };
  }
}
