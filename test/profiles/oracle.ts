// Runs OSRM's Lua profile (through osrm-harness.lua and lua5.4) and the TypeScript port on the same
// tags and prints both in one line format, so a test can compare them row by row.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Profile, Tags, WayResult, Obstacle } from '../../graph-build/profiles/types.ts';

export const LUA_PROFILES = join(import.meta.dirname, '../../../shared/tools/osrm/profiles');
export const LUA = 'lua5.4';

export function haveLua(): boolean {
  return spawnSync(LUA, ['-v']).status === 0;
}

const enc = (kind: 'W' | 'N', t: Tags) => kind + Object.entries(t).map(([k, v]) => `${k}\x1f${v}`).join('\x1e');

/** One output line per case from the real Lua profile. */
export function runLua(profile: string, kind: 'W' | 'N', cases: Tags[]): string[] {
  const r = spawnSync(LUA, [join(import.meta.dirname, 'osrm-harness.lua'), LUA_PROFILES, profile], {
    input: cases.map((t) => enc(kind, t)).join('\n') + '\n', encoding: 'utf8', maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`lua: ${r.stderr}`);
  return r.stdout.trimEnd().split('\n');
}

const num = (x: number) => { const s = x.toPrecision(6); return String(Number(s)); };
const mode = (m: string) => m.replace(/ /g, '_');

/** The port's answer in the harness's format. */
export function formatWay(r: WayResult | null): string {
  if (!r) return 'null';
  const fo = r.forwardMode !== 'inaccessible', bo = r.backwardMode !== 'inaccessible';
  const f = fo ? `${mode(r.forwardMode)} ${num(r.forwardSpeed)} ${num(r.forwardRate)}` : 'x';
  const b = bo ? `${mode(r.backwardMode)} ${num(r.backwardSpeed)} ${num(r.backwardRate)}` : 'x';
  return [f, b, num(r.duration), num(r.weight), String(r.forwardRestricted && fo), String(r.backwardRestricted && bo),
    String(r.isStartpoint), String(r.roundabout), String(r.roadClassification.priority)].join('|');
}

export function formatNode(obs: Obstacle[]): string {
  return obs.length ? obs.map((o) => `${o.type} ${o.direction} ${num(o.duration)}`).join(',') : '-';
}

export function compare(p: Profile, lua: string, ways: Tags[], nodes: Tags[]) {
  const lw = runLua(lua, 'W', ways), ln = runLua(lua, 'N', nodes);
  const bad: string[] = [];
  ways.forEach((t, i) => { const ts = formatWay(p.processWay(t)); if (ts !== lw[i]) bad.push(`way ${JSON.stringify(t)}\n  lua ${lw[i]}\n  ts  ${ts}`); });
  nodes.forEach((t, i) => { const ts = formatNode(p.processNode(t)); if (ts !== ln[i]) bad.push(`node ${JSON.stringify(t)}\n  lua ${ln[i]}\n  ts  ${ts}`); });
  return bad;
}
