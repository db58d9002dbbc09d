// Turn restriction relations as OSRM's extractor keeps them for a profile
// (src/extractor/restriction_parser.cpp): type=restriction, `restriction=no_*|only_*` or the
// vehicle-specific `restriction:<vehicle>` of the profile's restriction vehicles, not excepted by
// `except=`, conditional ones dropped; one `from` way, one `to` way, and a `via` node or via way(s).
import type { Tags, TurnRestriction } from '../types.ts';

export type Member = { type: 'node' | 'way' | 'relation'; ref: number; role: string };

export function parseRestriction(tags: Tags, members: Member[], vehicles: readonly string[]): TurnRestriction | null {
  if (tags.type !== 'restriction') return null;
  // `except=bus;motorcar`: the restriction does not bind a vehicle the profile routes
  if (tags.except !== undefined) {
    const except = tags.except.split(';').map((s) => s.trim());
    if (vehicles.some((v) => except.includes(v))) return null;
  }
  let value = tags.restriction;
  for (const v of vehicles) { const x = tags['restriction:' + v]; if (x !== undefined) { value = x; break; } }
  if (value === undefined) return null;
  const only = value.startsWith('only_');
  if (!only && !value.startsWith('no_')) return null;
  const from = members.filter((m) => m.role === 'from' && m.type === 'way');
  const to = members.filter((m) => m.role === 'to' && m.type === 'way');
  const viaNodes = members.filter((m) => m.role === 'via' && m.type === 'node');
  const viaWays = members.filter((m) => m.role === 'via' && m.type === 'way');
  if (from.length !== 1 || to.length !== 1) return null;
  if (viaNodes.length === 1 && viaWays.length === 0) return { from: from[0].ref, to: to[0].ref, viaNode: viaNodes[0].ref, only };
  if (viaNodes.length === 0 && viaWays.length > 0) return { from: from[0].ref, to: to[0].ref, viaWays: viaWays.map((m) => m.ref), only };
  return null;
}
