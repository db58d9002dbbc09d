// Turn restriction relations as OSRM's extractor keeps them for a profile
// (src/extractor/restriction_parser.cpp): every `restriction` / `restriction:<vehicle>` tag (the
// profile's restriction vehicles) must read only_* or no_* (no_*_on_red and anything else void the
// relation; the last one decides only/no), `except=` naming a profile vehicle voids it, conditional
// ones are not read; `from` and `to` ways, a `via` node or via way(s). Several from ways are allowed
// only for no_entry, several to ways only for no_exit: one restriction per pair.
import type { Tags, TurnRestriction } from '../types.ts';

export type Member = { type: 'node' | 'way' | 'relation'; ref: number; role: string };

export function parseRestriction(tags: Tags, members: Member[], vehicles: readonly string[]): TurnRestriction[] {
  const keys = new Set(['restriction', ...vehicles.map((v) => 'restriction:' + v)]);
  const values = Object.keys(tags).filter((k) => keys.has(k)).map((k) => tags[k]);
  if (!values.length) return [];
  if (tags.except !== undefined) {
    const except = tags.except.split(';').map((s) => s.trim());
    if (vehicles.some((v) => except.includes(v))) return [];
  }
  let only = false, multiFrom = false, multiTo = false;
  for (const value of values) {
    if (value.startsWith('only_')) only = true;
    else if (value.startsWith('no_') && !value.endsWith('_on_red')) {
      only = false;
      if (value.startsWith('no_exit')) multiTo = true;
      else if (value.startsWith('no_entry')) multiFrom = true;
    } else return [];
  }
  const from: number[] = [], to: number[] = [], viaWays: number[] = [];
  let viaNode: number | undefined, byNode = true;
  for (const m of members) {
    if (m.role !== 'from' && m.role !== 'to' && m.role !== 'via') continue;
    if (m.type === 'node') { if (m.role === 'via') { viaNode = m.ref; byNode = true; } continue; }
    if (m.type !== 'way') continue;
    if (m.role === 'from') from.push(m.ref);
    else if (m.role === 'to') to.push(m.ref);
    else { viaWays.push(m.ref); byNode = false; }
  }
  if (!from.length || (viaNode === undefined && !viaWays.length) || !to.length) return [];
  if ((from.length > 1 && !multiFrom) || (to.length > 1 && !multiTo)) return [];
  const out: TurnRestriction[] = [];
  for (const f of from) for (const t of to) out.push(byNode ? { from: f, to: t, viaNode, only } : { from: f, to: t, viaWays, only });
  return out;
}
