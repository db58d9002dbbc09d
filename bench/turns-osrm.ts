// Turn penalties against osrm-extract's: builds svc's turn table for an OSM file (car.lua port,
// graph-build/turns) and reads the turns osrm-extract wrote for the same file
// (<base>.osrm.turn_penalties_index, .turn_duration_penalties, .turn_weight_penalties, .nbg_nodes),
// matches them by OSM node triple (node before the via node, via node, node after) and prints the
// share whose duration and weight agree exactly and within 0.1 s (one decisecond / weight unit).
//
//   LD_LIBRARY_PATH=../shared/tools/osrm/lib ../shared/tools/osrm/bin/osrm-extract -p ../shared/tools/osrm/profiles/car.lua /tmp/x/map.osm.pbf
//   node --import tsx bench/turns-osrm.ts /tmp/x/map.osm.pbf [--show 20]
import { readFileSync } from 'node:fs';
import { readOsm } from '../graph-build/osm/read.ts';
import { profileSegments } from '../graph-build/contract/segments.ts';
import { compress } from '../graph-build/contract/compress.ts';
import { buildTurns } from '../graph-build/turns/index.ts';
import { car } from '../graph-build/profiles/car.ts';

/** The members of an OSRM tar file by name. */
function tarMembers(file: string): Map<string, Buffer> {
  const buf = readFileSync(file), out = new Map<string, Buffer>();
  for (let off = 0; off + 512 <= buf.length;) {
    const name = buf.subarray(off, off + 100).toString('latin1').replace(/\0.*$/s, '');
    if (!name) break;
    const size = parseInt(buf.subarray(off + 124, off + 136).toString('latin1').replace(/\0.*$/s, '').trim() || '0', 8);
    out.set(name.replace(/^\//, ''), buf.subarray(off + 512, off + 512 + size));
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

/** util::PackedVector<OSMNodeID, 34>: a little-endian stream of 34-bit values in 64-bit words. */
function unpack34(b: Buffer, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const bit = i * 34;
    let v = 0n;
    for (let k = 0; k < 34; k++) {
      const p = bit + k;
      if ((b[p >> 3] >> (p & 7)) & 1) v |= 1n << BigInt(k);
    }
    out.push(Number(v));
  }
  return out;
}

export interface OsrmTurn { from: number; via: number; to: number; duration: number; weight: number }

export function readOsrmTurns(base: string): OsrmTurn[] {
  const idx = tarMembers(base + '.turn_penalties_index').get('extractor/turn_index')!;
  const dur = tarMembers(base + '.turn_duration_penalties').get('common/turn_penalty/duration')!;
  const wgt = tarMembers(base + '.turn_weight_penalties').get('common/turn_penalty/weight')!;
  const nbg = tarMembers(base + '.nbg_nodes');
  const nNodes = nbg.get('common/nbn_data/coordinates')!.length / 8;
  const ids = unpack34(nbg.get('common/nbn_data/osm_node_ids/packed')!, nNodes);
  const n = idx.length / 12, out: OsrmTurn[] = [];
  for (let i = 0; i < n; i++) {
    out.push({ from: ids[idx.readUInt32LE(12 * i)], via: ids[idx.readUInt32LE(12 * i + 4)], to: ids[idx.readUInt32LE(12 * i + 8)], duration: dur.readInt16LE(2 * i), weight: wgt.readInt16LE(2 * i) });
  }
  return out;
}

async function main() {
  const file = process.argv[2];
  const show = process.argv.includes('--show') ? Number(process.argv[process.argv.indexOf('--show') + 1]) : 0;
  const osrm = readOsrmTurns(file.replace(/\.osm(\.pbf)?$/, '') + '.osrm');
  const { net } = await readOsm(file);
  const segs = profileSegments(net, 'driving');
  const base = compress(segs);
  const t = buildTurns(net, base, car);
  const id = (raw: number) => net.nodeIds![raw];
  const sn = base.shapeNode!;
  // OSM node before the via node on the arriving edge, the via node, the node after it on the leaving edge
  const ends = (d: number, arriving: boolean): [number, number] => {
    const e = Math.abs(d) - 1, s0 = base.edgeShape[e], s1 = base.edgeShape[e + 1] - 1;
    const forward = d > 0;
    if (arriving) return forward ? [sn[s1 - 1], sn[s1]] : [sn[s0 + 1], sn[s0]];
    return forward ? [sn[s0], sn[s0 + 1]] : [sn[s1], sn[s1 - 1]];
  };
  const ours = new Map<string, { duration: number; weight: number }[]>();
  for (let i = 0; i < t.count; i++) {
    const [a, v] = ends(t.from[i], true), [, b] = ends(t.to[i], false);
    const k = `${id(a)},${id(v)},${id(b)}`;
    const l = ours.get(k) ?? [];
    l.push({ duration: t.duration[i] / 100, weight: t.weight[i] / 100 });
    ours.set(k, l);
  }
  let matched = 0, durExact = 0, durNear = 0, wExact = 0, wNear = 0, both = 0, missing = 0, missingPaid = 0;
  const bad: string[] = [];
  const seen = new Set<string>();
  for (const o of osrm) {
    const k = `${o.from},${o.via},${o.to}`;
    seen.add(k);
    const l = ours.get(k);
    // OSRM's turns svc lacks are through nodes svc compressed (so they had better cost nothing)
    if (!l) { missing++; if (o.duration || o.weight) missingPaid++; if (bad.length < show) bad.push(`missing ${k} osrm ${o.duration}/${o.weight}`); continue; }
    matched++;
    const m = l.reduce((best, x) => (Math.abs(x.duration - o.duration) < Math.abs(best.duration - o.duration) ? x : best));
    const dd = Math.abs(m.duration - o.duration), dw = Math.abs(m.weight - o.weight);
    if (dd === 0) durExact++; if (dd <= 1) durNear++;
    if (dw === 0) wExact++; if (dw <= 1) wNear++;
    if (dd === 0 && dw === 0) both++;
    else if (bad.length < show) bad.push(`differs ${k} osrm ${o.duration}/${o.weight} svc ${m.duration}/${m.weight}`);
  }
  let extra = 0;
  for (const [k, l] of ours) if (!seen.has(k)) { extra++; if (bad.length < show) bad.push(`svc only ${k} svc ${l[0].duration}/${l[0].weight}`); }
  const pct = (x: number) => ((100 * x) / Math.max(1, matched)).toFixed(2) + '%';
  console.log(JSON.stringify({
    file, osrm_turns: osrm.length, svc_turns: t.count, matched, osrm_only: missing, osrm_only_with_a_penalty: missingPaid,
    // svc's turns OSRM lacks: through obstacle nodes OSRM compresses (charging the obstacle on the edge instead)
    svc_only_triples: extra,
    duration_exact: pct(durExact), duration_within_0_1s: pct(durNear), weight_exact: pct(wExact), weight_within_0_1: pct(wNear), both_exact: pct(both),
    stats: t.stats,
  }, null, 1));
  for (const b of bad) console.log(b);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) main();
